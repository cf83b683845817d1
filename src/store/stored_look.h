// The final look per cell: which of a cohort's stored looks its ledger reported.
#pragma once

#include <vector>

#include "store/store.h"

namespace tare::store {

// The latest look of each cell, in cell order: the one its ledger reported (its final look when the
// cell finished; `final` says whether it did). The one place that picks it, for the report rebuilt
// from the store (bundle/stored_report.h), tare replay's before-and-after and tare shards. `looks`
// as Store::LooksOf returns them, or in any order.
std::vector<StoredLook> LatestLookOfEachCell(const std::vector<StoredLook>& looks);

}  // namespace tare::store
