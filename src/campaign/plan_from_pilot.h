// `tare ab --plan`, the part that is not flags or printing: the pilot campaign declared from the
// user's (PilotInput), run into a throwaway store (RunPilot), and the plan read from the pilot once
// it has run (PlanFromPilot).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "campaign/campaign_runner.h"
#include "campaign/planner_report.h"
#include "model/cohort.h"
#include "model/run.h"
#include "campaign/prober.h"
#include "report/ab_report.h"

namespace tare::campaign {

// The pilot: the campaign as declared, but with one head that is a second copy of base, the null
// arm when the campaign has one, `pilot` blocks per cell, no bounds and no budget.
CampaignInput PilotInput(const CampaignInput& declared, int64_t pilot);

// One cell's pilot triples (base, head, null) for one metric, by block; an arm without the metric in
// a block reads NaN there (PlanCell leaves such blocks out).
std::vector<PilotBlock> PilotBlocks(const RunData& run, int64_t benchmark_id, const std::string& metric,
                                    const std::set<int64_t>& discarded);

// What the pilot says of the declared plan, per cell and metric: `rep` is the pilot's report,
// `run`, `cells` and `discarded` its stored run. A cell the planner cannot plan is listed in the
// report's errors.
struct PilotRun {
  const report::AbReport* report = nullptr;
  const RunData* run = nullptr;
  const std::vector<CellRecord>* cells = nullptr;
  const std::set<int64_t>* discarded = nullptr;
  int64_t blocks = 0;
  double seconds = 0;
};
PlanReport PlanFromPilot(const CampaignSpec& declared, const PilotRun& pilot);

// InvalidArgument, before anything runs, for a pilot that cannot plan: fewer than 6 blocks per cell
// (too few to resample) or more than 1000 (a campaign, not a pilot), a head that is not an
// executable (the heads are what the plan is for: a typo is reported now, not after a plan that
// exits 0; issue 9), or a look scheme the declared sampling cannot use.
Status CheckPilotRequest(const CampaignInput& declared, int64_t blocks);

// Runs the pilot of `declared` (PilotInput, `blocks` per cell) into a store in a temporary
// directory, removed on return, and reads the plan from it. `options` as for the campaign itself;
// the arm copies go to the temporary directory and nothing is cross-checked. A pilot that stopped
// (interrupted, a gate, a changed executable) has no plan: `stop` and `stop_reason` say why.
struct PilotOutcome {
  StopKind stop = StopKind::kNone;
  std::string stop_reason;
  PlanReport plan;  // when stop is kNone
};
StatusOr<PilotOutcome> RunPilot(const CampaignInput& declared, int64_t blocks, Prober& prober, RunnerOptions options);

}  // namespace tare::campaign
