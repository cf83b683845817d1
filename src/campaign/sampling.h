// Adaptive sampling: how many pairs (blocks) a cell gets, and at what confidence each look at its
// interval is taken, so that adding samples to INCONCLUSIVE cells does not inflate the error rate.
//
// The problem: looking at a 95% interval after 20, 40, ... 100 pairs and stopping at the first
// conclusive one errs far more often than 5% (Armitage, McPherson & Rowe 1969: 14.2% for 5 looks
// at a z-test; 10.6% for tare's sign-test interval at 20..100 pairs, computed exactly by
// SignTestLookError below). The fix here: every look uses a stricter per-look confidence.
//
// Plan: initial, step, cap (in pairs), growth. With growth 1 looks happen at initial,
// initial + step, ... and at cap: L = 1 + ceil((cap - initial) / step) planned looks. With growth 2
// the step doubles each look: initial, initial + step, initial + 3 step, initial + 7 step, ...,
// and cap (the default 20, 20, 1280: 20, 40, 80, 160, 320, 640, 1280, seven looks). Doubling
// looks suit a plan that a time budget ends: the pair counts a look can happen at span two orders
// of magnitude, yet each look costs confidence as one of only L = 7 (99.29% per look under
// Bonferroni, against 98.33% for the old 20..60 plan of 3 looks).
//
// Schemes (recorded by name with the results):
//   bonferroni-v1 (default): per-look confidence 1 - alpha/L, alpha = 1 - confidence. By the
//     union bound P(any of L looks misses) <= L * alpha/L = alpha, for ANY interval method
//     (sign test or Hodges–Lehmann), any dependence between looks, and looks at any pair counts,
//     as long as there are at most L of them. Conservative: 2.1% actual for 20..100 pairs at 95%.
//   sign-test-calibrated-v1: the smallest per-look confidence (one value for all looks, as in
//     Pocock 1977) whose EXACT sequential error for the sign-test interval at the planned pair
//     counts is <= alpha. Exact because under A/A (head and base exchangeable, continuous values)
//     the interval misses 0 exactly when the count of positive log ratios leaves [k, n - k], and
//     that count is a fair-coin random walk whose path probabilities a dynamic program sums
//     (ties only make the miss less likely). Narrower intervals (one or two ranks per look) than
//     Bonferroni; valid only for SIGN-TEST intervals taken at the planned pair counts.
// Either way, the error bound is per cell and metric: nothing here corrects across cells.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/verdict.h"

namespace tare::campaign {

enum class LookScheme { kBonferroni, kSignTestCalibrated };

inline constexpr std::string_view kBonferroniV1 = "bonferroni-v1";
inline constexpr std::string_view kSignTestCalibratedV1 = "sign-test-calibrated-v1";
std::string_view LookSchemeName(LookScheme scheme);
StatusOr<LookScheme> ParseLookScheme(std::string_view name);

// Limits on a plan, checked before anything runs: planning the looks' confidence is exact
// arithmetic over every planned pair count (1.5 s at the limits on the development VM; a cap of
// 1,000,000 took 322 s and larger ones ran out of memory, issue 9).
inline constexpr int64_t kMaxPairs = 10'000;
inline constexpr int64_t kMaxLooks = 100;

// InvalidArgument naming the field and the fix.
Status ValidatePlan(const SamplingPlan& plan);

// The number of planned looks of a valid plan (1 + ceil((cap - initial) / step) for growth 1).
int64_t PlannedLooks(const SamplingPlan& plan);

// Pair count at each planned look: initial, initial + step, ..., cap (growth 1); initial,
// initial + step, initial + 3 step, ..., cap (growth 2).
std::vector<int64_t> LookPairCounts(const SamplingPlan& plan);

// The next planned pair count after `pairs_now` for an INCONCLUSIVE cell, or nullopt when the cell
// is at (or past) the cap and its verdict is final.
std::optional<int64_t> NextSampleCount(const SamplingPlan& plan, int64_t pairs_now);

// What every look of a plan uses.
struct LookPlan {
  LookScheme scheme = LookScheme::kBonferroni;
  double confidence = 0;           // overall, as declared (e.g. 0.95)
  double per_look_confidence = 0;  // pass this to the interval at every look
  std::vector<int64_t> pairs;      // planned pair count at each look
  // Exact A/A probability that any look's sign-test interval excludes 0 (either side), for
  // continuous data: the worst-case false FAIL + false supported-gain rate (each side is half).
  // <= 1 - confidence for both schemes.
  double sign_test_error = 0;
};

// Errors: ValidatePlan's, confidence outside (0, 1), an unknown scheme, and FailedPrecondition when
// the first look has too few pairs for any sign-test interval at the per-look confidence:
// "initial=6 pairs cannot give the 99% per-look sign-test interval that 95% over 5 looks needs;
// use initial >= 8".
StatusOr<LookPlan> PlanLooks(const SamplingPlan& plan, double confidence, LookScheme scheme = LookScheme::kBonferroni);

// Exact probability, for A/A pairs with continuous values, that the sign-test interval at
// per_look_confidence excludes 0 at one or more of the looks taken at the given (increasing)
// pair counts. Looks too small for an interval never exclude 0. Cost O(cap^2).
double SignTestLookError(std::span<const int64_t> pairs_at_looks, double per_look_confidence);

}  // namespace tare::campaign
