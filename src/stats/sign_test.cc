#include "stats/sign_test.h"

#include <cmath>

#include <fmt/core.h>

#include "stats/binomial.h"
#include "stats/summary.h"

namespace tare::stats {
namespace {

// The coverages are exact binomial sums; the tolerance only keeps a confidence written as the
// achieved value itself (0.96875 for n = 6) from failing on the last bit.
constexpr double kCoverageTolerance = 1e-12;

double Coverage(int64_t k, int64_t n) { return 1.0 - 2.0 * BinomialCdf(k - 1, n, 0.5); }

bool ValidConfidence(double c) { return c > 0.0 && c < 1.0; }

}  // namespace

int64_t MinimumSignTestCount(double confidence) {
  if (!ValidConfidence(confidence)) return 0;
  int64_t n = 1;
  while (Coverage(1, n) < confidence - kCoverageTolerance) ++n;  // 2^(1-n) halves each step
  return n;
}

StatusOr<SignTestRanks> SignTestRanksFor(int64_t n, double confidence) {
  if (!ValidConfidence(confidence)) {
    return Status::InvalidArgument(
        fmt::format("confidence {} is not between 0 and 1 (write 0.95 for 95%)", confidence));
  }
  if (n < 1 || Coverage(1, n) < confidence - kCoverageTolerance) {
    return Status::FailedPrecondition(
        fmt::format("n={} pairs cannot give a {:g}% sign-test interval; need at least {}", n,
                    confidence * 100.0, MinimumSignTestCount(confidence)));
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

StatusOr<MedianInterval> SignTestMedianInterval(std::span<const double> values,
                                                double confidence) {
  for (double v : values) {
    if (std::isnan(v)) {
      return Status::InvalidArgument("a value is NaN; drop failed samples before the sign test");
    }
  }
  TARE_ASSIGN_OR_RETURN(SignTestRanks ranks,
                        SignTestRanksFor(static_cast<int64_t>(values.size()), confidence));
  const std::vector<double> d = Sorted(values);
  MedianInterval out;
  out.ranks = ranks;
  out.median = Quantile(d, 0.5);
  out.lo = d[static_cast<size_t>(ranks.k - 1)];
  out.hi = d[static_cast<size_t>(ranks.n - ranks.k)];
  return out;
}

StatusOr<PairedChange> SignTestPairedChange(std::span<const double> base,
                                            std::span<const double> head, double confidence) {
  TARE_ASSIGN_OR_RETURN(std::vector<double> d, LogRatios(base, head));
  TARE_ASSIGN_OR_RETURN(MedianInterval m, SignTestMedianInterval(d, confidence));
  PairedChange c;
  c.log_estimate = m.median;
  c.log_lo = m.lo;
  c.log_hi = m.hi;
  // expm1 keeps the precision of small changes (a 0.01% change is 1e-4, not 1.0001 - 1).
  c.estimate = std::expm1(m.median);
  c.lo = std::expm1(m.lo);
  c.hi = std::expm1(m.hi);
  c.n = m.ranks.n;
  c.requested_confidence = confidence;
  c.confidence = m.ranks.coverage;
  c.rank_lo = m.ranks.k;
  c.rank_hi = m.ranks.n + 1 - m.ranks.k;
  c.method = "sign-test";
  return c;
}

}  // namespace tare::stats
