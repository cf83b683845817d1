// What `tare run` shows and writes besides its table: the relative summary of several commands
// (hyperfine's "which is faster?", answered from paired samples), the --export-markdown and
// --export-csv files, and its notes. Pure: reads a stored run (RunData), never the store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/run.h"
#include "report/run_report.h"

namespace tare::report {

// One command against the fastest, as a ratio of wall times (2.0 = twice as long).
struct RelativeSpeed {
  std::string name;
  double ratio = 0;              // exp(median of ln(this_i / fastest_i)) over the pairs
  std::optional<double> lo, hi;  // the sign-test 95% interval of the ratio, when there is one
  double confidence = 0;         // achieved (>= 0.95; the sign test is discrete)
  int64_t pairs = 0;
  std::string no_interval;  // why there is none ("5 pairs; need at least 6")
};

struct RelativeSummary {
  std::string metric;   // "wall_ns"
  std::string fastest;  // lowest median
  double fastest_median = 0;
  std::vector<RelativeSpeed> others;  // in the order the commands were given
};

// The benchmarks of a run compared with its fastest on `metric`. Pairs: the measured, successful
// samples of two benchmarks from the same block (round), which ran back to back, so drift of the
// host over the run cancels in their ratio. std::nullopt when fewer than two benchmarks have
// successful samples.
std::optional<RelativeSummary> SummarizeRelative(const RunData& data, const std::string& metric = "wall_ns");

// "Summary (wall time, paired by round):\n  `b` is 1.98 × slower than `a` (95%: 1.97–1.99, 10 pairs)".
std::string RenderRelative(const RelativeSummary& s, bool color);

// hyperfine's export: one Markdown table row per benchmark and shown metric (Relative column for
// the summary's metric when there is a summary). Names are escaped (report/escape.h).
std::string RunMarkdown(const RunData& data, const ConsoleOptions& shown,
                        const std::optional<RelativeSummary>& relative);
// Every metric of every benchmark, base units, one row each.
std::string RunCsv(const RunData& data);

// The run's notes as printed on stderr: stored one per event ("instructions: hardware counters
// are not supported..."), events that share a reason share a line ("note: a, b: reason"); then
// the warnings ("warning: ...").
std::vector<std::string> GroupNotes(const std::vector<NoteRecord>& notes);

}  // namespace tare::report
