#include "campaign/sampling.h"

#include <cmath>

#include <gtest/gtest.h>

#include "stats/sign_interval.h"

namespace tare::campaign {
namespace {

TEST(SamplingPlan, PlannedLooksIsOnePlusCeilOfStepsToCap) {
  EXPECT_EQ(PlannedLooks({20, 20, 100}), 5);
  EXPECT_EQ(PlannedLooks({20, 20, 90}), 5);  // 20 40 60 80 90
  EXPECT_EQ(PlannedLooks({20, 20, 81}), 5);
  EXPECT_EQ(PlannedLooks({20, 20, 80}), 4);
  EXPECT_EQ(PlannedLooks({30, 10, 30}), 1);
  EXPECT_EQ(LookPairCounts({20, 20, 90}), (std::vector<int64_t>{20, 40, 60, 80, 90}));
  EXPECT_EQ(LookPairCounts({12, 0, 12}), (std::vector<int64_t>{12}));
}

// The default plan's (campaign_definition.h) looks double: 20, 40, 80, ... 1280; seven looks, each at 1 - 0.05/7 under
// Bonferroni (hand-computed: 0.992857...).
TEST(SamplingPlan, TheDefaultLooksDouble) {
  EXPECT_EQ(LookPairCounts(SamplingPlan{20, 20, 1280, 2}), (std::vector<int64_t>{20, 40, 80, 160, 320, 640, 1280}));
  EXPECT_EQ(PlannedLooks({20, 20, 100, 2}), 4);
  EXPECT_EQ(LookPairCounts({20, 20, 100, 2}), (std::vector<int64_t>{20, 40, 80, 100}));
  EXPECT_EQ(LookPairCounts({10, 5, 40, 2}), (std::vector<int64_t>{10, 15, 25, 40}));
  EXPECT_EQ(NextSampleCount({20, 20, 1280, 2}, 81), 160);
  auto looks = PlanLooks(SamplingPlan{20, 20, 1280, 2}, 0.95);
  ASSERT_TRUE(looks.ok()) << looks.status().message();
  EXPECT_NEAR(looks->per_look_confidence, 1 - 0.05 / 7, 1e-12);
  EXPECT_LE(looks->sign_test_error, 0.05);
  EXPECT_NE(ValidatePlan({20, 20, 100, 3}).message().find("sampling.growth = 3"), std::string::npos);
}

TEST(SamplingPlan, NextSampleCountStopsAtTheCap) {
  const SamplingPlan plan{20, 20, 90};
  EXPECT_EQ(NextSampleCount(plan, 20), 40);
  EXPECT_EQ(NextSampleCount(plan, 41), 60);  // a cell that got extra pairs goes to the next look
  EXPECT_EQ(NextSampleCount(plan, 80), 90);
  EXPECT_EQ(NextSampleCount(plan, 90), std::nullopt);
  EXPECT_EQ(NextSampleCount(plan, 95), std::nullopt);
  EXPECT_EQ(NextSampleCount(plan, 0), 20);
}

TEST(SamplingPlan, ValidationNamesTheFieldAndTheFix) {
  EXPECT_TRUE(ValidatePlan({20, 20, 100}).ok());
  EXPECT_TRUE(ValidatePlan({20, 0, 20}).ok());
  Status s = ValidatePlan({0, 10, 50});
  EXPECT_NE(s.message().find("sampling.initial = 0"), std::string::npos) << s.message();
  s = ValidatePlan({20, 10, 10});
  EXPECT_NE(s.message().find("sampling.cap = 10 is below sampling.initial = 20"), std::string::npos);
  s = ValidatePlan({20, 0, 40});
  EXPECT_NE(s.message().find("sampling.step = 0"), std::string::npos);
  // Issue 9 item 6: a huge cap burned minutes of CPU planning its looks, then ran out of memory.
  s = ValidatePlan({20, 20, 1'000'000});
  EXPECT_NE(s.message().find("sampling.cap = 1000000 is more than 10000 pairs"), std::string::npos) << s.message();
  s = ValidatePlan({20, 1, 10'000});
  EXPECT_NE(s.message().find("plan 9981 looks, more than 100"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("e.g. step 101"), std::string::npos) << s.message();
  EXPECT_TRUE(ValidatePlan({20, 101, 10'000}).ok());
  EXPECT_FALSE(ValidatePlan({20, 100, 10'000}).ok());
}

TEST(PlanLooks, BonferroniSplitsAlphaOverTheLooks) {
  auto p = PlanLooks({20, 20, 100}, 0.95);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->scheme, LookScheme::kBonferroni);
  EXPECT_DOUBLE_EQ(p->per_look_confidence, 0.99);
  EXPECT_EQ(p->pairs.size(), 5u);
  EXPECT_LE(p->sign_test_error, 0.05);
  auto single = PlanLooks({30, 10, 30}, 0.95);
  ASSERT_TRUE(single.ok());
  EXPECT_DOUBLE_EQ(single->per_look_confidence, 0.95);  // one look: nothing to split
}

TEST(PlanLooks, TooSmallAFirstLookIsAPlanError) {
  auto p = PlanLooks({6, 6, 30}, 0.95);  // 5 looks -> 99% per look needs 8 pairs
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "initial=6 pairs cannot give the 99% per-look sign-test interval that 95% over 5 "
            "looks needs; use initial >= 8 (or fewer looks: a larger step or a smaller cap)");
  EXPECT_FALSE(PlanLooks({20, 20, 100}, 1.5).ok());
  EXPECT_FALSE(PlanLooks({20, 0, 100}, 0.95).ok());
}

// Expected values: testdata/gen_look_errors.py, an independent implementation (scipy 1.10.1
// scipy.stats.binom for the ranks, a numpy random-walk dynamic program).
TEST(SignTestLookError, MatchesIndependentComputation) {
  const std::vector<int64_t> looks = {20, 40, 60, 80, 100};
  EXPECT_NEAR(SignTestLookError(looks, 0.95), 0.10552010284623688, 1e-12);
  EXPECT_NEAR(SignTestLookError(looks, 0.99), 0.02062702590667788, 1e-12);
  const std::vector<int64_t> ten = {12, 24, 36, 48, 60, 72, 84, 96, 108, 120};
  EXPECT_NEAR(SignTestLookError(ten, 0.95), 0.13858663343498895, 1e-12);
  EXPECT_NEAR(SignTestLookError(ten, 0.995), 0.0136656625011084, 1e-12);
  // One look: the miss probability is 1 - coverage.
  const std::vector<int64_t> one = {30};
  EXPECT_NEAR(SignTestLookError(one, 0.95), 1.0 - stats::SignTestRanksFor(30, 0.95)->coverage, 1e-15);
  EXPECT_NEAR(SignTestLookError(one, 0.95), 0.04277394525706768, 1e-12);
}

TEST(SignTestLookError, MatchesBruteForceEnumeration) {
  // All 2^12 sign sequences, looks at 6, 9 and 12 pairs, per-look confidence 0.9.
  const std::vector<int64_t> looks = {6, 9, 12};
  std::vector<int64_t> k;
  for (int64_t n : looks) k.push_back(stats::SignTestRanksFor(n, 0.9)->k);
  int misses = 0;
  for (int mask = 0; mask < (1 << 12); ++mask) {
    for (size_t l = 0; l < looks.size(); ++l) {
      const int positives = __builtin_popcount(mask & ((1 << looks[l]) - 1));
      if (positives <= k[l] - 1 || positives >= looks[l] - k[l] + 1) {
        ++misses;
        break;
      }
    }
  }
  EXPECT_NEAR(SignTestLookError(looks, 0.9), misses / 4096.0, 1e-15);
}

TEST(PlanLooks, CalibratedSchemeIsExactlyValidAndNarrower) {
  // Expected per-look confidences: testdata/gen_look_errors.py (scipy 1.10.1).
  struct Case {
    SamplingPlan plan;
    double per_look;
    double error;
  };
  const Case cases[] = {
      {{20, 20, 100}, 0.9816839024830837, 0.04557923107124527},
      {{10, 10, 50}, 0.9834109966250253, 0.03804340113132554},
      {{12, 12, 120}, 0.9865107062688081, 0.04899164109747752},
  };
  for (const Case& c : cases) {
    auto cal = PlanLooks(c.plan, 0.95, LookScheme::kSignTestCalibrated);
    auto bon = PlanLooks(c.plan, 0.95, LookScheme::kBonferroni);
    ASSERT_TRUE(cal.ok() && bon.ok()) << cal.status().ToString();
    EXPECT_NEAR(cal->per_look_confidence, c.per_look, 1e-12) << "cap " << c.plan.cap;
    EXPECT_NEAR(cal->sign_test_error, c.error, 1e-12);
    EXPECT_LE(cal->sign_test_error, 0.05);
    EXPECT_LT(cal->per_look_confidence, bon->per_look_confidence);
    EXPECT_GT(cal->sign_test_error, bon->sign_test_error);
    // At least one look gets a narrower interval (a larger rank k) than under Bonferroni.
    bool narrower = false;
    for (int64_t n : cal->pairs) {
      narrower |= stats::SignTestRanksFor(n, cal->per_look_confidence)->k >
                  stats::SignTestRanksFor(n, bon->per_look_confidence)->k;
    }
    EXPECT_TRUE(narrower);
  }
}

TEST(LookSchemeNames, ParseAndRecord) {
  EXPECT_EQ(LookSchemeName(LookScheme::kBonferroni), "bonferroni-v1");
  EXPECT_EQ(LookSchemeName(LookScheme::kSignTestCalibrated), "sign-test-calibrated-v1");
  EXPECT_EQ(*ParseLookScheme("bonferroni"), LookScheme::kBonferroni);
  EXPECT_EQ(*ParseLookScheme("sign-test-calibrated-v1"), LookScheme::kSignTestCalibrated);
  EXPECT_FALSE(ParseLookScheme("pocock").ok());
}

}  // namespace
}  // namespace tare::campaign
