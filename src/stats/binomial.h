// Exact binomial probabilities and the Clopper–Pearson interval for a binomial proportion.
// Used by the sign test (Binomial(n, 1/2) order statistics) and by the oracle (flip
// probabilities of nondeterministic outputs). Pure functions, thread-safe.
//
// Accuracy: computed with Boost.Math (the regularized incomplete beta function), so tails keep full
// relative precision: BinomialCdf(4, 9, 0.8) = 0.01958..., BinomialSf(990, 1000, 0.5) ~ 1e-280
// is not rounded to 0 and 1 - (a tiny number) is never formed.
//
// Invalid arguments (n < 0, p outside [0, 1] or NaN, confidence outside (0, 1)) give NaN rather
// than an error value: these are arithmetic functions, and the callers validate their inputs.
#pragma once

#include <cstdint>

namespace tare::stats {

// P(X = k) for X ~ Binomial(n, p). 0 for k < 0 or k > n.
double BinomialPmf(int64_t k, int64_t n, double p);

// P(X <= k). 1 for k >= n, 0 for k < 0.
double BinomialCdf(int64_t k, int64_t n, double p);

// P(X > k) = 1 - P(X <= k), computed directly (not by subtraction). 0 for k >= n, 1 for k < 0.
double BinomialSf(int64_t k, int64_t n, double p);

struct Interval {
  double lo;
  double hi;
};

// Two-sided exact (Clopper & Pearson 1934) confidence interval for p after k successes in n
// trials: lo is the alpha/2 quantile of Beta(k, n - k + 1), hi the 1 - alpha/2 quantile of
// Beta(k + 1, n - k), alpha = 1 - confidence. k = 0 gives lo = 0 and k = n gives hi = 1 exactly.
// n = 0 gives [0, 1] (no information). {NaN, NaN} when k is outside [0, n] or confidence is
// outside (0, 1).
Interval ClopperPearson(int64_t k, int64_t n, double confidence);

}  // namespace tare::stats
