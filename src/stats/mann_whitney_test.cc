#include "stats/mann_whitney.h"

#include <gtest/gtest.h>

#include "stats/test_vectors.h"

namespace tare::stats {
namespace {

using testing::Doubles;
using testing::RelNear;
using testing::Vectors;

// Expected: scipy 1.10.1 scipy.stats.mannwhitneyu(x, y, use_continuity=True,
// alternative='two-sided') with method='auto', 'asymptotic' and (no ties) 'exact'
// (testdata/gen_vectors.py). Cases cover n1 = 1, all-equal samples, heavy ties, tiny magnitudes,
// and sizes on both sides of the auto rule.
TEST(MannWhitney, MatchesScipy) {
  const auto& cases = Vectors()["mann_whitney"]["cases"];
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    const std::vector<double> x = Doubles(c["x"]), y = Doubles(c["y"]);
    SCOPED_TRACE(::testing::Message() << "n1=" << x.size() << " n2=" << y.size());
    auto a = MannWhitneyU(x, y);
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    EXPECT_EQ(a->u, c["u"].get<double>());
    EXPECT_EQ(a->exact, c["auto_is_exact"].get<bool>());
    EXPECT_TRUE(RelNear(a->p_value, c["p_auto"], 1e-10));
    auto asym = MannWhitneyU(x, y, MannWhitneyMethod::kAsymptotic);
    ASSERT_TRUE(asym.ok());
    EXPECT_FALSE(asym->exact);
    EXPECT_TRUE(RelNear(asym->p_value, c["p_asymptotic"], 1e-10));
    auto exact = MannWhitneyU(x, y, MannWhitneyMethod::kExact);
    if (c.contains("p_exact")) {
      ASSERT_TRUE(exact.ok()) << exact.status().ToString();
      EXPECT_TRUE(exact->exact);
      EXPECT_TRUE(RelNear(exact->p_value, c["p_exact"], 1e-10));
    } else {
      ASSERT_FALSE(exact.ok());  // ties
      EXPECT_NE(exact.status().message().find("ties"), std::string::npos);
    }
  }
}

TEST(MannWhitney, ExactNullDistributionByHand) {
  // n1 = n2 = 2: the C(4,2) = 6 arrangements give U = 0,1,2,2,3,4.
  EXPECT_DOUBLE_EQ(MannWhitneyExactSf(4, 2, 2), 1.0 / 6);
  EXPECT_DOUBLE_EQ(MannWhitneyExactSf(3, 2, 2), 2.0 / 6);
  EXPECT_DOUBLE_EQ(MannWhitneyExactSf(2, 2, 2), 4.0 / 6);
  EXPECT_DOUBLE_EQ(MannWhitneyExactSf(0, 2, 2), 1.0);
  EXPECT_DOUBLE_EQ(MannWhitneyExactSf(5, 2, 2), 0.0);
}

TEST(MannWhitney, RejectsEmptyAndNaN) {
  const std::vector<double> some = {1, 2, 3};
  EXPECT_FALSE(MannWhitneyU(some, {}).ok());
  EXPECT_FALSE(MannWhitneyU(some, std::vector<double>{1, std::nan("")}).ok());
  std::vector<double> big(200, 0.0);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<double>(i);
  auto r = MannWhitneyU(big, big, MannWhitneyMethod::kExact);
  ASSERT_FALSE(r.ok());
}

}  // namespace
}  // namespace tare::stats
