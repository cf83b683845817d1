#include "stats/drift.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include <boost/math/distributions/students_t.hpp>
#include <fmt/core.h>

#include "base/numbers.h"
#include "stats/ranks.h"

namespace tare::stats {
namespace {

double Pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n;
  const double mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  if (saa == 0 || sbb == 0) return kNaN;
  return std::clamp(sab / std::sqrt(saa * sbb), -1.0, 1.0);
}

}  // namespace

StatusOr<RankCorrelation> SpearmanCorrelation(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size()) {
    return Status::InvalidArgument(
        fmt::format("rank correlation needs pairs; got {} and {} values", x.size(), y.size()));
  }
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) {
      return Status::InvalidArgument("a value is NaN; drop failed samples before the rank correlation");
    }
  }
  RankCorrelation r;
  r.n = static_cast<int64_t>(x.size());
  if (r.n < 3) {
    r.rho = r.p_value = kNaN;
    return r;
  }
  r.rho = Pearson(AverageRanks(x), AverageRanks(y));
  if (std::isnan(r.rho)) {
    r.p_value = kNaN;
    return r;
  }
  const double dof = static_cast<double>(r.n - 2);
  const double denom = (1.0 + r.rho) * (1.0 - r.rho);
  if (denom <= 0) {
    r.p_value = 0.0;  // a perfect monotone relation: t is infinite
    return r;
  }
  const double t = r.rho * std::sqrt(dof / denom);
  const boost::math::students_t_distribution<double> student(dof);
  r.p_value = 2.0 * boost::math::cdf(boost::math::complement(student, std::fabs(t)));
  return r;
}

StatusOr<RankCorrelation> OrderDrift(std::span<const double> values_in_sample_order) {
  std::vector<double> order(values_in_sample_order.size());
  std::iota(order.begin(), order.end(), 0.0);
  return SpearmanCorrelation(order, values_in_sample_order);
}

}  // namespace tare::stats
