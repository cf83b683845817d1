// CampaignRunner::Cohort: the report model of the cohort, which the ledger (Markdown) and the
// tare.ab/1 JSON are rendered from (internal/running_cohort.h), built by BuildAbReport (cohort_snapshot.h).
#include "internal/running_cohort.h"

#include <fmt/core.h>

#include "base/json_text.h"
#include "campaign/cohort_snapshot.h"

namespace tare::campaign {

// The cohort as it stands at its end, as a snapshot; BuildAbReport (cohort_snapshot.h) makes the
// report of it, as it does of a cohort read back from the store.
StatusOr<report::AbReport> CampaignRunner::Cohort::BuildReport(const std::vector<AbCheck>& bounds) {
  CohortSnapshot s;
  s.cohort.run_id = run_id_;
  s.cohort.campaign_sha256 = r_.input_.campaign_sha256;
  s.cohort.campaign_name = spec_.name;
  s.cohort.campaign_source = r_.input_.campaign_source;
  s.cohort.lock_json = DumpJson(LockToJson(lock_));
  s.cohort.lock_sha256 = lock_sha256_;
  s.cohort.cohort = cohort_;
  s.cohort.state = CohortState::kRunning;  // the caller sets the final state
  s.cohort.resumed = resumed_;
  s.spec = spec_;
  s.lock = lock_;
  s.tare_version = r_.options_.tare_version;
  s.started_unix_ns = started_unix_ns_;
  s.ended_unix_ns = r_.options_.clock->UnixNowNs();
  s.fingerprint = fingerprint_;
  s.fingerprint_digest = fingerprint_.HardDigest();
  s.kind = r_.kind_;
  s.exact_blocks = exact_blocks_;
  s.plan = plan_;
  std::vector<std::string> fallbacks;  // cells whose determinism check failed (exact_plan.h)
  for (size_t c = 0; c < cells_.size(); ++c) {
    const CellState& st = cells_[c];
    SnapshotCell cell{r_.cells_[c].name, r_.cells_[c].declared, r_.cells_[c].layout, st.comparisons};
    if (!st.fallback.empty()) {
      for (auto& comp : cell.comparisons) comp.reasons.push_back(st.fallback);
      fallbacks.push_back(fmt::format("{}: {}", r_.cells_[c].name, st.fallback));
    }
    s.cells.push_back(std::move(cell));
    for (const auto& [arm, by_block] : st.samples) s.samples += static_cast<int64_t>(by_block.size());
  }
  s.suite = suite_;
  s.checks = gate_checks_;
  s.checks.insert(s.checks.end(), bounds.begin(), bounds.end());
  s.notes = r_.notes_;
  s.notes.insert(s.notes.end(), fallbacks.begin(), fallbacks.end());
  s.notes.insert(s.notes.end(), work_notes_.begin(), work_notes_.end());
  s.notes.insert(s.notes.end(), cross_check_notes_.begin(), cross_check_notes_.end());
  for (const auto& n : session_->recorder().unavailable()) s.notes.push_back("not measured: " + n);
  for (const auto& w : session_->recorder().warnings()) s.notes.push_back("warning: " + w);
  // Kept with the cohort, so that its ledger rebuilt from the store prints them too (issue 47).
  TARE_RETURN_IF_ERROR(store_.SetCohortNotes(run_id_, s.notes));
  TARE_ASSIGN_OR_RETURN(s.campaign_cohorts, store_.CohortsOf(r_.input_.campaign_sha256));
  return BuildAbReport(s);
}

}  // namespace tare::campaign
