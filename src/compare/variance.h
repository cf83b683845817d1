// `tare variance`: how much a suite's benchmarks vary within a run and across reruns of the same
// executable, and which are too noisy to gate at their threshold (docs/compare.md, "Variance").
//
// For each benchmark and metric (by default what compare and tare ab judge: compare.h DefaultMetrics):
//   within  the coefficient of variation (sample standard deviation / mean) of each run's measured
//           samples, the median over the runs;
//   across  the CV of the per-run medians (two runs at least): what a rerun of the same executable
//           moves, the figure a threshold must stand above.
// The suite line is the table of ../shared/background report 03: runs, benchmarks, median / p90 /
// max of the CVs, how many exceed 1%, how many are above 0.
// A benchmark is flagged "too noisy to gate" when 2 x its CV (across runs when there are several,
// else within) exceeds its threshold: a change of the threshold's size would then sit inside the
// host's own two-sigma wobble. The reason is named when known: drift (the samples trend over the
// run: |Spearman rho| >= 0.5 with p < 0.01 in any run), syscall-heavy (median sys_ns above half of
// user_ns + sys_ns), few samples (under 5).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/thresholds.h"
#include "model/run.h"

namespace tare::compare {

struct BenchmarkVariance {
  std::string name;
  std::string metric;
  int64_t runs = 0;      // runs that measured it
  int64_t samples = 0;   // measured samples, all runs
  double median = 0;     // median of the per-run medians
  double within_cv = 0;  // median over runs of each run's CV (NaN: no run has 2 samples)
  double across_cv = 0;  // CV of the per-run medians (NaN with one run)
  double threshold = 0;
  bool too_noisy = false;
  std::vector<std::string> reasons;  // "drift", "syscall-heavy", "few samples"
};

struct SuiteVariance {
  std::vector<int64_t> run_ids;
  std::string host;
  std::string measured;  // what the runs measured, one thing (stored_variance.h VarianceGroup), "" unknown
  std::vector<BenchmarkVariance> benchmarks;
  // Over the benchmarks' CVs (across runs when there are 2+ runs, else within), in percent.
  double median_cv = 0, p90_cv = 0, max_cv = 0;
  int64_t over_1pct = 0, over_0 = 0;
  int64_t too_noisy = 0;
  bool across = false;  // the figures are across runs
};

// Runs must come from one host and be reruns of one thing (the caller checks and groups them:
// stored_variance.h); metrics: empty = DefaultMetrics of each benchmark.
SuiteVariance AnalyzeVariance(const std::vector<RunData>& runs, const std::vector<std::string>& metrics,
                              const CompareConfig& config);

// `tare run`'s warnings: the benchmarks whose samples varied too much within this one run to gate
// a change of their threshold (`tare variance`'s rule on one run: 2 x CV above the threshold of
// `config`), with at least 5 samples, each one "warning: NAME: ..." line.
// A command that mostly waits (model/metric_roles.h MostlyWaits): its wall time is judged for the
// warning instead of its task-clock, and a note says to gate it with --metric wall_ns.
std::vector<std::string> UnstableWarnings(const RunData& data, const CompareConfig& config);

std::string RenderVarianceConsole(const SuiteVariance& v, bool all);
nlohmann::json VarianceToJson(const SuiteVariance& v);
inline constexpr char kVarianceJsonSchema[] = "tare.variance/1";
// Runs of several things given together: one tare.variance/1 document per group.
inline constexpr char kVarianceGroupsJsonSchema[] = "tare.variance-groups/1";

}  // namespace tare::compare
