#include "stats/hodges_lehmann.h"

#include <cmath>

#include <gtest/gtest.h>

#include "stats/sign_interval.h"
#include "stats/test_vectors.h"

namespace tare::stats {
namespace {

using testing::Doubles;
using testing::RelNear;
using testing::Vectors;

// Expected: scipy 1.10.1 scipy.stats.wilcoxon(method='exact', alternative='less') p-values, which
// are P(T+ <= t), on data constructed to have T+ = t (testdata/gen_vectors.py).
TEST(Wilcoxon, ExactDistributionMatchesScipy) {
  const auto& cases = Vectors()["wilcoxon_cdf"]["cases"];
  ASSERT_GE(cases.size(), 40u);
  for (const auto& c : cases) {
    const int64_t n = c["n"], t = c["t"];
    EXPECT_TRUE(RelNear(WilcoxonSignedRankCdf(t, n), c["cdf"], 1e-12)) << "n=" << n << " t=" << t;
  }
  EXPECT_EQ(WilcoxonSignedRankCdf(-1, 10), 0.0);
  EXPECT_EQ(WilcoxonSignedRankCdf(55, 10), 1.0);
  EXPECT_DOUBLE_EQ(WilcoxonSignedRankCdf(0, 10), 1.0 / 1024);
}

// Expected: the estimate is numpy.median of the Walsh averages; the interval is the set of shifts
// theta for which scipy 1.10.1 scipy.stats.wilcoxon(x - theta) does not reject at 1 - confidence
// (method='exact' for n <= 50; method='approx', correction=True above), probed between every two
// adjacent Walsh averages. So both branches of the switch at n = 50 are checked, at n = 50 and 51.
TEST(HodgesLehmann, MatchesInvertedScipyWilcoxonTest) {
  const auto& cases = Vectors()["hodges_lehmann"]["cases"];
  ASSERT_GE(cases.size(), 10u);
  bool saw_exact = false, saw_normal = false;
  for (const auto& c : cases) {
    const std::vector<double> x = Doubles(c["values"]);
    SCOPED_TRACE(::testing::Message() << "n=" << x.size() << " conf=" << c["confidence"]);
    auto r = HodgesLehmann(x, c["confidence"]);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->exact, c["exact"].get<bool>());
    (r->exact ? saw_exact : saw_normal) = true;
    EXPECT_TRUE(RelNear(r->estimate, c["estimate"], 1e-12));
    EXPECT_TRUE(RelNear(r->lo, c["lo"], 1e-12));
    EXPECT_TRUE(RelNear(r->hi, c["hi"], 1e-12));
    EXPECT_GE(r->coverage, c["confidence"].get<double>() - (r->exact ? 0.0 : 0.002));
  }
  EXPECT_TRUE(saw_exact);
  EXPECT_TRUE(saw_normal);
}

TEST(HodgesLehmann, SmallestSamplesUseTheExtremes) {
  // n = 6 at 95%: c = 1 (P(T+ = 0) = 1/64 <= 0.025, P(T+ <= 1) = 2/64 > 0.025).
  const std::vector<double> x = {0.3, -0.1, 0.2, 0.5, 0.1, 0.4};
  auto r = HodgesLehmann(x, 0.95);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->c, 1);
  EXPECT_DOUBLE_EQ(r->lo, -0.1);
  EXPECT_DOUBLE_EQ(r->hi, 0.5);
  EXPECT_DOUBLE_EQ(r->coverage, 1.0 - 2.0 / 64);
  auto few = HodgesLehmann(std::vector<double>{1, 2, 3, 4, 5}, 0.95);
  ASSERT_FALSE(few.ok());
  EXPECT_EQ(few.status().message(), "n=5 values cannot give a 95% Hodges–Lehmann interval; need at least 6");
}

TEST(HodgesLehmann, PairedChangeIsNarrowerThanSignTestOnSymmetricData) {
  std::vector<double> base, head;
  for (int i = 0; i < 40; ++i) {
    base.push_back(1e6);
    // A deterministic symmetric spread of +-2% around +1%.
    head.push_back(1e6 * std::exp(0.01 + 0.02 * std::sin(i * 1.7)));
  }
  auto hl = HodgesLehmannPairedChange(base, head, 0.95);
  auto st = SignTestPairedChange(base, head, 0.95);
  ASSERT_TRUE(hl.ok() && st.ok());
  EXPECT_EQ(hl->method, "hodges-lehmann-exact");
  EXPECT_LT(hl->hi - hl->lo, st->hi - st->lo);
  EXPECT_LT(hl->lo, 0.0101);
  EXPECT_GT(hl->hi, 0.0100);
  EXPECT_EQ(hl->rank_hi, 40 * 41 / 2 + 1 - hl->rank_lo);
}

TEST(HodgesLehmann, RejectsBadInput) {
  EXPECT_EQ(HodgesLehmann(std::vector<double>(10, 1.0), 1.5).status().code(), StatusCode::kInvalidArgument);
  std::vector<double> with_nan(10, 1.0);
  with_nan[3] = std::nan("");
  EXPECT_FALSE(HodgesLehmann(with_nan, 0.95).ok());
  EXPECT_FALSE(HodgesLehmann(std::vector<double>(kHodgesLehmannMaxN + 1, 1.0), 0.95).ok());
}

TEST(HodgesLehmann, AllEqualValues) {
  auto r = HodgesLehmann(std::vector<double>(8, 0.25), 0.95);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lo, 0.25);
  EXPECT_EQ(r->hi, 0.25);
  EXPECT_EQ(r->estimate, 0.25);
}

}  // namespace
}  // namespace tare::stats
