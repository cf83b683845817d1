// Verdicts: PASS / INCONCLUSIVE / FAIL for one cell and metric, from the interval on the paired
// change of head against base, the metric's direction, the declared allowance and the null arm.
//
// All changes are fractions (+0.03 = head 3% higher than base), e.g. stats::PairedChange lo/hi.
// "Worse" follows the metric: higher is worse for times (kLowerIsBetter), lower is worse for
// throughputs (kHigherIsBetter). Write the interval in the worse direction as [w_lo, w_hi]
// ([lo, hi] for lower-is-better, [-hi, -lo] for higher-is-better). The null arm gives two floors
// (below): F, what a FAIL or a gain must clear, and P, what the host itself may add to any
// difference between two programs (0 without a null arm). Then
//     delta = max(declared allowance, F)            (allowance "noise": declared = 0)
//     B     = the bound a PASS must be within: the declared allowance; under "noise" the
//             campaign's noise cap (default 2%) with a null arm, 0 without one
//     C     = w_hi + P, what the data certifies: head is not worse than base by more than C
//             (the interval's worse end, plus what the host could have hidden in it)
//   FAIL          if w_lo > delta        the whole interval is worse than delta
//   PASS          if w_hi < -F           a supported gain (below) is a PASS whatever the floor P,
//                                        and certifies w_hi + F < 0: head better than base by at
//                                        least -(w_hi + F), never the larger w_hi + P (which read
//                                        "PASS <= +1.32%" beside a gain, issue 42)
//              or if C <= B              certifies C ("PASS <= C", C printed in the metric's worse
//                                        direction)
//   INCONCLUSIVE  under "noise", when w_lo > 0 and F > 0 (not a FAIL): a change is detected, and
//                 only the floor keeps it from a FAIL; more pairs narrow the floor (a PASS here
//                 would stop the cell and lose the detection: the estimate rule caught +1% at 1%
//                 noise in 64% of campaigns with it, 99% without)
//   INCONCLUSIVE  otherwise, with the reason: the interval reaches past B (more pairs may decide
//                 it), or it is within B only before the floor is added (more pairs narrow both;
//                 a quieter host lowers the floor; --instrument sim removes it).
//                 INCONCLUSIVE IS NOT A PASS.
// Why add the floor: the null arm measures what the host does to two identical programs; a bias
// of up to P between any two copies could make a change of w_hi + P look like w_hi. So no PASS
// claims more than the data and the host support, and a head far on the good side PASSes however
// noisy the host is (issue 21: a -27% head [-29.83%, -19.64%] was INCONCLUSIVE under the rule
// "PASS needs the floor under the cap", a rule that ignored where the interval was).
//   supported gain  if w_hi < -F         the whole interval is better than 0 and beyond the noise
//                                        floor F (F = 0 without a null arm: better than 0)
// A cell's verdict is its worst metric's (FAIL > INCONCLUSIVE > PASS); nothing is averaged.
//
// The null arm (the base executable again, under another path) measures what the host alone does
// to two identical programs. From the base-vs-null paired change (estimate m, interval
// [n_lo, n_hi]), the floors are, by rule (recorded by name with the results):
//   null-interval-edge-v1: F = P = max(|n_lo|, |n_hi|), the largest A/A difference the data
//       cannot rule out at the look's confidence. Guards against a real host bias with a
//       statistical margin, but it includes the null arm's own sampling error, so with the
//       allowance "noise" a change must be about twice the interval's half-width to FAIL
//       (adaptive_simulation_test: +1% at 1% per-sample noise, 20..120 pairs, is caught in
//       ~60% of campaigns, against ~99% under the estimate rule).
//   null-estimate-v1: F = P = |m|, the estimated systematic A/A difference. Far more sensitive;
//       if the host biases every pair of distinct executables alike, the margin against that bias
//       is only the head interval's own width.
//   null-split-v1 (default): each question against its own floor. A FAIL and a supported gain need the
//       head's interval clear of F = |m| (as null-estimate-v1); a PASS adds P = max(|n_lo|, |n_hi|)
//       (as null-interval-edge-v1). Detection gets the estimate rule's power, certification keeps
//       the edge rule's margin, and the A/A bound holds since |m| >= 0 when identical copies do not
//       differ systematically. When they do (a host bias b between any two copies), the estimate
//       floor guards against b only by the head interval's own width, so when the null interval
//       excludes 0 -- the bias shows -- FAIL and gains clear the edge too.
// Every rule keeps the A/A error bound below (F >= 0 is all it needs).
//   host too noisy  when the null interval excludes 0 by more than B (n_lo > B or n_hi < -B): the
//                   host itself shows a systematic difference between identical programs larger
//                   than the bound, so only a head clearly better than base can PASS (C <= B needs
//                   w_hi <= B - P < 0). Data for the report to say loudly; it changes no verdict
//                   (C already carries P).
// Why this keeps the error rate: under A/A (no real change) delta >= 0 and F >= 0, so a FAIL
// or a supported gain needs the interval to exclude 0 -- the event whose probability the look
// scheme (sampling.h) bounds. And a PASS certifies C >= w_hi, so a PASS beyond its printed bound
// needs the interval to miss the true change on its worse side (at most alpha / 2).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/metric.h"
#include "model/verdict.h"
#include "stats/binomial.h"
#include "stats/paired_change.h"

namespace tare::campaign {

// The declared allowance of a metric: a fraction (0.02 = 2% worse is acceptable) or "noise".
struct Allowance {
  bool noise = true;    // "noise": delta is the null-arm floor alone (0 without a null arm)
  double fraction = 0;  // when !noise, >= 0

  static Allowance Noise() { return {true, 0.0}; }
  static Allowance Fraction(double f) { return {false, f}; }
  double declared() const { return noise ? 0.0 : fraction; }
};

// "noise", "2%", "0.5%" -> Allowance. Bare numbers are refused (is "2" 2% or 200%?).
StatusOr<Allowance> ParseAllowance(std::string_view text);
// "noise" or "2%" (shortest form that round-trips through ParseAllowance).
std::string AllowanceText(const Allowance& a);

enum class NoiseFloorRule { kIntervalEdge, kEstimate, kSplit };
inline constexpr std::string_view kNullIntervalEdgeV1 = "null-interval-edge-v1";
inline constexpr std::string_view kNullEstimateV1 = "null-estimate-v1";
inline constexpr std::string_view kNullSplitV1 = "null-split-v1";
std::string_view NoiseFloorRuleName(NoiseFloorRule rule);
StatusOr<NoiseFloorRule> ParseNoiseFloorRule(std::string_view name);

// The paired interval behind every verdict (head vs base, and base vs the null copy), on the log
// ratios d_i = ln(head_i / base_i) of the blocks:
//   sign-test-v1 (default): the sign-test interval on the median of d (stats/sign_interval.h);
//       assumes only that pairs are independent.
//   signed-rank-v1: the Wilcoxon signed-rank (Hodges–Lehmann) interval (stats/hodges_lehmann.h);
//       assumes also that d is symmetric about its centre, which randomized arm order within blocks
//       gives for the host's own noise. About 0.82 of the sign test's width on normal-like noise:
//       +1% at 1% noise, cap 40, FAILs in 85% of simulated campaigns against 61% (docs/methodology.md §6).
//       The look scheme must be bonferroni-v1 (sign-test-calibrated-v1 is calibrated for the sign
//       test's distribution only).
enum class PairedIntervalMethod { kSignTest, kSignedRank };
inline constexpr std::string_view kSignTestV1 = "sign-test-v1";
inline constexpr std::string_view kSignedRankV1 = "signed-rank-v1";
std::string_view PairedIntervalName(PairedIntervalMethod method);
StatusOr<PairedIntervalMethod> ParsePairedInterval(std::string_view name);
StatusOr<stats::PairedChange> PairedInterval(PairedIntervalMethod method, std::span<const double> base,
                                             std::span<const double> head, double confidence);

// The null arm's reading for one cell and metric.
struct NullArm {
  double estimate = 0;           // base-vs-null paired change estimate (fraction)
  stats::Interval change{0, 0};  // its interval (fractions)
  double floor = 0;              // by the rule above: what a FAIL or a supported gain must clear
  double pass_floor = 0;         // P: what a PASS adds to the interval's worse end (= floor but
                                 // under null-split-v1)
  bool host_too_noisy = false;
  std::string reason;  // set when host_too_noisy: what was seen and what to do
};

// The noise cap's default: under the allowance "noise", the bound B a PASS must certify (the
// interval's worse end plus the null arm's floor). Why 2%: in bench/README.md's study
// (perf.task_clock_ns, a 25 ms program, a loaded 2-CPU VM) the median floor was 0.5%; the floors
// that let +1% PASS under the older rule were 1.8-4.2% at the first look. A cap of 2% keeps every
// certified bound at 2% or less and sends the wide first looks on to more pairs.
inline constexpr double kDefaultNoiseCap = 0.02;

// base_vs_null: e.g. stats::SignTestPairedChange(base, null, per_look_confidence) -> {estimate,
// {lo, hi}}. A NaN gives floor = +infinity and host_too_noisy (nothing can PASS or FAIL
// against an unknown floor; the runner should not get here, since head and null have the same n).
// `noise_cap` is B under the allowance "noise" (host_too_noisy compares the null interval with B).
NullArm ReadNullArm(double estimate, const stats::Interval& interval, const Allowance& allowance, NoiseFloorRule rule,
                    double noise_cap = kDefaultNoiseCap);

// The allowance "noise" of a deterministic metric (sim.*, mem.*: identical on every rerun, so the
// null arm's floor is exactly 0 and any change at all would FAIL). Code that did not change still
// moves by a few hundredths of a percent of instructions when an unrelated edit shifts its
// alignment (a +0.03% Ir change in an untouched cell, issue 10); 0.1% lets that through and still
// fails a real change. Changes within it are reported ("changed, within the allowance"), never
// hidden. Set another per metric (--metric sim.Ir=0.5%) or per cell ([[cells]] allowances).
inline constexpr double kDeterministicAllowance = 0.001;

struct MetricVerdict {
  Verdict verdict = Verdict::kInconclusive;
  bool supported_gain = false;
  double delta = 0;  // max(declared, F): a FAIL's whole interval is worse than this
  // C, in the worse direction: head is not worse than base by more than this (w_hi + P; for a
  // supported gain, w_hi + F < 0). A PASS prints it; +inf when the floor is unknown.
  double pass_bound = 0;
  double bound = 0;        // B: what C must be within for a PASS (declared, or the noise cap)
  double noise_floor = 0;  // F, 0 without a null arm: what a FAIL or a supported gain must clear
  double pass_floor = 0;   // P, 0 without a null arm: what a PASS adds to the interval's worse end
  bool host_too_noisy = false;
  bool changed = false;  // a PASS whose interval excludes 0: changed, within the allowance
  // One line each, for the ledger: why this verdict. reasons.front() is the decisive one, the one
  // the ledger prints on the verdict's own line.
  std::vector<std::string> reasons;
};

// head_vs_base: the paired change interval (fractions, lo <= hi). An interval with a NaN end or
// lo > hi is INCONCLUSIVE with a reason (e.g. the caller had too few pairs for an interval).
MetricVerdict JudgeMetric(const stats::Interval& head_vs_base, Direction direction, const Allowance& allowance,
                          const std::optional<NullArm>& null_arm, double noise_cap = kDefaultNoiseCap);

// The exact verdict of a deterministic metric (sim.*, mem.*) whose values were checked to repeat
// exactly (campaign/exact_plan.h): `change` = head/base - 1, computed from one value per arm. There
// is no interval and no confidence level: the change IS the difference, as long as the metric is
// deterministic on this host, which the determinism check tested. With w the change in the worse
// direction and A the declared allowance (the caller applies kDeterministicAllowance for "noise"):
//   FAIL            if w > A      worse than the allowance
//   PASS            otherwise     certifies w itself ("PASS <= w"; w < 0: better by -w); marked
//                                 changed when w != 0
//   supported gain  if w < -A     better than base beyond the allowance: a change within the
//                                 allowance is as likely an unrelated alignment shift (issue 10)
//                                 as a real saving, so it is reported as changed, not as a gain
// No error rate: the verdict is as exact as the determinism it rests on. A metric that varies only
// rarely could pass a check of one pair by chance; docs/campaign.md says so.
MetricVerdict JudgeExact(double change, Direction direction, const Allowance& allowance);

}  // namespace tare::campaign
