// Mann–Whitney U test (Wilcoxon rank-sum) for two UNPAIRED samples: is one stochastically larger
// than the other? For samples that were not taken in pairs (e.g. two stored runs of different
// days); campaign arms are paired and use sign_test.h instead.
//
// Follows scipy.stats.mannwhitneyu (scipy 1.10, alternative='two-sided'), and is tested against it:
//   u       = U1 = R1 - n1(n1+1)/2, R1 the sum of x's ranks in the pooled sample (average ranks
//             for ties): the number of pairs with x > y, ties counting 1/2.
//   exact   : p = 2 P(U >= max(U1, U2)) under the null, clipped to 1; the null distribution of U
//             counts the C(n1+n2, n1) equally likely arrangements (Mann & Whitney 1947). Valid
//             only without ties.
//   asymptotic: z = (max(U1, U2) - n1 n2/2 - 0.5) / s with the tie-corrected
//             s = sqrt(n1 n2/12 ((n+1) - sum(t^3 - t)/(n(n-1)))), p = 2 (1 - Phi(z)), clipped to 1.
//   auto    : exact when there are no ties and min(n1, n2) <= 8 (scipy's rule), and the exact
//             computation is affordable (n1 n2 <= kMannWhitneyExactMaxProduct), else asymptotic.
#pragma once

#include <cstdint>
#include <span>

#include "base/status.h"

namespace tare::stats {

enum class MannWhitneyMethod { kAuto, kExact, kAsymptotic };

// The exact distribution costs about (n1 n2)^2 / 4 additions.
inline constexpr int64_t kMannWhitneyExactMaxProduct = 20000;

struct MannWhitneyResult {
  double u = 0;        // U1, the statistic for x (scipy's `statistic`)
  double p_value = 1;  // two-sided
  int64_t n1 = 0;
  int64_t n2 = 0;
  bool exact = false;  // which method produced p_value
  bool ties = false;   // the pooled sample has tied values
};

// Errors (InvalidArgument): an empty sample, a NaN, kExact with ties or past the size limit.
StatusOr<MannWhitneyResult> MannWhitneyU(std::span<const double> x, std::span<const double> y,
                                         MannWhitneyMethod method = MannWhitneyMethod::kAuto);

// P(U >= u) under the null for sample sizes n1, n2 (exact; n1 n2 within the limit above).
double MannWhitneyExactSf(int64_t u, int64_t n1, int64_t n2);

}  // namespace tare::stats
