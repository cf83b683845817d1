// What `tare ab --plan` prints and writes: the planner's per-cell predictions (planner.h) as a
// console table with a line of advice per cell that the plan cannot resolve, and as JSON
// (tare.plan/1, docs/json.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "campaign/planner.h"

namespace tare::campaign {

struct PlanReport {
  SamplingPlan sampling;
  double confidence = 0.95;
  std::string look_scheme;
  bool null_arm = false;
  double noise_cap = 0;
  int64_t pilot_pairs = 0;      // blocks asked for per cell
  int64_t pilot_processes = 0;  // processes the pilot ran
  double pilot_seconds = 0;     // its wall time
  double per_sample_ns = 0;     // mean start-to-end time of a pilot sample
  int64_t arms = 0;             // arms of the planned campaign
  int64_t cell_count = 0;       // cells of the planned campaign
  int64_t budget_ns = 0;        // the campaign's budget past the first looks (0: none)
  int64_t budget_pairs = 0;     // the pairs it lets a cell reach if every cell needs it (0: none)
  int64_t work_tier_ns = 0;     // what the pilot's work tier took (work_tier.h); the campaign runs it too
  int simulations = 0;
  double target_power = 0.9;
  std::vector<CellPlan> cells;
  std::vector<std::string> errors;  // cells or metrics that could not be planned, with the reason
};

// Names are escaped for the terminal.
std::string RenderPlan(const PlanReport& r);
nlohmann::json PlanToJson(const PlanReport& r);

}  // namespace tare::campaign
