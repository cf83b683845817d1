// `tare run --commits A..B [--every N]`: the measured history of a commit range, as if CI had run
// `tare run` at each commit. Each chosen commit is built with the bisect recipe (recipe.h) into the
// bisect build cache (build_cache.h: built once per commit and recipe, shared with `tare bisect`),
// measured by session::PlainRun exactly as `tare run` measures, and stored with that commit as the
// run's provenance, oldest first — so `tare history`, `tare site` and `tare compare` read the range
// as any other history.
//
// The commits: A, then the first-parent ancestry path A..B (as `tare bisect` walks it), every Nth
// from A, and B always. A commit that does not build is said and skipped (no run stored for it);
// one already stored in this store (a complete run of the same executable, arguments and commit,
// from an earlier --commits run) is not measured again, so a rerun after Ctrl-C goes on where it
// stopped.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "bisect/git.h"
#include "bisect/recipe.h"
#include "proc/spawner.h"
#include "session/plain_run.h"
#include "store/store.h"

namespace tare::bisect {

struct CommitRunsSpec {
  std::string repo = ".";
  std::string range;  // "A..B"
  int64_t every = 1;  // every Nth commit from A (B always)
  BuildRecipe recipe;
  std::string cache_dir;  // absolute
  // tare run's measurement, from its flags; its target (the recipe's executable, arguments and
  // working directory at each commit) and provenance are set here.
  session::RunSpec run;
  std::string branch;                                // recorded with every run: --branch as declared ("" none)
  std::function<void(const std::string&)> progress;  // one line per commit
};

struct CommitRun {
  CommitInfo commit;
  bool built = false;
  bool cache_hit = false;       // the build came from the cache
  std::string failure;          // why no run is stored (a failed build)
  int64_t run_id = 0;           // the stored run (0: none)
  bool already_stored = false;  // an earlier --commits run of this commit, reused
  int64_t samples = 0, failed = 0;
};

struct CommitRunsReport {
  CommitInfo first, last;
  std::vector<CommitRun> runs;  // oldest first
  size_t builds = 0, cache_hits = 0;
  bool interrupted = false;  // Ctrl-C: the runs before it are stored
  int64_t failed_samples = 0;
};

// Errors (exit 2 in cli): a range not written A..B, an unknown commit, A not an ancestor of B, a
// recipe that cannot build, --every below 1.
StatusOr<CommitRunsReport> RunCommits(proc::Spawner& spawner, const CommitRunsSpec& spec, store::Store& store);

// The commits a spec would run, oldest first (A, the path's every Nth, B): for tests and --help.
std::vector<size_t> ChosenCommits(size_t path_length, int64_t every);

// One line per commit, and where the runs are.
std::string RenderCommitRuns(const CommitRunsReport& report, const std::string& store_location);

}  // namespace tare::bisect
