#include "campaign/plan_from_pilot.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_text.h"
#include "campaign/campaign_definition.h"
#include "campaign/campaign_setup.h"
#include "campaign/verdict_rules.h"
#include "campaign/sampling.h"
#include "campaign/work_tier.h"

namespace tare::campaign {

CampaignInput PilotInput(const CampaignInput& declared, int64_t pilot) {
  CampaignInput in;
  in.spec = declared.spec;
  in.spec.name = (declared.spec.name.empty() ? std::string("campaign") : declared.spec.name) + " (plan pilot)";
  in.spec.heads = {declared.spec.base};
  in.spec.sampling = {pilot, pilot, pilot, 1};
  in.spec.sampling_declared = true;  // the pilot's blocks, never the exact plan
  in.spec.bounds.clear();
  in.spec.budget_ns = kNoBudget;
  in.campaign_source = "flags";
  in.campaign_text = DumpJson(SpecToJson(in.spec), 2);
  return in;
}

std::vector<PilotBlock> PilotBlocks(const RunData& run, int64_t benchmark_id, const std::string& metric,
                                    const std::set<int64_t>& discarded) {
  std::map<int64_t, std::map<std::string, double>> by_block;
  for (const auto& s : run.samples) {
    if (s.benchmark_id != benchmark_id || s.sample.warmup || !s.sample.ok() || discarded.count(s.id)) continue;
    auto v = s.sample.values.find(metric);
    if (v != s.sample.values.end()) by_block[s.sample.block][s.sample.arm] = v->second;
  }
  std::vector<PilotBlock> out;
  for (const auto& [block, arms] : by_block) {
    // An init-capture: clang before 16 cannot capture a structured binding by name.
    auto get = [&values = arms](const char* arm) {
      auto it = values.find(arm);
      return it == values.end() ? std::nan("") : it->second;
    };
    out.push_back({get("base"), get("head"), get("null")});
  }
  return out;
}

PlanReport PlanFromPilot(const CampaignSpec& declared, const PilotRun& pilot) {
  PlanReport plan;
  plan.sampling = declared.sampling;
  plan.confidence = declared.confidence;
  plan.look_scheme = std::string(LookSchemeName(declared.look_scheme));
  plan.null_arm = declared.null_arm;
  plan.noise_cap = declared.noise_cap;
  plan.pilot_pairs = pilot.blocks;
  plan.pilot_seconds = pilot.seconds;
  plan.arms = static_cast<int64_t>(ArmNames(declared).size());
  double sample_ns = 0;
  for (const auto& s : pilot.run->samples) {
    if (s.sample.warmup) continue;
    ++plan.pilot_processes;
    sample_ns += static_cast<double>(s.sample.ended_unix_ns - s.sample.started_unix_ns);
  }
  plan.per_sample_ns = plan.pilot_processes > 0 ? sample_ns / static_cast<double>(plan.pilot_processes) : 0;

  std::set<std::string> cells;
  for (const auto& c : pilot.report->comparisons) cells.insert(c.cell);
  plan.cell_count = static_cast<int64_t>(cells.size());
  plan.budget_ns = BudgetNs(declared, cells.size());
  // The budget as the campaign spends it, if every cell needed it: each cell's share of it in
  // pairs. It runs from the first sample but never cuts the first look short.
  if (plan.budget_ns > 0 && plan.per_sample_ns > 0 && plan.cell_count > 0) {
    const double per_pair_all_cells = plan.per_sample_ns * static_cast<double>(plan.arms * plan.cell_count);
    plan.budget_pairs =
        std::clamp<int64_t>(static_cast<int64_t>(static_cast<double>(plan.budget_ns) / per_pair_all_cells),
                            declared.sampling.initial, declared.sampling.cap);
  }

  PlanQuery q;
  q.budget_pairs = plan.budget_pairs;
  q.settings.null_arm = declared.null_arm;
  q.settings.noise_floor = declared.noise_floor;
  q.settings.interval = declared.interval;
  q.settings.noise_cap = declared.noise_cap;
  q.sampling = declared.sampling;
  q.confidence = declared.confidence;
  q.look_scheme = declared.look_scheme;
  plan.simulations = q.simulations;
  plan.target_power = q.target_power;
  for (const auto& comparison : pilot.report->comparisons) {
    if (comparison.head != "head") continue;  // the pilot has one head
    const auto cell = std::find_if(pilot.cells->begin(), pilot.cells->end(),
                                   [&](const CellRecord& c) { return c.name == comparison.cell; });
    if (cell == pilot.cells->end()) continue;
    for (const auto& m : comparison.metrics) {
      MetricSpec spec;
      spec.name = m.metric;
      spec.direction = m.direction;
      auto allowance = ParseAllowance(m.allowance);
      if (allowance.ok()) spec.allowance = *allowance;
      q.metric = spec;
      q.cell = comparison.cell;
      const std::vector<PilotBlock> blocks = PilotBlocks(*pilot.run, cell->benchmark_id, m.metric, *pilot.discarded);
      auto cell_plan = PlanCell(blocks, q);
      if (!cell_plan.ok()) {
        plan.errors.push_back(cell_plan.status().message());
        continue;
      }
      // The pilot's head is a copy of base, so the work tier read the same work and judged this time
      // metric against the same-work allowance: what the campaign does to an unchanged head. A head
      // whose work changed is judged at the campaign's own allowance, so the FAIL curve is planned at it.
      const bool same_work = std::any_of(m.reasons.begin(), m.reasons.end(), IsSameWorkNote);
      if (same_work) {
        PlanQuery changed = q;
        changed.metric.allowance = Allowance::Noise();
        for (const auto& d : declared.metrics) {
          if (d.name == m.metric) changed.metric.allowance = d.allowance;
        }
        for (const auto& c : declared.cells) {
          if (!c.allowances.empty()) changed.settings.cell_allowances[c.name] = c.allowances;
        }
        auto changed_plan = PlanCell(blocks, changed);
        if (changed_plan.ok()) {
          cell_plan->changed_allowance = changed_plan->allowance;
          cell_plan->curve = changed_plan->curve;
          cell_plan->detectable = changed_plan->detectable;
        }
      }
      plan.cells.push_back(std::move(*cell_plan));
    }
  }
  return plan;
}

Status CheckPilotRequest(const CampaignInput& declared, int64_t blocks) {
  if (blocks < 6 || blocks > 1000) {
    return Status::InvalidArgument(
        fmt::format("--pilot {} is out of range: a pilot needs at least 6 blocks per cell to resample, and more "
                    "than 1000 is a campaign, not a pilot (default 20)",
                    blocks));
  }
  for (const auto& head : declared.spec.heads) TARE_RETURN_IF_ERROR(CheckExecutable(head));
  return PlanLooks(declared.spec.sampling, declared.spec.confidence, declared.spec.look_scheme).status();
}

StatusOr<PilotOutcome> RunPilot(const CampaignInput& declared, int64_t blocks, Prober& prober, RunnerOptions options) {
  TARE_ASSIGN_OR_RETURN(std::string tmp, MakeTempDir("tare-plan"));
  struct Cleanup {
    std::string dir;
    ~Cleanup() { RemoveTree(dir); }
  } cleanup{tmp};
  options.stage_dir = tmp + "/bin";
  options.resume = false;
  options.cross_check = false;  // a pilot judges nothing
  CampaignRunner runner(PilotInput(declared, blocks), prober, options);
  TARE_RETURN_IF_ERROR(runner.Prepare());
  TARE_ASSIGN_OR_RETURN(auto store, store::Store::Open(tmp + "/pilot.db"));
  const auto started = std::chrono::steady_clock::now();
  TARE_ASSIGN_OR_RETURN(CampaignResult result, runner.Run(*store));
  PilotOutcome out;
  out.stop = result.stop;
  out.stop_reason = result.report.stop_reason;
  if (out.stop != StopKind::kNone) return out;
  const int64_t id = result.report.run_id;
  TARE_ASSIGN_OR_RETURN(RunData run, store->LoadRun(id));
  TARE_ASSIGN_OR_RETURN(std::vector<CellRecord> cells, store->CellsOf(id));
  TARE_ASSIGN_OR_RETURN(std::set<int64_t> discarded, store->DiscardedSamplesOf(id));
  PilotRun pilot;
  pilot.report = &result.report;
  pilot.run = &run;
  pilot.cells = &cells;
  pilot.discarded = &discarded;
  pilot.blocks = blocks;
  pilot.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.plan = PlanFromPilot(declared.spec, pilot);
  out.plan.work_tier_ns = result.work_tier_ns;
  return out;
}

}  // namespace tare::campaign
