#include "report/ab_report.h"

#include <algorithm>

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
