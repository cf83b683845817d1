// The run directory: where every trial's raw stdout, stderr and report is kept, so a failed check
// can be inspected after the fact. Default `.tare/oracle/<UTC timestamp>/` under the working
// directory (a "-2", "-3"... suffix when two runs start in the same second); `--run-dir DIR`
// chooses another, which must be absent or empty so trials of different runs never mix.
#pragma once

#include <string>

#include "base/status.h"

namespace tare::oracle {

inline constexpr const char* kDefaultRunRoot = ".tare/oracle";

// Creates the directory and returns its path. `requested` "" = a fresh timestamped directory
// under `root`.
StatusOr<std::string> CreateRunDirectory(const std::string& requested, const std::string& root = kDefaultRunRoot);

}  // namespace tare::oracle
