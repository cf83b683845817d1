#include "stats/outliers.h"

#include <limits>

#include "stats/summary.h"

namespace tare::stats {

TukeyOutliers CountTukeyOutliers(std::span<const double> values, double k) {
  TukeyOutliers out;
  const std::vector<double> v = Sorted(values);
  out.q1 = Quantile(v, 0.25);
  out.q3 = Quantile(v, 0.75);
  const double iqr = out.q3 - out.q1;
  out.low_fence = out.q1 - k * iqr;
  out.high_fence = out.q3 + k * iqr;
  for (double x : v) {
    if (x < out.low_fence) ++out.low;
    if (x > out.high_fence) ++out.high;
  }
  return out;
}

MadOutliers CountMadOutliers(std::span<const double> values, double z) {
  MadOutliers out;
  out.median = Median(values);
  out.mad = MedianAbsoluteDeviation(values);
  out.threshold = z * kMadToSigma * out.mad;
  for (double x : values) {
    if (x < out.median - out.threshold) ++out.low;
    if (x > out.median + out.threshold) ++out.high;
  }
  return out;
}

}  // namespace tare::stats
