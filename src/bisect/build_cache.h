// The build cache of `tare bisect`: each commit built once per recipe, its executable kept by
// content address, a failed build remembered with the end of its log.
//
// Layout under the cache directory (default .tare/bisect in the directory tare runs in):
//   worktrees/<commit>/                 the commit's own detached git worktree ({src})
//   builds/<key>/                       the recipe's build directory ({build})
//   exe/<key>/build.json                the outcome: tare.build/1 {commit, recipe_hash, ok, log_tail,
//                                       executable_sha256}
//   exe/<key>/<executable's name>       the executable, copied once the build succeeded
// where <key> = sha256(commit, RecipeHash(recipe)). build.json is written last (atomically), so a
// build interrupted half-way is built again; one that is there is a hit, and a hit never runs the
// build command, whether it built or failed (delete exe/<key> to try a failed build again). The
// worktree and build directory are kept: the benchmark's working directory may be {src}, and a
// second recipe on the same commit shares the worktree.
//
// Thread-safety: none; one tare bisect per cache directory at a time (not locked: say so in docs).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "bisect/git.h"
#include "bisect/recipe.h"
#include "proc/spawner.h"

namespace tare::bisect {

struct BuiltCommit {
  std::string commit;
  bool ok = false;         // built, and the executable was there
  bool cache_hit = false;  // read from the cache; nothing was built now
  std::string executable;  // the cached copy (ok)
  std::string executable_sha256;
  std::string src;  // the worktree
  std::string build_dir;
  std::string record_dir;             // exe/<key>/: the build's record, and its counts (count_cache.h)
  std::string failure;                // one line: "build command: exit status 1", "executable not produced: PATH"
  std::vector<std::string> log_tail;  // the build log's last lines (failed builds)
};

class BuildCache {
 public:
  // `cache_dir` absolute; created when missing.
  BuildCache(proc::Spawner& spawner, Git& git, BuildRecipe recipe, std::string cache_dir);

  // The commit's build: from the cache, or built now (the worktree added when missing, the build
  // command run in it, the executable copied). A failed build is a result (ok = false), not an
  // error; errors are tare's own (a worktree git refused, a cache it cannot write).
  StatusOr<BuiltCommit> Get(const std::string& commit);

  // The expanded working directory and arguments of the benchmark for a built commit.
  std::string Workdir(const BuiltCommit& b) const;
  std::vector<std::string> Args(const BuiltCommit& b) const;

  const std::string& recipe_hash() const { return recipe_hash_; }

 private:
  std::string Key(const std::string& commit) const;
  proc::Spawner& spawner_;
  Git& git_;
  BuildRecipe recipe_;
  std::string recipe_hash_;
  std::string dir_;
};

// How long a build may run: 1 hour.
inline constexpr int64_t kBuildTimeoutNs = 3600'000'000'000;

}  // namespace tare::bisect
