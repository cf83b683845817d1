#include "stats/drift.h"

#include <cmath>

#include <gtest/gtest.h>

#include "stats/test_vectors.h"

namespace tare::stats {
namespace {

using testing::Doubles;
using testing::RelNear;
using testing::Vectors;

// Expected: scipy 1.10.1 scipy.stats.spearmanr(range(n), values) (testdata/gen_vectors.py):
// trends, pure noise, perfect monotone series (p = 0), ties, a 1e9 offset, n = 3 and n = 400.
TEST(Drift, MatchesScipySpearman) {
  const auto& cases = Vectors()["spearman"]["drift"];
  ASSERT_GE(cases.size(), 6u);
  for (const auto& c : cases) {
    const std::vector<double> v = Doubles(c["values"]);
    SCOPED_TRACE(::testing::Message() << "n=" << v.size());
    auto r = OrderDrift(v);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(RelNear(r->rho, c["rho"], 1e-12));
    if (c["p"].get<double>() == 0.0) {
      EXPECT_EQ(r->p_value, 0.0);
    } else {
      EXPECT_TRUE(RelNear(r->p_value, c["p"], 1e-10));
    }
  }
}

TEST(Drift, SpearmanOfTwoSeriesMatchesScipy) {
  for (const auto& c : Vectors()["spearman"]["pairs"]) {
    auto r = SpearmanCorrelation(Doubles(c["x"]), Doubles(c["y"]));
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(RelNear(r->rho, c["rho"], 1e-12));
    EXPECT_TRUE(RelNear(r->p_value, c["p"], 1e-10));
  }
}

TEST(Drift, UndefinedForConstantOrTinySeries) {
  auto constant = OrderDrift(std::vector<double>(20, 7.0));
  ASSERT_TRUE(constant.ok());
  EXPECT_TRUE(std::isnan(constant->rho));
  EXPECT_TRUE(std::isnan(constant->p_value));
  auto two = OrderDrift(std::vector<double>{1.0, 2.0});
  ASSERT_TRUE(two.ok());
  EXPECT_TRUE(std::isnan(two->rho));
  EXPECT_FALSE(SpearmanCorrelation(std::vector<double>{1, 2, 3}, std::vector<double>{1, 2}).ok());
  EXPECT_FALSE(OrderDrift(std::vector<double>{1, std::nan(""), 3}).ok());
}

}  // namespace
}  // namespace tare::stats
