#include "env/target_environment.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace tare::env {

std::string BehaviourChangingEnvironment(const std::vector<std::string>& environment) {
  static constexpr const char* kExact[] = {"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_BIND_NOW", "GLIBC_TUNABLES",
                                           "MALLOC_CONF"};
  static constexpr const char* kPrefixes[] = {"MALLOC_", "TCMALLOC_", "MIMALLOC_", "JEMALLOC_", "OMP_",
                                              "GOMP_",   "KMP_",      "MKL_",      "OPENBLAS_"};
  auto changes_behaviour = [](const std::string& name) {
    if (std::find(std::begin(kExact), std::end(kExact), name) != std::end(kExact)) return true;
    for (const char* p : kPrefixes) {
      if (name.rfind(p, 0) == 0) return true;
    }
    const std::string suffix = "SAN_OPTIONS";  // ASAN_, UBSAN_, TSAN_, MSAN_, LSAN_OPTIONS
    return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  std::map<std::string, std::string> set;  // by name; of duplicates the first, as getenv() reads it
  for (const auto& kv : environment) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    const std::string name = kv.substr(0, eq);
    if (changes_behaviour(name)) set.emplace(name, kv);
  }
  std::string out;
  for (const auto& [name, kv] : set) out += (out.empty() ? "" : "; ") + kv;
  return out;
}

void AddTargetEnvironment(Fingerprint* fp, const std::vector<std::string>& environment) {
  fp->keys.erase(
      std::remove_if(fp->keys.begin(), fp->keys.end(), [](const FingerprintKey& k) { return k.key == "target.env"; }),
      fp->keys.end());
  if (const std::string e = BehaviourChangingEnvironment(environment); !e.empty()) {
    fp->keys.push_back({"target.env", e, true});
  }
}

}  // namespace tare::env
