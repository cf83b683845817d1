// `tare bisect`: the first commit between a good and a bad end at which a benchmark changed,
// found by building commits (build_cache.h) and measuring each benchmark's exact instruction count
// under the sim instrument (valgrind; docs/sim.md), in about log2(n) builds (search.h).
//
// Every step measures a commit once (n = 1: the count is deterministic, docs/sim.md) and compares
// it with the good end's count: "changed" when they differ by more than the allowance
// (kDefaultAllowance, --allowance). Several benchmarks are bisected over the same commits; each has
// its own culprit, and a commit measured for one is not measured again for another. A commit whose
// build fails, or whose benchmark fails, is skipped; when skips hide the boundary the answer is the
// range of commits it lies in.
//
// Under --instrument wall (time) each step is a paired campaign of the candidate against the good
// end instead (time_step.h), with the null arm and a budget per step; the bad end is first judged
// against the good end the same way. A step whose campaign is INCONCLUSIVE stops that benchmark's
// search: its answer is the range still undecided, said as such.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "bisect/git.h"
#include "bisect/recipe.h"
#include "bisect/time_step.h"
#include "model/target.h"
#include "proc/spawner.h"

namespace tare::bisect {

// A step's count is "changed" when |count / good - 1| exceeds this: 1%. Exact counts of the same
// code do not move at all (docs/sim.md); this leaves room for incidental changes — a string, a
// layout — in commits that did not touch the benchmark, while a +3% change is seen.
inline constexpr double kDefaultAllowance = 0.01;

struct BisectSpec {
  std::string repo = ".";               // a directory inside the user's checkout
  std::string good, bad;                // revisions as typed
  std::vector<std::string> benchmarks;  // names in the executable; empty: every benchmark of the good end
  BuildRecipe recipe;
  std::string cache_dir;                     // absolute
  Instrument instrument = Instrument::kSim;  // sim (exact counts) or wall (a campaign per step)
  // nullopt: kDefaultAllowance under sim, kDefaultTimeAllowance under wall.
  std::optional<double> allowance;
  int64_t step_budget_ns = kDefaultStepBudgetNs;  // wall: each step's campaign budget
  std::vector<std::string> command_line;          // wall: recorded with each step's cohort
  // Rows of `tare attribute`'s table between each exact sim culprit and its parent (0: none).
  size_t attribute_top = 10;
  // One line at a time for stderr: "bisect: BM_X: step 2, at most 2 left; 3 builds, 1 from the cache".
  std::function<void(const std::string&)> progress;
};

struct SkippedCommit {
  CommitInfo commit;
  std::string reason;                 // "the build command failed: exit status 1", "BM_X failed: ..."
  std::vector<std::string> log_tail;  // the build log's last lines
};

struct BenchmarkAnswer {
  std::string benchmark;
  double good_count = 0;  // sim.Ir at the good end
  double bad_count = 0;
  bool changed = false;  // the bad end differs from the good end by more than the allowance
  bool exact = false;    // one culprit (else the range below)
  CommitInfo culprit;    // the first commit that changed (the newest end of the range when not exact)
  double culprit_count = 0;
  CommitInfo last_same;  // the newest commit the same as the good end (the culprit's parent when exact)
  double last_same_count = 0;
  std::vector<CommitInfo> range;  // not exact: the commits (last_same, culprit], oldest first
  size_t steps = 0;               // commits asked about for this benchmark

  // Time (wall): the campaigns that decided it — the bad end against the good end, the culprit
  // against the good end (the change and its interval), its parent against the good end (what it
  // certified the same). Counts are 0 under wall.
  TimeChange ends_change, culprit_change, last_same_change;
  // A step was INCONCLUSIVE (or, at the ends, the bad end could not be told from the good end):
  // the search stopped; (last_same, culprit] is the range still undecided, listed in `range`.
  bool inconclusive = false;
  CommitInfo inconclusive_at;
  TimeChange inconclusive_change;

  // Exact answers: what `tare attribute` needs between the parent and the culprit — each side's
  // callgrind files (name, content) as the sim sample left them, the cached executables, and the
  // target's kind (which parts of the files are the measurement window).
  TargetKind kind = TargetKind::kCommand;
  std::vector<std::pair<std::string, std::string>> culprit_profiles, last_same_profiles;
  std::string culprit_executable, last_same_executable;
  // Filled by AttributeCulprits (culprit_attribution.h), rendered as they are: the per-function table
  // between the parent and the culprit in each format ("" = none), or why there is none.
  std::string attribution_console, attribution_markdown, attribution_json, attribution_problem;
};

struct BisectReport {
  CommitInfo good, bad;
  size_t commits = 0;  // on the first-parent ancestry path good..bad, bad included
  std::string recipe_hash;
  std::string cache_dir;
  Instrument instrument = Instrument::kSim;
  double allowance = kDefaultAllowance;
  int64_t step_budget_ns = 0;  // wall
  std::string store_path;      // wall: the bisection's store, each step's cohort in it
  std::vector<BenchmarkAnswer> answers;
  std::vector<SkippedCommit> skipped;
  size_t builds = 0;                // builds run now
  size_t cache_hits = 0;            // builds read from the cache
  size_t measured = 0;              // commits measured now (valgrind ran)
  size_t measured_from_cache = 0;   // commits whose every count came from the cache (count_cache.h)
  size_t campaigns = 0;             // wall: step campaigns run now
  size_t campaigns_from_cache = 0;  // wall: steps decided by an earlier bisection (time_step.h)
};

// The whole bisection, with the attribution of each exact sim culprit (culprit_attribution.h). Errors (exit status 2 in
// cli) name what to do: an unknown commit, good not an ancestor of bad, a recipe missing, an end that does not build or
// lacks the executable, a benchmark the ends do not have. A benchmark the same at both ends is an answer (changed =
// false).
StatusOr<BisectReport> RunBisect(proc::Spawner& spawner, const BisectSpec& spec);

// Whether some benchmark's answer is INCONCLUSIVE (wall): cli exits 3, as `tare ab` does.
bool AnyInconclusive(const BisectReport& report);

// The bisection's own store under the cache directory (wall: each step's cohort): <cache>/tare.db.
std::string StorePath(const std::string& cache_dir);

// Console, tare.bisect/1 JSON, Markdown (for an issue comment).
std::string RenderConsole(const BisectReport& report);
std::string RenderJson(const BisectReport& report);
std::string RenderMarkdown(const BisectReport& report);

}  // namespace tare::bisect
