#include "campaign/verdict.h"

#include <cmath>

#include <gtest/gtest.h>

namespace tare::campaign {
namespace {

constexpr Direction kLower = Direction::kLowerIsBetter;
constexpr Direction kHigher = Direction::kHigherIsBetter;

Verdict V(double lo, double hi, Direction d, Allowance a, std::optional<NullArm> null_arm = {}) {
  return JudgeMetric({lo, hi}, d, a, null_arm).verdict;
}

TEST(Verdict, LowerIsBetterAgainstADeclaredAllowance) {
  const Allowance two = Allowance::Fraction(0.02);
  EXPECT_EQ(V(0.025, 0.04, kLower, two), Verdict::kFail);          // all worse than +2%
  EXPECT_EQ(V(-0.01, 0.015, kLower, two), Verdict::kPass);         // all within +2%
  EXPECT_EQ(V(0.01, 0.03, kLower, two), Verdict::kInconclusive);   // straddles +2%
  EXPECT_EQ(V(-0.05, -0.03, kLower, two), Verdict::kPass);         // faster is within
  EXPECT_EQ(V(0.0, 0.02, kLower, two), Verdict::kPass);            // on the limit: not worse
  EXPECT_EQ(V(0.02, 0.05, kLower, two), Verdict::kInconclusive);   // lo == delta: not all worse
}

TEST(Verdict, HigherIsBetterMirrors) {
  const Allowance two = Allowance::Fraction(0.02);
  EXPECT_EQ(V(-0.04, -0.025, kHigher, two), Verdict::kFail);       // throughput down > 2%
  EXPECT_EQ(V(-0.015, 0.01, kHigher, two), Verdict::kPass);
  EXPECT_EQ(V(-0.03, -0.01, kHigher, two), Verdict::kInconclusive);
  EXPECT_EQ(V(0.03, 0.05, kHigher, two), Verdict::kPass);
  EXPECT_TRUE(JudgeMetric({0.03, 0.05}, kHigher, two, std::nullopt).supported_gain);
  EXPECT_FALSE(JudgeMetric({0.03, 0.05}, kLower, two, std::nullopt).supported_gain);
}

TEST(Verdict, NoiseAllowanceWithoutNullArmMeansAnyConfirmedChange) {
  // Deterministic instruction counts (sim): +0.5% every time -> the interval is [0.005, 0.005].
  EXPECT_EQ(V(0.005, 0.005, kLower, Allowance::Noise()), Verdict::kFail);
  EXPECT_EQ(V(0.0, 0.0, kLower, Allowance::Noise()), Verdict::kPass);  // A/A under sim
  EXPECT_EQ(V(-0.001, 0.002, kLower, Allowance::Noise()), Verdict::kInconclusive);
  const MetricVerdict gain = JudgeMetric({-0.005, -0.005}, kLower, Allowance::Noise(), {});
  EXPECT_EQ(gain.verdict, Verdict::kPass);
  EXPECT_TRUE(gain.supported_gain);
}

TEST(Verdict, NullArmFloorRaisesDelta) {
  const NullArm null_arm = ReadNullArm(-0.002, {-0.012, 0.008}, Allowance::Fraction(0.005), NoiseFloorRule::kIntervalEdge);
  EXPECT_DOUBLE_EQ(null_arm.floor, 0.012);
  EXPECT_FALSE(null_arm.host_too_noisy);  // the null interval contains 0
  const MetricVerdict m = JudgeMetric({0.006, 0.011}, kLower, Allowance::Fraction(0.005), null_arm);
  EXPECT_DOUBLE_EQ(m.delta, 0.012);
  EXPECT_DOUBLE_EQ(m.noise_floor, 0.012);
  // Within the floor, but the whole interval is beyond the declared 0.5%: a detected change the
  // floor alone would certify. Not a PASS: more pairs narrow the floor.
  EXPECT_EQ(m.verdict, Verdict::kInconclusive);
  EXPECT_NE(m.reasons.back().find("not a PASS"), std::string::npos) << m.reasons.back();
  // Within the floor and not wholly beyond what was declared: still not a PASS, since a PASS
  // would certify 1.2%, not the 0.5% declared.
  const MetricVerdict wide = JudgeMetric({0.002, 0.004}, kLower, Allowance::Fraction(0.005), null_arm);
  EXPECT_EQ(wide.verdict, Verdict::kInconclusive);
  EXPECT_NE(wide.reasons.back().find("host too noisy for a verdict within the declared allowance +0.50%"),
            std::string::npos) << wide.reasons.back();
  EXPECT_NE(wide.reasons.back().find("up to 1.20%"), std::string::npos) << wide.reasons.back();
  // Without a floor above the declared allowance, the rule never applies.
  EXPECT_EQ(JudgeMetric({0.006, 0.011}, kLower, Allowance::Fraction(0.02), null_arm).verdict,
            Verdict::kPass);
  EXPECT_EQ(JudgeMetric({0.013, 0.02}, kLower, Allowance::Fraction(0.005), null_arm).verdict,
            Verdict::kFail);
  // A gain must clear the floor to be supported.
  EXPECT_FALSE(JudgeMetric({-0.02, -0.01}, kLower, Allowance::Noise(), null_arm).supported_gain);
  EXPECT_TRUE(JudgeMetric({-0.03, -0.013}, kLower, Allowance::Noise(), null_arm).supported_gain);
}

// Issue 10 §1: a PASS never certifies more than the allowance it prints.
TEST(Verdict, APassCertifiesItsBoundAndNeverMore) {
  // Declared 1%, a 63.8% floor (seen on a loaded host): a +3% build used to PASS here.
  const NullArm loud = ReadNullArm(0.01, {-0.20, 0.638}, Allowance::Fraction(0.01), NoiseFloorRule::kIntervalEdge);
  EXPECT_FALSE(loud.host_too_noisy);  // the null interval contains 0
  const MetricVerdict plus3 = JudgeMetric({0.01, 0.05}, kLower, Allowance::Fraction(0.01), loud);
  EXPECT_EQ(plus3.verdict, Verdict::kInconclusive);
  EXPECT_DOUBLE_EQ(plus3.pass_bound, 0.01);
  // The floor still keeps noise from becoming a FAIL...
  EXPECT_EQ(JudgeMetric({0.10, 0.30}, kLower, Allowance::Fraction(0.01), loud).verdict,
            Verdict::kInconclusive);
  // ...and does not hide a change beyond it.
  EXPECT_EQ(JudgeMetric({0.70, 0.90}, kLower, Allowance::Fraction(0.01), loud).verdict, Verdict::kFail);

  // A quiet null arm: the declared bound is certified exactly.
  const NullArm quiet = ReadNullArm(0.0, {-0.004, 0.006}, Allowance::Fraction(0.01), NoiseFloorRule::kIntervalEdge);
  const MetricVerdict ok = JudgeMetric({-0.003, 0.009}, kLower, Allowance::Fraction(0.01), quiet);
  EXPECT_EQ(ok.verdict, Verdict::kPass);
  EXPECT_DOUBLE_EQ(ok.pass_bound, 0.01);
  EXPECT_NE(ok.reasons.front().find("no regression beyond +1.00%"), std::string::npos) << ok.reasons.front();
  EXPECT_EQ(JudgeMetric({-0.003, 0.011}, kLower, Allowance::Fraction(0.01), quiet).verdict,
            Verdict::kInconclusive);

  // "noise": the bound is the floor, and only up to the noise cap.
  const NullArm small = ReadNullArm(0.0, {-0.015, 0.012}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge);
  const MetricVerdict noise = JudgeMetric({-0.01, 0.014}, kLower, Allowance::Noise(), small);
  EXPECT_EQ(noise.verdict, Verdict::kPass);
  EXPECT_DOUBLE_EQ(noise.pass_bound, 0.015);
  EXPECT_EQ(JudgeMetric({-0.01, 0.014}, kLower, Allowance::Noise(), small, /*noise_cap=*/0.01).verdict,
            Verdict::kInconclusive);
  const NullArm big = ReadNullArm(0.0, {-0.03, 0.075}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge);
  const MetricVerdict capped = JudgeMetric({-0.02, 0.05}, kLower, Allowance::Noise(), big);
  EXPECT_EQ(capped.verdict, Verdict::kInconclusive);
  EXPECT_NE(capped.reasons.back().find("host too noisy for a verdict within the noise cap 2.00%"),
            std::string::npos) << capped.reasons.back();
  EXPECT_NE(capped.reasons.back().find("--instrument sim"), std::string::npos);
  // A raised cap lets the same data PASS, certifying 7.5%.
  const MetricVerdict raised = JudgeMetric({-0.02, 0.05}, kLower, Allowance::Noise(), big, 0.10);
  EXPECT_EQ(raised.verdict, Verdict::kPass);
  EXPECT_DOUBLE_EQ(raised.pass_bound, 0.075);
  // Higher is better mirrors: a throughput drop of up to 1.4% against a 1.5% floor.
  EXPECT_EQ(JudgeMetric({-0.014, 0.01}, kHigher, Allowance::Noise(), small).verdict, Verdict::kPass);
}

// null-split-v1: FAIL and supported gains against |the null's estimate|, PASS certifying the edge.
TEST(Verdict, SplitRuleFailsAgainstTheEstimateAndCertifiesTheEdge) {
  const NullArm split = ReadNullArm(-0.002, {-0.012, 0.008}, Allowance::Noise(), NoiseFloorRule::kSplit);
  EXPECT_DOUBLE_EQ(split.floor, 0.002);
  EXPECT_DOUBLE_EQ(split.pass_floor, 0.012);
  // Detected beyond the estimate: FAIL, as under null-estimate-v1.
  const MetricVerdict fail = JudgeMetric({0.006, 0.011}, kLower, Allowance::Noise(), split);
  EXPECT_EQ(fail.verdict, Verdict::kFail);
  EXPECT_DOUBLE_EQ(fail.delta, 0.002);
  // A gain beyond the estimate is supported.
  EXPECT_TRUE(JudgeMetric({-0.011, -0.006}, kLower, Allowance::Noise(), split).supported_gain);
  // An interval around 0 within the edge PASSes and certifies the edge (1.2%), not the estimate:
  // under null-estimate-v1 the same data is INCONCLUSIVE (its 0.2% floor cannot hold +0.9%).
  const MetricVerdict pass = JudgeMetric({-0.004, 0.009}, kLower, Allowance::Noise(), split);
  EXPECT_EQ(pass.verdict, Verdict::kPass);
  EXPECT_DOUBLE_EQ(pass.pass_bound, 0.012);
  EXPECT_NE(pass.reasons.front().find("no regression beyond +1.20%"), std::string::npos) << pass.reasons.front();
  const NullArm estimate = ReadNullArm(-0.002, {-0.012, 0.008}, Allowance::Noise(), NoiseFloorRule::kEstimate);
  EXPECT_EQ(JudgeMetric({-0.004, 0.009}, kLower, Allowance::Noise(), estimate).verdict, Verdict::kInconclusive);
  // Beyond the edge: not certified.
  EXPECT_EQ(JudgeMetric({-0.004, 0.013}, kLower, Allowance::Noise(), split).verdict, Verdict::kInconclusive);
  // A detected change inside the estimate floor is still not certified.
  const NullArm wide = ReadNullArm(0.006, {-0.01, 0.015}, Allowance::Noise(), NoiseFloorRule::kSplit);
  EXPECT_EQ(JudgeMetric({0.001, 0.005}, kLower, Allowance::Noise(), wide).verdict, Verdict::kInconclusive);
  // The noise cap applies to the edge, the floor a PASS certifies.
  const NullArm capped = ReadNullArm(0.0, {-0.03, 0.03}, Allowance::Noise(), NoiseFloorRule::kSplit);
  const MetricVerdict over_cap = JudgeMetric({-0.01, 0.01}, kLower, Allowance::Noise(), capped);
  EXPECT_EQ(over_cap.verdict, Verdict::kInconclusive);
  EXPECT_NE(over_cap.reasons.front().find("noise cap"), std::string::npos) << over_cap.reasons.front();
  // A declared allowance: the edge must be within it for a PASS; a FAIL needs only the estimate.
  const NullArm declared = ReadNullArm(0.001, {-0.004, 0.006}, Allowance::Fraction(0.005), NoiseFloorRule::kSplit);
  EXPECT_EQ(JudgeMetric({-0.003, 0.004}, kLower, Allowance::Fraction(0.005), declared).verdict, Verdict::kInconclusive);
  EXPECT_EQ(JudgeMetric({-0.003, 0.004}, kLower, Allowance::Fraction(0.01), declared).verdict, Verdict::kPass);
  EXPECT_EQ(JudgeMetric({0.006, 0.02}, kLower, Allowance::Fraction(0.005), declared).verdict, Verdict::kFail);
  // A null interval that excludes 0 (the host shows a bias between identical copies): FAIL must
  // clear the edge, as under null-interval-edge-v1.
  const NullArm biased = ReadNullArm(0.006, {0.002, 0.011}, Allowance::Noise(), NoiseFloorRule::kSplit);
  EXPECT_DOUBLE_EQ(biased.floor, 0.011);
  EXPECT_EQ(JudgeMetric({0.008, 0.02}, kLower, Allowance::Noise(), biased).verdict, Verdict::kInconclusive);
  EXPECT_EQ(JudgeMetric({0.012, 0.02}, kLower, Allowance::Noise(), biased).verdict, Verdict::kFail);
  EXPECT_EQ(NoiseFloorRuleName(NoiseFloorRule::kSplit), "null-split-v1");
  EXPECT_EQ(*ParseNoiseFloorRule("null-split-v1"), NoiseFloorRule::kSplit);
}

TEST(Verdict, EstimateRuleUsesTheNullArmsPointEstimate) {
  const NullArm edge = ReadNullArm(-0.002, {-0.012, 0.008}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge);
  const NullArm estimate =
      ReadNullArm(-0.002, {-0.012, 0.008}, Allowance::Noise(), NoiseFloorRule::kEstimate);
  EXPECT_DOUBLE_EQ(edge.floor, 0.012);
  EXPECT_DOUBLE_EQ(estimate.floor, 0.002);
  // +0.6%..+1.1% is within the edge floor (so not certified: INCONCLUSIVE, a detected change
  // inside the floor) but beyond the estimate floor (FAIL).
  EXPECT_EQ(JudgeMetric({0.006, 0.011}, kLower, Allowance::Noise(), edge).verdict,
            Verdict::kInconclusive);
  EXPECT_EQ(JudgeMetric({0.006, 0.011}, kLower, Allowance::Noise(), estimate).verdict,
            Verdict::kFail);
  EXPECT_EQ(NoiseFloorRuleName(NoiseFloorRule::kIntervalEdge), "null-interval-edge-v1");
  EXPECT_EQ(NoiseFloorRuleName(NoiseFloorRule::kEstimate), "null-estimate-v1");
  EXPECT_EQ(*ParseNoiseFloorRule("null-estimate-v1"), NoiseFloorRule::kEstimate);
  EXPECT_EQ(*ParseNoiseFloorRule("null-interval-edge"), NoiseFloorRule::kIntervalEdge);
  EXPECT_FALSE(ParseNoiseFloorRule("edge").ok());
}

TEST(Verdict, HostTooNoisyTurnsPassIntoInconclusiveButKeepsFail) {
  const NullArm noisy = ReadNullArm(0.02, {0.01, 0.03}, Allowance::Fraction(0.005), NoiseFloorRule::kIntervalEdge);
  ASSERT_TRUE(noisy.host_too_noisy);
  EXPECT_NE(noisy.reason.find("host too noisy"), std::string::npos);
  EXPECT_NE(noisy.reason.find("[+1.00%, +3.00%]"), std::string::npos) << noisy.reason;
  EXPECT_DOUBLE_EQ(noisy.floor, 0.03);
  const MetricVerdict pass = JudgeMetric({0.0, 0.02}, kLower, Allowance::Fraction(0.005), noisy);
  EXPECT_EQ(pass.verdict, Verdict::kInconclusive);
  EXPECT_TRUE(pass.host_too_noisy);
  ASSERT_GE(pass.reasons.size(), 2u);
  EXPECT_NE(pass.reasons.back().find("host too noisy"), std::string::npos);
  EXPECT_EQ(JudgeMetric({0.04, 0.06}, kLower, Allowance::Fraction(0.005), noisy).verdict,
            Verdict::kFail);
  // Either direction of a null difference counts.
  EXPECT_TRUE(ReadNullArm(-0.02, {-0.03, -0.01}, Allowance::Fraction(0.005), NoiseFloorRule::kIntervalEdge).host_too_noisy);
  // Within the declared allowance it is not flagged even if the interval excludes 0.
  EXPECT_FALSE(ReadNullArm(0.0025, {0.001, 0.004}, Allowance::Fraction(0.005), NoiseFloorRule::kIntervalEdge).host_too_noisy);
  EXPECT_TRUE(ReadNullArm(0.0025, {0.001, 0.004}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge).host_too_noisy);
}

TEST(Verdict, MissingIntervalIsInconclusive) {
  const MetricVerdict m = JudgeMetric({NAN, NAN}, kLower, Allowance::Noise(), std::nullopt);
  EXPECT_EQ(m.verdict, Verdict::kInconclusive);
  EXPECT_FALSE(m.supported_gain);
  EXPECT_EQ(V(0.02, 0.01, kLower, Allowance::Noise()), Verdict::kInconclusive);  // lo > hi
  const NullArm unknown = ReadNullArm(NAN, {NAN, NAN}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge);
  EXPECT_TRUE(unknown.host_too_noisy);
  EXPECT_TRUE(std::isinf(unknown.floor));
}

TEST(Verdict, ReasonsSayWhatWasCompared) {
  const MetricVerdict m = JudgeMetric({0.025, 0.04}, kLower, Allowance::Fraction(0.02), {});
  ASSERT_EQ(m.reasons.size(), 1u);
  EXPECT_EQ(m.reasons[0], "the whole interval [+2.50%, +4.00%] is worse than the allowance +2.00%");
}

TEST(Verdict, CellTakesItsWorstMetric) {
  using enum Verdict;
  EXPECT_EQ(WorstVerdict(std::vector<Verdict>{kPass, kPass}), kPass);
  EXPECT_EQ(WorstVerdict(std::vector<Verdict>{kPass, kInconclusive}), kInconclusive);
  EXPECT_EQ(WorstVerdict(std::vector<Verdict>{kInconclusive, kFail, kPass}), kFail);
  EXPECT_EQ(WorstVerdict({}), kInconclusive);
  EXPECT_EQ(VerdictName(kPass), "PASS");
  EXPECT_EQ(VerdictName(kInconclusive), "INCONCLUSIVE");
  EXPECT_EQ(VerdictName(kFail), "FAIL");
}

TEST(Allowance, ParsesPercentOrNoise) {
  EXPECT_TRUE(ParseAllowance("noise")->noise);
  EXPECT_DOUBLE_EQ(ParseAllowance("2%")->fraction, 0.02);
  EXPECT_DOUBLE_EQ(ParseAllowance("0.5%")->fraction, 0.005);
  EXPECT_FALSE(ParseAllowance("2%")->noise);
  for (const char* bad : {"2", "", "%", "-1%", "two%", "2 %"}) {
    auto a = ParseAllowance(bad);
    ASSERT_FALSE(a.ok()) << bad;
    EXPECT_NE(a.status().message().find("\"2%\""), std::string::npos);
  }
  EXPECT_EQ(AllowanceText(Allowance::Fraction(0.015)), "1.5%");
  EXPECT_EQ(AllowanceText(Allowance::Noise()), "noise");
}

}  // namespace
}  // namespace tare::campaign
