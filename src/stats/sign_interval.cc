#include "stats/sign_interval.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "stats/binomial.h"
#include "stats/summary.h"

namespace tare::stats {
namespace {

// The coverages are exact binomial sums; the tolerance only keeps a confidence written as the
// achieved value itself (0.96875 for n = 6) from failing on the last bit.
constexpr double kCoverageTolerance = 1e-12;
// Up to this n the ranks come from a direct sum of the binomial terms (see SignTestRanksFor).
constexpr int64_t kDirectSumMaxN = 1000;

double Coverage(int64_t k, int64_t n) { return 1.0 - 2.0 * BinomialCdf(k - 1, n, 0.5); }

// Coverage of the widest interval [d(1), d(n)]: it misses when all n fall on one side, 2 * 2^-n.
double WidestCoverage(int64_t n) { return 1.0 - std::ldexp(1.0, static_cast<int>(1 - std::min<int64_t>(n, 2000))); }

bool ValidConfidence(double c) { return c > 0.0 && c < 1.0; }

}  // namespace

int64_t MinimumSignTestCount(double confidence) {
  if (!ValidConfidence(confidence)) return 0;
  int64_t n = 1;
  while (WidestCoverage(n) < confidence - kCoverageTolerance) ++n;
  return n;
}

StatusOr<SignTestRanks> SignTestRanksFor(int64_t n, double confidence) {
  if (!ValidConfidence(confidence)) {
    return Status::InvalidArgument(
        fmt::format("confidence {} is not between 0 and 1 (write 0.95 for 95%)", confidence));
  }
  if (n < 1 || WidestCoverage(n) < confidence - kCoverageTolerance) {
    return Status::FailedPrecondition(fmt::format("n={} pairs cannot give a {:g}% sign-test interval; need at least {}",
                                                  n, confidence * 100.0, MinimumSignTestCount(confidence)));
  }
  if (n <= kDirectSumMaxN) {
    // Walk up the lower tail of Binomial(n, 1/2): pmf(0) = 2^-n (a normal double for n <= 1000),
    // pmf(j + 1) = pmf(j) (n - j) / (j + 1). Much faster than the incomplete-beta calls below,
    // which matters to callers at every look of every cell (and to the simulations); the relative
    // error stays below ~1e-13, far inside the tolerance.
    double pmf = std::ldexp(1.0, static_cast<int>(-n));  // pmf(0)
    double cdf = pmf;                                    // P(B <= k - 1) for k = 1
    int64_t k = 1;                                       // qualifies: checked above
    while (2 * (k + 1) <= n + 1) {
      pmf = pmf * static_cast<double>(n - k + 1) / static_cast<double>(k);  // pmf(k)
      const double cdf_next = cdf + pmf;                                    // P(B <= k)
      if (1.0 - 2.0 * cdf_next < confidence - kCoverageTolerance) break;
      cdf = cdf_next;
      ++k;
    }
    return SignTestRanks{n, k, 1.0 - 2.0 * cdf};
  }
  // Coverage falls as k grows; find the largest k in [1, ceil(n/2)] that still reaches it.
  int64_t good = 1;
  int64_t bad = (n + 1) / 2 + 1;
  while (bad - good > 1) {
    const int64_t mid = good + (bad - good) / 2;
    if (Coverage(mid, n) >= confidence - kCoverageTolerance) {
      good = mid;
    } else {
      bad = mid;
    }
  }
  return SignTestRanks{n, good, Coverage(good, n)};
}

StatusOr<MedianInterval> SignTestMedianInterval(std::span<const double> values, double confidence) {
  for (double v : values) {
    if (std::isnan(v)) {
      return Status::InvalidArgument("a value is NaN; drop failed samples before the sign test");
    }
  }
  TARE_ASSIGN_OR_RETURN(SignTestRanks ranks, SignTestRanksFor(static_cast<int64_t>(values.size()), confidence));
  const std::vector<double> d = Sorted(values);
  MedianInterval out;
  out.ranks = ranks;
  out.median = Quantile(d, 0.5);
  out.lo = d[static_cast<size_t>(ranks.k - 1)];
  out.hi = d[static_cast<size_t>(ranks.n - ranks.k)];
  return out;
}

StatusOr<PairedChange> SignTestPairedChange(std::span<const double> base, std::span<const double> head,
                                            double confidence) {
  TARE_ASSIGN_OR_RETURN(std::vector<double> d, LogRatios(base, head));
  TARE_ASSIGN_OR_RETURN(MedianInterval m, SignTestMedianInterval(d, confidence));
  PairedChange c = FromLogInterval(m.median, m.lo, m.hi, m.ranks.n, confidence, m.ranks.coverage);
  c.rank_lo = m.ranks.k;
  c.rank_hi = m.ranks.n + 1 - m.ranks.k;
  c.method = "sign-test";
  return c;
}

}  // namespace tare::stats
