// `tare history`: one benchmark's metric over stored runs of one host type, with the change points
// found in it (docs/compare.md, "History"). Each run is one point, its median (the store's, from
// the run's summary); the series of run medians goes to stats::DetectChangePoints (binary
// segmentation on medians, documented in stats/change_point.h). A change point gets the commit range it falls in (the last run before,
// the first run after), the step as a ratio of the segments' medians, and a 95% interval of that
// step from the run medians either side (two-sample Hodges–Lehmann / Mann–Whitney on their logs).
// A run whose median is far from its segment's (modified z-score > 3.5, stats::CountMadOutliers'
// rule) is marked an outlier; nothing is ever dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/run.h"

namespace tare::compare {

// One run as the store gives it (store::HistoryPoint): the median of its measured, successful
// samples' values, by stats::Median's rule, computed by the store (from the run's summary, or
// from its samples while it has none).
struct HistoryInput {
  RunRecord run;
  int64_t n = 0;               // values
  int64_t failed = 0;
  double median = 0;           // ignored when n is 0
};

struct HistoryRow {
  RunRecord run;
  int64_t n = 0;
  int64_t failed = 0;
  double median = 0;           // NaN when every sample failed
  bool outlier = false;
  int64_t segment = 0;         // 0, 1, ...: which level it belongs to
};

struct HistoryStep {
  int64_t index = 0;           // first row of the new level
  RunRecord before;            // the last run before the step
  RunRecord after;             // the first run after it
  double median_before = 0;
  double median_after = 0;
  double change = 0;           // median_after / median_before - 1
  double lo = 0;               // 95% interval of the change (run medians either side); +-inf if too few
  double hi = 0;
  double score = 0;
};

struct HistoryOptions {
  int64_t min_segment = 5;     // runs on each side of a change point
  double threshold = 5.0;      // change point score (stats/change_point.h)
  double min_change = 0.0;     // ignore steps smaller than this fraction
};

struct History {
  std::string benchmark;
  std::string metric;
  std::string unit;
  std::string host;            // fingerprint digest
  std::string branch;          // "" = every branch
  std::vector<HistoryRow> rows;    // oldest first
  std::vector<HistoryStep> steps;
  int64_t other_hosts_runs = 0;    // runs of this benchmark on other hosts, not shown
};

History BuildHistory(std::vector<HistoryInput> inputs, const HistoryOptions& options);

std::string RenderHistoryConsole(const History& h);
nlohmann::json HistoryToJson(const History& h);
inline constexpr char kHistoryJsonSchema[] = "tare.history/1";

}  // namespace tare::compare
