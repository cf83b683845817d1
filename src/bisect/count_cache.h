// The exact counts `tare bisect` measured, kept beside each cached build so that a second bisect
// over an overlapping range runs valgrind only where nothing was measured yet.
//
// One file per benchmark: <cache>/exe/<build key>/sim/<count key>.json (tare.sim-count/1: the
// count and the sample's callgrind files, which `tare attribute`'s table needs). The count key is
// the sha256 of everything that decides the count besides the build: the executable's sha256, the
// valgrind binary's sha256 (another valgrind may count otherwise), the working directory and
// arguments as the recipe types them, and the benchmark's name. A file tare cannot read is no file:
// the benchmark is measured again.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace tare::bisect {

struct CountKeyParts {
  std::string executable_sha256;
  std::string valgrind_sha256;
  std::string workdir;            // as typed in the recipe
  std::vector<std::string> args;  // as typed
  std::string benchmark;
};

struct CachedCount {
  double count = 0;                                           // sim.Ir
  std::vector<std::pair<std::string, std::string>> profiles;  // name, content
};

std::string CountKey(const CountKeyParts& parts);

// nullopt when there is no readable record at `path`.
std::optional<CachedCount> ReadCachedCount(const std::string& path);
// Written atomically; the directory is created.
Status WriteCachedCount(const std::string& path, const CachedCount& count);

}  // namespace tare::bisect
