#include "stats/binomial.h"

#include <cmath>

#include <gtest/gtest.h>

#include "stats/test_vectors.h"

namespace tare::stats {
namespace {

using testing::RelNear;
using testing::Vectors;

// The three values the oracle relies on (scipy 1.10.1: scipy.stats.binom.cdf(4, 9, p)).
TEST(Binomial, TailValuesTheOracleUses) {
  EXPECT_TRUE(RelNear(BinomialCdf(4, 9, 0.8), 0.01958144, 1e-12));
  EXPECT_TRUE(RelNear(BinomialCdf(4, 9, 0.7), 0.09880866, 1e-12));
  EXPECT_TRUE(RelNear(BinomialCdf(4, 9, 0.6), 0.26656768, 1e-12));
}

// Expected: scipy 1.10.1 scipy.stats.binom.pmf/cdf/sf (testdata/gen_vectors.py), including far
// tails (P(X > 990) for Binomial(1000, 1/2) is ~1e-280): relative, not absolute, agreement.
TEST(Binomial, MatchesScipyIncludingTails) {
  const auto& cases = Vectors()["binomial"]["cases"];
  ASSERT_GE(cases.size(), 20u);
  for (const auto& c : cases) {
    const int64_t k = c["k"], n = c["n"];
    const double p = c["p"];
    SCOPED_TRACE(::testing::Message() << "k=" << k << " n=" << n << " p=" << p);
    EXPECT_TRUE(RelNear(BinomialPmf(k, n, p), c["pmf"], 1e-11));
    EXPECT_TRUE(RelNear(BinomialCdf(k, n, p), c["cdf"], 1e-11));
    EXPECT_TRUE(RelNear(BinomialSf(k, n, p), c["sf"], 1e-11));
  }
}

TEST(Binomial, EdgesOfTheSupport) {
  EXPECT_EQ(BinomialCdf(-1, 10, 0.3), 0.0);
  EXPECT_EQ(BinomialCdf(10, 10, 0.3), 1.0);
  EXPECT_EQ(BinomialCdf(11, 10, 0.3), 1.0);
  EXPECT_EQ(BinomialSf(-1, 10, 0.3), 1.0);
  EXPECT_EQ(BinomialSf(10, 10, 0.3), 0.0);
  EXPECT_EQ(BinomialPmf(-1, 10, 0.3), 0.0);
  EXPECT_EQ(BinomialPmf(11, 10, 0.3), 0.0);
  EXPECT_EQ(BinomialPmf(0, 0, 0.3), 1.0);
  EXPECT_EQ(BinomialCdf(0, 0, 0.3), 1.0);
}

TEST(Binomial, InvalidParametersAreNaNNotExceptions) {
  EXPECT_TRUE(std::isnan(BinomialPmf(1, 10, 1.5)));
  EXPECT_TRUE(std::isnan(BinomialCdf(1, 10, -0.1)));
  EXPECT_TRUE(std::isnan(BinomialSf(1, -3, 0.5)));
  EXPECT_TRUE(std::isnan(BinomialCdf(1, 10, std::nan(""))));
}

TEST(Binomial, CdfAndSfAreComplementary) {
  for (int64_t k = 0; k < 30; ++k) {
    EXPECT_NEAR(BinomialCdf(k, 30, 0.37) + BinomialSf(k, 30, 0.37), 1.0, 1e-14);
  }
}

// Expected: scipy 1.10.1 scipy.stats.binomtest(k, n).proportion_ci(method='exact').
TEST(ClopperPearson, MatchesScipy) {
  const auto& cases = Vectors()["binomial"]["clopper_pearson"];
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    const int64_t k = c["k"], n = c["n"];
    SCOPED_TRACE(::testing::Message() << "k=" << k << " n=" << n);
    const Interval ci = ClopperPearson(k, n, c["confidence"]);
    EXPECT_TRUE(RelNear(ci.lo, c["lo"], 1e-10));
    EXPECT_TRUE(RelNear(ci.hi, c["hi"], 1e-10));
  }
}

TEST(ClopperPearson, EndsAreExactAtZeroAndN) {
  EXPECT_EQ(ClopperPearson(0, 12, 0.95).lo, 0.0);
  EXPECT_EQ(ClopperPearson(12, 12, 0.95).hi, 1.0);
  // k = 0: hi solves (1 - p)^n = alpha/2.
  EXPECT_NEAR(ClopperPearson(0, 12, 0.95).hi, 1.0 - std::pow(0.025, 1.0 / 12), 1e-13);
  const Interval none = ClopperPearson(0, 0, 0.95);
  EXPECT_EQ(none.lo, 0.0);
  EXPECT_EQ(none.hi, 1.0);
  EXPECT_TRUE(std::isnan(ClopperPearson(13, 12, 0.95).lo));
  EXPECT_TRUE(std::isnan(ClopperPearson(3, 12, 1.0).hi));
}

}  // namespace
}  // namespace tare::stats
