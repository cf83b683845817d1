#include "bundle/stored_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/json_read.h"
#include "campaign/campaign_definition.h"
#include "campaign/cohort_snapshot.h"
#include "campaign/exact_plan.h"
#include "campaign/lock.h"
#include "campaign/sampling.h"
#include "campaign/suite_diff.h"
#include "env/fingerprint_json.h"
#include "store/stored_look.h"

namespace tare::bundle {
namespace {

// What a ledger rebuilt from a store written before schema version 7 cannot show, in words.
std::string OlderStoreNote(const std::set<std::string>& lacks) {
  std::vector<std::string> lost;
  if (lacks.count("pass_bound") != 0) lost.push_back("the bound a PASS certifies");
  if (lacks.count("changed") != 0) lost.push_back("whether a PASS changed");
  if (lacks.count("declared") != 0) lost.push_back("the declared allowance as a fraction");
  if (lacks.count("comparison") != 0) {
    lost.push_back("the cross-check, layout hints, broken arms, blocks and looks per cell");
    lost.push_back("cell-level reasons (shown on their metrics)");
  }
  std::string text;
  for (size_t i = 0; i < lost.size(); ++i) text += (i == 0 ? "" : i + 1 == lost.size() ? " and " : ", ") + lost[i];
  if (text.empty()) text = "some fields of its verdicts";
  return "stored by an older tare (store schema before version 7): " + text +
         " were not kept, so this ledger rebuilt from the store does not show them; units and directions are "
         "the run's metric definitions'";
}

}  // namespace

StatusOr<report::AbReport> StoredCohortReport(store::Store& store, const store::FullRun& run) {
  if (!run.cohort) return Status::InvalidArgument(fmt::format("run {} is not a tare ab cohort", run.data.run.id));
  campaign::CohortSnapshot s;
  s.cohort = *run.cohort;
  s.cohort.run_id = run.data.run.id;
  const int64_t id = run.data.run.id;
  TARE_ASSIGN_OR_RETURN(s.spec,
                        campaign::SpecFromJsonText(s.cohort.spec_json, fmt::format("run {}'s campaign spec", id)));
  TARE_ASSIGN_OR_RETURN(s.lock, campaign::LockFromJsonText(s.cohort.lock_json, fmt::format("run {}'s lock", id)));
  s.tare_version = run.data.run.tare_version;
  s.started_unix_ns = run.data.run.started_unix_ns;
  s.ended_unix_ns = run.data.run.ended_unix_ns;
  // No fingerprint text (a run stored before it was kept) is none; text that is not JSON is damage.
  // A JSON fingerprint this tare cannot read leaves the ledger without host facts, as before.
  TARE_ASSIGN_OR_RETURN(const nlohmann::json fingerprint,
                        ParseJsonOr(run.data.run.fingerprint_json, fmt::format("run {}'s fingerprint", id), nullptr));
  if (!fingerprint.is_null()) {
    if (auto fp = env::FingerprintFromJson(fingerprint); fp.ok()) s.fingerprint = std::move(*fp);
  }
  s.fingerprint_digest = run.data.run.fingerprint_digest;
  s.kind = run.data.benchmarks.empty() ? s.spec.kind.value_or(TargetKind::kCommand) : run.data.benchmarks.front().kind;
  s.exact_blocks = campaign::ExactPlanApplies(s.spec) ? campaign::ExactPlanBlocks(s.spec.null_arm) : 0;
  if (auto plan = campaign::PlanLooks(s.spec.sampling, s.spec.confidence, s.spec.look_scheme); plan.ok()) {
    s.plan = std::move(*plan);
  }
  std::set<std::string> lacks;  // what a store written by an older tare did not keep
  for (const auto& look : store::LatestLookOfEachCell(run.looks)) {
    const std::string name = look.comparisons.empty() ? "" : look.comparisons.front().cell;
    campaign::SnapshotCell cell = campaign::SnapshotCellNamed(name, s.spec.layouts);
    cell.comparisons = look.comparisons;
    lacks.insert(look.lacks.begin(), look.lacks.end());
    for (auto& comp : cell.comparisons) {
      for (auto& m : comp.metrics) {
        if (look.lacks.count("unit") != 0 || look.lacks.count("direction") != 0) {
          // The run's metric definitions kept both: the figures print in their units again.
          for (const auto& def : run.data.metrics) {
            if (def.name != m.metric) continue;
            m.unit = def.unit;
            m.direction = def.direction;
          }
        }
        // No exact flag kept: under the exact plan, a verdict at its blocks is the exact one (a
        // cell that fell back was judged at 20 pairs or more).
        if (look.lacks.count("exact") != 0) {
          m.exact = s.exact_blocks > 0 && m.pairs == s.exact_blocks && m.lo == m.hi && m.lo == m.estimate;
        }
      }
    }
    s.cells.push_back(std::move(cell));
  }
  s.checks = run.checks;
  // A living suite: the lock lists what base and the heads did not share; the new benchmarks'
  // samples are in the run under their heads (campaign/suite_diff.h), and not the cohort's.
  s.suite = s.lock.suite;
  std::map<int64_t, std::string> new_benchmark;  // benchmark id -> name
  for (const auto& b : run.data.benchmarks) {
    for (const auto& e : s.suite) {
      if (e.change == SuiteChange::kNew && e.benchmark == b.name) new_benchmark[b.id] = b.name;
    }
  }
  std::map<std::string, std::vector<Sample>> new_samples;
  for (const auto& sample : run.data.samples) {
    if (sample.sample.warmup || run.discarded.count(sample.id) != 0) continue;
    if (auto it = new_benchmark.find(sample.benchmark_id); it != new_benchmark.end()) {
      new_samples[it->second].push_back(sample.sample);
    } else {
      ++s.samples;
    }
  }
  std::vector<std::string> metrics;  // the judged ones, as the cells' verdicts name them
  for (const auto& cell : s.cells) {
    for (const auto& comp : cell.comparisons) {
      for (const auto& m : comp.metrics) {
        if (std::find(metrics.begin(), metrics.end(), m.metric) == metrics.end()) metrics.push_back(m.metric);
      }
    }
  }
  campaign::SetNewFigures(s.suite, new_samples, metrics);
  if (s.cohort.notes) {
    s.notes = *s.cohort.notes;
  } else {
    for (const auto& n : run.data.notes) s.notes.push_back(n.message);
  }
  if (!lacks.empty()) s.notes.push_back(OlderStoreNote(lacks));
  TARE_ASSIGN_OR_RETURN(s.campaign_cohorts, store.CohortsOf(s.cohort.campaign_sha256));
  return campaign::BuildAbReport(s);
}

}  // namespace tare::bundle
