// SqliteStore: the embedded backend of store::Store (WAL mode, schema versioned with PRAGMA
// user_version). Private to src/store: the rest of tare opens it through Store::Open.
//   sqlite_schema.cc   opening, the migrations, and the one error guard's users start here
//   sqlite_runs.cc     runs, executables, benchmarks, metrics, notes, samples, artifacts
//   sqlite_cohorts.cc  the campaign tables
#pragma once

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "store/store.h"

namespace tare::store {

// SQLiteCpp reports errors by exception; none crosses this module's boundary. Every statement of
// the backend runs inside Guard, which turns an exception into DataLoss naming the store and what
// was being done.
template <typename F>
auto Guard(const std::string& what, const std::string& path, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    return Status::DataLoss(fmt::format("store '{}': {} failed: {}", path, what, e.what()));
  }
}

// NaN and infinities are stored as NULL: SQLite has no NaN.
inline void BindNumber(SQLite::Statement& q, int index, double v) {
  if (std::isfinite(v)) {
    q.bind(index, v);
  } else {
    q.bind(index);
  }
}

class SqliteStore final : public Store {
 public:
  static StatusOr<std::unique_ptr<Store>> Open(const std::string& path);
  ~SqliteStore() override;

  const std::string& path() const override { return path_; }
  int schema_version() const override;

  StatusOr<int64_t> BeginRun(const RunRecord& run) override;
  Status AddExecutable(int64_t run_id, const ExecutableRecord& exe) override;
  StatusOr<int64_t> AddBenchmark(int64_t run_id, const BenchmarkRecord& bench) override;
  Status AddMetric(int64_t run_id, const MetricDef& metric) override;
  Status AddNote(int64_t run_id, const NoteRecord& note) override;
  StatusOr<int64_t> AppendSample(int64_t run_id, int64_t benchmark_id, const Sample& sample) override;
  Status AddArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name,
                     const std::string& content) override;
  Status FinishRun(int64_t run_id, RunStatus status, int64_t ended_unix_ns) override;

  StatusOr<int64_t> ResolveRun(const std::string& selector) override;
  StatusOr<RunData> LoadRun(int64_t run_id) override;
  StatusOr<std::vector<RunRecord>> ListRuns(int limit) override;
  StatusOr<std::string> LoadArtifact(int64_t run_id, int64_t benchmark_id,
                                     const std::string& name) override;
  StatusOr<std::vector<ArtifactInfo>> ArtifactsOf(int64_t run_id) override;
  StatusOr<std::vector<HistoryPoint>> History(const HistoryQuery& query) override;
  StatusOr<std::vector<std::pair<std::string, int64_t>>> HostsOf(const std::string& benchmark) override;

  Status AddCohort(const CohortRecord& c) override;
  Status SetCohortState(int64_t run_id, const std::string& state, const std::string& stop_reason,
                        const std::string& outcome) override;
  Status MarkCohortResumed(int64_t run_id) override;
  StatusOr<int64_t> NextCohort(const std::string& campaign_sha256) override;
  StatusOr<std::vector<CohortRecord>> CohortsOf(const std::string& campaign_sha256) override;
  Status AddCell(int64_t run_id, const CellRecord& cell) override;
  StatusOr<std::vector<CellRecord>> CellsOf(int64_t run_id) override;
  Status DiscardSamples(int64_t run_id, const std::vector<int64_t>& sample_ids,
                        const std::string& reason) override;
  StatusOr<std::set<int64_t>> DiscardedSamplesOf(int64_t run_id) override;
  Status SaveVerdicts(int64_t run_id, int64_t cell, int64_t look, bool final,
                      const std::vector<AbComparison>& comparisons) override;
  Status SaveChecks(int64_t run_id, const std::string& kind,
                    const std::vector<AbCheck>& checks) override;

 private:
  SqliteStore(std::string path, std::unique_ptr<SQLite::Database> db);
  // Brings the schema to kSchemaVersion under one write lock (safe with concurrent openers).
  Status Migrate();
  // The statement for `sql` (a string constant), prepared on first use and reset for reuse: the
  // per-sample writes would otherwise parse and plan the same SQL for every sample.
  SQLite::Statement& Cached(const char* sql);
  // INSERT INTO sample_values with `rows` rows of (sample_id, metric, value), cached the same way.
  SQLite::Statement& InsertValues(size_t rows);

  std::string path_;
  std::unique_ptr<SQLite::Database> db_;
  // Declared after db_, so they are finalized before it closes.
  std::map<const char*, std::unique_ptr<SQLite::Statement>> statements_;
  std::map<size_t, std::unique_ptr<SQLite::Statement>> value_inserts_;
};

}  // namespace tare::store
