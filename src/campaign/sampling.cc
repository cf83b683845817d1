#include "campaign/sampling.h"

#include <algorithm>
#include <string>

#include <fmt/core.h>

#include "stats/binomial.h"
#include "stats/sign_interval.h"

namespace tare::campaign {

std::string_view LookSchemeName(LookScheme scheme) {
  switch (scheme) {
    case LookScheme::kBonferroni:
      return kBonferroniV1;
    case LookScheme::kSignTestCalibrated:
      return kSignTestCalibratedV1;
  }
  return "unknown";
}

StatusOr<LookScheme> ParseLookScheme(std::string_view name) {
  if (name == kBonferroniV1 || name == "bonferroni") return LookScheme::kBonferroni;
  if (name == kSignTestCalibratedV1 || name == "sign-test-calibrated") {
    return LookScheme::kSignTestCalibrated;
  }
  return Status::InvalidArgument(
      fmt::format("unknown look scheme '{}'; use '{}' (default) or '{}'", name, kBonferroniV1, kSignTestCalibratedV1));
}

Status ValidatePlan(const SamplingPlan& plan) {
  if (plan.initial < 1) {
    return Status::InvalidArgument(
        fmt::format("sampling.initial = {}: a cell needs at least one pair before its first look (the sign "
                    "test needs 6 for 95%)",
                    plan.initial));
  }
  if (plan.cap < plan.initial) {
    return Status::InvalidArgument(
        fmt::format("sampling.cap = {} is below sampling.initial = {}; set cap >= initial (cap = initial "
                    "means one look, no adaptive sampling)",
                    plan.cap, plan.initial));
  }
  if (plan.cap > plan.initial && plan.step < 1) {
    return Status::InvalidArgument(
        fmt::format("sampling.step = {}: INCONCLUSIVE cells must gain at least one pair per look; set "
                    "step >= 1 or cap = initial",
                    plan.step));
  }
  if (plan.growth != 1 && plan.growth != 2) {
    return Status::InvalidArgument(fmt::format(
        "sampling.growth = {}: use 1 (every look adds step pairs) or 2 (looks double: 20, 40, 80, ...)", plan.growth));
  }
  if (plan.cap > kMaxPairs) {
    return Status::InvalidArgument(
        fmt::format("sampling.cap = {} is more than {} pairs per cell ({} processes or more); a change that "
                    "needs more is below what one host can resolve: use --instrument sim, or a larger allowance",
                    plan.cap, kMaxPairs, 2 * kMaxPairs));
  }
  if (PlannedLooks(plan) > kMaxLooks) {
    return Status::InvalidArgument(
        fmt::format("sampling: initial {}, step {}, cap {} plan {} looks, more than {}; every look costs "
                    "confidence, so take larger steps (e.g. step {})",
                    plan.initial, plan.step, plan.cap, PlannedLooks(plan), kMaxLooks,
                    (plan.cap - plan.initial + kMaxLooks - 2) / (kMaxLooks - 1)));
  }
  return Status::Ok();
}

int64_t PlannedLooks(const SamplingPlan& plan) {
  if (plan.cap <= plan.initial || plan.step < 1) return 1;
  if (plan.growth <= 1) return 1 + (plan.cap - plan.initial + plan.step - 1) / plan.step;
  int64_t looks = 1;
  for (int64_t n = plan.initial, add = plan.step; n < plan.cap; add *= plan.growth) {
    n += add;
    ++looks;
  }
  return looks;
}

std::vector<int64_t> LookPairCounts(const SamplingPlan& plan) {
  std::vector<int64_t> pairs;
  const int64_t looks = PlannedLooks(plan);
  int64_t n = plan.initial, add = std::max<int64_t>(plan.step, 0);
  for (int64_t l = 0; l < looks; ++l) {
    pairs.push_back(std::min(n, plan.cap));
    n += add;
    if (plan.growth > 1) add *= plan.growth;
  }
  return pairs;
}

std::optional<int64_t> NextSampleCount(const SamplingPlan& plan, int64_t pairs_now) {
  for (int64_t n : LookPairCounts(plan)) {
    if (n > pairs_now) return n;
  }
  return std::nullopt;
}

double SignTestLookError(std::span<const int64_t> pairs_at_looks, double per_look_confidence) {
  if (pairs_at_looks.empty()) return 0.0;
  const int64_t cap = *std::max_element(pairs_at_looks.begin(), pairs_at_looks.end());
  // dist[s]: probability that s of the first n log ratios are positive AND no earlier look's
  // interval excluded 0. A fair coin per pair: under A/A, head and base are exchangeable.
  std::vector<double> dist(static_cast<size_t>(cap + 1), 0.0);
  dist[0] = 1.0;
  int64_t n = 0;
  double error = 0.0;
  for (int64_t look_n : pairs_at_looks) {
    for (; n < look_n; ++n) {
      for (int64_t s = n + 1; s >= 1; --s) {
        dist[static_cast<size_t>(s)] = 0.5 * (dist[static_cast<size_t>(s)] + dist[static_cast<size_t>(s - 1)]);
      }
      dist[0] *= 0.5;
    }
    auto ranks = stats::SignTestRanksFor(look_n, per_look_confidence);
    if (!ranks.ok()) continue;  // no interval at this look: it cannot exclude 0
    // [d(k), d(n+1-k)] lies above 0 when at most k-1 values are negative (s >= n-k+1), below 0
    // when at most k-1 are positive (s <= k-1). Those paths end here; they are errors.
    const int64_t k = ranks->k;
    for (int64_t s = 0; s <= look_n; ++s) {
      if (s <= k - 1 || s >= look_n - k + 1) {
        error += dist[static_cast<size_t>(s)];
        dist[static_cast<size_t>(s)] = 0.0;
      }
    }
  }
  return error;
}

StatusOr<LookPlan> PlanLooks(const SamplingPlan& plan, double confidence, LookScheme scheme) {
  TARE_RETURN_IF_ERROR(ValidatePlan(plan));
  if (!(confidence > 0.0 && confidence < 1.0)) {
    return Status::InvalidArgument(
        fmt::format("confidence {} is not between 0 and 1 (write 0.95 for 95%)", confidence));
  }
  LookPlan out;
  out.scheme = scheme;
  out.confidence = confidence;
  out.pairs = LookPairCounts(plan);
  const int64_t looks = static_cast<int64_t>(out.pairs.size());
  const double alpha = 1.0 - confidence;
  const double bonferroni = 1.0 - alpha / static_cast<double>(looks);
  out.per_look_confidence = bonferroni;

  if (scheme == LookScheme::kSignTestCalibrated && looks > 1) {
    // The error only changes where some look's rank k changes, i.e. at the exact coverages
    // 1 - 2 P(B <= k - 1) of the looks. Try those between 1 - alpha and the Bonferroni level (which
    // always qualifies), smallest first; the error falls as the confidence rises (every look's
    // interval widens), so bisect for the smallest that keeps the error <= alpha.
    std::vector<double> candidates = {bonferroni};
    for (int64_t n : out.pairs) {
      for (int64_t k = 1; 2 * k <= n + 1; ++k) {
        const double coverage = 1.0 - 2.0 * stats::BinomialCdf(k - 1, n, 0.5);
        if (coverage < confidence) break;
        if (coverage < bonferroni) candidates.push_back(coverage);
      }
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    size_t good = candidates.size() - 1;  // the Bonferroni level
    size_t lo = 0;                        // first index not yet known to fail
    while (lo < good) {
      const size_t mid = lo + (good - lo) / 2;
      if (SignTestLookError(out.pairs, candidates[mid]) <= alpha) {
        good = mid;
      } else {
        lo = mid + 1;
      }
    }
    out.per_look_confidence = candidates[good];
  }

  out.sign_test_error = SignTestLookError(out.pairs, out.per_look_confidence);
  if (!stats::SignTestRanksFor(out.pairs.front(), out.per_look_confidence).ok()) {
    return Status::FailedPrecondition(
        fmt::format("initial={} pairs cannot give the {:.4g}% per-look sign-test interval that {:g}% over {} "
                    "looks needs; use initial >= {} (or fewer looks: a larger step or a smaller cap)",
                    plan.initial, out.per_look_confidence * 100.0, confidence * 100.0, looks,
                    stats::MinimumSignTestCount(out.per_look_confidence)));
  }
  return out;
}

}  // namespace tare::campaign
