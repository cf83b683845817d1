// Seeded simulation of the adaptive sampling schemes on A/A campaigns (head and base identical in
// distribution), through the real code path: stats::SignTestPairedChange at the per-look
// confidence of campaign::PlanLooks, then campaign::JudgeMetric; a cell stops at its first
// conclusive verdict (PASS or FAIL) as the runner does.
//
// Error = a FAIL or a supported gain at any look. Plan: initial 20, step 20, cap 100 pairs
// (5 looks), confidence 95%, allowance "noise" and no null arm unless stated: delta = 0, the worst
// case (any interval off zero is an error). Per-pair noise: lognormal, sigma 2% per sample.
//
// Numbers (N = 20000 campaigns, seed 20240601); exact values from SignTestLookError, checked
// independently by testdata/gen_look_errors.py:
//   scheme                               simulated  exact      check
//   naive z-test, 95% at every look      ~0.142     0.142 [1]  within 4 SE of 0.142
//   naive sign test, 95% at every look   ~0.105     0.1055     within 4 SE of exact, > 0.08
//   bonferroni-v1 (99% per look)         ~0.021     0.0206     within 4 SE of exact, <= 0.05
//   sign-test-calibrated-v1 (98.17%)     ~0.046     0.0456     within 4 SE of exact, <= 0.05
//   calibrated + null arm (delta=floor)  ~0.01      <= 0.0456  <= 0.05
// [1] Armitage, McPherson & Rowe 1969 (J. R. Stat. Soc. A 132:235); Pocock 1977 Table 1.
// SE = sqrt(p(1-p)/N): 0.0025 at p = 0.142, 0.0015 at p = 0.046. A scheme whose true rate were
// 0.06 would fail the calibrated check with probability > 0.9999 (it would sit 9 SE from 0.0456).
// And the schemes still detect real changes: +3% is a FAIL in >= 95% of campaigns.
#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "campaign/sampling.h"
#include "campaign/verdict_rules.h"
#include "stats/hodges_lehmann.h"
#include "stats/sign_interval.h"

namespace tare::campaign {
namespace {

constexpr int kCampaigns = 20000;
constexpr double kAlpha = 0.05;
constexpr double kSigma = 0.02;
const SamplingPlan kPlan{20, 20, 100};

// Standard normals from a seeded mt19937_64 by Box–Muller (std::normal_distribution's output is
// implementation-defined; this sequence is the same everywhere).
class Normal {
 public:
  explicit Normal(uint64_t seed) : rng_(seed) {}
  double operator()() {
    if (have_spare_) {
      have_spare_ = false;
      return spare_;
    }
    const double u1 = Uniform();
    const double u2 = Uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = r * std::sin(2.0 * M_PI * u2);
    have_spare_ = true;
    return r * std::cos(2.0 * M_PI * u2);
  }

 private:
  double Uniform() { return (static_cast<double>(rng_() >> 11) + 0.5) * 0x1.0p-53; }
  std::mt19937_64 rng_;
  bool have_spare_ = false;
  double spare_ = 0;
};

struct Arms {
  std::vector<double> base, head, null;
};

Arms Campaign(Normal& normal, double head_shift) {
  Arms a;
  for (int64_t i = 0; i < kPlan.cap; ++i) {
    a.base.push_back(1e6 * std::exp(kSigma * normal()));
    a.head.push_back(1e6 * std::exp(head_shift + kSigma * normal()));
    a.null.push_back(1e6 * std::exp(kSigma * normal()));
  }
  return a;
}

struct Outcome {
  bool fail = false;
  bool supported_gain = false;
  bool pass = false;
  int64_t pairs = 0;  // at the look the cell stopped at (the last one when it never decided)
  bool error() const { return fail || supported_gain; }
};

// The runner's loop for one cell and one metric (lower is better).
// hodges_lehmann: the signed-rank (Hodges–Lehmann) paired interval in place of the sign test's.
Outcome RunCell(const Arms& a, const LookPlan& looks, bool with_null_arm,
                NoiseFloorRule rule = NoiseFloorRule::kIntervalEdge, bool hodges_lehmann = false) {
  Outcome out;
  const auto paired = hodges_lehmann ? stats::HodgesLehmannPairedChange : stats::SignTestPairedChange;
  for (int64_t n : looks.pairs) {
    const auto prefix = [n](const std::vector<double>& v) {
      return std::span<const double>(v.data(), static_cast<size_t>(n));
    };
    auto change = paired(prefix(a.base), prefix(a.head), looks.per_look_confidence);
    EXPECT_TRUE(change.ok()) << change.status().ToString();
    if (!change.ok()) return out;
    std::optional<NullArm> null_arm;
    if (with_null_arm) {
      auto null_change = paired(prefix(a.base), prefix(a.null), looks.per_look_confidence);
      null_arm = ReadNullArm(null_change->estimate, {null_change->lo, null_change->hi}, Allowance::Noise(), rule);
    }
    const MetricVerdict v =
        JudgeMetric({change->lo, change->hi}, Direction::kLowerIsBetter, Allowance::Noise(), null_arm);
    out.fail |= v.verdict == Verdict::kFail;
    out.supported_gain |= v.supported_gain;
    out.pass |= v.verdict == Verdict::kPass;
    out.pairs = n;
    if (v.verdict != Verdict::kInconclusive) break;  // conclusive: the cell stops sampling
  }
  return out;
}

// The textbook naive procedure: z-test on the mean log ratio with known sigma at every look.
bool NaiveZTestRejects(const Arms& a, const std::vector<int64_t>& looks) {
  double sum = 0;
  int64_t n = 0;
  for (int64_t look : looks) {
    for (; n < look; ++n) sum += std::log(a.head[n] / a.base[n]);
    const double z = (sum / n) / (kSigma * std::sqrt(2.0) / std::sqrt(static_cast<double>(n)));
    if (std::fabs(z) > 1.959963984540054) return true;
  }
  return false;
}

double StandardError(double p) { return std::sqrt(p * (1 - p) / kCampaigns); }

TEST(AdaptiveSampling, SplitLooksKeepTheAAErrorRateWhileNaiveLooksInflateIt) {
  auto bonferroni = PlanLooks(kPlan, 1 - kAlpha, LookScheme::kBonferroni);
  auto calibrated = PlanLooks(kPlan, 1 - kAlpha, LookScheme::kSignTestCalibrated);
  ASSERT_TRUE(bonferroni.ok() && calibrated.ok());
  LookPlan naive = *bonferroni;
  naive.per_look_confidence = 1 - kAlpha;  // what a naive runner would do at every look
  const double naive_exact = SignTestLookError(naive.pairs, naive.per_look_confidence);

  Normal normal(20240601);
  int z_errors = 0, naive_errors = 0, bonferroni_errors = 0, calibrated_errors = 0;
  int null_errors = 0, null_estimate_errors = 0, calibrated_fails = 0, calibrated_gains = 0;
  for (int c = 0; c < kCampaigns; ++c) {
    const Arms arms = Campaign(normal, 0.0);
    z_errors += NaiveZTestRejects(arms, naive.pairs);
    naive_errors += RunCell(arms, naive, false).error();
    bonferroni_errors += RunCell(arms, *bonferroni, false).error();
    const Outcome cal = RunCell(arms, *calibrated, false);
    calibrated_errors += cal.error();
    calibrated_fails += cal.fail;
    calibrated_gains += cal.supported_gain;
    null_errors += RunCell(arms, *calibrated, true).error();
    null_estimate_errors += RunCell(arms, *calibrated, true, NoiseFloorRule::kEstimate).error();
  }
  const auto rate = [](int count) { return count / static_cast<double>(kCampaigns); };
  RecordProperty("naive_z", std::to_string(rate(z_errors)));
  RecordProperty("naive_sign_test", std::to_string(rate(naive_errors)));
  RecordProperty("bonferroni", std::to_string(rate(bonferroni_errors)));
  RecordProperty("calibrated", std::to_string(rate(calibrated_errors)));
  RecordProperty("calibrated_null_arm_edge", std::to_string(rate(null_errors)));
  RecordProperty("calibrated_null_arm_estimate", std::to_string(rate(null_estimate_errors)));
  std::printf(
      "A/A error over %d campaigns (5 looks, 20..100 pairs, 95%%):\n"
      "  naive z-test %.4f (theory 0.142)\n"
      "  naive sign test %.4f (exact %.4f)\n"
      "  bonferroni-v1 %.4f (exact %.4f)\n"
      "  sign-test-calibrated-v1 %.4f (exact %.4f; FAIL %.4f, supported gain %.4f)\n"
      "  calibrated with null arm: floor rule edge %.4f, estimate %.4f\n",
      kCampaigns, rate(z_errors), rate(naive_errors), naive_exact, rate(bonferroni_errors), bonferroni->sign_test_error,
      rate(calibrated_errors), calibrated->sign_test_error, rate(calibrated_fails), rate(calibrated_gains),
      rate(null_errors), rate(null_estimate_errors));

  // Naive looks inflate the error far beyond alpha.
  EXPECT_NEAR(rate(z_errors), 0.142, 4 * StandardError(0.142));
  EXPECT_NEAR(rate(naive_errors), naive_exact, 4 * StandardError(naive_exact));
  EXPECT_GT(rate(naive_errors), 0.08);
  // The schemes keep it: the simulation agrees with the exact computation, which is <= alpha.
  EXPECT_NEAR(rate(bonferroni_errors), bonferroni->sign_test_error, 4 * StandardError(bonferroni->sign_test_error));
  EXPECT_NEAR(rate(calibrated_errors), calibrated->sign_test_error, 4 * StandardError(calibrated->sign_test_error));
  EXPECT_LE(bonferroni->sign_test_error, kAlpha);
  EXPECT_LE(calibrated->sign_test_error, kAlpha);
  EXPECT_LE(rate(bonferroni_errors), kAlpha);
  EXPECT_LE(rate(calibrated_errors), kAlpha);
  EXPECT_LE(rate(null_errors), kAlpha);
  EXPECT_LE(rate(null_estimate_errors), kAlpha);
  // By symmetry false FAILs and false gains split the error.
  EXPECT_NEAR(rate(calibrated_fails), calibrated->sign_test_error / 2,
              4 * StandardError(calibrated->sign_test_error / 2));
}

TEST(AdaptiveSampling, StillDetectsARealSlowdown) {
  auto calibrated = PlanLooks(kPlan, 1 - kAlpha, LookScheme::kSignTestCalibrated);
  auto bonferroni = PlanLooks(kPlan, 1 - kAlpha, LookScheme::kBonferroni);
  ASSERT_TRUE(calibrated.ok() && bonferroni.ok());
  Normal normal(7);
  const int campaigns = 2000;
  int calibrated_fails = 0, bonferroni_fails = 0;
  for (int c = 0; c < campaigns; ++c) {
    const Arms arms = Campaign(normal, std::log(1.03));  // head 3% slower
    calibrated_fails += RunCell(arms, *calibrated, false).fail;
    bonferroni_fails += RunCell(arms, *bonferroni, false).fail;
  }
  std::printf("+3%% detected: calibrated %.4f, bonferroni %.4f\n", calibrated_fails / double(campaigns),
              bonferroni_fails / double(campaigns));
  EXPECT_GE(calibrated_fails, 0.95 * campaigns);
  EXPECT_GE(bonferroni_fails, 0.95 * campaigns);
}

// What the noise-floor rule costs in sensitivity (the numbers quoted in verdict.h and
// docs/methodology.md): +1% at 1% per-sample noise, 20..120 pairs, allowance "noise", null arm.
TEST(AdaptiveSampling, NoiseFloorRulesTradeSensitivity) {
  const SamplingPlan plan{20, 20, 120};
  auto looks = PlanLooks(plan, 1 - kAlpha, LookScheme::kSignTestCalibrated);
  ASSERT_TRUE(looks.ok());
  Normal normal(11);
  const int campaigns = 1000;
  int no_null = 0, edge = 0, estimate = 0;
  for (int c = 0; c < campaigns; ++c) {
    Arms a;
    for (int64_t i = 0; i < plan.cap; ++i) {
      a.base.push_back(std::exp(0.01 * normal()));
      a.head.push_back(std::exp(std::log(1.01) + 0.01 * normal()));
      a.null.push_back(std::exp(0.01 * normal()));
    }
    no_null += RunCell(a, *looks, false).fail;
    edge += RunCell(a, *looks, true, NoiseFloorRule::kIntervalEdge).fail;
    estimate += RunCell(a, *looks, true, NoiseFloorRule::kEstimate).fail;
  }
  std::printf(
      "+1%% at 1%% noise, 20..120 pairs, calibrated: FAIL without null arm %.3f, "
      "null-interval-edge-v1 %.3f, null-estimate-v1 %.3f\n",
      no_null / double(campaigns), edge / double(campaigns), estimate / double(campaigns));
  EXPECT_GE(no_null, 0.95 * campaigns);
  // Issue 21: with a null arm a PASS certifies the interval's worse end plus the floor within the
  // 2% noise cap, a true statement for a +1% head ("PASS <= +1.8%"), and the cell stops there; so
  // the estimate rule catches +1% in ~76% of these campaigns, not the ~99% of the rule that never
  // certified more than the floor itself. Catching +1% every time takes an allowance below it
  // (--metric NAME=0.5%) or a lower --noise-cap.
  EXPECT_GE(estimate, 0.70 * campaigns);
  EXPECT_LT(edge, estimate);  // the edge rule's margin costs sensitivity
}

// Issue 10 §1: a PASS certifies "head is not worse than base by more than B" for the bound B it
// prints. Whenever the true slowdown exceeds B, that claim is false; it can only happen when the
// head's interval misses the true change, so its rate is bounded by the look scheme's alpha.
// Simulated on real code paths for true changes of -5..+3% at 2% per-sample noise, under the
// allowance "noise" (a PASS certifies C = the interval's worse end + the null floor, C <= the 2%
// cap) and a declared 1% allowance. A gain's PASS prints a negative C ("at least |C| faster"): it
// is false when the true change is above C.
struct Certified {
  int passes = 0;
  int false_certificates = 0;  // PASS with true slowdown > pass_bound
};

Certified RunCertifying(const Arms& a, const LookPlan& looks, const Allowance& allowance, double true_change) {
  Certified out;
  for (int64_t n : looks.pairs) {
    const auto prefix = [n](const std::vector<double>& v) {
      return std::span<const double>(v.data(), static_cast<size_t>(n));
    };
    auto change = stats::SignTestPairedChange(prefix(a.base), prefix(a.head), looks.per_look_confidence);
    auto null_change = stats::SignTestPairedChange(prefix(a.base), prefix(a.null), looks.per_look_confidence);
    if (!change.ok() || !null_change.ok()) return out;
    const NullArm null_arm = ReadNullArm(null_change->estimate, {null_change->lo, null_change->hi}, allowance,
                                         NoiseFloorRule::kSplit);  // the default
    const MetricVerdict v = JudgeMetric({change->lo, change->hi}, Direction::kLowerIsBetter, allowance, null_arm);
    if (v.verdict == Verdict::kPass) {
      out.passes = 1;
      out.false_certificates = true_change > v.pass_bound ? 1 : 0;
    }
    if (v.verdict != Verdict::kInconclusive) break;
  }
  return out;
}

TEST(AdaptiveSampling, NoPassCertifiesMoreThanItsBound) {
  auto looks = PlanLooks(kPlan, 1 - kAlpha, LookScheme::kBonferroni);
  ASSERT_TRUE(looks.ok());
  Normal normal(20261201);
  const int campaigns = 4000;
  for (const Allowance allowance : {Allowance::Noise(), Allowance::Fraction(0.01)}) {
    for (double shift : {-0.05, -0.02, 0.0, 0.005, 0.01, 0.02, 0.03}) {
      int passes = 0, false_certificates = 0;
      for (int c = 0; c < campaigns; ++c) {
        const Certified r = RunCertifying(Campaign(normal, std::log1p(shift)), *looks, allowance, shift);
        passes += r.passes;
        false_certificates += r.false_certificates;
      }
      std::printf("allowance %s, true %+.1f%%: PASS %.4f, PASS beyond its bound %.4f\n",
                  AllowanceText(allowance).c_str(), shift * 100, passes / double(campaigns),
                  false_certificates / double(campaigns));
      // alpha / 2 is the one-sided bound; 4 SE of slack for the simulation.
      EXPECT_LE(false_certificates / double(campaigns), kAlpha / 2 + 4 * std::sqrt(kAlpha / 2 / campaigns))
          << AllowanceText(allowance) << " +" << shift;
      // A declared 1% is never certified for a change of 2% or more.
      if (!allowance.noise && shift >= 0.02) {
        EXPECT_LE(passes / double(campaigns), kAlpha / 2 + 4 * std::sqrt(kAlpha / 2 / campaigns));
      }
      // Issue 21: a head clearly better than base is a PASS (a supported gain), never left
      // INCONCLUSIVE because the floor a PASS near 0 would need is wide.
      if (shift <= -0.05) {
        EXPECT_GE(passes / double(campaigns), 0.99) << AllowanceText(allowance);
      }
    }
  }
}

// Issue 10 §2, where the power goes at --cap 40 (the default plan's looks, 20 then 40 pairs,
// bonferroni-v1 at 95%), allowance noise, per-sample lognormal noise of 1% and 2%:
//   edge       the default: FAIL needs the head's interval clear of the null arm's interval edge;
//   estimate   null-estimate-v1: clear of |the null's estimate| only;
//   two refs   head against the geometric mean of base and the null copy (both are base), the
//              null arm read as usual: the reference's own noise is halved.
//   Hodges–Lehmann + estimate: the signed-rank interval in place of the sign test, null-estimate-v1.
// Printed for the study (bench/README.md); asserted: the edge rule costs power at +1%, and no
// rule flags more than alpha of A/A campaigns (FAIL or supported gain). 4000 campaigns each:
//   sigma  change  edge   estimate  two refs  HL + estimate
//   1%     A/A     0.000  0.002     0.000     0.003
//   1%     +1%     0.050  0.644     0.068     0.876
//   2%     A/A     0.000  0.003     0.000     0.006
//   2%     +1%     0.001  0.117     0.000     0.232
TEST(AdaptiveSampling, PowerAtCap40ByNoiseFloorRule) {
  const SamplingPlan plan{20, 20, 40};
  auto looks = PlanLooks(plan, 1 - kAlpha, LookScheme::kBonferroni);
  ASSERT_TRUE(looks.ok());
  const int campaigns = 4000;
  for (double sigma : {0.01, 0.02}) {
    for (double shift : {0.0, 0.01}) {
      Normal normal(static_cast<uint64_t>(1000 * sigma + 100 * shift) + 7);
      int edge = 0, estimate = 0, two_refs = 0, hl_estimate = 0;
      for (int c = 0; c < campaigns; ++c) {
        Arms a;
        for (int64_t i = 0; i < plan.cap; ++i) {
          a.base.push_back(std::exp(sigma * normal()));
          a.head.push_back(std::exp(std::log(1 + shift) + sigma * normal()));
          a.null.push_back(std::exp(sigma * normal()));
        }
        const auto flagged = [&](const Outcome& o) { return shift == 0 ? o.error() : o.fail; };
        edge += flagged(RunCell(a, *looks, true, NoiseFloorRule::kIntervalEdge));
        estimate += flagged(RunCell(a, *looks, true, NoiseFloorRule::kEstimate));
        // Two references: the head's pairs are against sqrt(base * null).
        Outcome o;
        for (int64_t n : looks->pairs) {
          std::vector<double> ref, head(a.head.begin(), a.head.begin() + n);
          for (int64_t i = 0; i < n; ++i) ref.push_back(std::sqrt(a.base[i] * a.null[i]));
          auto change = stats::SignTestPairedChange(ref, head, looks->per_look_confidence);
          auto null_change =
              stats::SignTestPairedChange(std::span<const double>(a.base.data(), n),
                                          std::span<const double>(a.null.data(), n), looks->per_look_confidence);
          ASSERT_TRUE(change.ok() && null_change.ok());
          const NullArm null_arm = ReadNullArm(null_change->estimate, {null_change->lo, null_change->hi},
                                               Allowance::Noise(), NoiseFloorRule::kIntervalEdge);
          const MetricVerdict v =
              JudgeMetric({change->lo, change->hi}, Direction::kLowerIsBetter, Allowance::Noise(), null_arm);
          o.fail |= v.verdict == Verdict::kFail;
          o.supported_gain |= v.supported_gain;
          if (v.verdict != Verdict::kInconclusive) break;
        }
        two_refs += flagged(o);
        // The Hodges–Lehmann (signed-rank) interval in place of the sign test, null-estimate-v1.
        hl_estimate += flagged(RunCell(a, *looks, true, NoiseFloorRule::kEstimate, /*hodges_lehmann=*/true));
      }
      std::printf(
          "cap 40, sigma %.0f%%, %s: %s edge %.3f, estimate %.3f, two refs (edge) %.3f, "
          "Hodges-Lehmann + estimate %.3f\n",
          sigma * 100, shift == 0 ? "A/A" : "+1%", shift == 0 ? "flagged" : "FAIL", edge / double(campaigns),
          estimate / double(campaigns), two_refs / double(campaigns), hl_estimate / double(campaigns));
      if (shift == 0) {
        for (int flagged : {edge, estimate, two_refs, hl_estimate}) {
          EXPECT_LE(flagged / double(campaigns), kAlpha + 4 * std::sqrt(kAlpha / campaigns));
        }
      } else {
        EXPECT_LT(edge, estimate) << "sigma " << sigma;
      }
    }
  }
}

// Issue 10 §2, the rule built from the study above: null-split-v1 (FAIL and gains against the
// null's estimate, PASS certifying its interval edge), with the sign test and with the signed-rank
// (Hodges–Lehmann) interval, against the edge and estimate rules. Besides power and A/A flags it
// counts A/A PASSes: how often an unchanged head is certified. Printed for bench/README.md;
// asserted: every rule keeps A/A flags within alpha, null-split-v1 detects nearly as
// null-estimate-v1 does and certifies an unchanged head as often as the edge rule. 4000 campaigns:
//   sigma  rule                      A/A flagged  A/A PASS  +1% FAIL
//   0.5%   edge                      0.000        0.830     0.876
//   0.5%   estimate                  0.004        0.122     0.999
//   0.5%   split                     0.003        0.830     0.996
//   0.5%   split+HL                  0.003        0.830     0.999
//   0.5%   split+HL, one look at 40  0.011        0.699     0.998
//   1%     edge                      0.000        0.836     0.050
//   1%     estimate                  0.006        0.118     0.631
//   1%     split                     0.004        0.836     0.611
//   1%     split+HL                  0.005        0.844     0.845
//   1%     split+HL, one look at 40  0.010        0.707     0.871
//   2%     edge                      0.000        0.460     0.002
//   2%     estimate                  0.004        0.112     0.119
//   2%     split                     0.004        0.460     0.119
//   2%     split+HL                  0.005        0.726     0.238
//   2%     split+HL, one look at 40  0.010        0.679     0.303
TEST(AdaptiveSampling, SplitFloorRuleKeepsPowerAndCertification) {
  const SamplingPlan plan{20, 20, 40};
  auto looks = PlanLooks(plan, 1 - kAlpha, LookScheme::kBonferroni);
  ASSERT_TRUE(looks.ok());
  const int campaigns = 4000;
  struct Rule {
    const char* name;
    NoiseFloorRule rule;
    bool hl;
  };
  const Rule rules[] = {{"edge", NoiseFloorRule::kIntervalEdge, false},
                        {"estimate", NoiseFloorRule::kEstimate, false},
                        {"split", NoiseFloorRule::kSplit, false},
                        {"split+HL", NoiseFloorRule::kSplit, true},
                        {"split+HL, one look at 40", NoiseFloorRule::kSplit, true}};
  // The last row spends the whole confidence on one look at 40 pairs (--initial 40 --cap 40).
  auto one_look = PlanLooks(SamplingPlan{40, 20, 40}, 1 - kAlpha, LookScheme::kBonferroni);
  ASSERT_TRUE(one_look.ok());
  constexpr int kRules = 5;
  for (double sigma : {0.005, 0.01, 0.02}) {
    int aa_flagged[kRules] = {}, aa_pass[kRules] = {}, fail[kRules] = {};
    for (double shift : {0.0, 0.01}) {
      Normal normal(static_cast<uint64_t>(10000 * sigma + 100 * shift) + 11);
      for (int c = 0; c < campaigns; ++c) {
        Arms a;
        for (int64_t i = 0; i < plan.cap; ++i) {
          a.base.push_back(std::exp(sigma * normal()));
          a.head.push_back(std::exp(std::log(1 + shift) + sigma * normal()));
          a.null.push_back(std::exp(sigma * normal()));
        }
        for (int r = 0; r < kRules; ++r) {
          const Outcome o = RunCell(a, r == 4 ? *one_look : *looks, true, rules[r].rule, rules[r].hl);
          if (shift == 0) {
            aa_flagged[r] += o.error();
            aa_pass[r] += o.pass;
          } else {
            fail[r] += o.fail;
          }
        }
      }
    }
    for (int r = 0; r < kRules; ++r) {
      std::printf("cap 40, sigma %.1f%%, %-24s A/A flagged %.3f, A/A PASS %.3f, +1%% FAIL %.3f\n", sigma * 100,
                  rules[r].name, aa_flagged[r] / double(campaigns), aa_pass[r] / double(campaigns),
                  fail[r] / double(campaigns));
      EXPECT_LE(aa_flagged[r] / double(campaigns), kAlpha + 4 * std::sqrt(kAlpha / campaigns))
          << rules[r].name << " sigma " << sigma;
    }
    // Split detects almost as the estimate rule does: it loses only the campaigns it PASSes at the
    // first look (within the edge) that the estimate rule would have sampled on and FAILed.
    EXPECT_GE(fail[2], 0.95 * fail[1]) << "sigma " << sigma;
    EXPECT_GT(fail[2], fail[0]) << "sigma " << sigma;
    // And it certifies an unchanged head as often as the edge rule (within 1% of campaigns: the
    // few A/A cells the estimate floor decides differently at the first look).
    EXPECT_NEAR(aa_pass[2], aa_pass[0], 0.01 * campaigns) << "sigma " << sigma;
    // The estimate rule adds only |m| to what a PASS certifies: it certifies at least as often,
    // with less margin against a host bias.
    EXPECT_GE(aa_pass[1], aa_pass[2]) << "sigma " << sigma;
    // The signed-rank interval adds power where noise is not negligible.
    if (sigma >= 0.01) {
      EXPECT_GT(fail[3], fail[2]) << "sigma " << sigma;
    }
  }
}

// A host bias: every copy other than base runs b slower (head and the null copy alike), the case the
// null arm's floor exists for. Unchanged heads flagged (FAIL or supported gain), sigma 1%, cap 40,
// 4000 campaigns per row. The estimate rule's margin against b is only the head interval's width;
// null-split-v1 falls back to the edge once the null interval excludes 0. Printed for
// docs/methodology.md; asserted: split never flags more than the estimate rule, and at a bias
// far beyond the noise (3%) the edge and split rules flag at most alpha.
TEST(AdaptiveSampling, AHostBiasBetweenCopiesAndTheFloorRules) {
  const SamplingPlan plan{20, 20, 40};
  auto looks = PlanLooks(plan, 1 - kAlpha, LookScheme::kBonferroni);
  ASSERT_TRUE(looks.ok());
  const int campaigns = 4000;
  const double sigma = 0.01;
  for (double bias : {0.0025, 0.005, 0.01, 0.03}) {
    Normal normal(static_cast<uint64_t>(1e5 * bias) + 3);
    int flagged[4] = {};
    for (int c = 0; c < campaigns; ++c) {
      Arms a;
      for (int64_t i = 0; i < plan.cap; ++i) {
        a.base.push_back(std::exp(sigma * normal()));
        a.head.push_back(std::exp(std::log(1 + bias) + sigma * normal()));
        a.null.push_back(std::exp(std::log(1 + bias) + sigma * normal()));
      }
      flagged[0] += RunCell(a, *looks, true, NoiseFloorRule::kIntervalEdge).error();
      flagged[1] += RunCell(a, *looks, true, NoiseFloorRule::kEstimate).error();
      flagged[2] += RunCell(a, *looks, true, NoiseFloorRule::kSplit).error();
      flagged[3] += RunCell(a, *looks, true, NoiseFloorRule::kSplit, true).error();
    }
    std::printf(
        "host bias +%.2f%% at sigma 1%%: unchanged head flagged: edge %.3f, estimate %.3f, split %.3f, "
        "split+HL %.3f\n",
        bias * 100, flagged[0] / double(campaigns), flagged[1] / double(campaigns), flagged[2] / double(campaigns),
        flagged[3] / double(campaigns));
    EXPECT_LE(flagged[2], flagged[1] + 0.005 * campaigns) << bias;
    if (bias >= 0.03) {
      for (int r : {0, 2, 3}) EXPECT_LE(flagged[r] / double(campaigns), kAlpha) << r << " bias " << bias;
    }
  }
}

// Issue 21 §6, the time-based default plan: looks at 20 pairs then doubling (40, 80, ... 1280; 7
// looks, 99.29% each under Bonferroni), ended by the budget, against the plan it replaced (20, 40,
// 60: 3 looks at 98.33%). A budget that allows at most P pairs per cell is the same plan with the
// looks past P not taken (the per-look confidence stays the 7-look one). null-split-v1, the sign
// test, allowance "noise", 2000 campaigns per row; mean pairs: what an undecided cell costs.
// Printed for docs/methodology.md; asserted: every plan keeps A/A flags within alpha; the default
// plan, given pairs, decides +1% and certifies unchanged heads more often than the old one; and no
// PASS certifies more than its printed bound beyond alpha/2 (checked at the full plan).
TEST(AdaptiveSampling, TheTimeBasedDefaultPlan) {
  const SamplingPlan old_plan{20, 20, 60};
  const SamplingPlan doubling{20, 20, 1280, 2};
  auto old_looks = PlanLooks(old_plan, 1 - kAlpha, LookScheme::kBonferroni);
  auto new_looks = PlanLooks(doubling, 1 - kAlpha, LookScheme::kBonferroni);
  ASSERT_TRUE(old_looks.ok() && new_looks.ok());
  auto upto = [&](int64_t most) {
    LookPlan l = *new_looks;
    l.pairs.erase(std::remove_if(l.pairs.begin(), l.pairs.end(), [most](int64_t n) { return n > most; }),
                  l.pairs.end());
    return l;
  };
  struct Row {
    const char* name;
    LookPlan looks;
  };
  const Row rows[] = {{"old 20..60", *old_looks},
                      {"doubling, budget ~160", upto(160)},
                      {"doubling, budget ~640", upto(640)},
                      {"doubling to 1280", *new_looks}};
  constexpr int kRows = 4;
  const int campaigns = 2000;
  for (double sigma : {0.01, 0.02}) {
    int aa_flagged[kRows] = {}, aa_pass[kRows] = {}, fail[kRows] = {};
    double pairs[kRows] = {};
    for (double shift : {0.0, 0.01}) {
      Normal normal(static_cast<uint64_t>(1e4 * sigma + 1e3 * shift) + 21);
      for (int c = 0; c < campaigns; ++c) {
        Arms a;
        for (int64_t i = 0; i < doubling.cap; ++i) {
          a.base.push_back(std::exp(sigma * normal()));
          a.head.push_back(std::exp(std::log1p(shift) + sigma * normal()));
          a.null.push_back(std::exp(sigma * normal()));
        }
        for (int r = 0; r < kRows; ++r) {
          const Outcome o = RunCell(a, rows[r].looks, true, NoiseFloorRule::kSplit);
          if (shift == 0) {
            aa_flagged[r] += o.error();
            aa_pass[r] += o.pass;
          } else {
            fail[r] += o.fail;
          }
          pairs[r] += static_cast<double>(o.pairs) / (2.0 * campaigns);
        }
      }
    }
    for (int r = 0; r < kRows; ++r) {
      std::printf("sigma %.0f%%, %-22s A/A flagged %.3f, A/A PASS %.3f, +1%% FAIL %.3f, mean pairs %.0f\n", sigma * 100,
                  rows[r].name, aa_flagged[r] / double(campaigns), aa_pass[r] / double(campaigns),
                  fail[r] / double(campaigns), pairs[r]);
      EXPECT_LE(aa_flagged[r] / double(campaigns), kAlpha + 4 * std::sqrt(kAlpha / campaigns))
          << rows[r].name << " sigma " << sigma;
    }
    EXPECT_GT(fail[3], fail[0]) << "sigma " << sigma;
    EXPECT_GE(aa_pass[3], aa_pass[0]) << "sigma " << sigma;
  }

  Normal normal(20261202);
  for (double shift : {0.005, 0.01, 0.02, 0.03}) {
    int false_certificates = 0;
    for (int c = 0; c < campaigns; ++c) {
      Arms a;
      for (int64_t i = 0; i < doubling.cap; ++i) {
        a.base.push_back(std::exp(kSigma * normal()));
        a.head.push_back(std::exp(std::log1p(shift) + kSigma * normal()));
        a.null.push_back(std::exp(kSigma * normal()));
      }
      false_certificates += RunCertifying(a, *new_looks, Allowance::Noise(), shift).false_certificates;
    }
    EXPECT_LE(false_certificates / double(campaigns), kAlpha / 2 + 4 * std::sqrt(kAlpha / 2 / campaigns)) << shift;
  }
}

// Issue 42: when the budget ends a cell between two planned looks, the samples measured since the
// last one are judged at one more look, at the per-look confidence (cohort_looks.cc, SpendBudget).
// bonferroni-v1 spends 1 - per-look confidence on each of at most K looks, wherever they fall, so a
// K-th look at an unplanned count keeps the error bound; the stop point is set by the wall clock of
// the whole suite, not by the cell's own pair differences. Simulated: the default doubling plan, the
// budget stopping each campaign at a pair count drawn uniformly from 21..320, a null arm, allowance
// noise, 2000 campaigns per sigma. Asserted: A/A flagged within alpha (4 SE of slack), no PASS beyond
// its bound (alpha/2), and the late look decides more unchanged heads and catches more +1% than
// stopping at the last planned look.
TEST(AdaptiveSampling, ABudgetsLastLookJudgesEverySampleAndKeepsTheErrorRate) {
  const SamplingPlan doubling{20, 20, 1280, 2};
  auto looks = PlanLooks(doubling, 1 - kAlpha, LookScheme::kBonferroni);
  ASSERT_TRUE(looks.ok());
  const int campaigns = 2000;
  std::mt19937_64 stops(20261205);
  for (double sigma : {0.01, 0.02}) {
    int aa_flagged_late = 0, aa_pass_planned = 0, aa_pass_late = 0, fail_planned = 0, fail_late = 0;
    int false_certificates = 0;
    Normal normal(static_cast<uint64_t>(sigma * 1e4) + 42);
    for (int c = 0; c < campaigns; ++c) {
      const int64_t stop = std::uniform_int_distribution<int64_t>(21, 320)(stops);
      LookPlan planned = *looks, late = *looks;
      std::erase_if(planned.pairs, [stop](int64_t n) { return n > stop; });
      late.pairs = planned.pairs;
      if (late.pairs.back() != stop) late.pairs.push_back(stop);
      for (double shift : {0.0, 0.01}) {
        Arms a;
        for (int64_t i = 0; i < stop; ++i) {
          a.base.push_back(std::exp(sigma * normal()));
          a.head.push_back(std::exp(std::log1p(shift) + sigma * normal()));
          a.null.push_back(std::exp(sigma * normal()));
        }
        const Outcome p = RunCell(a, planned, true, NoiseFloorRule::kSplit);
        const Outcome l = RunCell(a, late, true, NoiseFloorRule::kSplit);
        if (shift == 0) {
          aa_flagged_late += l.error();
          aa_pass_planned += p.pass;
          aa_pass_late += l.pass;
          false_certificates += RunCertifying(a, late, Allowance::Noise(), 0).false_certificates;
        } else {
          fail_planned += p.fail;
          fail_late += l.fail;
          false_certificates += RunCertifying(a, late, Allowance::Noise(), shift).false_certificates;
        }
      }
    }
    std::printf(
        "sigma %.0f%%, budget stop in 21..320: A/A flagged %.3f; A/A PASS %.3f -> %.3f; +1%% FAIL %.3f -> "
        "%.3f (planned looks only -> with the budget's look)\n",
        sigma * 100, aa_flagged_late / double(campaigns), aa_pass_planned / double(campaigns),
        aa_pass_late / double(campaigns), fail_planned / double(campaigns), fail_late / double(campaigns));
    EXPECT_LE(aa_flagged_late / double(campaigns), kAlpha + 4 * std::sqrt(kAlpha / campaigns)) << sigma;
    EXPECT_LE(false_certificates / double(2 * campaigns), kAlpha / 2 + 4 * std::sqrt(kAlpha / 2 / (2 * campaigns)))
        << sigma;
    EXPECT_GT(aa_pass_late, aa_pass_planned) << sigma;
    EXPECT_GE(fail_late, fail_planned) << sigma;
  }
}

}  // namespace
}  // namespace tare::campaign
