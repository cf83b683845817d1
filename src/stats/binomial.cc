#include "base/numbers.h"
#include "stats/binomial.h"

#include <cmath>
#include <limits>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/beta.hpp>

namespace tare::stats {
namespace {

// Errors become NaN / errno instead of exceptions: no exception may cross a module boundary, and
// every domain error is screened out before the call anyway.
using Policy =
    boost::math::policies::policy<boost::math::policies::domain_error<boost::math::policies::errno_on_error>,
                                  boost::math::policies::overflow_error<boost::math::policies::errno_on_error>,
                                  boost::math::policies::evaluation_error<boost::math::policies::errno_on_error>>;
using Binomial = boost::math::binomial_distribution<double, Policy>;

bool ValidNP(int64_t n, double p) { return n >= 0 && p >= 0.0 && p <= 1.0; }

}  // namespace

double BinomialPmf(int64_t k, int64_t n, double p) {
  if (!ValidNP(n, p)) return kNaN;
  if (k < 0 || k > n) return 0.0;
  // Boost handles p = 0 and p = 1 (a point mass) itself.
  return boost::math::pdf(Binomial(static_cast<double>(n), p), static_cast<double>(k));
}

double BinomialCdf(int64_t k, int64_t n, double p) {
  if (!ValidNP(n, p)) return kNaN;
  if (k < 0) return 0.0;
  if (k >= n) return 1.0;
  return boost::math::cdf(Binomial(static_cast<double>(n), p), static_cast<double>(k));
}

double BinomialSf(int64_t k, int64_t n, double p) {
  if (!ValidNP(n, p)) return kNaN;
  if (k < 0) return 1.0;
  if (k >= n) return 0.0;
  return boost::math::cdf(boost::math::complement(Binomial(static_cast<double>(n), p), static_cast<double>(k)));
}

Interval ClopperPearson(int64_t k, int64_t n, double confidence) {
  if (n < 0 || k < 0 || k > n || !(confidence > 0.0 && confidence < 1.0)) return {kNaN, kNaN};
  if (n == 0) return {0.0, 1.0};
  const double half_alpha = (1.0 - confidence) / 2.0;
  const double kd = static_cast<double>(k);
  const double nd = static_cast<double>(n);
  Interval out{0.0, 1.0};
  if (k > 0) out.lo = boost::math::ibeta_inv(kd, nd - kd + 1.0, half_alpha, Policy());
  if (k < n) out.hi = boost::math::ibetac_inv(kd + 1.0, nd - kd, half_alpha, Policy());
  return out;
}

}  // namespace tare::stats
