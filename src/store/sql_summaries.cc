// SqlStore: the per-run summaries `tare history` reads (schema version 6, docs/store.md). A run's
// history point needs, per benchmark, the count of measured samples that failed and, per metric, the
// number of successful measured samples with a value and their median. Reading every sample's
// value for that took 0.5 s on SQLite and seconds on PostgreSQL for 1,000 runs of a
// 1,000,000-sample store (bench/README.md); the summary is one row per benchmark and metric.
//
// The summary is derived data: the samples win. It is written when a run of kind "run" finishes
// (FinishRun, also when tare merge/push/import copy a finished run), filled for every finished run
// by the v6 migration, and deleted in the same transaction as any sample added to its benchmark
// (AppendSample, AppendSamples: a resumed run), so it is never older than the samples it was
// computed from. A benchmark without one (a run still running, or killed) is read from its samples
// by the same rules (SqlStore::History).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "internal/sql_store.h"
#include "stats/summary.h"

namespace tare::store {
namespace {

constexpr const char* kRunKind = "SELECT kind, status FROM runs WHERE id = ?";
constexpr const char* kForgetRunMetrics =
    "DELETE FROM run_summary_metrics WHERE benchmark_id IN (SELECT id FROM benchmarks WHERE run_id = ?)";
constexpr const char* kForgetRun =
    "DELETE FROM run_summaries WHERE benchmark_id IN (SELECT id FROM benchmarks WHERE run_id = ?)";
constexpr const char* kBenchmarksOfRun = "SELECT id FROM benchmarks WHERE run_id = ?";
// Samples by benchmark (the samples_by_benchmark index), as SqlStore::History reads them.
constexpr const char* kSampleCounts =
    "SELECT benchmark_id, count(*), sum(CASE WHEN outcome = 'ok' THEN 0 ELSE 1 END), min(id), max(id) FROM samples "
    "WHERE benchmark_id IN (SELECT id FROM benchmarks WHERE run_id = ?) AND warmup = 0 GROUP BY benchmark_id";
// The values within the run's sample id range (the primary key of sample_values): without that
// range, PostgreSQL's planner may hash every stored value to join them.
constexpr const char* kSampleValues =
    "SELECT s.benchmark_id, v.metric, v.value FROM sample_values v JOIN samples s ON s.id = v.sample_id "
    "WHERE v.sample_id >= ? AND v.sample_id <= ? AND s.benchmark_id IN (SELECT id FROM benchmarks WHERE run_id = ?) "
    "AND s.warmup = 0 AND s.outcome = 'ok'";
// Rows per multi-row INSERT (4 parameters each: well under SQLite's 32,766), so that a run's
// summary is a few round trips to a server, not one per row.
constexpr size_t kSummaryRowsPerInsert = 500;

}  // namespace

void SqlStore::WriteRunSummaries(int64_t run_id) {
  Statement& kind = db_->Cached(kRunKind);
  kind.bind(1, run_id);
  if (!kind.executeStep()) return;
  // Only `tare run`'s runs have a history; a run still running has samples to come.
  const bool summarized = kind.getColumn(0).getString() == "run" && kind.getColumn(1).getString() != "running";
  kind.reset();
  for (const char* forget : {kForgetRunMetrics, kForgetRun}) {
    Statement& q = db_->Cached(forget);
    q.bind(1, run_id);
    q.exec();
  }
  if (!summarized) return;

  struct Benchmark {
    int64_t measured = 0;
    int64_t failed = 0;
    std::map<std::string, std::vector<double>> values;  // by metric
  };
  std::map<int64_t, Benchmark> benchmarks;
  Statement& ids = db_->Cached(kBenchmarksOfRun);
  ids.bind(1, run_id);
  while (ids.executeStep()) benchmarks[ids.getColumn(0).getInt64()];
  Statement& counts = db_->Cached(kSampleCounts);
  counts.bind(1, run_id);
  bool measured = false;
  int64_t first = 0, last = 0;  // the range of the measured samples' ids
  while (counts.executeStep()) {
    Benchmark& b = benchmarks[counts.getColumn(0).getInt64()];
    b.measured = counts.getColumn(1).getInt64();
    b.failed = counts.getColumn(2).getInt64();
    const int64_t lo = counts.getColumn(3).getInt64(), hi = counts.getColumn(4).getInt64();
    first = measured ? std::min(first, lo) : lo;
    last = measured ? std::max(last, hi) : hi;
    measured = true;
  }
  if (measured) {
    Statement& v = db_->Cached(kSampleValues);
    v.bind(1, first);
    v.bind(2, last);
    v.bind(3, run_id);
    while (v.executeStep()) {
      benchmarks[v.getColumn(0).getInt64()].values[v.getColumn(1).getString()].push_back(v.getColumn(2).getDouble());
    }
  }

  // (benchmark_id, run_id, measured, failed) and (benchmark_id, metric, n, median) rows.
  std::vector<std::tuple<int64_t, int64_t, int64_t>> summaries;  // benchmark, measured, failed
  std::vector<std::tuple<int64_t, std::string, int64_t, double>> metrics;
  for (auto& [benchmark_id, b] : benchmarks) {
    unsummarized_.erase(benchmark_id);
    std::vector<std::tuple<int64_t, std::string, int64_t, double>> rows;
    bool finite = true;
    for (auto& [metric, values] : b.values) {
      const auto n = static_cast<int64_t>(values.size());
      const double median = stats::Median(values);
      finite = finite && std::isfinite(median);
      rows.emplace_back(benchmark_id, metric, n, median);
    }
    // The store keeps no NaN or infinity (Statement::bind makes them NULL): a median that
    // overflowed is left to be computed from the samples again.
    if (!finite) continue;
    summaries.emplace_back(benchmark_id, b.measured, b.failed);
    metrics.insert(metrics.end(), rows.begin(), rows.end());
  }
  for (size_t done = 0; done < summaries.size(); done += kSummaryRowsPerInsert) {
    const size_t rows = std::min(kSummaryRowsPerInsert, summaries.size() - done);
    std::string sql = "INSERT INTO run_summaries (benchmark_id, run_id, measured, failed) VALUES (?,?,?,?)";
    for (size_t r = 1; r < rows; ++r) sql += ",(?,?,?,?)";
    Statement q(*db_, sql);
    int p = 1;
    for (size_t r = done; r < done + rows; ++r) {
      q.bind(p++, std::get<0>(summaries[r]));
      q.bind(p++, run_id);
      q.bind(p++, std::get<1>(summaries[r]));
      q.bind(p++, std::get<2>(summaries[r]));
    }
    q.exec();
  }
  for (size_t done = 0; done < metrics.size(); done += kSummaryRowsPerInsert) {
    const size_t rows = std::min(kSummaryRowsPerInsert, metrics.size() - done);
    std::string sql = "INSERT INTO run_summary_metrics (benchmark_id, metric, n, median) VALUES (?,?,?,?)";
    for (size_t r = 1; r < rows; ++r) sql += ",(?,?,?,?)";
    Statement q(*db_, sql);
    int p = 1;
    for (size_t r = done; r < done + rows; ++r) {
      q.bind(p++, std::get<0>(metrics[r]));
      q.bind(p++, std::get<1>(metrics[r]));
      q.bind(p++, std::get<2>(metrics[r]));
      q.bind(p++, std::get<3>(metrics[r]));
    }
    q.exec();
  }
}

void SqlStore::FillRunSummaries() {
  std::vector<int64_t> runs;
  {
    Statement q(*db_, "SELECT id FROM runs WHERE kind = 'run' AND status != 'running' ORDER BY id");
    while (q.executeStep()) runs.push_back(q.getColumn(0).getInt64());
  }
  for (int64_t id : runs) WriteRunSummaries(id);
}

void SqlStore::ForgetSummaries(const std::set<int64_t>& benchmark_ids) {
  std::vector<int64_t> ids;
  for (int64_t id : benchmark_ids) {
    if (!unsummarized_.contains(id)) ids.push_back(id);
  }
  if (ids.empty()) return;
  std::string in = "?";
  for (size_t i = 1; i < ids.size(); ++i) in += ",?";
  for (const char* table : {"run_summary_metrics", "run_summaries"}) {
    Statement q(*db_, fmt::format("DELETE FROM {} WHERE benchmark_id IN ({})", table, in));
    for (size_t i = 0; i < ids.size(); ++i) q.bind(static_cast<int>(i + 1), ids[i]);
    q.exec();
  }
  unsummarized_.insert(ids.begin(), ids.end());
}

}  // namespace tare::store
