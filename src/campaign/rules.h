// Sanity gates and release bounds: the declared rules a campaign checks besides its verdicts.
//
// A sanity gate compares arms on one block's samples and stops the campaign when it is violated:
// a head that needs far more memory than base is not worth measuring for speed.
//     METRIC(ARM) <= [FACTOR *] METRIC(ARM) [+ QUANTITY]
//     peak_rss_bytes(head) <= 1.5 * peak_rss_bytes(base) + 8MiB      (the default gate)
// Gates are checked on the first block of every cell (one sample per arm), before any more
// samples are spent.
//
// A release bound caps a statistic of one arm's samples over the whole cohort:
//     STAT(METRIC, ARM) <= QUANTITY        STAT: median p50 p90 p95 p99 max mean
//     p95(wall_ns, head) <= 25ms
// Bounds are reported for every cell and enforced: a violated bound makes the exit status 4.
//
// ARM is an arm name (base, head, hd02..., null); "head" in a rule means every head arm.
// QUANTITY is a number with an optional unit that must suit the metric: ns us ms s for times,
// B KiB MiB GiB KB MB GB for bytes; without a unit it is in the metric's base unit (ns, bytes,
// count). Pure functions.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace tare::campaign {

inline constexpr char kDefaultGate[] = "peak_rss_bytes(head) <= 1.5 * peak_rss_bytes(base) + 8MiB";

struct GateRule {
  std::string text;    // as written
  std::string metric;  // left side
  std::string arm;
  double factor = 1;
  std::string ref_metric;  // right side
  std::string ref_arm;
  double offset = 0;  // base units
};

struct BoundRule {
  std::string text;
  std::string stat;  // "median", "p50", "p90", "p95", "p99", "max", "mean"
  std::string metric;
  std::string arm;
  double limit = 0;  // base units
};

// InvalidArgument quoting the rule and what is wrong with it, with the expected form.
StatusOr<GateRule> ParseGate(std::string_view text);
StatusOr<BoundRule> ParseBound(std::string_view text);

// "12MiB", "25ms", "3", "1.5e6" -> base units, checked against the metric's kind.
StatusOr<double> ParseQuantity(std::string_view text, const std::string& metric);

// The statistic a bound names, over values in any order (NaN for none).
double BoundStatistic(const std::string& stat, std::span<const double> values);

// Arm names a rule's ARM stands for among `arms` ("head" = every head arm); empty when none.
std::vector<std::string> ExpandRuleArm(const std::string& arm, const std::vector<std::string>& arms);

// gate limit = factor * ref + offset; true when value <= limit.
inline double GateLimit(const GateRule& g, double ref_value) { return g.factor * ref_value + g.offset; }

}  // namespace tare::campaign
