#include "campaign/verdict.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/core.h>

#include "stats/hodges_lehmann.h"
#include "stats/sign_interval.h"

namespace tare::campaign {
namespace {

// "+2.13%": changes in the ledger's unit.
std::string Percent(double fraction) { return fmt::format("{:+.2f}%", fraction * 100.0); }

}  // namespace

StatusOr<Allowance> ParseAllowance(std::string_view text) {
  if (text == "noise") return Allowance::Noise();
  if (text.size() >= 2 && text.back() == '%') {
    const std::string_view number = text.substr(0, text.size() - 1);
    double percent = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), percent);
    if (ec == std::errc() && end == number.data() + number.size() && std::isfinite(percent) &&
        percent >= 0) {
      return Allowance::Fraction(percent / 100.0);
    }
  }
  return Status::InvalidArgument(fmt::format(
      "allowance '{}' is not understood; write a percentage such as \"2%\" (head may be up to 2% "
      "worse) or \"noise\" (only the null arm's noise floor)",
      text));
}

std::string AllowanceText(const Allowance& a) {
  if (a.noise) return "noise";
  return fmt::format("{:g}%", a.fraction * 100.0);
}

std::string_view NoiseFloorRuleName(NoiseFloorRule rule) {
  switch (rule) {
    case NoiseFloorRule::kIntervalEdge:
      return kNullIntervalEdgeV1;
    case NoiseFloorRule::kEstimate:
      return kNullEstimateV1;
    case NoiseFloorRule::kSplit:
      return kNullSplitV1;
  }
  return "unknown";
}

StatusOr<NoiseFloorRule> ParseNoiseFloorRule(std::string_view name) {
  if (name == kNullIntervalEdgeV1 || name == "null-interval-edge") {
    return NoiseFloorRule::kIntervalEdge;
  }
  if (name == kNullEstimateV1 || name == "null-estimate") return NoiseFloorRule::kEstimate;
  if (name == kNullSplitV1 || name == "null-split") return NoiseFloorRule::kSplit;
  return Status::InvalidArgument(fmt::format(
      "unknown noise floor rule '{}'; use '{}' (default), '{}' or '{}'", name, kNullSplitV1,
      kNullIntervalEdgeV1, kNullEstimateV1));
}

std::string_view PairedIntervalName(PairedIntervalMethod method) {
  return method == PairedIntervalMethod::kSignedRank ? kSignedRankV1 : kSignTestV1;
}

StatusOr<PairedIntervalMethod> ParsePairedInterval(std::string_view name) {
  if (name == kSignTestV1 || name == "sign-test") return PairedIntervalMethod::kSignTest;
  if (name == kSignedRankV1 || name == "signed-rank") return PairedIntervalMethod::kSignedRank;
  return Status::InvalidArgument(fmt::format(
      "unknown interval '{}'; use '{}' (default) or '{}'", name, kSignTestV1, kSignedRankV1));
}

StatusOr<stats::PairedChange> PairedInterval(PairedIntervalMethod method, std::span<const double> base,
                                             std::span<const double> head, double confidence) {
  if (method == PairedIntervalMethod::kSignedRank) {
    return stats::HodgesLehmannPairedChange(base, head, confidence);
  }
  return stats::SignTestPairedChange(base, head, confidence);
}

NullArm ReadNullArm(double estimate, const stats::Interval& interval, const Allowance& allowance,
                    NoiseFloorRule rule) {
  NullArm n;
  n.estimate = estimate;
  n.change = interval;
  const double declared = allowance.declared();
  if (std::isnan(estimate) || std::isnan(interval.lo) || std::isnan(interval.hi)) {
    n.floor = std::numeric_limits<double>::infinity();
    n.pass_floor = n.floor;
    n.host_too_noisy = true;
    n.reason = "the null arm has no interval (too few pairs or failed samples), so the host's "
               "noise is unknown; rerun with more pairs";
    return n;
  }
  const double edge = std::max(std::fabs(interval.lo), std::fabs(interval.hi));
  // null-split-v1 keeps the edge for FAIL too when the null interval excludes 0: the host then shows
  // a systematic difference between identical copies, which the estimate floor guards against only
  // by the head interval's own width (verdict.h).
  const bool null_excludes_zero = interval.lo > 0 || interval.hi < 0;
  n.floor = rule == NoiseFloorRule::kIntervalEdge || (rule == NoiseFloorRule::kSplit && null_excludes_zero)
                ? edge
                : std::fabs(estimate);
  n.pass_floor = rule == NoiseFloorRule::kEstimate ? n.floor : edge;
  if (interval.lo > declared || interval.hi < -declared) {
    n.host_too_noisy = true;
    n.reason = fmt::format(
        "host too noisy: two copies of the base program differ by [{}, {}], beyond the declared "
        "allowance {}; quiet the host (tare env shows how) or run the arms in random order",
        Percent(interval.lo), Percent(interval.hi), AllowanceText(allowance));
  }
  return n;
}

MetricVerdict JudgeMetric(const stats::Interval& head_vs_base, Direction direction,
                          const Allowance& allowance, const std::optional<NullArm>& null_arm,
                          double noise_cap) {
  MetricVerdict out;
  out.noise_floor = null_arm ? null_arm->floor : 0.0;
  out.pass_floor = null_arm ? null_arm->pass_floor : 0.0;
  out.host_too_noisy = null_arm && null_arm->host_too_noisy;
  out.delta = std::max(allowance.declared(), out.noise_floor);
  out.pass_bound = allowance.noise ? out.pass_floor : allowance.declared();
  // What a PASS must stay within: the bound, and never more than FAIL's threshold allows (equal
  // to delta under the edge and estimate rules; under null-split-v1 the edge, wider than delta).
  const double pass_limit = std::max(out.delta, out.pass_bound);
  if (std::isnan(head_vs_base.lo) || std::isnan(head_vs_base.hi) ||
      head_vs_base.lo > head_vs_base.hi) {
    out.verdict = Verdict::kInconclusive;
    out.reasons.push_back("no interval for the change (too few pairs?), so no verdict");
    return out;
  }
  const bool lower_is_better = direction == Direction::kLowerIsBetter;
  const char* worse = lower_is_better ? "+" : "-";
  // The interval in the worse direction: positive = worse.
  const double w_lo = lower_is_better ? head_vs_base.lo : -head_vs_base.hi;
  const double w_hi = lower_is_better ? head_vs_base.hi : -head_vs_base.lo;
  const std::string interval =
      fmt::format("[{}, {}]", Percent(head_vs_base.lo), Percent(head_vs_base.hi));
  const std::string limit = fmt::format("{}{:.2f}%", worse, out.delta * 100.0);
  const std::string bound = fmt::format("{}{:.2f}%", worse, out.pass_bound * 100.0);
  const std::string floor =
      std::isinf(out.pass_floor) ? std::string("unknown") : fmt::format("{:.2f}%", out.pass_floor * 100.0);
  const std::string pass_limit_text = fmt::format("{}{:.2f}%", worse, pass_limit * 100.0);

  if (w_lo > out.delta) {
    out.verdict = Verdict::kFail;
    out.reasons.push_back(fmt::format("the whole interval {} is worse than the allowance {}",
                                      interval, limit));
  } else if (w_hi > pass_limit) {
    out.verdict = Verdict::kInconclusive;
    out.reasons.push_back(fmt::format(
        "the interval {} straddles the allowance {}; more pairs may decide it", interval,
        pass_limit > out.delta ? pass_limit_text : limit));
  } else if (allowance.noise && !(out.pass_floor <= noise_cap)) {
    // A PASS would certify only the floor, and the floor is wider than the campaign accepts.
    out.verdict = Verdict::kInconclusive;
    out.reasons.push_back(fmt::format(
        "not a PASS: host too noisy for a verdict within the noise cap {:.2f}%: two copies of base "
        "differ by up to {} here, so no bound tighter than that can be certified; more pairs "
        "(--cap) narrow the floor, a quieter host lowers it, --instrument sim removes it",
        noise_cap * 100.0, floor));
  } else if (!allowance.noise && !(out.pass_floor <= allowance.declared())) {
    out.verdict = Verdict::kInconclusive;
    out.reasons.push_back(fmt::format(
        "not a PASS: host too noisy for a verdict within the declared allowance {}: two copies of "
        "base differ by up to {} here; more pairs (--cap) narrow the floor, a quieter host lowers "
        "it, --instrument sim removes it",
        bound, floor));
  } else if (allowance.noise && w_lo > 0 && out.pass_floor > 0) {
    // A detected change is never certified by the floor alone: the whole interval is worse than
    // base, and "within the floor" would pass it (bench/README.md: +1% PASSed at the first look
    // against a 1.8-4.2% floor). It stays INCONCLUSIVE so the cell gets more pairs, which narrow
    // the floor. Under A/A this needs the interval to exclude 0, so it turns at most the look's
    // alpha of A/A PASSes into INCONCLUSIVE and adds no FAIL.
    out.verdict = Verdict::kInconclusive;
    out.reasons.push_back(fmt::format(
        "not a PASS: the whole interval {} is worse than base; it is within {} only because the "
        "null arm's noise floor is {}; more pairs narrow the floor",
        interval, pass_limit_text, floor));
  } else {
    out.verdict = Verdict::kPass;
    out.reasons.push_back(fmt::format("no regression beyond {}: the whole interval {} is within it",
                                      bound, interval));
  }
  if (out.verdict == Verdict::kPass && (head_vs_base.lo > 0 || head_vs_base.hi < 0)) {
    out.changed = true;
    out.reasons.push_back(fmt::format("changed: the whole interval {} is off 0, within the allowance {}",
                                      interval, bound));
  }
  out.supported_gain = w_hi < -out.noise_floor;
  if (out.supported_gain) {
    out.reasons.push_back(fmt::format("supported gain: the whole interval {} is better than 0{}",
                                      interval,
                                      out.noise_floor > 0
                                          ? fmt::format(" and beyond the noise floor {:.2f}%",
                                                        out.noise_floor * 100.0)
                                          : std::string()));
  }
  if (out.host_too_noisy) {
    if (out.verdict == Verdict::kPass) {
      out.verdict = Verdict::kInconclusive;
      out.reasons.push_back(
          "not a PASS: the null arm shows the host itself differs beyond the declared "
          "allowance, so 'within the allowance' cannot be confirmed");
    }
    out.reasons.push_back(null_arm->reason);
  }
  return out;
}

}  // namespace tare::campaign
