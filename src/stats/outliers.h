// Outlier COUNTS, for reports. tare never removes a sample: an outlier is a measurement of what
// the machine did, and dropping it would bias the comparison (the sign test and HL intervals are
// robust to a few wild values already). A high count is a reason to look at the host.
#pragma once

#include <cstdint>
#include <span>

namespace tare::stats {

// Tukey's fences (Tukey, Exploratory Data Analysis, 1977): values below Q1 - k IQR or above
// Q3 + k IQR, k = 1.5, quartiles by Quantile() (type 7, numpy's default). Strict inequalities:
// a value exactly on a fence is not counted. Empty input: NaN fences, zero counts.
struct TukeyOutliers {
  double q1 = 0;
  double q3 = 0;
  double low_fence = 0;
  double high_fence = 0;
  int64_t low = 0;   // values < low_fence
  int64_t high = 0;  // values > high_fence
};
TukeyOutliers CountTukeyOutliers(std::span<const double> values, double k = 1.5);

// Median/MAD rule (Iglewicz & Hoaglin 1993, modified z-score > 3.5): values with
// |x - median| > z * 1.4826 * MAD, MAD the raw median absolute deviation (1.4826 = 1/Phi^-1(3/4)
// makes it estimate a normal standard deviation). When MAD = 0 (more than half the values equal,
// e.g. deterministic counts) every value different from the median is counted: it is further
// from the bulk than the bulk's own spread. Empty input: NaN fields, zero counts.
struct MadOutliers {
  double median = 0;
  double mad = 0;        // raw
  double threshold = 0;  // z * 1.4826 * mad, in the values' unit
  int64_t low = 0;       // x < median - threshold
  int64_t high = 0;      // x > median + threshold
};
inline constexpr double kMadToSigma = 1.4826;
MadOutliers CountMadOutliers(std::span<const double> values, double z = 3.5);

}  // namespace tare::stats
