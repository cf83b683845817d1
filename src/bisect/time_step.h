// One step of `tare bisect --instrument wall`: a paired campaign of a candidate commit's executable
// (head) against the good end's (base), run by the campaign engine exactly as `tare ab` runs one
// (campaign/campaign_runner.h): fresh processes, interleaved blocks, the null arm (a second copy
// of the good end) for the host's noise floor, looks at the planned pair counts, and a budget.
//
// The step's answer is the campaign's verdict on the benchmark's default time metric (CPU time:
// campaign::DefaultMetrics), at the bisection's allowance:
//   FAIL, or PASS with a supported gain  -> changed (the candidate differs from the good end);
//   PASS                                 -> same (within the allowance);
//   INCONCLUSIVE                         -> undecided: the bisection stops for this benchmark and says
//                                           the range still open (never guesses through it);
//   an arm broken in every sample        -> the commit is skipped, as a build that fails.
// Each campaign is stored, as a cohort, in the bisection's own store (<cache>/tare.db: `tare report
// --store` shows its ledger) with its arm copies under <cache>/bin. A decided step is also kept as a
// file beside the candidate's build (<cache>/exe/<key>/time/<step key>.json, tare.time-step/1), keyed
// by both executables' sha256, the arguments and working directory, the benchmark, the allowance and
// the budget: a second bisect over the same commits runs no campaign for it. An INCONCLUSIVE step
// is not kept, so a rerun (with a larger --step-budget, or on a quieter host) tries it again.
//
// Not thread-safe; the spawner must outlive the stepper.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "bisect/build_cache.h"
#include "proc/spawner.h"

namespace tare::bisect {

// A step's budget when none is given (--step-budget): 60 s of sampling after the first look.
inline constexpr int64_t kDefaultStepBudgetNs = 60'000'000'000;
// The time allowance when none is given: 5%. Time on a shared host moves by a few percent between
// processes that run the same code (the null arm measures how much); a time bisection is for changes
// larger than that. An exact count (sim) needs only 1%.
inline constexpr double kDefaultTimeAllowance = 0.05;

enum class TimeOutcome { kSame, kChanged, kInconclusive, kBroken };
const char* TimeOutcomeName(TimeOutcome outcome);  // "same" | "changed" | "inconclusive" | "broken"

// What one campaign said about the candidate against the good end (fractions: +0.3 is 30% more).
struct TimeChange {
  TimeOutcome outcome = TimeOutcome::kInconclusive;
  std::string verdict;                  // PASS | FAIL | INCONCLUSIVE, as the ledger says it
  std::string metric;                   // the judged metric (bench.cpu_ns, gb.cpu_time_ns, perf.task_clock_ns, ...)
  double estimate = 0, lo = 0, hi = 0;  // head vs base: the paired change and its interval
  double confidence = 0;
  double noise_floor = 0;  // from the null arm
  int64_t pairs = 0;
  int64_t run_id = 0;  // the cohort's run in the bisection's store (0: from the file cache)
  bool from_cache = false;
  std::string reason;  // INCONCLUSIVE / broken: why, in the campaign's words
};

struct TimeStepSpec {
  std::string store_path;  // the bisection's store, a SQLite file
  std::string stage_dir;   // where the campaigns' arm copies go
  double allowance = kDefaultTimeAllowance;
  int64_t budget_ns = kDefaultStepBudgetNs;
  std::vector<std::string> command_line;           // recorded with each cohort's run
  std::function<void(const std::string&)> notice;  // the campaign's notices, one line each
};

class TimeStepper {
 public:
  TimeStepper(proc::Spawner& spawner, TimeStepSpec spec);
  ~TimeStepper();

  // `benchmark`: the cell's name; "" for a plain command (its one cell). `args` and `workdir`: the
  // recipe's, expanded for the candidate (both arms run with them). Errors are tare's own (a store
  // it cannot open, a campaign it cannot prepare); Ctrl-C is Cancelled.
  StatusOr<TimeChange> Compare(const BuiltCommit& good, const BuiltCommit& candidate, const std::string& benchmark,
                               const std::vector<std::string>& args, const std::string& workdir);

  size_t campaigns_run() const { return campaigns_run_; }
  size_t campaigns_from_cache() const { return campaigns_from_cache_; }

 private:
  proc::Spawner& spawner_;
  TimeStepSpec spec_;
  size_t campaigns_run_ = 0, campaigns_from_cache_ = 0;
};

}  // namespace tare::bisect
