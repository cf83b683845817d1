#include "report/ab_report.h"

namespace tare::report {

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

}  // namespace tare::report
