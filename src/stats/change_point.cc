#include "stats/change_point.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <queue>

#include "stats/summary.h"

namespace tare::stats {
namespace {

// sigma from the median absolute successive difference: 1.4826 / sqrt(2).
const double kMadToSigmaForDifferences = 1.4826 / std::numbers::sqrt2;

double SegmentMedian(std::span<const double> series, int64_t begin, int64_t end) {
  return Median(series.subspan(static_cast<size_t>(begin), static_cast<size_t>(end - begin)));
}

double Score(double median_left, double median_right, int64_t n_left, int64_t n_right, double sigma) {
  const double shift = std::fabs(median_right - median_left);
  if (shift == 0) return 0.0;
  if (sigma == 0) return std::numeric_limits<double>::infinity();
  const double se = sigma * std::sqrt(std::numbers::pi / 2.0 *
                                      (1.0 / static_cast<double>(n_left) + 1.0 / static_cast<double>(n_right)));
  return shift / se;
}

// The L1 cost of every prefix of `values`: costs[k] = sum over the first k values of
// |x - median(first k values)|, for k = 0..values.size(). A running median in two heaps (the lower
// half in a max-heap, the upper half in a min-heap) with their sums: for a median m between the
// two halves the cost is (m |L| - sum L) + (sum U - m |U|), which is exactly the direct sum for
// the median Median() returns (the middle value, or the mean of the two middle values, where any
// point between them gives the same cost). O(n log n) for all prefixes at once; the direct sum
// was O(n log n) for each one. Callers centre the values first so the sums do not cancel.
std::vector<double> PrefixL1Costs(std::span<const double> values) {
  std::vector<double> costs(values.size() + 1, 0.0);
  std::priority_queue<double> lower;                                       // max-heap
  std::priority_queue<double, std::vector<double>, std::greater<>> upper;  // min-heap
  double sum_lower = 0;
  double sum_upper = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    const double x = values[k];
    if (lower.empty() || x <= lower.top()) {
      lower.push(x);
      sum_lower += x;
    } else {
      upper.push(x);
      sum_upper += x;
    }
    // Keep |lower| == |upper| or |upper| + 1.
    if (lower.size() > upper.size() + 1) {
      const double moved = lower.top();
      lower.pop();
      sum_lower -= moved;
      upper.push(moved);
      sum_upper += moved;
    } else if (upper.size() > lower.size()) {
      const double moved = upper.top();
      upper.pop();
      sum_upper -= moved;
      lower.push(moved);
      sum_lower += moved;
    }
    const double median = lower.size() > upper.size() ? lower.top() : (lower.top() + upper.top()) / 2;
    const double cost = (median * static_cast<double>(lower.size()) - sum_lower) +
                        (sum_upper - median * static_cast<double>(upper.size()));
    costs[k + 1] = std::max(cost, 0.0);  // rounding must not make a cost negative
  }
  return costs;
}

void Segment(std::span<const double> series, int64_t begin, int64_t end, double sigma,
             const ChangePointOptions& options, std::vector<ChangePoint>& found) {
  const int64_t m = std::max<int64_t>(options.min_segment, 1);
  if (end - begin < 2 * m) return;
  // The values of the segment, centred on its median so the running sums stay small; the costs
  // of [begin, t) come from the prefixes, those of [t, end) from the prefixes of the reversed
  // segment.
  const double centre = SegmentMedian(series, begin, end);
  std::vector<double> forward;
  forward.reserve(static_cast<size_t>(end - begin));
  for (int64_t i = begin; i < end; ++i) forward.push_back(series[static_cast<size_t>(i)] - centre);
  const std::vector<double> left_costs = PrefixL1Costs(forward);
  std::reverse(forward.begin(), forward.end());
  const std::vector<double> right_costs = PrefixL1Costs(forward);
  const int64_t n = end - begin;
  int64_t split = -1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (int64_t t = begin + m; t <= end - m; ++t) {
    const int64_t k = t - begin;
    const double cost = left_costs[static_cast<size_t>(k)] + right_costs[static_cast<size_t>(n - k)];
    if (cost < best_cost) {
      best_cost = cost;
      split = t;
    }
  }
  const double left = SegmentMedian(series, begin, split);
  const double right = SegmentMedian(series, split, end);
  const double relative =
      left != 0 ? std::fabs(right / left - 1.0) : (right != 0 ? std::numeric_limits<double>::infinity() : 0);
  const double score = Score(left, right, split - begin, end - split, sigma);
  if (score < options.threshold || relative < options.min_relative_change || score == 0) return;
  found.push_back({split, 0, 0, score});
  Segment(series, begin, split, sigma, options, found);
  Segment(series, split, end, sigma, options, found);
}

}  // namespace

double SuccessiveDifferenceSigma(std::span<const double> series) {
  if (series.size() < 2) return 0.0;
  std::vector<double> diffs;
  diffs.reserve(series.size() - 1);
  for (size_t i = 0; i + 1 < series.size(); ++i) diffs.push_back(std::fabs(series[i + 1] - series[i]));
  return kMadToSigmaForDifferences * Median(diffs);
}

std::vector<ChangePoint> DetectChangePoints(std::span<const double> series, const ChangePointOptions& options) {
  std::vector<ChangePoint> found;
  const int64_t n = static_cast<int64_t>(series.size());
  Segment(series, 0, n, SuccessiveDifferenceSigma(series), options, found);
  std::sort(found.begin(), found.end(), [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  for (size_t i = 0; i < found.size(); ++i) {
    const int64_t seg_begin = i == 0 ? 0 : found[i - 1].index;
    const int64_t seg_end = i + 1 < found.size() ? found[i + 1].index : n;
    found[i].median_before = SegmentMedian(series, seg_begin, found[i].index);
    found[i].median_after = SegmentMedian(series, found[i].index, seg_end);
  }
  return found;
}

}  // namespace tare::stats
