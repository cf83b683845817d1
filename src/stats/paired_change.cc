#include "stats/paired_change.h"

#include <cmath>

#include <fmt/core.h>

namespace tare::stats {

StatusOr<std::vector<double>> LogRatios(std::span<const double> base, std::span<const double> head) {
  if (base.size() != head.size()) {
    return Status::InvalidArgument(
        fmt::format("paired change needs one head value per base value; got {} base and {} head values "
                    "(pass only complete pairs)",
                    base.size(), head.size()));
  }
  std::vector<double> d;
  d.reserve(base.size());
  for (size_t i = 0; i < base.size(); ++i) {
    for (auto [side, v] : {std::pair{"base", base[i]}, std::pair{"head", head[i]}}) {
      if (!std::isfinite(v) || v <= 0) {
        return Status::InvalidArgument(
            fmt::format("pair {}: {} value {} is not a positive number; a paired change is a ratio "
                        "head/base and needs both values > 0 (compare a metric that can be 0 or negative "
                        "by its difference instead)",
                        i, side, v));
      }
    }
    // ln(h / b) is the more accurate form for close values; for extreme magnitudes (1e300 over
    // 1e-300) the ratio overflows or underflows and the difference of logs is used instead.
    const double ratio = head[i] / base[i];
    d.push_back(std::isnormal(ratio) ? std::log(ratio) : std::log(head[i]) - std::log(base[i]));
  }
  return d;
}

PairedChange FromLogInterval(double log_estimate, double log_lo, double log_hi, int64_t n, double requested_confidence,
                             double achieved_confidence) {
  PairedChange c;
  c.log_estimate = log_estimate;
  c.log_lo = log_lo;
  c.log_hi = log_hi;
  c.estimate = std::expm1(log_estimate);
  c.lo = std::expm1(log_lo);
  c.hi = std::expm1(log_hi);
  c.n = n;
  c.requested_confidence = requested_confidence;
  c.confidence = achieved_confidence;
  return c;
}

}  // namespace tare::stats
