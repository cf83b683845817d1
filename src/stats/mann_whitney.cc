#include "stats/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <fmt/core.h>

#include "stats/ranks.h"

namespace tare::stats {
namespace {

// P(U = k) for sizes (m, n), k = 0..mn, by the recurrence of Mann & Whitney (1947):
//   p(m, n; k) = m/(m+n) p(m-1, n; k-n) + n/(m+n) p(m, n-1; k)
// (the largest pooled value is an x with probability m/(m+n), and then beats all n y's).
// Rolled over m; every row keeps the distributions for n' = 0..n. All terms are positive, so the
// tails keep full relative precision.
std::vector<double> MannWhitneyPmf(int64_t m, int64_t n) {
  // prev[j] = pmf for (i-1, j); cur[j] = pmf for (i, j).
  std::vector<std::vector<double>> prev(static_cast<size_t>(n + 1));
  for (int64_t j = 0; j <= n; ++j) prev[static_cast<size_t>(j)] = {1.0};  // (0, j): U = 0
  for (int64_t i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> cur(static_cast<size_t>(n + 1));
    cur[0] = {1.0};  // (i, 0): U = 0
    for (int64_t j = 1; j <= n; ++j) {
      std::vector<double> p(static_cast<size_t>(i * j + 1), 0.0);
      const double wx = static_cast<double>(i) / static_cast<double>(i + j);
      const double wy = static_cast<double>(j) / static_cast<double>(i + j);
      const std::vector<double>& from_x = prev[static_cast<size_t>(j)];     // (i-1, j)
      const std::vector<double>& from_y = cur[static_cast<size_t>(j - 1)];  // (i, j-1)
      for (size_t k = 0; k < from_x.size(); ++k) p[k + static_cast<size_t>(j)] += wx * from_x[k];
      for (size_t k = 0; k < from_y.size(); ++k) p[k] += wy * from_y[k];
      cur[static_cast<size_t>(j)] = std::move(p);
    }
    prev = std::move(cur);
  }
  return prev[static_cast<size_t>(n)];
}

}  // namespace

double MannWhitneyExactSf(int64_t u, int64_t n1, int64_t n2) {
  if (n1 < 0 || n2 < 0) return std::numeric_limits<double>::quiet_NaN();
  const int64_t top = n1 * n2;
  if (u <= 0) return 1.0;
  if (u > top) return 0.0;
  // Symmetric: P(U >= u) = P(U <= top - u); sum the shorter side's small terms.
  const std::vector<double> pmf = MannWhitneyPmf(std::min(n1, n2), std::max(n1, n2));
  double sum = 0;
  for (int64_t k = 0; k <= top - u; ++k) sum += pmf[static_cast<size_t>(k)];
  return std::min(sum, 1.0);
}

StatusOr<MannWhitneyResult> MannWhitneyU(std::span<const double> x, std::span<const double> y,
                                         MannWhitneyMethod method) {
  if (x.empty() || y.empty()) {
    return Status::InvalidArgument(
        fmt::format("Mann–Whitney needs values in both samples; got {} and {}", x.size(), y.size()));
  }
  std::vector<double> pooled(x.begin(), x.end());
  pooled.insert(pooled.end(), y.begin(), y.end());
  for (double v : pooled) {
    if (std::isnan(v)) {
      return Status::InvalidArgument("a value is NaN; drop failed samples before Mann–Whitney");
    }
  }
  MannWhitneyResult r;
  r.n1 = static_cast<int64_t>(x.size());
  r.n2 = static_cast<int64_t>(y.size());
  const double n1 = static_cast<double>(r.n1);
  const double n2 = static_cast<double>(r.n2);
  const double tie_term = TieTerm(pooled);
  r.ties = tie_term > 0;
  const bool affordable = r.n1 * r.n2 <= kMannWhitneyExactMaxProduct;

  bool exact = false;
  switch (method) {
    case MannWhitneyMethod::kExact:
      if (r.ties) {
        return Status::InvalidArgument(
            "the exact Mann–Whitney p-value assumes no tied values and the samples have ties; "
            "use the asymptotic method (it corrects for ties)");
      }
      if (!affordable) {
        return Status::InvalidArgument(
            fmt::format("exact Mann–Whitney for {} x {} values is too costly (limit n1*n2 <= {}); use the "
                        "asymptotic method",
                        r.n1, r.n2, kMannWhitneyExactMaxProduct));
      }
      exact = true;
      break;
    case MannWhitneyMethod::kAsymptotic:
      exact = false;
      break;
    case MannWhitneyMethod::kAuto:
      exact = !r.ties && std::min(r.n1, r.n2) <= 8 && affordable;
      break;
  }
  r.exact = exact;

  const std::vector<double> ranks = AverageRanks(pooled);
  double r1 = 0;
  for (size_t i = 0; i < x.size(); ++i) r1 += ranks[i];
  r.u = r1 - n1 * (n1 + 1.0) / 2.0;
  const double u_max = std::max(r.u, n1 * n2 - r.u);

  double p = 1.0;
  if (exact) {
    // Without ties U is an integer; llround only removes representation noise.
    p = 2.0 * MannWhitneyExactSf(std::llround(u_max), r.n1, r.n2);
  } else {
    const double n = n1 + n2;
    const double s = std::sqrt(n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0))));
    if (s > 0) {
      // Continuity correction: subtract 0.5 to count the probability mass at U itself.
      const double z = (u_max - n1 * n2 / 2.0 - 0.5) / s;
      p = 2.0 * boost::math::cdf(boost::math::complement(boost::math::normal_distribution<double>(), z));
    }  // s == 0: every value equal; nothing to test, p = 1.
  }
  r.p_value = std::clamp(p, 0.0, 1.0);
  return r;
}

}  // namespace tare::stats
