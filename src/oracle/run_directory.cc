#include "oracle/run_directory.h"

#include <fmt/format.h>

#include <ctime>
#include <filesystem>
#include <system_error>

namespace tare::oracle {
namespace fs = std::filesystem;

StatusOr<std::string> CreateRunDirectory(const std::string& requested, const std::string& root) {
  std::error_code ec;
  if (!requested.empty()) {
    if (fs::exists(requested, ec)) {
      if (!fs::is_directory(requested, ec)) {
        return Status::InvalidArgument(
            fmt::format("--run-dir '{}' exists and is not a directory; choose another path", requested));
      }
      if (!fs::is_empty(requested, ec)) {
        return Status::InvalidArgument(
            fmt::format("--run-dir '{}' is not empty; choose a new directory (or remove it) so the trials of "
                        "different runs never mix",
                        requested));
      }
      return requested;
    }
    if (!fs::create_directories(requested, ec) && ec) {
      return Status::InvalidArgument(fmt::format("cannot create the run directory '{}': {}", requested, ec.message()));
    }
    return requested;
  }
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
  fs::create_directories(root, ec);
  if (ec) {
    return Status::InvalidArgument(
        fmt::format("cannot create '{}' for the oracle's run directories: {}; pass --run-dir DIR", root, ec.message()));
  }
  for (int suffix = 1; suffix < 1000; ++suffix) {
    std::string path = suffix == 1 ? fmt::format("{}/{}", root, stamp) : fmt::format("{}/{}-{}", root, stamp, suffix);
    // create_directory is atomic: false with no error means another run took the name first.
    if (fs::create_directory(path, ec)) return path;
    if (ec) {
      return Status::InvalidArgument(
          fmt::format("cannot create the run directory '{}': {}; pass --run-dir DIR", path, ec.message()));
    }
  }
  return Status::FailedPrecondition(
      fmt::format("'{}' already holds 999 run directories for {}; pass --run-dir DIR", root, stamp));
}

}  // namespace tare::oracle
