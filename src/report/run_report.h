// The report of one run, built from what the store holds (RunData) and rendered as a console
// table or as JSON ("tare.run/2", documented in docs/json.md). Rendering never touches the store.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "model/run.h"
#include "stats/sign_interval.h"
#include "stats/summary.h"

namespace tare::report {

struct MetricSummary {
  MetricDef metric;
  stats::Summary summary;  // over the measured (non-warm-up, successful) samples
};

struct BenchmarkReport {
  BenchmarkRecord bench;
  int64_t ok_samples = 0;
  int64_t failed_samples = 0;          // measured samples that failed (not warm-ups)
  std::vector<std::string> failures;   // distinct failure descriptions with counts
  std::vector<MetricSummary> metrics;  // in display order
  // The metric that stands for the benchmark: the first of PrimaryMetrics() it carries (sim.Ir,
  // bench.wall_ns, gb.real_time_ns, wall_ns), else the first in display order; "" without samples.
  std::string primary;
  // The 95% sign-test interval of its median (stats/sign_interval.h), from 6 samples on.
  std::optional<stats::MedianInterval> primary_interval;
};

struct RunReport {
  RunRecord run;
  std::vector<BenchmarkReport> benchmarks;
  std::vector<NoteRecord> notes;
  int64_t total_failed = 0;
};

RunReport BuildRunReport(const RunData& data);

// `tare run --metrics`: a name of a family the target may report (gb.counter.*, app.*) that no
// sample of the run carries — a misspelled counter — is InvalidArgument naming what the samples
// do carry, so the tables are not printed empty with exit 0 (issue 42).
Status CheckShownMetrics(const RunData& data, const std::vector<std::string>& metrics);

struct ConsoleOptions {
  // Metric names to show; empty = a sensible default per target kind (see DefaultMetrics).
  std::vector<std::string> metrics;
  bool all_metrics = false;
  bool color = false;  // ANSI: benchmark names bold, FAILED lines red (the caller decides: --color, NO_COLOR)
};

// What `tare run` prints. By default one line per benchmark, as Google Benchmark and hyperfine
// print one: its primary metric's median with the 95% interval of that median (MAD below 6
// samples, where the sign test has no 95% interval), n, the median of the CPU time it reports
// beside a wall-clock primary (CpuCompanion: Google Benchmark's "CPU" column, the one tare ab
// judges) and the metrics' names. With `all_metrics`
// or named `metrics`, the table: one block per benchmark, one row per metric: n, median, MAD, CV,
// min, max. Failures follow their benchmark, one line per distinct error.
std::string RenderConsole(const RunReport& report, const ConsoleOptions& options);

// Everything stored for a run, with summaries: schema "tare.run/2" (docs/json.md). `discarded`
// (sample id -> reason; a resume sets cut blocks aside) flags those samples, which no summary
// counts. Summaries are per arm: base, head and null of a campaign are never pooled.
nlohmann::json RunToJson(const RunData& data, const std::map<int64_t, std::string>& discarded = {});
inline constexpr char kRunJsonSchema[] = "tare.run/2";
inline constexpr char kRunJsonSchemaV1[] = "tare.run/1";  // before 2: one summary over every arm

// A string that may hold any bytes, as JSON that reads back to the same bytes: the string itself
// when it is valid UTF-8, else {"base64": "..."} (base/bytes_text.h).
nlohmann::json BytesToJson(const std::string& bytes);
// The inverse; a plain string is taken as is. DataLoss naming `field` for anything else.
StatusOr<std::string> BytesFromJson(const nlohmann::json& j, const std::string& field);

}  // namespace tare::report
