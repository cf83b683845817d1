#include "oracle/flip.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tare::oracle {
namespace {

// Independent reference: the binomial sum written out term by term in long double.
long double ReferenceCdf(int k, int n, long double p) {
  long double sum = 0;
  for (int i = 0; i <= k; ++i) {
    long double choose = 1;
    for (int j = 1; j <= i; ++j) choose = choose * (n - i + j) / j;
    sum += choose * std::pow(p, i) * std::pow(1 - p, n - i);
  }
  return sum;
}

// The figures from the case that motivated tare oracle: P(Binom(9, p) <= 4). For p with one
// decimal digit the sum is an exact decimal: 0.8 -> 0.01958144, 0.7 -> 0.09880866,
// 0.6 -> 0.26656768 (checked with Python's fractions.Fraction).
TEST(VoteWrongProbability, ReproducesTheMotivatingFlipOdds) {
  EXPECT_NEAR(VoteWrongProbability(0.8, 9, true), 0.01958144, 1e-12);
  EXPECT_NEAR(VoteWrongProbability(0.7, 9, true), 0.09880866, 1e-12);
  EXPECT_NEAR(VoteWrongProbability(0.6, 9, true), 0.26656768, 1e-12);
  // "~2%, ~10%, ~27% of runs flip"
  EXPECT_EQ(std::lround(100 * VoteWrongProbability(0.8, 9, true)), 2);
  EXPECT_EQ(std::lround(100 * VoteWrongProbability(0.7, 9, true)), 10);
  EXPECT_EQ(std::lround(100 * VoteWrongProbability(0.6, 9, true)), 27);
}

TEST(VoteWrongProbability, AgreesWithATermByTermSum) {
  for (int n : {1, 3, 9, 21}) {
    for (double p : {0.05, 0.3, 0.5, 0.62, 0.85, 0.97}) {
      const double present = static_cast<double>(ReferenceCdf(n / 2, n, p));
      EXPECT_NEAR(VoteWrongProbability(p, n, true), present, 1e-13) << n << " " << p;
      EXPECT_NEAR(VoteWrongProbability(p, n, false), 1 - present, 1e-13) << n << " " << p;
    }
  }
}

TEST(VoteWrongProbability, AbsentSideMirrorsPresentSide) {
  // An item pinned absent with p = 0.3 is wrong exactly as often as one pinned present with 0.7.
  EXPECT_NEAR(VoteWrongProbability(0.3, 9, false), 0.09880866, 1e-12);
  EXPECT_EQ(VoteWrongProbability(1.0, 9, true), 0.0);
  EXPECT_EQ(VoteWrongProbability(0.0, 9, false), 0.0);
  EXPECT_EQ(VoteWrongProbability(0.0, 9, true), 1.0);
}

TEST(Retries, RedOnlyWhenEveryAttemptIsWrong) {
  // One retry: q^2. p = 0.6 -> 0.26656768^2 = 0.0710583280205824 (exact).
  EXPECT_NEAR(WrongOnEveryAttempt(0.26656768, 1), 0.0710583280205824, 1e-15);
  EXPECT_NEAR(WrongOnEveryAttempt(0.09880866, 1), 0.0097631512909956, 1e-15);
  EXPECT_NEAR(WrongOnEveryAttempt(0.01958144, 1), 0.0003834327924736, 1e-16);
  EXPECT_EQ(WrongOnEveryAttempt(0.25, 0), 0.25);
  EXPECT_NEAR(WrongOnEveryAttempt(0.5, 2), 0.125, 1e-15);
}

TEST(Retries, WrongAtLeastOnceIsTheComplementOfAlwaysRight) {
  EXPECT_NEAR(WrongAtLeastOnce(0.26656768, 1), 1 - (1 - 0.26656768) * (1 - 0.26656768), 1e-15);
  EXPECT_NEAR(WrongAtLeastOnce(0.01958144, 1), 0.0387794472075264, 1e-15);
  // No cancellation for tiny q: 1 - (1 - 1e-12)^2 ~ 2e-12.
  EXPECT_NEAR(WrongAtLeastOnce(1e-12, 1), 2e-12, 1e-22);
  EXPECT_EQ(WrongAtLeastOnce(1, 3), 1);
  EXPECT_EQ(WrongAtLeastOnce(0, 3), 0);
}

TEST(Retries, ExpectedProcessesCountsOnlyAttemptsThatRun) {
  EXPECT_NEAR(ExpectedProcesses(0.26656768, 9, 1), 9 * 1.26656768, 1e-12);
  EXPECT_EQ(ExpectedProcesses(0, 9, 3), 9);
  EXPECT_EQ(ExpectedProcesses(1, 9, 3), 36);
}

}  // namespace
}  // namespace tare::oracle
