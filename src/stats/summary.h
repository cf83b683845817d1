// Descriptive statistics of one sample set: location, spread and tail quantiles, as the reports
// show them. Pure functions, no I/O, safe to call from any thread.
//
//   std::vector<double> wall_ns = ...;
//   Summary s = Summarize(wall_ns);        // s.median, s.mad, s.p95 ...
//   std::sort(wall_ns.begin(), wall_ns.end());
//   double p90 = Quantile(wall_ns, 0.90);
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tare::stats {

// Every field is in the unit of the input values except n and cv (a ratio).
// For empty input n == 0 and every other field is NaN. With n == 1, stddev and cv are NaN (the
// sample standard deviation divides by n - 1); mad is 0.
struct Summary {
  int64_t n = 0;
  double mean = 0;
  double median = 0;
  // RAW median absolute deviation: median(|x_i - median(x)|), NOT scaled by 1.4826. Multiply by
  // 1.4826 for a robust estimate of a normal distribution's standard deviation.
  double mad = 0;
  double stddev = 0;  // sample standard deviation (divides by n - 1)
  double cv = 0;      // coefficient of variation: stddev / mean (NaN when mean == 0)
  double min = 0;
  double max = 0;
  double p95 = 0;  // Quantile(.., 0.95), type 7
  double p99 = 0;  // Quantile(.., 0.99), type 7
};

// Summarizes values in any order (copies and sorts internally). NaN values (a failed reading
// that slipped through) are skipped, and n counts the values used.
Summary Summarize(std::span<const double> values);

// The q-quantile (0 <= q <= 1) of ascending-sorted values by linear interpolation between order
// statistics: h = (n - 1) q, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]). This is
// Hyndman & Fan (1996) type 7, numpy.quantile's default and R's quantile() default.
// NaN for empty input or q outside [0, 1].
double Quantile(std::span<const double> sorted, double q);

// Median of values in any order (type 7 at q = 0.5: the mean of the two middle values for even
// n), NaN values skipped. NaN for empty input.
double Median(std::span<const double> values);

// Raw median absolute deviation of values in any order (see Summary::mad). NaN for empty input.
double MedianAbsoluteDeviation(std::span<const double> values);

// Ascending copy of values without the NaNs (sorting with a NaN in the range is undefined
// behaviour for std::sort).
std::vector<double> Sorted(std::span<const double> values);

}  // namespace tare::stats
