// CohortSnapshot: what the report of one `tare ab` cohort (report::AbReport, rendered as the ledger
// and the tare.ab/1 JSON) is built from, and BuildAbReport, the one builder of that report.
//
// Two paths fill a snapshot: the running cohort at its end (CampaignRunner::Cohort, from its
// samples, looks and lock), and `tare bundle` from what the store keeps of a finished one
// (bundle/stored_report.h). Each fills what only it knows (the live notes, or the notes stored with
// the run); everything derived — the host line, the arms, the comparisons and outcome, the layout
// table of a --layouts cohort, the campaign's cohort history — is derived here once, so the ledger
// rebuilt from the store shows what the live one did (issue 22: the two builders had drifted, and
// the stored one lost the layout table).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "campaign/campaign_definition.h"
#include "campaign/lock.h"
#include "campaign/sampling.h"
#include "model/cohort.h"
#include "model/fingerprint.h"
#include "model/verdict.h"
#include "report/ab_report.h"

namespace tare::campaign {

// One cell as the report shows it: the comparisons of its latest look.
struct SnapshotCell {
  std::string name;                       // as measured: "BM_X [layout 1]" under --layouts
  std::string declared;                   // --layouts: the declared cell this one is a layout of
  int64_t layout = -1;                    // --layouts: which layout (-1: none)
  std::vector<AbComparison> comparisons;  // heads in arm order
};

struct CohortSnapshot {
  // The cohort record: campaign identity, run id, cohort number, state and stop reason, times
  // resumed, the lock's JSON and sha256. (The running cohort's state is kRunning: its caller sets
  // the final one on the report.)
  CohortRecord cohort;
  CampaignSpec spec;  // the resolved campaign
  Lock lock;
  std::string tare_version;
  int64_t started_unix_ns = 0;
  int64_t ended_unix_ns = 0;
  std::optional<Fingerprint> fingerprint;  // absent when a stored one cannot be read
  std::string fingerprint_digest;
  TargetKind kind = TargetKind::kCommand;
  int64_t exact_blocks = 0;                    // report::AbReport::exact_blocks
  std::optional<LookPlan> plan;                // absent when it cannot be planned again
  std::vector<SnapshotCell> cells;             // in the cohort's cell order
  std::vector<AbCheck> checks;                 // gates, then bounds
  std::vector<std::string> notes;              // for the ledger, in order
  std::vector<AbSuiteEntry> suite;             // new and missing benchmarks, the new ones' figures
  int64_t samples = 0;                         // samples this cohort used
  std::vector<CohortRecord> campaign_cohorts;  // every cohort of the campaign (Store::CohortsOf)
};

// A cell named `name` in a cohort of `layouts` layouts: its declared cell and layout when the name is
// LayoutCellName(declared, k) with 0 <= k < layouts, else the name itself and layout -1.
SnapshotCell SnapshotCellNamed(const std::string& name, int64_t layouts);

report::AbReport BuildAbReport(const CohortSnapshot& snapshot);

}  // namespace tare::campaign
