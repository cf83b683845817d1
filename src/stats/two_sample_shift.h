// Two-sample Hodges–Lehmann shift with the Mann–Whitney (Moses) confidence interval, for two
// UNPAIRED samples — e.g. two stored runs of the same benchmark taken at different times, where
// no sample of one belongs with a sample of the other (campaign arms are paired and use
// paired_change.h instead).
//
// For x_1..x_m and y_1..y_n the N = m n differences D_ij = y_j - x_i are formed. The estimate of
// the shift of y against x is their median (Hodges & Lehmann 1963). The interval is the set of
// shifts theta that the two-sided Mann–Whitney test of (y - theta) against x does not reject at
// level 1 - confidence (Moses 1965; Hollander & Wolfe, Nonparametric Statistical Methods, 2nd ed.
// 1999, §4.3): for theta strictly between two consecutive distinct D values the test statistic is
// U = #{D > theta}, so the interval's ends are D values. The test is stats::MannWhitneyU (auto:
// exact without ties when min(m, n) <= 8, else normal with the tie and continuity corrections),
// so the interval is exactly the inversion of that test — the same definition the reference
// vectors use (scipy.stats.mannwhitneyu, src/stats/testdata/gen_vectors.py).
//
// When even the most extreme shift (below every D or above every D) is not rejected, the samples
// are too small for an interval at this confidence: the end is infinite and `bounded` is false.
//
// Used on log values, exp(shift) - 1 is the change of the typical ratio y / x; this is how
// `tare compare` judges two runs (docs/compare.md).
#pragma once

#include <cstdint>
#include <span>

#include "base/status.h"

namespace tare::stats {

// D is materialized (m n doubles: 32 MB at 2000 x 2000).
inline constexpr int64_t kTwoSampleShiftMaxPairs = 4'000'000;

struct ShiftInterval {
  double estimate = 0;   // median of the m n differences y_j - x_i
  double lo = 0;         // -inf when unbounded below
  double hi = 0;         // +inf when unbounded above
  bool bounded = false;  // both ends finite
  int64_t m = 0;
  int64_t n = 0;
};

// Errors (InvalidArgument): an empty sample, a non-finite value, confidence outside (0, 1), or
// m n > kTwoSampleShiftMaxPairs.
StatusOr<ShiftInterval> TwoSampleShift(std::span<const double> x, std::span<const double> y, double confidence);

}  // namespace tare::stats
