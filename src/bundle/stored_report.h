// The report of a `tare ab` cohort rebuilt from what the store keeps, for a bundle's ledger.md and
// result.json when the ledger `tare ab` wrote is not on disk (it printed it to a pipe).
//
// A campaign::CohortSnapshot filled from the cohort record (campaign, resolved spec, lock), each
// cell's latest look (store::LatestLookOfEachCell), the gates and bounds, the run record and its
// fingerprint, and the campaign's other cohorts, made into the report by the builder the live
// cohort uses (campaign::BuildAbReport). What the store does not keep is absent: cell-level reasons
// of a comparison (they are kept on its metrics) and the run's progress notes other than those
// stored with the run.
#pragma once

#include "base/status.h"
#include "report/ab_report.h"
#include "store/store.h"
#include "store/transfer.h"

namespace tare::bundle {

StatusOr<report::AbReport> StoredCohortReport(store::Store& store, const store::FullRun& run);

}  // namespace tare::bundle
