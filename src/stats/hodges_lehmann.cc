#include "stats/hodges_lehmann.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/normal.hpp>
#include <fmt/core.h>

#include "stats/sign_interval.h"
#include "stats/summary.h"

namespace tare::stats {
namespace {

// P(T+ = t) for t = 0..n(n+1)/2. Rank i joins T+ with probability 1/2 independently, so the
// distribution after rank i is the average of the previous one and the previous one shifted by i.
// All terms are positive: no cancellation, full relative precision in the tails.
std::vector<double> WilcoxonPmf(int64_t n) {
  const int64_t m = n * (n + 1) / 2;
  std::vector<double> pmf(static_cast<size_t>(m + 1), 0.0);
  pmf[0] = 1.0;
  int64_t top = 0;
  for (int64_t i = 1; i <= n; ++i) {
    top += i;
    for (int64_t t = top; t >= 0; --t) {
      const double shifted = t >= i ? pmf[static_cast<size_t>(t - i)] : 0.0;
      pmf[static_cast<size_t>(t)] = 0.5 * (pmf[static_cast<size_t>(t)] + shifted);
    }
  }
  return pmf;
}

}  // namespace

double WilcoxonSignedRankCdf(int64_t t, int64_t n) {
  if (n < 0) return std::numeric_limits<double>::quiet_NaN();
  const int64_t m = n * (n + 1) / 2;
  if (t < 0) return 0.0;
  if (t >= m) return 1.0;
  const std::vector<double> pmf = WilcoxonPmf(n);
  double sum = 0;
  for (int64_t i = 0; i <= t; ++i) sum += pmf[static_cast<size_t>(i)];
  return std::min(sum, 1.0);
}

StatusOr<HodgesLehmannInterval> HodgesLehmann(std::span<const double> values, double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    return Status::InvalidArgument(
        fmt::format("confidence {} is not between 0 and 1 (write 0.95 for 95%)", confidence));
  }
  const int64_t n = static_cast<int64_t>(values.size());
  if (n > kHodgesLehmannMaxN) {
    return Status::InvalidArgument(
        fmt::format("n={} values is too many for the Hodges–Lehmann interval (it sorts n(n+1)/2 Walsh "
                    "averages; limit {}); use the sign-test interval",
                    n, kHodgesLehmannMaxN));
  }
  for (double v : values) {
    if (std::isnan(v)) {
      return Status::InvalidArgument("a value is NaN; drop failed samples before the Hodges–Lehmann interval");
    }
  }
  const double half_alpha = (1.0 - confidence) / 2.0;
  // The widest interval [A(1), A(M)] misses only when T+ = 0 or T+ = M: probability 2^(1-n),
  // the same as the sign test's widest interval [d(1), d(n)].
  if (n < MinimumSignTestCount(confidence)) {
    return Status::FailedPrecondition(
        fmt::format("n={} values cannot give a {:g}% Hodges–Lehmann interval; need at least {}", n, confidence * 100.0,
                    MinimumSignTestCount(confidence)));
  }

  const int64_t m = n * (n + 1) / 2;
  HodgesLehmannInterval out;
  out.n = n;
  out.exact = n <= kWilcoxonExactMaxN;
  if (out.exact) {
    const std::vector<double> pmf = WilcoxonPmf(n);
    // c - 1 = largest t with P(T+ <= t) <= alpha/2; the n < min check above makes t = 0 qualify.
    double cdf = pmf[0];
    int64_t t = 0;
    while (t + 1 < m && cdf + pmf[static_cast<size_t>(t + 1)] <= half_alpha * (1.0 + 1e-12)) {
      ++t;
      cdf += pmf[static_cast<size_t>(t)];
    }
    out.c = t + 1;
    out.coverage = 1.0 - 2.0 * cdf;
  } else {
    const double mean = static_cast<double>(m) / 2.0;
    const double nd = static_cast<double>(n);
    const double sd = std::sqrt(nd * (nd + 1.0) * (2.0 * nd + 1.0) / 24.0);
    const boost::math::normal_distribution<double> normal;
    const double z = boost::math::quantile(boost::math::complement(normal, half_alpha));
    const int64_t t = static_cast<int64_t>(std::floor(mean - 0.5 - z * sd));
    out.c = std::max<int64_t>(t, 0) + 1;
    const double tail = boost::math::cdf(normal, (static_cast<double>(out.c - 1) + 0.5 - mean) / sd);
    out.coverage = 1.0 - 2.0 * tail;
  }

  std::vector<double> walsh;
  walsh.reserve(static_cast<size_t>(m));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i; j < n; ++j) {
      // Halve before adding: no overflow even for values near DBL_MAX.
      walsh.push_back(0.5 * values[static_cast<size_t>(i)] + 0.5 * values[static_cast<size_t>(j)]);
    }
  }
  std::sort(walsh.begin(), walsh.end());
  out.estimate = Quantile(walsh, 0.5);
  out.lo = walsh[static_cast<size_t>(out.c - 1)];
  out.hi = walsh[static_cast<size_t>(m - out.c)];
  return out;
}

StatusOr<PairedChange> HodgesLehmannPairedChange(std::span<const double> base, std::span<const double> head,
                                                 double confidence) {
  TARE_ASSIGN_OR_RETURN(std::vector<double> d, LogRatios(base, head));
  TARE_ASSIGN_OR_RETURN(HodgesLehmannInterval hl, HodgesLehmann(d, confidence));
  PairedChange c = FromLogInterval(hl.estimate, hl.lo, hl.hi, hl.n, confidence, hl.coverage);
  c.rank_lo = hl.c;
  c.rank_hi = hl.n * (hl.n + 1) / 2 + 1 - hl.c;
  c.method = hl.exact ? "hodges-lehmann-exact" : "hodges-lehmann-normal";
  return c;
}

}  // namespace tare::stats
