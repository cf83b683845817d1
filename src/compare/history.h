// `tare history`: one benchmark's metric over stored runs of one host type, with the change points
// found in it (docs/compare.md, "History"). Each run is one point, its median (the store's, from
// the run's summary); the series of run medians goes to stats::DetectChangePoints (binary
// segmentation on medians, documented in stats/change_point.h). A change point gets the commit range it falls in (the
// last run before, the first run after), the step as a ratio of the segments' medians, and a 95% interval of that step
// from the run medians either side (two-sample Hodges–Lehmann / Mann–Whitney on their logs). A run whose median is far
// from its segment's is marked an outlier (below); nothing is ever dropped.
//
// The host's drift (issue 45, item 2): a host's level moves between runs whatever the code does, and a
// step of that size is no change of the code. The series' run-to-run drift is estimated from its
// consecutive runs within levels (the pairs that straddle a change point left out;
// stats::RunToRunDrift, the estimate `tare compare` holds one run per side against), and a change
// point is reported as one only when its step stands beyond it: the step's interval clears ±drift
// (lo > drift or hi < -drift; without an interval, the step itself). A step within the drift is
// listed apart (`within_drift`) and its two levels are one. The score is the detector's: the shift
// of the two levels' medians over its standard error (stats/change_point.h), in those units.
//
// Short series (issue 23, item 4): a change point needs min_segment runs on each side, 5 by
// default and fewer, down to 3, when the series is too short for 5 + 5 — so 3 + 3 runs with a
// clean step show it — and a series too short for any says how many more runs it needs (`note`).
// A step's interval needs enough runs either side for the two-sided Mann–Whitney test at 95% to
// reject at all (4 + 4, or 3 + 5); with fewer it is omitted and `interval_note` says why — never an
// unbounded [-100%, +inf]. An outlier is a run of a segment of 5 or more whose median lies more
// than 3.5 robust standard deviations from its segment's median, the deviation measured by the
// larger of the segment's MAD and the series' successive-difference noise (stats/change_point.h),
// so that a run at its neighbours' value is never one because the others happened to agree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/run.h"
#include "stats/run_drift.h"

namespace tare::compare {

// One run as the store gives it (store::HistoryPoint): the median of its measured, successful
// samples' values, by stats::Median's rule, computed by the store (from the run's summary, or
// from its samples while it has none).
struct HistoryInput {
  RunRecord run;
  int64_t n = 0;  // values
  int64_t failed = 0;
  double median = 0;  // ignored when n is 0
};

struct HistoryRow {
  RunRecord run;
  int64_t n = 0;
  int64_t failed = 0;
  double median = 0;  // NaN when every sample failed
  bool outlier = false;
  int64_t segment = 0;  // 0, 1, ...: which level it belongs to
};

struct HistoryStep {
  int64_t index = 0;  // first row of the new level
  RunRecord before;   // the last run before the step
  RunRecord after;    // the first run after it
  double median_before = 0;
  double median_after = 0;
  double change = 0;  // median_after / median_before - 1
  double lo = 0;      // 95% interval of the change (run medians either side); NaN when
  double hi = 0;      // the runs either side are too few for one (interval_note says so)
  std::string interval_note;
  double score = 0;  // shift of the medians / its standard error (stats/change_point.h)
};

struct HistoryOptions {
  int64_t min_segment = 0;  // runs on each side of a change point; 0: 5, or down to 3 for short series
  double threshold = 5.0;   // change point score (stats/change_point.h)
  double min_change = 0.0;  // ignore steps smaller than this fraction
};

struct History {
  std::string benchmark;
  std::string metric;
  std::string unit;
  std::string host;                       // fingerprint digest
  std::string branch;                     // "" = every branch
  std::vector<HistoryRow> rows;           // oldest first
  std::vector<HistoryStep> steps;         // change points: steps beyond the drift
  std::vector<HistoryStep> within_drift;  // steps the detector found within the drift: not changes
  std::optional<stats::RunDrift> drift;   // the series' run-to-run drift; nullopt: too few runs
  int64_t other_hosts_runs = 0;           // runs of this benchmark on other hosts, not shown
  std::string model;                      // a modelled metric's model (metric.h MetricModel), "" otherwise
  int64_t other_model_runs = 0;           // runs whose values another model computed, not shown
  int64_t min_segment = 0;                // the one used
  std::string note;                       // why no change point could be found, "" when the series could show one
};

History BuildHistory(std::vector<HistoryInput> inputs, const HistoryOptions& options);

std::string RenderHistoryConsole(const History& h);
nlohmann::json HistoryToJson(const History& h);
inline constexpr char kHistoryJsonSchema[] = "tare.history/1";
// What a change point's score is, as output and documents name it.
inline constexpr char kChangePointScoreLabel[] = "median shift / its standard error";
// "host drift ±2.10% (12 run-to-run differences)", or "host drift unknown (...)".
std::string DriftLabel(const History& h);

}  // namespace tare::compare
