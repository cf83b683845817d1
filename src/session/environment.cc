#include "session/environment.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/redact.h"


namespace tare::session {

std::vector<std::string> ProcessEnvironment() {
  return EnvironmentWithoutSecrets();
}

Status ValidateEnvOverrides(const std::vector<std::string>& overrides, const std::string& field) {
  for (const auto& kv : overrides) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument(fmt::format("{} '{}' must look like KEY=VALUE", field, kv));
    }
  }
  return Status::Ok();
}

std::vector<std::string> ApplyEnvOverrides(std::vector<std::string> env,
                                           const std::vector<std::string>& overrides) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < env.size(); ++i) index[env[i].substr(0, env[i].find('='))] = i;
  for (const auto& kv : overrides) {
    const std::string key = kv.substr(0, kv.find('='));
    auto it = index.find(key);
    if (it != index.end()) {
      env[it->second] = kv;
    } else {
      index[key] = env.size();
      env.push_back(kv);
    }
  }
  return env;
}

std::string BehaviourChangingEnvironment(const std::vector<std::string>& env) {
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
  for (const auto& kv : env) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    const std::string name = kv.substr(0, eq);
    if (changes_behaviour(name)) set.emplace(name, kv);
  }
  std::string out;
  for (const auto& [name, kv] : set) out += (out.empty() ? "" : "; ") + kv;
  return out;
}

}  // namespace tare::session
