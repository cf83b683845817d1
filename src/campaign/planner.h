// Planner: what a campaign can resolve, before it runs (`tare ab --plan`).
//
// Input: a pilot, i.e. blocks of one cell measured the way the campaign will measure them, but with
// the head arm replaced by a second copy of base (an A/A/A pilot: base, head = base, and the null
// arm when the campaign has one). Each block gives one triple of values of one metric.
//
// Method (docs/methodology.md, "Planning"): a block bootstrap through the real decision code.
// One simulated campaign draws `cap` blocks from the pilot's blocks with replacement (a block keeps
// its triple together, so what the arms share within a block — the host's state at that moment —
// stays shared), multiplies the head's values by (1 + change) (divides, for a higher-is-better
// metric: the change is always "head worse by change"), and then takes the looks exactly as the
// runner does: JudgeCell at each planned pair count and the plan's per-look confidence, stopping at
// the first look where NeedsMorePairs says no. The share of simulated campaigns ending in each
// verdict is the prediction. Every change on the grid reuses the same draws (common random
// numbers), so the predicted power rises with the change as it should.
//
// What it predicts well and what not: the bootstrap knows the pilot's noise and nothing else; a
// pilot of n blocks cannot show a tail rarer than about 1/n, and the host's drift after the pilot is
// not in it. The seeded simulation test (planner_test.cc) checks the predictions against campaigns
// drawn afresh from the distribution the pilot came from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "campaign/analysis.h"
#include "campaign/sampling.h"

namespace tare::campaign {

// One pilot block of one cell and metric: base, a second copy of base in the head's place, and the
// null arm's value (ignored unless the planned campaign has a null arm).
struct PilotBlock {
  double base = 0;
  double head = 0;
  double null = 0;
};

struct PlanQuery {
  MetricSpec metric;          // as the campaign declares it (allowance, direction)
  std::string cell;           // for per-cell allowances
  AnalysisSettings settings;  // heads/metrics are overwritten: one head, this metric
  SamplingPlan sampling;      // the campaign's plan
  double confidence = 0.95;
  LookScheme look_scheme = LookScheme::kBonferroni;
  int simulations = 400;  // simulated campaigns per change and plan
  uint64_t seed = 1;
  double target_power = 0.9;  // "detects": FAIL in at least this share of campaigns
  int64_t max_pairs = 2560;   // the search for pairs stops here
  // The most pairs the campaign's budget lets a cell reach (0: no budget): its looks stop there, with
  // a last look at it under bonferroni-v1, as the runner's budget does (BudgetedLooks).
  int64_t budget_pairs = 0;
};

// The looks a cell takes when the budget stops it at `budget_pairs` (0: no budget): the planned
// looks up to it — never fewer than the first, which the budget does not cut — and, under
// bonferroni-v1, one more at `budget_pairs` itself when it lies between two planned looks (the
// runner judges every pair the budget let it measure: cohort_looks.cc, SpendBudget).
LookPlan BudgetedLooks(LookPlan looks, int64_t budget_pairs);

// The outcome shares of simulated campaigns at one change.
struct OutcomeRates {
  double change = 0;  // head worse by this fraction
  double pass = 0;
  double fail = 0;
  double inconclusive = 0;
  double mean_pairs = 0;  // pairs the cell used, on average
};

struct CellPlan {
  std::string cell;
  std::string metric;
  std::string allowance;  // AllowanceText of the effective allowance
  // A cell whose pilot head did the same work (the work tier): `allowance` is the same-work one, which
  // `unchanged` and `pairs_for_pass` use; a head whose work changed is judged at this one, which
  // `curve` and `detectable` use. "" otherwise.
  std::string changed_allowance;
  int64_t pilot_blocks = 0;
  double pair_spread = 0;           // robust SD of ln(head/base) over the pilot (MAD x 1.4826)
  double null_spread = 0;           // the same for ln(null/base); 0 without a null arm
  OutcomeRates unchanged;           // at change 0, with the planned pairs
  std::vector<OutcomeRates> curve;  // FAIL rate by change, with the planned pairs
  // Smallest change on the grid FAILed in >= target_power of campaigns with the planned pairs;
  // NaN when none up to the grid's end (50%).
  double detectable = 0;
  // Smallest cap (initial and step as planned) at which an unchanged head PASSes in >= target_power
  // of campaigns: the pairs the declared allowance needs. -1 when more than max_pairs.
  int64_t pairs_for_pass = -1;
};

// The changes the curve is computed at: 0.25% ... 50%.
const std::vector<double>& PlanChangeGrid();

// One simulated campaign's verdict for a head worse by `change`, given the blocks to use in order
// (their count is at least the plan's cap). Exposed for the simulation test.
struct SimulatedCampaign {
  Verdict verdict = Verdict::kInconclusive;
  int64_t pairs = 0;
};
SimulatedCampaign SimulateCampaign(const std::vector<PilotBlock>& blocks, double change, const LookPlan& looks,
                                   const PlanQuery& q);

// The outcome shares at one change with the query's plan: `simulations` campaigns resampled from
// the pilot (which must be usable: PlanCell's checks). Exposed for the simulation test.
StatusOr<OutcomeRates> PredictOutcome(const std::vector<PilotBlock>& pilot, double change, const PlanQuery& q);

// What a running cell will likely still take (issue 42: the estimate once the first looks are
// taken). `so_far` is the cell's own blocks measured until now, in order; each of `q.simulations`
// simulated continuations keeps them as they are and appends blocks drawn from them with the same
// smoothed bootstrap as the planner (nothing recentred: the head keeps the change it shows), then
// takes the looks exactly as the runner does, from the first (so the looks already taken decide
// what they decided). `q.budget_pairs` stops the looks where the budget would (BudgetedLooks).
// `mean_pairs` is the pairs the cell uses on average, `inconclusive` the share still undecided
// at the end: the cells the budget or the host's noise will leave INCONCLUSIVE.
// Errors: fewer than 6 usable blocks, a plan PlanLooks refuses.
StatusOr<OutcomeRates> ProjectCell(const std::vector<PilotBlock>& so_far, const PlanQuery& q);

// Errors: fewer than 6 pilot blocks with the metric, a plan PlanLooks refuses.
StatusOr<CellPlan> PlanCell(const std::vector<PilotBlock>& pilot, const PlanQuery& q);

}  // namespace tare::campaign
