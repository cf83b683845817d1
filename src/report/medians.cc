#include "report/medians.h"

#include <cmath>

#include <fmt/core.h>

#include "report/ledger.h"

namespace tare::report {

double MediansChange(const AbMetricResult& m) {
  if (!(m.base_median > 0) || !(m.head_median > 0)) return kNaN;
  return m.head_median / m.base_median - 1.0;
}

bool MediansDisagree(const AbMetricResult& m) {
  const double medians = MediansChange(m);
  if (m.exact || std::isnan(medians) || std::isnan(m.lo) || std::isnan(m.hi)) return false;
  return medians < m.lo - kMediansNoticeGap || medians > m.hi + kMediansNoticeGap;
}

std::string MediansNote(const AbMetricResult& m) {
  if (!MediansDisagree(m)) return "";
  return fmt::format(
      "medians of each arm differ by {}, outside the interval: bimodal or drifting samples; the "
      "verdict is on the paired change, {}",
      SignedPercent(MediansChange(m)), SignedPercent(m.estimate));
}

}  // namespace tare::report
