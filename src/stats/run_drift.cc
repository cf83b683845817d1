#include "stats/run_drift.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/summary.h"

namespace tare::stats {

std::optional<RunDrift> RunToRunDrift(std::span<const double> medians, std::span<const int64_t> breaks) {
  auto usable = [](double v) { return std::isfinite(v) && v > 0; };
  std::vector<double> diffs;
  std::vector<bool> used(medians.size(), false);
  for (size_t i = 1; i < medians.size(); ++i) {
    if (!usable(medians[i - 1]) || !usable(medians[i])) continue;
    if (std::find(breaks.begin(), breaks.end(), static_cast<int64_t>(i)) != breaks.end()) continue;
    diffs.push_back(std::fabs(std::log(medians[i] / medians[i - 1])));
    used[i - 1] = used[i] = true;
  }
  if (static_cast<int64_t>(diffs.size()) < kMinDriftPairs) return std::nullopt;
  RunDrift d;
  d.pairs = static_cast<int64_t>(diffs.size());
  d.runs = std::count(used.begin(), used.end(), true);
  d.sigma_log = 1.4826 * Median(diffs);
  d.bound = std::expm1(kDriftZ * d.sigma_log);
  return d;
}

}  // namespace tare::stats
