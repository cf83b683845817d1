// The report of a `tare ab` cohort rebuilt from what the store keeps, for a bundle's ledger.md and
// result.json when the ledger `tare ab` wrote is not on disk (it printed it to a pipe).
//
// A campaign::CohortSnapshot filled from the cohort record (campaign, resolved spec, lock), each
// cell's latest look (store::LatestLookOfEachCell), the gates and bounds, the run record and its
// fingerprint, and the campaign's other cohorts, made into the report by the builder the live
// cohort uses (campaign::BuildAbReport). Since store schema version 7 the store keeps every field of
// the verdicts, comparisons, cross-checks and checks (model/record_fields.h), so the rebuilt ledger
// and JSON are the live ones. A cohort stored by an older tare lacks some (store::StoredLook::lacks):
// units and directions are taken from the run's metric definitions, the exact flag is inferred from
// the plan, and a note names what cannot be shown (the bound, the cross-check...). The run's
// progress notes other than those stored with the run are absent either way.
#pragma once

#include "base/status.h"
#include "report/ab_report.h"
#include "store/store.h"
#include "store/transfer.h"

namespace tare::bundle {

StatusOr<report::AbReport> StoredCohortReport(store::Store& store, const store::FullRun& run);

}  // namespace tare::bundle
