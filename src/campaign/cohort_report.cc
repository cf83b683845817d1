// CampaignRunner::Cohort: the report model of the cohort, which the ledger (Markdown) and the
// tare.ab/1 JSON are rendered from (internal/cohort.h).
#include "internal/cohort.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/core.h>

#include "base/json_text.h"

namespace tare::campaign {
namespace {

struct LayoutCell {
  std::string declared;
  int64_t layout = -1;
  const std::vector<AbComparison>* comparisons = nullptr;
};

// Groups the layout cells back into their declared cell, per head and metric, in declaration order.
std::vector<report::AbLayoutRow> LayoutRows(const std::vector<LayoutCell>& cells, int64_t layouts) {
  std::vector<report::AbLayoutRow> rows;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
  for (const auto& c : cells) {
    if (c.layout < 0) continue;
    for (const auto& comp : *c.comparisons) {
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

}  // namespace

StatusOr<report::AbReport> CampaignRunner::Cohort::BuildReport(const std::vector<AbCheck>& bounds) {
  report::AbReport rep;
  rep.campaign_name = spec_.name;
  rep.campaign_sha256 = r_.input_.campaign_sha256;
  rep.campaign_source = r_.input_.campaign_source;
  rep.run_id = run_id_;
  rep.cohort = cohort_;
  rep.resumed = resumed_;
  rep.lock_sha256 = lock_sha256_;
  rep.lock_json = DumpJson(LockToJson(lock_));
  rep.tare_version = r_.options_.tare_version;
  rep.started_unix_ns = started_unix_ns_;
  rep.ended_unix_ns = r_.options_.clock->UnixNowNs();
  rep.host = HostSummary(fingerprint_);
  rep.fingerprint_digest = fingerprint_.HardDigest();
  for (const auto& check : fingerprint_.checks) {
    if (check.level == CheckLevel::kWarn) rep.host_warnings.push_back(check.finding + "; " + check.fix);
  }
  rep.kind = TargetKindName(r_.kind_);
  rep.instrument = InstrumentName(spec_.instrument);
  rep.args = spec_.args;
  rep.arm_order = std::string(ArmOrderName(spec_.order));
  rep.seed = spec_.seed;
  rep.sampling = spec_.sampling;
  rep.budget_ns = budget_ns_;
  rep.budget_default = spec_.budget_ns == kDefaultBudget;
  rep.exact_blocks = exact_blocks_;
  rep.confidence = spec_.confidence;
  rep.look_scheme = std::string(LookSchemeName(plan_.scheme));
  rep.per_look_confidence = plan_.per_look_confidence;
  rep.look_pairs = plan_.pairs;
  rep.noise_floor_rule = std::string(NoiseFloorRuleName(spec_.noise_floor));
  rep.interval_method = std::string(PairedIntervalName(spec_.interval));
  rep.noise_cap = spec_.noise_cap;
  for (const auto& e : lock_.executables) rep.arms.push_back({e.arm, ArmRole(e.arm), e.source, e.path, e.sha256});
  std::vector<Verdict> verdicts;
  std::vector<std::string> fallbacks;  // cells whose determinism check failed (exact_plan.h)
  for (size_t c = 0; c < cells_.size(); ++c) {
    const CellState& st = cells_[c];
    for (const auto& comp : st.comparisons) {
      rep.comparisons.push_back(comp);
      if (!st.fallback.empty()) rep.comparisons.back().reasons.push_back(st.fallback);
      verdicts.push_back(comp.verdict);
    }
    if (!st.fallback.empty()) fallbacks.push_back(fmt::format("{}: {}", r_.cells_[c].name, st.fallback));
    for (const auto& [arm, by_block] : st.samples) {
      rep.samples += static_cast<int64_t>(by_block.size());
    }
  }
  rep.layouts = spec_.layouts;
  if (spec_.layouts > 1) {
    std::vector<LayoutCell> lc;
    for (size_t c = 0; c < cells_.size(); ++c) {
      lc.push_back({r_.cells_[c].declared, r_.cells_[c].layout, &cells_[c].comparisons});
    }
    rep.layout_rows = LayoutRows(lc, spec_.layouts);
  }
  rep.has_verdicts = !verdicts.empty();
  rep.outcome = WorstVerdict(verdicts);
  rep.checks = gate_checks_;
  rep.checks.insert(rep.checks.end(), bounds.begin(), bounds.end());
  rep.notes = r_.notes_;
  rep.notes.insert(rep.notes.end(), fallbacks.begin(), fallbacks.end());
  rep.notes.insert(rep.notes.end(), cross_check_notes_.begin(), cross_check_notes_.end());
  for (const auto& n : session_->recorder().unavailable()) rep.notes.push_back("not measured: " + n);
  for (const auto& w : session_->recorder().warnings()) rep.notes.push_back("warning: " + w);
  TARE_ASSIGN_OR_RETURN(std::vector<CohortRecord> cohorts, store_.CohortsOf(r_.input_.campaign_sha256));
  for (const auto& c : cohorts) {
    report::AbCohort row;
    row.cohort = c.cohort;
    row.run_id = c.run_id;
    row.started_unix_ns = c.started_unix_ns;
    row.state = c.state;
    row.stop_reason = c.stop_reason;
    row.outcome = c.outcome;
    row.lock_sha256 = c.lock_sha256;
    row.samples = c.samples;
    row.current = c.run_id == run_id_;
    auto lock = LockFromJson(nlohmann::json::parse(c.lock_json, nullptr, false));
    if (lock.ok()) {
      for (const auto& e : lock->executables) {
        if (ArmRole(e.arm) == "head") row.head_sha256.push_back(e.sha256);
      }
    }
    rep.cohorts.push_back(row);
  }
  return rep;
}

}  // namespace tare::campaign
