// `tare oracle stability`: measures every item's per-process probability p over M fresh processes
// and says, for each, how likely the check as configured (an N-trial vote, R retries) is to go red
// because of it. Exact binomial arithmetic (flip.h), no simulation.
//
// For each item: k of M processes showed it; p = k/M with a Clopper–Pearson interval; the pinned
// side (the golden's when one is given, else the majority side of the M processes); q = P(one
// N-trial vote lands on the wrong side) and P(red) = q^(R+1), each at p and at the interval's worst
// end, because p can drift between batches and the interval says how far it plausibly goes.
//
// Classes (threshold t = max_red, the acceptable P(red) per check from one item):
//   marginal     P(red) at p > t: the vote cannot pin it; quarantine it or drop its class.
//   uncertain    P(red) at p <= t, but at the interval's worst end > t: M is too small to tell.
//   stable       P(red) <= t across the whole interval.
//   contradicts  (with --golden) the processes mostly show the opposite of the golden (q > 1/2):
//                a real change, or a golden to re-accept; not a quarantine candidate when the item
//                is unanimous.
#pragma once

#include <string>
#include <vector>

#include "oracle/golden.h"
#include "oracle/quarantine.h"
#include "oracle/trial_session.h"
#include "oracle/vote.h"
#include "stats/binomial.h"

namespace tare::oracle {

inline constexpr int kDefaultStabilityTrials = 100;
inline constexpr double kDefaultMaxRed = 0.001;

struct StabilityOptions {
  int trials = kDefaultStabilityTrials;  // M: processes measured
  int vote_trials = 9;                   // N of the check being judged
  int retries = 1;                       // R of the check being judged
  double confidence = 0.95;              // of the Clopper–Pearson intervals
  double max_red = kDefaultMaxRed;       // acceptable P(red) per check from one item
  std::string golden_path;               // "" = judge against the majority side
  const Quarantine* quarantine = nullptr;
};

enum class ItemClass { kStable, kUncertain, kMarginal, kContradicts };
const char* ItemClassName(ItemClass c);  // "stable", "uncertain", "MARGINAL", "CONTRADICTS"

struct ItemStability {
  std::string item;
  int count = 0;   // processes that showed it
  int trials = 0;  // M
  double p = 0;
  stats::Interval interval{0, 1};
  bool pinned_present = false;
  double q = 0;        // P(one vote wrong) at p
  double q_worst = 0;  // ... at the interval's worst end
  double red = 0;      // q^(R+1)
  double red_worst = 0;
  ItemClass item_class = ItemClass::kStable;
  const QuarantineEntry* quarantined = nullptr;
};

struct StabilityResult {
  StabilityOptions options;
  std::string command;
  std::string run_dir;
  int processes = 0;
  Tally tally;
  bool had_golden = false;
  bool header_differs_from_golden = false;
  std::vector<ItemStability> items;  // riskiest first
  // The whole check, over items that are not quarantined. Per attempt, the vote mismatches with
  // probability Q, max q_i <= Q <= min(1, sum q_i) whatever the dependence between items
  // (independence gives 1 - prod(1 - q_i)); P(red) = Q^(R+1) as attempts are independent.
  double attempt_mismatch_lo = 0, attempt_mismatch_hi = 0, attempt_mismatch_independent = 0;

  bool header_agrees() const { return tally.header_agrees(); }
  // Marginal or contradicting items that are not quarantined.
  int flagged() const;
  int uncertain() const;
};

// The analysis alone (pure; `golden` may be null).
StabilityResult AnalyzeStability(const Tally& tally, const Golden* golden, const StabilityOptions& options);

// Runs M trials in <run_dir>/trials/ and analyzes them.
// The counts and probabilities of `options`, checked before any process runs (RunStability checks
// them again): InvalidArgument naming the flag.
Status ValidateStabilityOptions(const StabilityOptions& options);
StatusOr<StabilityResult> RunStability(TrialSession& session, const StabilityOptions& options);

std::string FormatStabilityResult(const StabilityResult& result);
// A complete quarantine file suggesting an entry for every marginal item ("" when none).
std::string SuggestedQuarantine(const StabilityResult& result);

// "0", "27%", "2.0%", "0.038%", "3.8e-07".
std::string FormatProbability(double p);

}  // namespace tare::oracle
