#include "compare/internal/drift_hold.h"

#include <fmt/format.h>

#include "stats/run_drift.h"

namespace tare::compare {
namespace {

std::string Percent(double f) { return fmt::format("{:+.2f}%", f * 100); }

// "±3.10% from 12 earlier runs of this benchmark on this host type (history)".
std::string DriftText(const HostDrift& d) {
  return fmt::format(
      "±{:.2f}% from {} {} on this host type ({})", d.spread * 100, d.runs,
      d.source == DriftSource::kReruns ? "reruns of the same executable" : "recent runs of this benchmark",
      DriftSourceName(d.source));
}

}  // namespace

const char* DriftSourceName(DriftSource s) { return s == DriftSource::kReruns ? "reruns" : "history"; }

void HoldAgainstDrift(MetricChange& m, double lo, double hi, const DriftEvidence& drift) {
  if (m.cls != ChangeClass::kRegressed && m.cls != ChangeClass::kImproved) return;
  if (!drift.same_executable.empty()) {
    m.cls = ChangeClass::kInconclusive;
    m.reason = fmt::format(
        "both runs measured the same executable (sha256 {}): a change of {} is the host's drift, not the code's",
        drift.same_executable.substr(0, 12), Percent(m.change));
    return;
  }
  if (!drift.spread) {
    m.cls = ChangeClass::kInconclusive;
    m.reason = fmt::format(
        "{} between two separate runs, and nothing stored tells it from the host's drift: store {} runs of this "
        "benchmark on this host type (earlier commits' runs count: `tare run` on main after each merge), or run "
        "base again (`tare run`), or measure with `tare ab` (paired, with a null arm) or `--instrument sim`",
        Percent(m.change), stats::kMinDriftPairs + 1);
    return;
  }
  const double s = drift.spread->spread;
  const bool beyond = m.cls == ChangeClass::kRegressed ? lo > s : hi < -s;
  if (!beyond) {
    m.cls = ChangeClass::kInconclusive;
    m.reason = fmt::format(
        "{} is within the host's drift ({}): measure with `tare ab` (paired, with a null arm) to "
        "settle it",
        Percent(m.change), DriftText(*drift.spread));
    return;
  }
  m.reason = fmt::format("beyond the host's drift ({})", DriftText(*drift.spread));
}

}  // namespace tare::compare
