#include "target/preload.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "base/json_read.h"
#include "model/metric_names.h"

namespace tare::target {

namespace {

// A library tare preloads into the programs it runs: $<env_var>, then beside the running executable
// (and ../lib/tare/: an install), then the build tree's copy for the build tree's own programs.
StatusOr<std::string> FindOwnLibrary(const std::string& file, const char* env_var, const std::string& build_path,
                                     const std::string& what) {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv(env_var); env && *env) candidates.push_back(env);
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back((self.parent_path() / file).string());
    candidates.push_back((self.parent_path() / "../lib/tare" / file).string());
  }
#if defined(TARE_BUILD_DIR)
  // The build tree's library only for the build tree's own programs (tests): an installed tare whose
  // library is missing says so instead of preloading another build's.
  if (!build_path.empty() && (ec || self.string().rfind(TARE_BUILD_DIR "/", 0) == 0)) candidates.push_back(build_path);
#endif
  std::string looked;
  for (const auto& c : candidates) {
    if (access(c.c_str(), R_OK) == 0) return std::filesystem::absolute(c).lexically_normal().string();
    looked += (looked.empty() ? "" : ", ") + std::filesystem::path(c).lexically_normal().string();
  }
  return Status::FailedPrecondition(fmt::format(
      "{} {} was not found (looked at {}); rebuild tare (scripts/build.sh), reinstall it, or set {} to its path", what,
      file, looked, env_var));
}

}  // namespace

StatusOr<std::string> FindAllocShim() {
#if defined(TARE_ALLOC_SHIM_BUILD_PATH)
  const std::string build = TARE_ALLOC_SHIM_BUILD_PATH;
#else
  const std::string build;
#endif
  return FindOwnLibrary("libtare_alloc.so", "TARE_ALLOC_SHIM", build, "the allocation shim");
}

StatusOr<std::string> FindHeapShift() {
#if defined(TARE_HEAP_SHIFT_BUILD_PATH)
  const std::string build = TARE_HEAP_SHIFT_BUILD_PATH;
#else
  const std::string build;
#endif
  return FindOwnLibrary("libtare_heap_shift.so", "TARE_HEAP_SHIFT_LIB", build, "the heap-layout library");
}

void AddPreload(std::vector<std::string>* env, const std::string& library) {
  for (auto& kv : *env) {
    if (kv.rfind("LD_PRELOAD=", 0) != 0) continue;
    const std::string rest = kv.substr(11);
    kv = "LD_PRELOAD=" + library + (rest.empty() ? "" : ":" + rest);
    return;
  }
  env->push_back("LD_PRELOAD=" + library);
}

// The shim appends one line per process at exit; ours is the one with the child's pid.
Status ReadAllocTotals(const std::string& path, int pid, std::map<std::string, double>* values) {
  auto text = ReadFile(path);
  if (!text.ok()) {
    return Status::DataLoss(
        "the allocation shim wrote no figures (the process may have exited with _exit or a "
        "signal, or be statically linked so LD_PRELOAD cannot reach its allocator)");
  }
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    // The file is writable by the measured process: check every field's type (value() throws).
    // Other processes' lines (the shim is inherited by the child's children) may be anything, a
    // line cut short at a crash included: a line that is not JSON is skipped, not read as data.
    const auto parsed = ParseJson(line, "an allocation shim line");
    if (!parsed.ok()) continue;
    const nlohmann::json& j = *parsed;
    if (!j.is_object() || !j.contains("pid") || !j["pid"].is_number_integer() || j["pid"].get<int64_t>() != pid) {
      continue;
    }
    for (const char* key : {"allocs", "frees", "bytes_allocated", "peak_live_bytes"}) {
      if (!j.contains(key)) {
        (*values)[std::string(metric_name::kMemPrefix) + key] = 0;
      } else if (j[key].is_number()) {
        (*values)[std::string(metric_name::kMemPrefix) + key] = j[key].get<double>();
      } else {
        return Status::DataLoss(
            fmt::format("the allocation shim's line for the measured process has a non-numeric \"{}\"", key));
      }
    }
    return Status::Ok();
  }
  return Status::DataLoss("the allocation shim's output has no line for the measured process");
}

}  // namespace tare::target
