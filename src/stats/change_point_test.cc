#include "stats/change_point.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "stats/summary.h"

namespace tare::stats {
namespace {

// Normal noise from a seeded engine via Box–Muller (std::normal_distribution's output is
// implementation-defined; this keeps the series identical on every platform).
std::vector<double> Noise(uint64_t seed, int n, double sigma) {
  std::mt19937_64 rng(seed);
  auto uniform = [&] { return (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0; };
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    const double u1 = uniform();  // separate statements: argument order is unspecified
    const double u2 = uniform();
    out.push_back(sigma * std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2));
  }
  return out;
}

// The detector as first written: the L1 cost of every split summed directly, O(n^2 log n). The
// running-median version must choose exactly the same splits.
void ReferenceSegment(std::span<const double> x, int64_t begin, int64_t end, double sigma, const ChangePointOptions& o,
                      std::vector<ChangePoint>& found) {
  const int64_t m = std::max<int64_t>(o.min_segment, 1);
  if (end - begin < 2 * m) return;
  auto median = [&](int64_t b, int64_t e) { return Median(x.subspan(b, e - b)); };
  auto cost = [&](int64_t b, int64_t e) {
    const double med = median(b, e);
    double c = 0;
    for (int64_t i = b; i < e; ++i) c += std::fabs(x[i] - med);
    return c;
  };
  int64_t split = -1;
  double best = std::numeric_limits<double>::infinity();
  for (int64_t t = begin + m; t <= end - m; ++t) {
    const double c = cost(begin, t) + cost(t, end);
    if (c < best) {
      best = c;
      split = t;
    }
  }
  const double left = median(begin, split), right = median(split, end);
  const double relative =
      left != 0 ? std::fabs(right / left - 1.0) : (right != 0 ? std::numeric_limits<double>::infinity() : 0);
  const double shift = std::fabs(right - left);
  double score = 0;
  if (shift != 0) {
    score = sigma == 0 ? std::numeric_limits<double>::infinity()
                       : shift / (sigma * std::sqrt(M_PI / 2.0 * (1.0 / (split - begin) + 1.0 / (end - split))));
  }
  if (score < o.threshold || relative < o.min_relative_change || score == 0) return;
  found.push_back({split, 0, 0, score});
  ReferenceSegment(x, begin, split, sigma, o, found);
  ReferenceSegment(x, split, end, sigma, o, found);
}

std::vector<int64_t> ReferenceSplits(const std::vector<double>& x, const ChangePointOptions& o) {
  std::vector<ChangePoint> found;
  ReferenceSegment(x, 0, static_cast<int64_t>(x.size()), SuccessiveDifferenceSigma(x), o, found);
  std::vector<int64_t> out;
  for (const auto& c : found) out.push_back(c.index);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int64_t> Splits(const std::vector<ChangePoint>& cps) {
  std::vector<int64_t> out;
  for (const auto& c : cps) out.push_back(c.index);
  return out;
}

TEST(ChangePoint, RunningMediansChooseTheSplitsTheDirectSumChooses) {
  // Random step series: continuous noise (no ties), values near 1e9 (ns: the sums must not
  // cancel), and small integers (many exact ties, where the earliest split must win in both).
  int compared = 0, with_points = 0;
  for (uint64_t seed = 1; seed <= 240; ++seed) {
    std::mt19937_64 rng(seed);
    const int n = 10 + static_cast<int>(rng() % 200);
    const int kind = static_cast<int>(seed % 3);
    std::vector<double> x = Noise(seed * 7919, n, kind == 2 ? 1.5 : 1.0);
    double level = kind == 1 ? 1e9 : 100.0;
    for (int i = 0; i < n; ++i) {
      if (rng() % 40 == 0) level += (static_cast<double>(rng() % 9) - 4.0) * (kind == 1 ? 3e3 : 3.0);
      x[i] = kind == 1 ? level + x[i] * 1e3 : level + x[i];
      if (kind == 2) x[i] = std::round(x[i]);
    }
    for (int64_t min_segment : {1, 3, 5}) {
      const ChangePointOptions o{.min_segment = min_segment, .threshold = 3.0};
      EXPECT_EQ(Splits(DetectChangePoints(x, o)), ReferenceSplits(x, o))
          << "seed " << seed << " n " << n << " kind " << kind << " min_segment " << min_segment;
      ++compared;
      with_points += ReferenceSplits(x, o).empty() ? 0 : 1;
    }
  }
  EXPECT_EQ(compared, 720);
  EXPECT_GT(with_points, 240);  // the comparison covered series with change points, not only empty ones
}

TEST(ChangePoint, FindsAKnownStepInNoise) {
  // 60 runs at 100 ms, then 40 at 103 ms, noise sigma 1 ms: the step is 3 sigma. A run of a few
  // high noise values next to the step can pull the split a few places early.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::vector<double> s = Noise(seed, 100, 1.0);
    for (int i = 0; i < 100; ++i) s[i] += i < 60 ? 100.0 : 103.0;
    const auto cps = DetectChangePoints(s);
    ASSERT_EQ(cps.size(), 1u) << "seed " << seed;
    EXPECT_NEAR(static_cast<double>(cps[0].index), 60.0, 5.0) << "seed " << seed;
    EXPECT_NEAR(cps[0].median_before, 100.0, 0.75);
    EXPECT_NEAR(cps[0].median_after, 103.0, 0.75);
    EXPECT_GE(cps[0].score, 5.0);
  }
}

TEST(ChangePoint, FindsTwoStepsAndOrdersThem) {
  std::vector<double> s = Noise(7, 150, 0.5);
  for (int i = 0; i < 150; ++i) s[i] += i < 50 ? 10.0 : (i < 110 ? 14.0 : 12.0);
  const auto cps = DetectChangePoints(s);
  ASSERT_EQ(cps.size(), 2u);
  EXPECT_NEAR(static_cast<double>(cps[0].index), 50.0, 2.0);
  EXPECT_NEAR(static_cast<double>(cps[1].index), 110.0, 2.0);
  EXPECT_NEAR(cps[1].median_before, 14.0, 0.5);
  EXPECT_NEAR(cps[1].median_after, 12.0, 0.5);
}

TEST(ChangePoint, PureNoiseGivesNoChangePoints) {
  // The false-detection check the default threshold was chosen by: 200 series of 200 values.
  int false_detections = 0;
  for (uint64_t seed = 100; seed < 300; ++seed) {
    std::vector<double> s = Noise(seed, 200, 2.0);
    for (double& x : s) x += 1000.0;
    false_detections += static_cast<int>(DetectChangePoints(s).size());
  }
  EXPECT_EQ(false_detections, 0);
}

TEST(ChangePoint, DeterministicSeriesStepsExactly) {
  // Instruction counts under the sim instrument: no noise, one 0.5% step at index 30.
  std::vector<double> s(50, 1000000.0);
  for (int i = 30; i < 50; ++i) s[i] = 1005000.0;
  const auto cps = DetectChangePoints(s);
  ASSERT_EQ(cps.size(), 1u);
  EXPECT_EQ(cps[0].index, 30);
  EXPECT_TRUE(std::isinf(cps[0].score));
  // A single odd run is not a level shift.
  std::vector<double> spike(50, 1000000.0);
  spike[20] = 2000000.0;
  EXPECT_TRUE(DetectChangePoints(spike).empty());
}

TEST(ChangePoint, RespectsMinimumSegmentAndRelativeChange) {
  // Only 2 runs at the new level: no segment of 5 has it as its median.
  std::vector<double> s(40, 100.0);
  s[38] = s[39] = 200.0;
  EXPECT_TRUE(DetectChangePoints(s, {.min_segment = 5}).empty());
  const auto cps = DetectChangePoints(s, {.min_segment = 2});
  ASSERT_EQ(cps.size(), 1u);
  EXPECT_EQ(cps[0].index, 38);
  std::vector<double> small(40, 100.0);
  for (int i = 20; i < 40; ++i) small[i] = 100.5;  // +0.5%
  EXPECT_EQ(DetectChangePoints(small).size(), 1u);
  EXPECT_TRUE(DetectChangePoints(small, {.min_relative_change = 0.01}).empty());
}

TEST(ChangePoint, ShortAndEmptySeries) {
  EXPECT_TRUE(DetectChangePoints({}).empty());
  EXPECT_TRUE(DetectChangePoints(std::vector<double>{1, 2, 3}).empty());
  EXPECT_EQ(SuccessiveDifferenceSigma({}), 0.0);
}

}  // namespace
}  // namespace tare::stats
