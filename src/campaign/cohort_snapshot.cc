// BuildAbReport: the report of a cohort from its snapshot, live or stored (cohort_snapshot.h).
#include "campaign/cohort_snapshot.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>
#include <tuple>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

namespace tare::campaign {
namespace {

// Groups the layout cells back into their declared cell, per head and metric, in declaration order.
std::vector<report::AbLayoutRow> LayoutRows(const std::vector<SnapshotCell>& cells, int64_t layouts) {
  std::vector<report::AbLayoutRow> rows;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
  for (const auto& c : cells) {
    if (c.layout < 0 || c.layout >= layouts) continue;
    for (const auto& comp : c.comparisons) {
      for (const auto& m : comp.metrics) {
        auto key = std::make_tuple(c.declared, comp.head, m.metric);
        auto it = index.find(key);
        if (it == index.end()) {
          report::AbLayoutRow row;
          row.cell = c.declared;
          row.head = comp.head;
          row.metric = m.metric;
          row.verdicts.assign(static_cast<size_t>(layouts), Verdict::kInconclusive);
          row.estimates.assign(static_cast<size_t>(layouts), std::nan(""));
          row.los = row.estimates;
          row.his = row.estimates;
          it = index.emplace(key, rows.size()).first;
          rows.push_back(std::move(row));
        }
        report::AbLayoutRow& row = rows[it->second];
        const auto k = static_cast<size_t>(c.layout);
        row.verdicts[k] = m.verdict;
        row.estimates[k] = m.estimate;
        row.los[k] = m.lo;
        row.his[k] = m.hi;
      }
    }
  }
  for (auto& row : rows) report::JudgeLayoutRow(row);
  return rows;
}

std::string HostSummary(const Fingerprint& fp) {
  return fmt::format("{}, {} logical CPUs, Linux {}", fp.Get("cpu.model_name"), fp.Get("cpu.logical"),
                     fp.Get("os.kernel"));
}

// The head arms' sha256 of a cohort's lock, in arm order. None when the lock cannot be read: this
// only labels earlier cohorts in the ledger, and the cohort being reported read its own lock.
std::vector<std::string> HeadHashes(const std::string& lock_json) {
  std::vector<std::string> out;
  auto lock = LockFromJsonText(lock_json, "the cohort's lock");
  if (lock.ok()) {
    for (const auto& e : lock->executables) {
      if (RoleOfArm(e.arm) == ArmRole::kHead) out.push_back(e.sha256);
    }
  }
  return out;
}

}  // namespace

SnapshotCell SnapshotCellNamed(const std::string& name, int64_t layouts) {
  SnapshotCell cell{name, name, -1, {}};
  constexpr std::string_view kOpen = " [layout ";
  const size_t open = name.rfind(kOpen);
  if (layouts <= 1 || open == std::string::npos || name.back() != ']') return cell;
  const char* first = name.data() + open + kOpen.size();
  const char* last = name.data() + name.size() - 1;
  int64_t k = -1;
  auto [end, ec] = std::from_chars(first, last, k);
  // LayoutCellName is the one spelling: a name that does not round-trip through it is no layout.
  if (ec != std::errc() || end != last || k < 0 || k >= layouts || LayoutCellName(name.substr(0, open), k) != name) {
    return cell;
  }
  cell.declared = name.substr(0, open);
  cell.layout = k;
  return cell;
}

report::AbReport BuildAbReport(const CohortSnapshot& s) {
  const CampaignSpec& spec = s.spec;
  report::AbReport rep;
  rep.campaign_name = s.cohort.campaign_name;
  rep.campaign_sha256 = s.cohort.campaign_sha256;
  rep.campaign_source = s.cohort.campaign_source;
  rep.run_id = s.cohort.run_id;
  rep.cohort = s.cohort.cohort;
  rep.state = s.cohort.state;
  rep.stop_reason = s.cohort.stop_reason;
  rep.resumed = s.cohort.resumed;
  rep.lock_sha256 = s.cohort.lock_sha256;
  rep.lock_json = s.cohort.lock_json;
  rep.tare_version = s.tare_version;
  rep.started_unix_ns = s.started_unix_ns;
  rep.ended_unix_ns = s.ended_unix_ns;
  rep.fingerprint_digest = s.fingerprint_digest;
  if (s.fingerprint) {
    rep.host = HostSummary(*s.fingerprint);
    for (const auto& check : s.fingerprint->checks) {
      if (check.level == CheckLevel::kWarn) rep.host_warnings.push_back(check.finding + "; " + check.fix);
    }
  }
  rep.kind = s.kind;
  rep.instrument = spec.instrument;
  rep.args = spec.args;
  rep.gbench_min_time_ns = spec.gbench_min_time_ns;
  for (const auto& w : s.lock.work) {
    rep.gbench_locked_min_time_ns = std::max(rep.gbench_locked_min_time_ns, w.gbench_min_time_ns);
    rep.gbench_counts_fixed = rep.gbench_counts_fixed || (s.kind == TargetKind::kGbench && w.iterations > 0);
  }
  rep.arm_order = std::string(ArmOrderName(spec.order));
  rep.seed = spec.seed;
  rep.sampling = spec.sampling;
  rep.budget_ns = BudgetNs(spec, s.cells.size());  // a cohort's cells, layouts counted
  rep.budget_default = spec.budget_ns == kDefaultBudget;
  rep.exact_blocks = s.exact_blocks;
  rep.confidence = spec.confidence;
  if (s.plan) {
    rep.look_scheme = std::string(LookSchemeName(s.plan->scheme));
    rep.per_look_confidence = s.plan->per_look_confidence;
    rep.look_pairs = s.plan->pairs;
  }
  rep.noise_floor_rule = std::string(NoiseFloorRuleName(spec.noise_floor));
  rep.interval_method = std::string(PairedIntervalName(spec.interval));
  rep.noise_cap = spec.noise_cap;
  // The work tier runs for time campaigns over tare and Google Benchmark binaries (work_tier.h).
  rep.same_work_allowance =
      spec.instrument == Instrument::kWall && (s.kind == TargetKind::kTare || s.kind == TargetKind::kGbench)
          ? spec.same_work_allowance
          : 0;
  for (const auto& e : s.lock.executables) rep.arms.push_back({e.arm, RoleOfArm(e.arm), e.source, e.path, e.sha256});
  std::vector<Verdict> verdicts;
  for (const auto& cell : s.cells) {
    for (const auto& comp : cell.comparisons) {
      rep.comparisons.push_back(comp);
      verdicts.push_back(comp.verdict);
    }
  }
  rep.layouts = spec.layouts;
  if (spec.layouts > 1) rep.layout_rows = LayoutRows(s.cells, spec.layouts);
  rep.has_verdicts = !verdicts.empty();
  rep.outcome = WorstVerdict(verdicts);
  rep.checks = s.checks;
  rep.notes = s.notes;
  rep.suite = s.suite;
  rep.strict_suite = s.spec.strict_suite;
  rep.samples = s.samples;
  for (const auto& c : s.campaign_cohorts) {
    rep.cohorts.push_back({c.cohort, c.run_id, c.started_unix_ns, c.state, c.stop_reason, c.outcome, c.lock_sha256,
                           HeadHashes(c.lock_json), c.samples, c.run_id == s.cohort.run_id});
  }
  return rep;
}

}  // namespace tare::campaign
