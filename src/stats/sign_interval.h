// The sign-test confidence interval for a median, and the paired change it gives for head vs base.
//
// Distribution-free and exact: for n independent values from any continuous distribution with
// median m, the number below m is Binomial(n, 1/2), so the order statistics d(k) < m < d(n+1-k)
// (1-based) bracket m with probability 1 - 2 P(B <= k - 1), B ~ Binomial(n, 1/2) (Conover,
// Practical Nonparametric Statistics, 3rd ed. 1999, §3.2; Hollander & Wolfe 1999, §3.6).
// With ties the coverage is at least that. The interval takes the LARGEST k (the narrowest
// interval) whose coverage is still >= the confidence asked for; the coverage actually achieved is
// returned because the binomial is discrete (n = 10 at 95% achieves 97.85%).
//
// At 95%: n = 7 -> [d(1), d(7)], 9 -> [d(2), d(8)], 10 -> [d(2), d(9)], 12 -> [d(3), d(10)],
// 15 -> [d(4), d(12)], 20 -> [d(6), d(15)], 25 -> [d(8), d(18)]; n < 6 has no 95% interval
// (even [d(1), d(n)] covers only 1 - 2^(1-n) = 93.75% at n = 5).
//
//   TARE_ASSIGN_OR_RETURN(PairedChange c, SignTestPairedChange(base_ns, head_ns, 0.95));
//   // c.estimate = +0.021, [c.lo, c.hi] = [+0.008, +0.035]: head is 2.1% higher, 95% CI.
#pragma once

#include <cstdint>
#include <span>

#include "base/status.h"
#include "stats/paired_change.h"

namespace tare::stats {

// The interval [d(k), d(n + 1 - k)] and its exact coverage for n values.
struct SignTestRanks {
  int64_t n = 0;
  int64_t k = 0;        // 1-based rank of the lower end; the upper end is n + 1 - k
  double coverage = 0;  // 1 - 2 * BinomialCdf(k - 1, n, 1/2)
};

// Largest k with coverage >= confidence. Errors: InvalidArgument for confidence outside (0, 1);
// FailedPrecondition, with the n needed, when even k = 1 does not reach it:
// "n=5 pairs cannot give a 95% sign-test interval; need at least 6".
StatusOr<SignTestRanks> SignTestRanksFor(int64_t n, double confidence);

// Smallest n that has a sign-test interval at this confidence: 1 - 2^(1-n) >= confidence
// (6 at 95%, 8 at 99%). 0 for a confidence outside (0, 1).
int64_t MinimumSignTestCount(double confidence);

// A sign-test interval for the median of values (any order, copied).
struct MedianInterval {
  double median = 0;  // sample median (mean of the two middle values for even n)
  double lo = 0;      // d(k)
  double hi = 0;      // d(n + 1 - k)
  SignTestRanks ranks;
};
// Errors as SignTestRanksFor, plus InvalidArgument for a NaN value.
StatusOr<MedianInterval> SignTestMedianInterval(std::span<const double> values, double confidence);

// The paired change of head against base: d_i = ln(head_i / base_i) (paired_change.h), the
// sign-test interval for the median of d, and estimate = exp(median d) - 1, lo/hi = exp(d) - 1.
// method = "sign-test". Errors from LogRatios (non-positive values, length mismatch) and
// SignTestRanksFor (too few pairs).
StatusOr<PairedChange> SignTestPairedChange(std::span<const double> base, std::span<const double> head,
                                            double confidence);

}  // namespace tare::stats
