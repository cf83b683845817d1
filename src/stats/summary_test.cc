#include "stats/summary.h"

#include <cmath>

#include <gtest/gtest.h>

#include "stats/test_vectors.h"

namespace tare::stats {
namespace {

using testing::Doubles;
using testing::RelNear;
using testing::Vectors;

// Expected values: numpy 1.24.2 (mean, median, quantile method='linear'), Python's
// statistics.stdev (exact rationals) and scipy 1.10.1 scipy.stats.median_abs_deviation(scale=1.0),
// by testdata/gen_vectors.py.
TEST(Summary, MatchesNumpyAndScipy) {
  const auto& cases = Vectors()["summary"]["cases"];
  ASSERT_GE(cases.size(), 8u);
  for (const auto& c : cases) {
    const std::vector<double> values = Doubles(c["values"]);
    SCOPED_TRACE(::testing::Message() << "n=" << values.size() << " first=" << values[0]);
    const Summary s = Summarize(values);
    EXPECT_EQ(s.n, c["n"].get<int64_t>());
    EXPECT_TRUE(RelNear(s.mean, c["mean"], 1e-13));
    EXPECT_TRUE(RelNear(s.median, c["median"], 1e-15));
    EXPECT_TRUE(RelNear(s.mad, c["mad"], 1e-13));
    EXPECT_EQ(s.min, c["min"].get<double>());
    EXPECT_EQ(s.max, c["max"].get<double>());
    EXPECT_TRUE(RelNear(s.p95, c["p95"], 1e-14));
    EXPECT_TRUE(RelNear(s.p99, c["p99"], 1e-14));
    if (c["stddev"].is_null()) {
      EXPECT_TRUE(std::isnan(s.stddev));
      EXPECT_TRUE(std::isnan(s.cv));
    } else {
      EXPECT_TRUE(RelNear(s.stddev, c["stddev"], 1e-12));
      EXPECT_TRUE(RelNear(s.cv, c["cv"], 1e-12));
    }
    const std::vector<double> sorted = Sorted(values);
    for (const auto& q : c["quantiles"]) {
      EXPECT_TRUE(RelNear(Quantile(sorted, q[0]), q[1], 1e-14)) << "q=" << q[0];
    }
  }
}

TEST(Summary, EmptyInputIsAllNaNWithoutTouchingMemory) {
  const Summary s = Summarize({});
  EXPECT_EQ(s.n, 0);
  for (double v : {s.mean, s.median, s.mad, s.stddev, s.cv, s.min, s.max, s.p95, s.p99}) {
    EXPECT_TRUE(std::isnan(v));
  }
  EXPECT_TRUE(std::isnan(Quantile({}, 0.5)));
  EXPECT_TRUE(std::isnan(Median({})));
  EXPECT_TRUE(std::isnan(MedianAbsoluteDeviation({})));
}

TEST(Summary, SingleValueHasNoSpread) {
  const std::vector<double> one = {42.0};
  const Summary s = Summarize(one);
  EXPECT_EQ(s.n, 1);
  EXPECT_EQ(s.median, 42.0);
  EXPECT_EQ(s.p99, 42.0);
  EXPECT_EQ(s.mad, 0.0);
  EXPECT_TRUE(std::isnan(s.stddev));  // n - 1 = 0
}

TEST(Summary, AllEqualValuesAreExact) {
  const std::vector<double> v(9, 0.1);
  const Summary s = Summarize(v);
  EXPECT_EQ(s.median, 0.1);
  EXPECT_EQ(s.p95, 0.1);
  EXPECT_EQ(s.mad, 0.0);
  // The mean of nine 0.1s is 0.1 + 1 ulp in binary, so the spread is rounding only.
  EXPECT_LT(s.stddev, 1e-16);
  const Summary halves = Summarize(std::vector<double>(9, 0.5));  // exact in binary
  EXPECT_EQ(halves.stddev, 0.0);
  EXPECT_EQ(halves.cv, 0.0);
}

TEST(Summary, SkipsNaNReadings) {
  const std::vector<double> v = {3.0, std::nan(""), 1.0, 2.0, std::nan("")};
  const Summary s = Summarize(v);
  EXPECT_EQ(s.n, 3);
  EXPECT_EQ(s.median, 2.0);
  EXPECT_EQ(s.mean, 2.0);
  EXPECT_EQ(s.max, 3.0);
  EXPECT_EQ(s.mad, 1.0);
  EXPECT_EQ(Summarize(std::vector<double>{std::nan("")}).n, 0);
}

TEST(Summary, ZeroMeanHasNoCoefficientOfVariation) {
  const std::vector<double> v = {-1.0, 1.0};
  EXPECT_TRUE(std::isnan(Summarize(v).cv));
}

TEST(Quantile, RejectsOutOfRangeQ) {
  const std::vector<double> v = {1, 2, 3};
  EXPECT_TRUE(std::isnan(Quantile(v, -0.1)));
  EXPECT_TRUE(std::isnan(Quantile(v, 1.5)));
  EXPECT_TRUE(std::isnan(Quantile(v, std::nan(""))));
  EXPECT_EQ(Quantile(v, 0.0), 1.0);
  EXPECT_EQ(Quantile(v, 1.0), 3.0);
  EXPECT_EQ(Quantile(v, 0.25), 1.5);  // h = 0.5: halfway between x[0] and x[1]
}

}  // namespace
}  // namespace tare::stats
