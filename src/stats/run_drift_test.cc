#include "stats/run_drift.h"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

namespace tare::stats {
namespace {

// Expected values computed independently in Python 3 (math.log, statistics.median):
//   d = [abs(log(m[i]/m[i-1])) ...]; s = 1.4826 * median(d); bound = expm1(2.5758293035489004 * s)
TEST(RunDriftTest, TheScaleOfConsecutiveDifferencesGivesTheNinetyNinePercentBound) {
  const std::vector<double> m = {100, 101, 99, 100.5, 100};
  auto d = RunToRunDrift(m);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->pairs, 4);
  EXPECT_EQ(d->runs, 5);
  EXPECT_NEAR(d->sigma_log, 0.018523758751787377, 1e-12);
  EXPECT_NEAR(d->bound, 0.04887067801104268, 1e-12);
}

TEST(RunDriftTest, ARealStepInTheSeriesDoesNotInflateIt) {
  // A +50% change between runs 5 and 6: one difference of 0.405 among seven of about 1%.
  const std::vector<double> m = {100, 101, 99, 100.5, 100, 150, 151, 149.5, 150};
  auto d = RunToRunDrift(m);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->pairs, 8);
  EXPECT_NEAR(d->bound, 0.0387964576970419, 1e-12);
  EXPECT_LT(d->bound, 0.05) << "the step is not the drift";
  // With the step named as a break, its pair is left out.
  const std::vector<int64_t> breaks = {5};
  auto without = RunToRunDrift(m, breaks);
  ASSERT_TRUE(without.has_value());
  EXPECT_EQ(without->pairs, 7);
  EXPECT_EQ(without->runs, 9);
  EXPECT_NEAR(without->bound, 0.03873077846632161, 1e-12);
}

TEST(RunDriftTest, TooFewUsableDifferencesGiveNone) {
  EXPECT_FALSE(RunToRunDrift(std::vector<double>{}).has_value());
  EXPECT_FALSE(RunToRunDrift(std::vector<double>{100, 101, 99}).has_value());  // 2 pairs
  // A failed run (NaN) or a zero breaks the chain: 100,101 | 99,100 -> 2 pairs.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(RunToRunDrift(std::vector<double>{100, 101, nan, 99, 100}).has_value());
  auto four = RunToRunDrift(std::vector<double>{100, 101, 0, 99, 100, 100.5});
  ASSERT_TRUE(four.has_value());
  EXPECT_EQ(four->pairs, 3);
  EXPECT_EQ(four->runs, 5);
  // Equal medians: no drift at all.
  auto flat = RunToRunDrift(std::vector<double>{7, 7, 7, 7});
  ASSERT_TRUE(flat.has_value());
  EXPECT_EQ(flat->bound, 0);
}

}  // namespace
}  // namespace tare::stats
