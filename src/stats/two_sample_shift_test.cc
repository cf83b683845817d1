#include "stats/two_sample_shift.h"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "stats/test_vectors.h"

namespace tare::stats {
namespace {

using testing::Doubles;
using testing::Vectors;

// Expected: numpy.median of the differences, and the interval found by probing every gap between
// distinct differences (and both outer gaps) with scipy 1.10.1 scipy.stats.mannwhitneyu
// (testdata/gen_vectors.py): small exact cases, asymptotic ones, ties, and one case too small for
// a bounded interval (m = n = 3 at 95%).
TEST(TwoSampleShift, MatchesScipyInversion) {
  const auto& cases = Vectors()["two_sample_shift"]["cases"];
  ASSERT_GE(cases.size(), 8u);
  int unbounded = 0;
  for (const auto& c : cases) {
    const std::vector<double> x = Doubles(c["x"]), y = Doubles(c["y"]);
    SCOPED_TRACE(::testing::Message() << "m=" << x.size() << " n=" << y.size());
    auto r = TwoSampleShift(x, y, c["confidence"].get<double>());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_DOUBLE_EQ(r->estimate, c["estimate"].get<double>());
    if (c["lo"].is_null()) {
      EXPECT_EQ(r->lo, -std::numeric_limits<double>::infinity());
      EXPECT_FALSE(r->bounded);
      ++unbounded;
    } else {
      EXPECT_DOUBLE_EQ(r->lo, c["lo"].get<double>());
    }
    if (c["hi"].is_null()) {
      EXPECT_EQ(r->hi, std::numeric_limits<double>::infinity());
      EXPECT_FALSE(r->bounded);
    } else {
      EXPECT_DOUBLE_EQ(r->hi, c["hi"].get<double>());
    }
    if (!c["lo"].is_null() && !c["hi"].is_null()) {
      EXPECT_TRUE(r->bounded);
    }
    EXPECT_LE(r->lo, r->estimate);
    EXPECT_GE(r->hi, r->estimate);
  }
  EXPECT_EQ(unbounded, 1);
}

TEST(TwoSampleShift, ConstantSamplesGiveTheExactDifference) {
  // Deterministic metrics: every value equal on each side; every difference is 7.
  const std::vector<double> x(10, 100.0), y(12, 107.0);
  auto r = TwoSampleShift(x, y, 0.95);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->estimate, 7.0);
  EXPECT_EQ(r->lo, 7.0);
  EXPECT_EQ(r->hi, 7.0);
  EXPECT_TRUE(r->bounded);
}

TEST(TwoSampleShift, RejectsBadInput) {
  const std::vector<double> some = {1, 2, 3};
  EXPECT_FALSE(TwoSampleShift(some, {}, 0.95).ok());
  EXPECT_FALSE(TwoSampleShift(some, std::vector<double>{1, std::nan("")}, 0.95).ok());
  EXPECT_FALSE(TwoSampleShift(some, some, 1.0).ok());
  EXPECT_FALSE(TwoSampleShift(some, some, 0.0).ok());
  std::vector<double> big(2001, 1.0);
  auto r = TwoSampleShift(big, big, 0.95);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("pairs"), std::string::npos);
}

}  // namespace
}  // namespace tare::stats
