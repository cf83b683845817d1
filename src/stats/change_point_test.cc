#include "stats/change_point.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

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
