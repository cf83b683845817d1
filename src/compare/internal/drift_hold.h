// A settled time change of two separate runs held against the host's drift (compare.h, top): the
// evidence compare.cc gathers for one metric, and the rule. Private to the compare module.
#pragma once

#include <optional>
#include <string>

#include "compare/compare.h"

namespace tare::compare {

// What tells a time change between two separate runs from the host's drift between them.
struct DriftEvidence {
  std::string same_executable;      // the sha256 both runs measured, "" when they differ
  std::optional<HostDrift> spread;  // the host's drift on that host type (compare.h)
};

// A metric classified regressed or improved on its interval [lo, hi] (oriented: positive is worse)
// keeps its class only beyond the drift — lo > S (hi < -S) — and its reason then names the drift
// it stood beyond; otherwise it becomes inconclusive, with the reason and what to store for a
// verdict. Other classes are left as they are.
void HoldAgainstDrift(MetricChange& m, double lo, double hi, const DriftEvidence& drift);

}  // namespace tare::compare
