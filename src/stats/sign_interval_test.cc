#include "stats/sign_interval.h"

#include <cmath>

#include <gtest/gtest.h>

#include "stats/test_vectors.h"

namespace tare::stats {
namespace {

using testing::Doubles;
using testing::RelNear;
using testing::Vectors;

// The check values from the design (Conover 1999, Table A3 gives the same ranks).
TEST(SignTest, RanksAt95Percent) {
  const std::pair<int64_t, int64_t> expected[] = {{6, 1}, {7, 1}, {9, 2}, {10, 2}, {12, 3}, {15, 4}, {20, 6}, {25, 8}};
  for (auto [n, k] : expected) {
    auto r = SignTestRanksFor(n, 0.95);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->k, k) << "n=" << n;
    EXPECT_GE(r->coverage, 0.95);
  }
  EXPECT_NEAR(SignTestRanksFor(10, 0.95)->coverage, 0.978515625, 1e-15);  // 1 - 2*11/1024
}

TEST(SignTest, TooFewPairsSaysHowManyAreNeeded) {
  auto r = SignTestRanksFor(5, 0.95);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "n=5 pairs cannot give a 95% sign-test interval; need at least 6");
  EXPECT_EQ(SignTestRanksFor(7, 0.99).status().message(),
            "n=7 pairs cannot give a 99% sign-test interval; need at least 8");
  EXPECT_FALSE(SignTestRanksFor(0, 0.95).ok());
  EXPECT_EQ(MinimumSignTestCount(0.95), 6);
  EXPECT_EQ(MinimumSignTestCount(0.99), 8);
  EXPECT_EQ(MinimumSignTestCount(0.5), 2);
}

TEST(SignTest, RejectsConfidenceOutsideTheUnitInterval) {
  for (double c : {0.0, 1.0, 95.0, -0.5}) {
    auto r = SignTestRanksFor(20, c);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  }
}

// Expected: k = largest with 1 - 2 scipy.stats.binom.cdf(k-1, n, 1/2) >= confidence, scipy 1.10.1
// (testdata/gen_vectors.py), for n = 1..40 and up to 1000 at four confidences.
TEST(SignTest, RanksMatchScipyBinomial) {
  const auto& cases = Vectors()["sign_test"]["ranks"];
  ASSERT_GE(cases.size(), 150u);
  for (const auto& c : cases) {
    const int64_t n = c["n"];
    const double conf = c["confidence"];
    auto r = SignTestRanksFor(n, conf);
    if (c["k"].is_null()) {
      EXPECT_FALSE(r.ok()) << "n=" << n << " conf=" << conf;
      continue;
    }
    ASSERT_TRUE(r.ok()) << "n=" << n << " conf=" << conf << ": " << r.status().ToString();
    EXPECT_EQ(r->k, c["k"].get<int64_t>()) << "n=" << n << " conf=" << conf;
    EXPECT_TRUE(RelNear(r->coverage, c["coverage"], 1e-12)) << "n=" << n;
  }
}

// Expected: numpy order statistics of log(head/base) at scipy's ranks (gen_vectors.py), including
// magnitudes from 1e-310 to 1e308 whose ratio under- or overflows.
TEST(SignTest, PairedChangeMatchesReference) {
  const auto& cases = Vectors()["sign_test"]["paired"];
  ASSERT_GE(cases.size(), 5u);
  for (const auto& c : cases) {
    const std::vector<double> base = Doubles(c["base"]), head = Doubles(c["head"]);
    SCOPED_TRACE(::testing::Message() << "n=" << base.size());
    auto r = SignTestPairedChange(base, head, c["confidence"]);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->rank_lo, c["k"].get<int64_t>());
    EXPECT_EQ(r->rank_hi, static_cast<int64_t>(base.size()) + 1 - c["k"].get<int64_t>());
    EXPECT_EQ(r->n, static_cast<int64_t>(base.size()));
    EXPECT_TRUE(RelNear(r->log_estimate, c["log_median"], 1e-12));
    EXPECT_TRUE(RelNear(r->log_lo, c["log_lo"], 1e-12));
    EXPECT_TRUE(RelNear(r->log_hi, c["log_hi"], 1e-12));
    EXPECT_TRUE(RelNear(r->estimate, c["estimate"], 1e-11));
    EXPECT_TRUE(RelNear(r->lo, c["lo"], 1e-11));
    EXPECT_TRUE(RelNear(r->hi, c["hi"], 1e-11));
    EXPECT_EQ(r->method, "sign-test");
    EXPECT_EQ(r->requested_confidence, c["confidence"].get<double>());
    EXPECT_GE(r->confidence, r->requested_confidence);
  }
}

TEST(SignTest, OrderStatisticsAreTakenFromSortedLogRatios) {
  // head/base = 1.01^i for i = -4..5 shuffled: d sorted is i * ln 1.01, n = 10 -> [d(2), d(9)].
  const std::vector<int> steps = {3, -4, 0, 5, -1, 2, -3, 1, 4, -2};
  std::vector<double> base, head;
  for (int s : steps) {
    base.push_back(1000.0);
    head.push_back(1000.0 * std::pow(1.01, s));
  }
  auto r = SignTestPairedChange(base, head, 0.95);
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r->lo, std::pow(1.01, -3) - 1, 1e-12);
  EXPECT_NEAR(r->hi, std::pow(1.01, 4) - 1, 1e-12);
  EXPECT_NEAR(r->estimate, std::pow(1.01, 0.5) - 1, 1e-12);  // median of d = 0.5 ln 1.01
}

TEST(SignTest, IdenticalArmsGiveAZeroWidthIntervalAtZero) {
  const std::vector<double> same(12, 123456.0);
  auto r = SignTestPairedChange(same, same, 0.95);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lo, 0.0);
  EXPECT_EQ(r->hi, 0.0);
  EXPECT_EQ(r->estimate, 0.0);
}

TEST(SignTest, RejectsNonPositiveValuesAndNamesThePair) {
  const std::vector<double> base = {1, 2, 3, 4, 5, 6, 7};
  std::vector<double> head = {1, 2, 0, 4, 5, 6, 7};
  auto r = SignTestPairedChange(base, head, 0.95);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("pair 2: head value 0 is not a positive number"), std::string::npos)
      << r.status().message();
  head[2] = -3;
  EXPECT_FALSE(SignTestPairedChange(base, head, 0.95).ok());
  head[2] = std::nan("");
  EXPECT_FALSE(SignTestPairedChange(base, head, 0.95).ok());
  head[2] = INFINITY;
  EXPECT_FALSE(SignTestPairedChange(base, head, 0.95).ok());
}

TEST(SignTest, RejectsUnpairedLengths) {
  const std::vector<double> base = {1, 2, 3, 4, 5, 6, 7};
  const std::vector<double> head = {1, 2, 3, 4, 5, 6};
  auto r = SignTestPairedChange(base, head, 0.95);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("7 base and 6 head"), std::string::npos);
}

TEST(SignTest, MedianIntervalOfNValuesWithTies) {
  const std::vector<double> v = {2, 2, 2, 1, 3, 2, 2, 2, 9};
  auto r = SignTestMedianInterval(v, 0.95);  // n = 9 -> [d(2), d(8)]
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lo, 2.0);
  EXPECT_EQ(r->hi, 3.0);
  EXPECT_EQ(r->median, 2.0);
}

}  // namespace
}  // namespace tare::stats
