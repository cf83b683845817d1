#include "base/numbers.h"
#include "stats/summary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tare::stats {
namespace {}  // namespace

std::vector<double> Sorted(std::span<const double> values) {
  std::vector<double> v;
  v.reserve(values.size());
  for (double x : values) {
    if (!std::isnan(x)) v.push_back(x);
  }
  std::sort(v.begin(), v.end());
  return v;
}

double Quantile(std::span<const double> sorted, double q) {
  if (sorted.empty() || !(q >= 0.0 && q <= 1.0)) return kNaN;
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const size_t lo = static_cast<size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  const double frac = h - static_cast<double>(lo);
  // Written as a + frac (b - a) so that equal neighbours give exactly that value.
  return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double Median(std::span<const double> values) {
  const std::vector<double> v = Sorted(values);
  return Quantile(v, 0.5);
}

double MedianAbsoluteDeviation(std::span<const double> values) {
  const double m = Median(values);
  if (std::isnan(m)) return kNaN;
  std::vector<double> dev;
  dev.reserve(values.size());
  for (double x : values) dev.push_back(std::fabs(x - m));
  return Median(dev);
}

Summary Summarize(std::span<const double> values) {
  const std::vector<double> v = Sorted(values);
  Summary s;
  s.n = static_cast<int64_t>(v.size());
  if (v.empty()) {
    s.mean = s.median = s.mad = s.stddev = s.cv = s.min = s.max = s.p95 = s.p99 = kNaN;
    return s;
  }
  // Two-pass mean and variance: accurate for values far from zero (e.g. 1e9 ns +- 10 ns), where
  // the one-pass sum-of-squares formula cancels catastrophically. The deviations are scaled by the
  // largest one before squaring so 1e200 does not overflow and 1e-300 does not underflow.
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  if (!std::isfinite(s.mean)) {  // the sum overflowed (values near DBL_MAX): average term by term
    s.mean = 0;
    for (double x : v) s.mean += x / static_cast<double>(v.size());
  }
  if (v.size() >= 2) {
    const double scale = std::max(std::fabs(v.front() - s.mean), std::fabs(v.back() - s.mean));
    double ss = 0;
    if (scale > 0) {
      for (double x : v) {
        const double z = (x - s.mean) / scale;
        ss += z * z;
      }
    }
    s.stddev = scale * std::sqrt(ss / static_cast<double>(v.size() - 1));
    s.cv = s.mean != 0 ? s.stddev / s.mean : kNaN;
  } else {
    s.stddev = s.cv = kNaN;
  }
  s.median = Quantile(v, 0.5);
  s.mad = MedianAbsoluteDeviation(v);
  s.min = v.front();
  s.max = v.back();
  s.p95 = Quantile(v, 0.95);
  s.p99 = Quantile(v, 0.99);
  return s;
}

}  // namespace tare::stats
