#include "campaign/verdict_rules.h"

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
  EXPECT_EQ(V(0.025, 0.04, kLower, two), Verdict::kFail);         // all worse than +2%
  EXPECT_EQ(V(-0.01, 0.015, kLower, two), Verdict::kPass);        // all within +2%
  EXPECT_EQ(V(0.01, 0.03, kLower, two), Verdict::kInconclusive);  // straddles +2%
  EXPECT_EQ(V(-0.05, -0.03, kLower, two), Verdict::kPass);        // faster is within
  EXPECT_EQ(V(0.0, 0.02, kLower, two), Verdict::kPass);           // on the limit: not worse
  EXPECT_EQ(V(0.02, 0.05, kLower, two), Verdict::kInconclusive);  // lo == delta: not all worse
}

TEST(Verdict, HigherIsBetterMirrors) {
  const Allowance two = Allowance::Fraction(0.02);
  EXPECT_EQ(V(-0.04, -0.025, kHigher, two), Verdict::kFail);  // throughput down > 2%
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
  const NullArm null_arm =
      ReadNullArm(-0.002, {-0.012, 0.008}, Allowance::Fraction(0.005), NoiseFloorRule::kIntervalEdge);
  EXPECT_DOUBLE_EQ(null_arm.floor, 0.012);
  EXPECT_FALSE(null_arm.host_too_noisy);  // the null interval contains 0
  const MetricVerdict m = JudgeMetric({0.006, 0.011}, kLower, Allowance::Fraction(0.005), null_arm);
  EXPECT_DOUBLE_EQ(m.delta, 0.012);
  EXPECT_DOUBLE_EQ(m.noise_floor, 0.012);
  // Within the floor, so not a FAIL; and the interval reaches past the declared 0.5%.
  EXPECT_EQ(m.verdict, Verdict::kInconclusive);
  EXPECT_EQ(m.reasons.front(),
            "the interval [+0.60%, +1.10%] reaches +1.10%, past the declared allowance +0.50%; more pairs may "
            "decide it");
  // Within what was declared, but not once the floor is added: a PASS would certify 0.4% + 1.2%.
  const MetricVerdict wide = JudgeMetric({0.002, 0.004}, kLower, Allowance::Fraction(0.005), null_arm);
  EXPECT_EQ(wide.verdict, Verdict::kInconclusive);
  EXPECT_EQ(wide.reasons.front(),
            "not certified: the interval's worse end +0.40% plus the null arm's floor 1.20% is +1.60%, past the "
            "declared allowance +0.50%; more pairs narrow both, a quieter host lowers the floor, --instrument "
            "sim removes it");
  // A PASS adds the floor to the interval's worse end: 1.1% + 1.2% is past 2%, 0.7% + 1.2% is not.
  EXPECT_EQ(JudgeMetric({0.006, 0.011}, kLower, Allowance::Fraction(0.02), null_arm).verdict, Verdict::kInconclusive);
  const MetricVerdict within = JudgeMetric({0.003, 0.007}, kLower, Allowance::Fraction(0.02), null_arm);
  EXPECT_EQ(within.verdict, Verdict::kPass);
  EXPECT_NEAR(within.pass_bound, 0.019, 1e-12);
  EXPECT_TRUE(within.changed);
  EXPECT_EQ(JudgeMetric({0.013, 0.02}, kLower, Allowance::Fraction(0.005), null_arm).verdict, Verdict::kFail);
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
  EXPECT_DOUBLE_EQ(plus3.bound, 0.01);
  // The floor still keeps noise from becoming a FAIL...
  EXPECT_EQ(JudgeMetric({0.10, 0.30}, kLower, Allowance::Fraction(0.01), loud).verdict, Verdict::kInconclusive);
  // ...and does not hide a change beyond it.
  EXPECT_EQ(JudgeMetric({0.70, 0.90}, kLower, Allowance::Fraction(0.01), loud).verdict, Verdict::kFail);

  // A quiet null arm: the declared bound is certified exactly.
  const NullArm quiet = ReadNullArm(0.0, {-0.004, 0.006}, Allowance::Fraction(0.01), NoiseFloorRule::kIntervalEdge);
  const MetricVerdict ok = JudgeMetric({-0.003, 0.003}, kLower, Allowance::Fraction(0.01), quiet);
  EXPECT_EQ(ok.verdict, Verdict::kPass);
  EXPECT_NEAR(ok.pass_bound, 0.009, 1e-12);  // 0.3% + the 0.6% floor
  EXPECT_EQ(ok.reasons.front(),
            "no regression beyond +0.90%: the interval's worse end +0.30% plus the null "
            "arm's floor 0.60% is within the declared allowance +1.00%");
  EXPECT_EQ(JudgeMetric({-0.003, 0.005}, kLower, Allowance::Fraction(0.01), quiet).verdict,
            Verdict::kInconclusive);  // 0.5% + 0.6%

  // "noise": the bound is the noise cap.
  const NullArm small = ReadNullArm(0.0, {-0.015, 0.012}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge);
  const MetricVerdict noise = JudgeMetric({-0.01, 0.004}, kLower, Allowance::Noise(), small);
  EXPECT_EQ(noise.verdict, Verdict::kPass);
  EXPECT_NEAR(noise.pass_bound, 0.019, 1e-12);
  EXPECT_EQ(JudgeMetric({-0.01, 0.004}, kLower, Allowance::Noise(), small, /*noise_cap=*/0.01).verdict,
            Verdict::kInconclusive);
  const NullArm big = ReadNullArm(0.0, {-0.03, 0.075}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge);
  const MetricVerdict capped = JudgeMetric({-0.02, 0.05}, kLower, Allowance::Noise(), big);
  EXPECT_EQ(capped.verdict, Verdict::kInconclusive);
  EXPECT_NE(capped.reasons.front().find("past the noise cap +2.00%"), std::string::npos) << capped.reasons.front();
  const MetricVerdict hidden = JudgeMetric({-0.02, 0.01}, kLower, Allowance::Noise(), big);
  EXPECT_EQ(hidden.verdict, Verdict::kInconclusive);
  EXPECT_NE(hidden.reasons.front().find("plus the null arm's floor 7.50% is +8.50%"), std::string::npos)
      << hidden.reasons.front();
  EXPECT_NE(hidden.reasons.front().find("--instrument sim"), std::string::npos);
  // A raised cap lets the same data PASS, certifying 5% + 7.5%.
  const MetricVerdict raised = JudgeMetric({-0.02, 0.05}, kLower, Allowance::Noise(), big, 0.15);
  EXPECT_EQ(raised.verdict, Verdict::kPass);
  EXPECT_NEAR(raised.pass_bound, 0.125, 1e-12);
  // Higher is better mirrors: a throughput drop of up to 0.4%, plus the 1.5% floor; the bound is
  // printed in the metric's worse direction (lower).
  const MetricVerdict throughput = JudgeMetric({-0.004, 0.01}, kHigher, Allowance::Noise(), small);
  EXPECT_EQ(throughput.verdict, Verdict::kPass);
  EXPECT_NE(throughput.reasons.front().find("no regression beyond -1.90%"), std::string::npos)
      << throughput.reasons.front();
  EXPECT_NE(throughput.reasons.front().find("the noise cap -2.00%"), std::string::npos) << throughput.reasons.front();
}

// Issue 21: a head whose whole interval is better than base is a PASS with a supported gain, never
// INCONCLUSIVE, however wide the floor a PASS near 0 would have to certify.
TEST(Verdict, AHeadFarOnTheGoodSideIsAPass) {
  // The real -27% cell: [-29.83%, -19.64%] against a noisy null arm (edge 5%).
  const NullArm noisy = ReadNullArm(-0.004, {-0.05, 0.03}, Allowance::Noise(), NoiseFloorRule::kSplit);
  const MetricVerdict big = JudgeMetric({-0.2983, -0.1964}, kLower, Allowance::Noise(), noisy);
  EXPECT_EQ(big.verdict, Verdict::kPass);
  EXPECT_TRUE(big.supported_gain);
  EXPECT_NEAR(big.pass_bound, -0.1924, 1e-12);  // certified: at least 19.24% faster (w_hi + F, not + P)
  EXPECT_EQ(big.reasons.front().substr(0, 36), "better than base by at least 19.24%:");
  // The demo's -3.67% [-6.86%, -1.65%]: -1.65% + 5% is past 2%, yet the whole interval is better
  // than base beyond the null's estimate (0.4%): a PASS by the gain, certifying -1.65% + 0.4%.
  const MetricVerdict demo = JudgeMetric({-0.0686, -0.0165}, kLower, Allowance::Noise(), noisy);
  EXPECT_EQ(demo.verdict, Verdict::kPass);
  EXPECT_TRUE(demo.supported_gain);
  EXPECT_NEAR(demo.pass_bound, -0.0125, 1e-12);
  EXPECT_NE(demo.reasons.front().find("better than base beyond the noise floor 0.40%"), std::string::npos)
      << demo.reasons.front();
  // The same for a declared allowance and for a higher-is-better metric.
  EXPECT_EQ(JudgeMetric({-0.0686, -0.0165}, kLower, Allowance::Fraction(0.01), noisy).verdict, Verdict::kPass);
  EXPECT_EQ(JudgeMetric({0.0165, 0.0686}, kHigher, Allowance::Noise(), noisy).verdict, Verdict::kPass);
  // Better than 0 but not beyond the floor F: no gain, and 5% is too much to add.
  const MetricVerdict near = JudgeMetric({-0.01, -0.003}, kLower, Allowance::Noise(), noisy);
  EXPECT_FALSE(near.supported_gain);
  EXPECT_EQ(near.verdict, Verdict::kInconclusive);
}

// Issue 42: a supported gain certifies w_hi + F ("at least 1.06% better"), even where w_hi + P is
// within the bound too; that larger bound read "PASS <= +1.32%, changed" beside a gain.
TEST(Verdict, ASupportedGainCertifiesItsGainNotTheNullArmsEdge) {
  // F = |m| = 0.44% (the null interval holds 0), P = the edge 2.82%; w_hi = -1.50%.
  const NullArm null_arm = ReadNullArm(-0.0044, {-0.0282, 0.0200}, Allowance::Noise(), NoiseFloorRule::kSplit);
  const MetricVerdict gain = JudgeMetric({-0.0400, -0.0150}, kLower, Allowance::Noise(), null_arm);
  EXPECT_EQ(gain.verdict, Verdict::kPass);
  EXPECT_TRUE(gain.supported_gain);
  EXPECT_TRUE(gain.changed);
  EXPECT_NEAR(gain.pass_bound, -0.0106, 1e-12) << "not -1.50% + 2.82% = +1.32%";
  EXPECT_EQ(gain.reasons.front(),
            "better than base by at least 1.06%: the whole interval [-4.00%, -1.50%] is better "
            "than base beyond the noise floor 0.44%");
  // A throughput: the same in its worse direction.
  const MetricVerdict throughput = JudgeMetric({0.0150, 0.0400}, kHigher, Allowance::Noise(), null_arm);
  EXPECT_NEAR(throughput.pass_bound, -0.0106, 1e-12);
  // Without a gain the edge is added as before: [-1.00%, +0.40%] certifies +0.40% + 2.82%, past the cap.
  EXPECT_EQ(JudgeMetric({-0.0100, 0.0040}, kLower, Allowance::Noise(), null_arm).verdict, Verdict::kInconclusive);
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
  // An interval around 0 PASSes certifying its worse end plus the edge (0.6% + 1.2%), not the
  // estimate: null-estimate-v1 would add only its 0.2% floor.
  const MetricVerdict pass = JudgeMetric({-0.004, 0.006}, kLower, Allowance::Noise(), split);
  EXPECT_EQ(pass.verdict, Verdict::kPass);
  EXPECT_NEAR(pass.pass_bound, 0.018, 1e-12);
  EXPECT_NE(pass.reasons.front().find("no regression beyond +1.80%"), std::string::npos) << pass.reasons.front();
  const NullArm estimate = ReadNullArm(-0.002, {-0.012, 0.008}, Allowance::Noise(), NoiseFloorRule::kEstimate);
  EXPECT_NEAR(JudgeMetric({-0.004, 0.006}, kLower, Allowance::Noise(), estimate).pass_bound, 0.008, 1e-12);
  // Beyond the cap once the edge is added: not certified.
  EXPECT_EQ(JudgeMetric({-0.004, 0.009}, kLower, Allowance::Noise(), split).verdict, Verdict::kInconclusive);
  // A detected change inside the estimate floor is no FAIL, and under "noise" no PASS either, though
  // 0.4% + the 1.5% edge is within the cap: more pairs narrow the floor.
  const NullArm wide = ReadNullArm(0.006, {-0.01, 0.015}, Allowance::Noise(), NoiseFloorRule::kSplit);
  const MetricVerdict inside = JudgeMetric({0.001, 0.004}, kLower, Allowance::Noise(), wide);
  EXPECT_EQ(inside.verdict, Verdict::kInconclusive);
  EXPECT_EQ(inside.reasons.front(),
            "a change is detected: the whole interval [+0.10%, +0.40%] is worse than base, "
            "but within the null arm's noise floor 0.60%; more pairs narrow the floor");
  // Under a declared allowance the same change PASSes, certifying all of it, marked changed.
  const MetricVerdict declared_inside = JudgeMetric({0.001, 0.004}, kLower, Allowance::Fraction(0.02), wide);
  EXPECT_EQ(declared_inside.verdict, Verdict::kPass);
  EXPECT_NEAR(declared_inside.pass_bound, 0.019, 1e-12);
  EXPECT_TRUE(declared_inside.changed);
  // The noise cap applies to the edge, the floor a PASS certifies.
  const NullArm capped = ReadNullArm(0.0, {-0.03, 0.03}, Allowance::Noise(), NoiseFloorRule::kSplit);
  const MetricVerdict over_cap = JudgeMetric({-0.01, 0.01}, kLower, Allowance::Noise(), capped);
  EXPECT_EQ(over_cap.verdict, Verdict::kInconclusive);
  EXPECT_NE(over_cap.reasons.front().find("past the noise cap +2.00%"), std::string::npos) << over_cap.reasons.front();
  // A declared allowance: the worse end plus the edge must be within it for a PASS; a FAIL needs
  // only the estimate.
  const NullArm declared = ReadNullArm(0.001, {-0.004, 0.006}, Allowance::Fraction(0.005), NoiseFloorRule::kSplit);
  EXPECT_EQ(JudgeMetric({-0.003, 0.004}, kLower, Allowance::Fraction(0.005), declared).verdict, Verdict::kInconclusive);
  EXPECT_EQ(JudgeMetric({-0.003, 0.003}, kLower, Allowance::Fraction(0.01), declared).verdict, Verdict::kPass);
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
  const NullArm estimate = ReadNullArm(-0.002, {-0.012, 0.008}, Allowance::Noise(), NoiseFloorRule::kEstimate);
  EXPECT_DOUBLE_EQ(edge.floor, 0.012);
  EXPECT_DOUBLE_EQ(estimate.floor, 0.002);
  // +0.6%..+1.1% is within the edge floor (so not certified: INCONCLUSIVE, a detected change
  // inside the floor) but beyond the estimate floor (FAIL).
  EXPECT_EQ(JudgeMetric({0.006, 0.011}, kLower, Allowance::Noise(), edge).verdict, Verdict::kInconclusive);
  EXPECT_EQ(JudgeMetric({0.006, 0.011}, kLower, Allowance::Noise(), estimate).verdict, Verdict::kFail);
  EXPECT_EQ(NoiseFloorRuleName(NoiseFloorRule::kIntervalEdge), "null-interval-edge-v1");
  EXPECT_EQ(NoiseFloorRuleName(NoiseFloorRule::kEstimate), "null-estimate-v1");
  EXPECT_EQ(*ParseNoiseFloorRule("null-estimate-v1"), NoiseFloorRule::kEstimate);
  EXPECT_EQ(*ParseNoiseFloorRule("null-interval-edge"), NoiseFloorRule::kIntervalEdge);
  EXPECT_FALSE(ParseNoiseFloorRule("edge").ok());
}

TEST(Verdict, HostTooNoisyIsReportedAndOnlyClearGainsPass) {
  const NullArm noisy = ReadNullArm(0.02, {0.01, 0.03}, Allowance::Fraction(0.005), NoiseFloorRule::kIntervalEdge);
  ASSERT_TRUE(noisy.host_too_noisy);
  EXPECT_NE(noisy.reason.find("host too noisy"), std::string::npos);
  EXPECT_NE(noisy.reason.find("[+1.00%, +3.00%]"), std::string::npos) << noisy.reason;
  EXPECT_DOUBLE_EQ(noisy.floor, 0.03);
  const MetricVerdict near = JudgeMetric({0.0, 0.02}, kLower, Allowance::Fraction(0.005), noisy);
  EXPECT_EQ(near.verdict, Verdict::kInconclusive);
  EXPECT_TRUE(near.host_too_noisy);
  ASSERT_GE(near.reasons.size(), 2u);
  EXPECT_NE(near.reasons.back().find("host too noisy"), std::string::npos);
  EXPECT_EQ(JudgeMetric({0.04, 0.06}, kLower, Allowance::Fraction(0.005), noisy).verdict, Verdict::kFail);
  // A head better than base beyond the floor still PASSes: what it certifies carries the floor.
  const MetricVerdict gain = JudgeMetric({-0.10, -0.05}, kLower, Allowance::Fraction(0.005), noisy);
  EXPECT_EQ(gain.verdict, Verdict::kPass);
  EXPECT_TRUE(gain.supported_gain);
  EXPECT_NEAR(gain.pass_bound, -0.02, 1e-12);
  // Either direction of a null difference counts.
  EXPECT_TRUE(
      ReadNullArm(-0.02, {-0.03, -0.01}, Allowance::Fraction(0.005), NoiseFloorRule::kIntervalEdge).host_too_noisy);
  // Within the bound it is not flagged even if the interval excludes 0: the declared allowance,
  // or under "noise" the noise cap.
  EXPECT_FALSE(
      ReadNullArm(0.0025, {0.001, 0.004}, Allowance::Fraction(0.005), NoiseFloorRule::kIntervalEdge).host_too_noisy);
  EXPECT_FALSE(ReadNullArm(0.0025, {0.001, 0.004}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge).host_too_noisy);
  EXPECT_TRUE(
      ReadNullArm(0.0025, {0.001, 0.004}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge, 0.0005).host_too_noisy);
  EXPECT_TRUE(ReadNullArm(0.03, {0.025, 0.04}, Allowance::Noise(), NoiseFloorRule::kIntervalEdge).host_too_noisy);
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

// The exact verdict (deterministic metrics, one checked pair): the change itself against the
// allowance, no interval. kDeterministicAllowance is 0.1%.
TEST(ExactVerdict, FailsBeyondTheAllowancePassesCertifyingTheChangeWithin) {
  const Allowance a = Allowance::Fraction(kDeterministicAllowance);
  MetricVerdict same = JudgeExact(0.0, kLower, a);
  EXPECT_EQ(same.verdict, Verdict::kPass);
  EXPECT_EQ(same.pass_bound, 0.0) << "an unchanged head certifies exactly 0";
  EXPECT_FALSE(same.changed);
  EXPECT_FALSE(same.supported_gain);
  EXPECT_EQ(same.reasons[0],
            "no regression beyond +0.00%: the change is exactly +0.00% (deterministic), within the "
            "allowance +0.10%");

  MetricVerdict small = JudgeExact(0.0003, kLower, a);  // an alignment shift (issue 10)
  EXPECT_EQ(small.verdict, Verdict::kPass);
  EXPECT_EQ(small.pass_bound, 0.0003);
  EXPECT_TRUE(small.changed);
  EXPECT_FALSE(small.supported_gain);

  EXPECT_EQ(JudgeExact(0.001, kLower, a).verdict, Verdict::kPass) << "on the allowance: not worse than it";
  MetricVerdict fail = JudgeExact(0.005, kLower, a);
  EXPECT_EQ(fail.verdict, Verdict::kFail);
  EXPECT_EQ(fail.delta, kDeterministicAllowance);
  EXPECT_EQ(fail.reasons[0], "exactly +0.50% (deterministic), worse than the allowance +0.10%");

  MetricVerdict within_gain = JudgeExact(-0.0005, kLower, a);
  EXPECT_EQ(within_gain.verdict, Verdict::kPass);
  EXPECT_TRUE(within_gain.changed);
  EXPECT_FALSE(within_gain.supported_gain) << "within the allowance: changed, not a gain";

  MetricVerdict gain = JudgeExact(-0.0114, kLower, a);
  EXPECT_EQ(gain.verdict, Verdict::kPass);
  EXPECT_TRUE(gain.supported_gain);
  EXPECT_DOUBLE_EQ(gain.pass_bound, -0.0114) << "certifies head better by 1.14%";
}

TEST(ExactVerdict, HigherIsBetterMirrorsAndNoValueIsNoVerdict) {
  const Allowance one = Allowance::Fraction(0.01);
  EXPECT_EQ(JudgeExact(-0.02, kHigher, one).verdict, Verdict::kFail);  // 2% fewer per second
  EXPECT_EQ(JudgeExact(-0.005, kHigher, one).verdict, Verdict::kPass);
  EXPECT_TRUE(JudgeExact(0.02, kHigher, one).supported_gain);
  EXPECT_EQ(JudgeExact(0.02, kLower, one).verdict, Verdict::kFail);
  EXPECT_EQ(JudgeExact(std::nan(""), kLower, one).verdict, Verdict::kInconclusive);
  // A declared 0%: any change beyond 0 fails, any gain is supported.
  EXPECT_EQ(JudgeExact(1e-9, kLower, Allowance::Fraction(0)).verdict, Verdict::kFail);
  EXPECT_TRUE(JudgeExact(-1e-9, kLower, Allowance::Fraction(0)).supported_gain);
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
