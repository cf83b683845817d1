// Thresholds for `tare compare`: how large a change must be to count as a regression or an
// improvement, per metric and per benchmark. They live in the repository, next to the code they
// judge, in a `tare.toml` found from the working directory upwards (docs/compare.md, "Thresholds"):
//
//   [compare]
//   threshold = "5%"              # every metric without a threshold of its own
//   confidence = 0.95             # of the intervals
//   ignore = ["BM_Flaky.*"]       # benchmarks never judged (RE2, whole name)
//   [compare.metrics]
//   "sim.Ir" = "0.5%"             # a metric's default
//   [[compare.rules]]             # per benchmark; the LAST matching rule wins
//   benchmark = "BM_Alloc/.*"     # RE2, whole name
//   metric = "wall_ns"            # optional: every metric when absent
//   threshold = "10%"
//
// Flags override the file: --threshold 3% (every metric), --threshold wall_ns=3%, --ignore RE.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/regex.h"
#include "base/status.h"

namespace tare::compare {

// Defaults when nothing says otherwise: timing and other noisy metrics 5%; metrics that are
// identical on every rerun (sim.*, mem.* counts) 0.1%, the allowance `tare ab` gives them.
inline constexpr double kDefaultThreshold = 0.05;
inline constexpr double kDefaultDeterministicThreshold = 0.001;
inline constexpr double kDefaultConfidence = 0.95;

struct ThresholdRule {
  std::string benchmark;         // the pattern as written
  std::optional<Regex> pattern;  // always set once parsed
  std::string metric;            // "" = every metric
  double threshold = 0;          // fraction
};

struct CompareConfig {
  std::string source;               // the tare.toml path, or "" when none
  std::optional<double> threshold;  // [compare] threshold
  std::optional<double> confidence;
  std::map<std::string, double> metrics;  // [compare.metrics]
  std::vector<ThresholdRule> rules;       // [[compare.rules]]
  std::vector<std::pair<std::string, Regex>> ignore;
  // From the command line; they win over everything in the file.
  std::optional<double> flag_threshold;        // --threshold T
  std::map<std::string, double> flag_metrics;  // --threshold METRIC=T

  // The threshold for a benchmark's metric and where it came from ("tare.toml rule 'BM_.*'",
  // "--threshold", "default for deterministic metrics"...).
  std::pair<double, std::string> ThresholdFor(const std::string& benchmark, const std::string& metric,
                                              bool deterministic) const;
  // The ignore pattern a benchmark matches, or nullopt.
  std::optional<std::string> IgnoredBy(const std::string& benchmark) const;
};

// "5%", "0.5 %", "0.05" (a bare number is a fraction). InvalidArgument naming `what` otherwise;
// thresholds must be >= 0 and below 100%... or 10x for speedups: at most 10 (1000%).
StatusOr<double> ParseThreshold(const std::string& text, const std::string& what);

// Parses a tare.toml's text (`path` for messages). Keys outside [compare] are left to other
// tools; unknown keys inside it are errors (a typo must not silently change a verdict).
StatusOr<CompareConfig> ParseCompareConfig(const std::string& text, const std::string& path);

// The nearest `tare.toml` in `dir` or its parents, or "" when there is none.
std::string FindConfigFile(const std::string& dir);

// Applies the flags on top of the file: `thresholds` are "T" or "METRIC=T"; `ignore` are RE2.
Status ApplyFlags(CompareConfig* config, const std::vector<std::string>& thresholds,
                  const std::vector<std::string>& ignore, std::optional<double> confidence);

}  // namespace tare::compare
