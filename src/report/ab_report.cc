#include "report/ab_report.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tare::report {

void JudgeLayoutRow(AbLayoutRow& row) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  bool above = false, below = false, fail = false, not_fail = false;
  row.sensitive = false;
  for (size_t k = 0; k < row.estimates.size(); ++k) {
    if (std::isfinite(row.estimates[k])) {
      lo = std::min(lo, row.estimates[k]);
      hi = std::max(hi, row.estimates[k]);
    }
    if (k < row.los.size()) above = above || row.los[k] > 0;
    if (k < row.his.size()) below = below || row.his[k] < 0;
    if (k < row.verdicts.size()) {
      fail = fail || row.verdicts[k] == Verdict::kFail;
      not_fail = not_fail || row.verdicts[k] != Verdict::kFail;
    }
  }
  row.spread = hi >= lo ? hi - lo : 0.0;
  // FAIL in some layouts and not in others, or intervals on opposite sides of 0. PASS in one layout
  // and INCONCLUSIVE in another is the same change, certified in one (issue 21).
  row.sensitive = (fail && not_fail) || (above && below);
}

bool AbReport::AnyHostTooNoisy() const {
  for (const auto& c : comparisons) {
    for (const auto& m : c.metrics) {
      if (m.host_too_noisy) return true;
    }
  }
  return false;
}

bool AbReport::GatesOk() const {
  for (const auto& c : checks) {
    if (c.kind == "gate" && !c.ok) return false;
  }
  return true;
}

bool AbReport::BoundsOk() const {
  for (const auto& c : checks) {
    if (c.kind == "bound" && !c.ok) return false;
  }
  return true;
}

std::vector<std::string> AbReport::UnmeasurableCells() const {
  std::vector<std::string> out;
  for (const auto& c : comparisons) {
    if (c.broken.cannot_be_measured() && std::find(out.begin(), out.end(), c.cell) == out.end()) {
      out.push_back(c.cell);
    }
  }
  return out;
}

}  // namespace tare::report
