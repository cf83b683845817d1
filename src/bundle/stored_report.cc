#include "bundle/stored_report.h"

#include <fmt/format.h>

#include <map>

#include "campaign/campaign_definition.h"
#include "campaign/exact_plan.h"
#include "campaign/lock.h"
#include "campaign/sampling.h"
#include "env/fingerprint_json.h"

namespace tare::bundle {

StatusOr<report::AbReport> StoredCohortReport(store::Store& store, const store::FullRun& run) {
  if (!run.cohort) return Status::InvalidArgument(fmt::format("run {} is not a tare ab cohort", run.data.run.id));
  const CohortRecord& c = *run.cohort;
  TARE_ASSIGN_OR_RETURN(campaign::CampaignSpec spec,
                        campaign::SpecFromJson(nlohmann::json::parse(c.spec_json, nullptr, false)));
  TARE_ASSIGN_OR_RETURN(campaign::Lock lock, campaign::LockFromJson(nlohmann::json::parse(c.lock_json, nullptr, false)));
  report::AbReport rep;
  rep.campaign_name = c.campaign_name;
  rep.campaign_sha256 = c.campaign_sha256;
  rep.campaign_source = c.campaign_source;
  rep.run_id = run.data.run.id;
  rep.cohort = c.cohort;
  rep.state = c.state;
  rep.stop_reason = c.stop_reason;
  rep.resumed = c.resumed;
  rep.lock_sha256 = c.lock_sha256;
  rep.lock_json = c.lock_json;
  rep.tare_version = run.data.run.tare_version;
  rep.started_unix_ns = run.data.run.started_unix_ns;
  rep.ended_unix_ns = run.data.run.ended_unix_ns;
  rep.fingerprint_digest = run.data.run.fingerprint_digest;
  if (auto fp = env::FingerprintFromJson(nlohmann::json::parse(run.data.run.fingerprint_json, nullptr, false)); fp.ok()) {
    rep.host = fmt::format("{}, {} logical CPUs, Linux {}", fp->Get("cpu.model_name"), fp->Get("cpu.logical"),
                           fp->Get("os.kernel"));
    for (const auto& check : fp->checks) {
      if (check.level == CheckLevel::kWarn) rep.host_warnings.push_back(check.finding + "; " + check.fix);
    }
  }
  rep.kind = run.data.benchmarks.empty() ? (spec.kind ? TargetKindName(*spec.kind) : "command")
                                         : run.data.benchmarks.front().kind;
  rep.instrument = InstrumentName(spec.instrument);
  rep.args = spec.args;
  rep.arm_order = std::string(campaign::ArmOrderName(spec.order));
  rep.seed = spec.seed;
  rep.sampling = spec.sampling;
  rep.budget_ns = campaign::BudgetNs(spec, run.data.benchmarks.size());  // a cohort's cells are its benchmarks
  rep.budget_default = spec.budget_ns == campaign::kDefaultBudget;
  rep.exact_blocks = campaign::ExactPlanApplies(spec) ? campaign::ExactPlanBlocks(spec.null_arm) : 0;
  rep.confidence = spec.confidence;
  rep.noise_floor_rule = std::string(campaign::NoiseFloorRuleName(spec.noise_floor));
  rep.interval_method = std::string(campaign::PairedIntervalName(spec.interval));
  rep.noise_cap = spec.noise_cap;
  if (auto plan = campaign::PlanLooks(spec.sampling, spec.confidence, spec.look_scheme); plan.ok()) {
    rep.look_scheme = std::string(campaign::LookSchemeName(plan->scheme));
    rep.per_look_confidence = plan->per_look_confidence;
    rep.look_pairs = plan->pairs;
  }
  for (const auto& e : lock.executables) rep.arms.push_back({e.arm, campaign::ArmRole(e.arm), e.source, e.path, e.sha256});
  // Each cell's last look is what its ledger reported.
  std::map<int64_t, const store::StoredLook*> last;
  for (const auto& look : run.looks) last[look.cell] = &look;
  std::vector<Verdict> verdicts;
  for (const auto& [cell, look] : last) {
    for (const auto& comp : look->comparisons) {
      rep.comparisons.push_back(comp);
      // The store keeps no exact flag: under the exact plan, a verdict at its blocks is the exact
      // one (a cell that fell back was judged at 20 pairs or more).
      for (auto& m : rep.comparisons.back().metrics) {
        m.exact = rep.exact_blocks > 0 && m.pairs == rep.exact_blocks && m.lo == m.hi && m.lo == m.estimate;
      }
      verdicts.push_back(comp.verdict);
    }
  }
  rep.has_verdicts = !verdicts.empty();
  rep.outcome = WorstVerdict(verdicts);
  rep.checks = run.checks;
  for (const auto& s : run.data.samples) {
    if (!s.sample.warmup && run.discarded.count(s.id) == 0) ++rep.samples;
  }
  for (const auto& n : run.data.notes) rep.notes.push_back(n.message);
  rep.notes.push_back("this ledger was rebuilt from the store (`tare bundle`): cell-level reasons are shown on "
                      "their metrics");
  TARE_ASSIGN_OR_RETURN(std::vector<CohortRecord> cohorts, store.CohortsOf(c.campaign_sha256));
  for (const auto& other : cohorts) {
    report::AbCohort row{other.cohort, other.run_id, other.started_unix_ns, other.state, other.stop_reason,
                         other.outcome, other.lock_sha256, {}, other.samples, other.run_id == run.data.run.id};
    if (auto l = campaign::LockFromJson(nlohmann::json::parse(other.lock_json, nullptr, false)); l.ok()) {
      for (const auto& e : l->executables) {
        if (campaign::ArmRole(e.arm) == "head") row.head_sha256.push_back(e.sha256);
      }
    }
    rep.cohorts.push_back(row);
  }
  return rep;
}

}  // namespace tare::bundle
