#include "stats/two_sample_shift.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/core.h>

#include "stats/mann_whitney.h"
#include "stats/summary.h"

namespace tare::stats {
namespace {

// p-value of the Mann–Whitney test of (y - theta) against x.
StatusOr<double> PValueAt(std::span<const double> x, std::span<const double> y, double theta,
                          std::vector<double>& shifted) {
  for (size_t j = 0; j < y.size(); ++j) shifted[j] = y[j] - theta;
  auto r = MannWhitneyU(shifted, x);
  if (!r.ok()) return r.status();
  return r->p_value;
}

}  // namespace

StatusOr<ShiftInterval> TwoSampleShift(std::span<const double> x, std::span<const double> y, double confidence) {
  if (x.empty() || y.empty()) return Status::InvalidArgument("two-sample shift: a sample is empty");
  if (!(confidence > 0 && confidence < 1)) {
    return Status::InvalidArgument(fmt::format("two-sample shift: confidence {} is not in (0, 1)", confidence));
  }
  const auto m = static_cast<int64_t>(x.size());
  const auto n = static_cast<int64_t>(y.size());
  if (m * n > kTwoSampleShiftMaxPairs) {
    return Status::InvalidArgument(
        fmt::format("two-sample shift: {} x {} samples are more than the {} pairs this method materializes", m, n,
                    kTwoSampleShiftMaxPairs));
  }
  for (double v : x) {
    if (!std::isfinite(v)) return Status::InvalidArgument("two-sample shift: a value is not finite");
  }
  for (double v : y) {
    if (!std::isfinite(v)) return Status::InvalidArgument("two-sample shift: a value is not finite");
  }

  std::vector<double> d;
  d.reserve(static_cast<size_t>(m * n));
  for (double yj : y) {
    for (double xi : x) d.push_back(yj - xi);
  }
  std::sort(d.begin(), d.end());
  ShiftInterval out;
  out.m = m;
  out.n = n;
  out.estimate = Quantile(d, 0.5);
  std::vector<double> distinct = d;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());

  // Probe points: below every D, the midpoint of every gap, above every D. Index g in
  // [0, distinct.size()] is the gap left of distinct[g] (g = size: right of the last). Acceptance
  // is contiguous around the estimate (p rises as theta nears it, then falls), so each end is
  // found by binary search over gaps.
  const size_t k = distinct.size();
  auto probe = [&](size_t g) {
    if (g == 0) return distinct[0] - 1.0 - std::fabs(distinct[0]);
    if (g == k) return distinct[k - 1] + 1.0 + std::fabs(distinct[k - 1]);
    return distinct[g - 1] + (distinct[g] - distinct[g - 1]) / 2;
  };
  std::vector<double> shifted(y.size());
  const double alpha = 1 - confidence;
  auto accepted = [&](size_t g) -> StatusOr<bool> {
    auto p = PValueAt(x, y, probe(g), shifted);
    if (!p.ok()) return p.status();
    return *p > alpha;
  };
  // The gap containing the estimate: the first g with distinct[g] > estimate, or the estimate's
  // own value when it is a D (then either neighbouring gap; both touch it).
  size_t mid = static_cast<size_t>(std::upper_bound(distinct.begin(), distinct.end(), out.estimate) - distinct.begin());
  auto mid_ok = accepted(mid);
  if (!mid_ok.ok()) return mid_ok.status();
  if (!*mid_ok && mid > 0) {
    mid -= 1;
    mid_ok = accepted(mid);
    if (!mid_ok.ok()) return mid_ok.status();
  }
  if (!*mid_ok) {
    // Nothing accepted around the centre cannot happen for a two-sided test at the median, but a
    // degenerate sample (all D equal) has no interior gap: the interval is that one value.
    out.lo = out.hi = out.estimate;
    out.bounded = true;
    return out;
  }
  // Lowest accepted gap: search in [0, mid].
  size_t lo_g = 0, hi_g = mid;
  auto first_ok = accepted(0);
  if (!first_ok.ok()) return first_ok.status();
  if (*first_ok) {
    lo_g = 0;
  } else {
    // invariant: gap lo_g rejected, gap hi_g accepted
    while (hi_g - lo_g > 1) {
      size_t c = lo_g + (hi_g - lo_g) / 2;
      auto ok = accepted(c);
      if (!ok.ok()) return ok.status();
      (*ok ? hi_g : lo_g) = c;
    }
    lo_g = hi_g;
  }
  // Highest accepted gap: search in [mid, k].
  size_t a = mid, b = k;
  auto last_ok = accepted(k);
  if (!last_ok.ok()) return last_ok.status();
  size_t hi_gap;
  if (*last_ok) {
    hi_gap = k;
  } else {
    // invariant: gap a accepted, gap b rejected
    while (b - a > 1) {
      size_t c = a + (b - a) / 2;
      auto ok = accepted(c);
      if (!ok.ok()) return ok.status();
      (*ok ? a : b) = c;
    }
    hi_gap = a;
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  out.lo = lo_g == 0 ? -kInf : distinct[lo_g - 1];
  out.hi = hi_gap == k ? kInf : distinct[hi_gap];
  out.bounded = std::isfinite(out.lo) && std::isfinite(out.hi);
  return out;
}

}  // namespace tare::stats
