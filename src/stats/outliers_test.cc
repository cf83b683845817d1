#include "stats/outliers.h"

#include <cmath>

#include <gtest/gtest.h>

#include "stats/test_vectors.h"

namespace tare::stats {
namespace {

using testing::Doubles;
using testing::RelNear;
using testing::Vectors;

// Expected: numpy 1.24.2 numpy.quantile (linear) fences and counts, scipy 1.10.1
// scipy.stats.median_abs_deviation(scale=1.0) (testdata/gen_vectors.py). Includes all-equal
// values (MAD = 0), n = 1 and heavy tails (t with 2 degrees of freedom).
TEST(Outliers, MatchNumpyAndScipy) {
  const auto& cases = Vectors()["outliers"]["cases"];
  ASSERT_GE(cases.size(), 6u);
  for (const auto& c : cases) {
    const std::vector<double> v = Doubles(c["values"]);
    SCOPED_TRACE(::testing::Message() << "n=" << v.size() << " first=" << v[0]);
    const TukeyOutliers t = CountTukeyOutliers(v);
    EXPECT_TRUE(RelNear(t.q1, c["q1"], 1e-14));
    EXPECT_TRUE(RelNear(t.q3, c["q3"], 1e-14));
    EXPECT_TRUE(RelNear(t.low_fence, c["low_fence"], 1e-13));
    EXPECT_TRUE(RelNear(t.high_fence, c["high_fence"], 1e-13));
    EXPECT_EQ(t.low, c["tukey_low"].get<int64_t>());
    EXPECT_EQ(t.high, c["tukey_high"].get<int64_t>());
    const MadOutliers m = CountMadOutliers(v);
    EXPECT_TRUE(RelNear(m.median, c["median"], 1e-15));
    EXPECT_TRUE(RelNear(m.mad, c["mad"], 1e-13));
    EXPECT_EQ(m.low, c["mad_low"].get<int64_t>());
    EXPECT_EQ(m.high, c["mad_high"].get<int64_t>());
  }
}

TEST(Outliers, CountsWithoutRemoving) {
  const std::vector<double> v = {1.0, 2.0, 3.0, 4.0, 100.0};
  EXPECT_EQ(CountTukeyOutliers(v).high, 1);
  EXPECT_EQ(v.size(), 5u);  // the input is a const view; nothing to remove from
}

TEST(Outliers, DeterministicCountsWithOneDifferentValue) {
  // MAD = 0: the one value off the median is counted (further out than the bulk's zero spread).
  const std::vector<double> v = {500, 500, 500, 500, 501, 500, 500};
  const MadOutliers m = CountMadOutliers(v);
  EXPECT_EQ(m.mad, 0.0);
  EXPECT_EQ(m.high, 1);
  EXPECT_EQ(m.low, 0);
}

TEST(Outliers, EmptyInput) {
  const TukeyOutliers t = CountTukeyOutliers({});
  EXPECT_TRUE(std::isnan(t.q1));
  EXPECT_EQ(t.low + t.high, 0);
  const MadOutliers m = CountMadOutliers({});
  EXPECT_TRUE(std::isnan(m.mad));
  EXPECT_EQ(m.low + m.high, 0);
}

}  // namespace
}  // namespace tare::stats
