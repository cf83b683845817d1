#include "stats/change_point.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "stats/summary.h"

namespace tare::stats {
namespace {

// sigma from the median absolute successive difference: 1.4826 / sqrt(2).
const double kMadToSigmaForDifferences = 1.4826 / std::numbers::sqrt2;

double SegmentMedian(std::span<const double> series, int64_t begin, int64_t end) {
  return Median(series.subspan(static_cast<size_t>(begin), static_cast<size_t>(end - begin)));
}

double Score(double median_left, double median_right, int64_t n_left, int64_t n_right,
             double sigma) {
  const double shift = std::fabs(median_right - median_left);
  if (shift == 0) return 0.0;
  if (sigma == 0) return std::numeric_limits<double>::infinity();
  const double se = sigma * std::sqrt(std::numbers::pi / 2.0 *
                                      (1.0 / static_cast<double>(n_left) +
                                       1.0 / static_cast<double>(n_right)));
  return shift / se;
}

// Sum of |x - median| over [begin, end).
double L1Cost(std::span<const double> series, int64_t begin, int64_t end) {
  const double m = SegmentMedian(series, begin, end);
  double cost = 0;
  for (int64_t i = begin; i < end; ++i) cost += std::fabs(series[static_cast<size_t>(i)] - m);
  return cost;
}

void Segment(std::span<const double> series, int64_t begin, int64_t end, double sigma,
             const ChangePointOptions& options, std::vector<ChangePoint>& found) {
  const int64_t m = std::max<int64_t>(options.min_segment, 1);
  if (end - begin < 2 * m) return;
  int64_t split = -1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (int64_t t = begin + m; t <= end - m; ++t) {
    const double cost = L1Cost(series, begin, t) + L1Cost(series, t, end);
    if (cost < best_cost) {
      best_cost = cost;
      split = t;
    }
  }
  const double left = SegmentMedian(series, begin, split);
  const double right = SegmentMedian(series, split, end);
  const double relative = left != 0 ? std::fabs(right / left - 1.0)
                                    : (right != 0 ? std::numeric_limits<double>::infinity() : 0);
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

std::vector<ChangePoint> DetectChangePoints(std::span<const double> series,
                                            const ChangePointOptions& options) {
  std::vector<ChangePoint> found;
  const int64_t n = static_cast<int64_t>(series.size());
  Segment(series, 0, n, SuccessiveDifferenceSigma(series), options, found);
  std::sort(found.begin(), found.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  for (size_t i = 0; i < found.size(); ++i) {
    const int64_t seg_begin = i == 0 ? 0 : found[i - 1].index;
    const int64_t seg_end = i + 1 < found.size() ? found[i + 1].index : n;
    found[i].median_before = SegmentMedian(series, seg_begin, found[i].index);
    found[i].median_after = SegmentMedian(series, found[i].index, seg_end);
  }
  return found;
}

}  // namespace tare::stats
