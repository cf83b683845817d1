// Store: the embedded SQLite database every run writes (default .tare/tare.db). WAL mode, schema
// versioned with migrations (PRAGMA user_version), and each sample committed in its own
// transaction as it completes, so a crash or Ctrl-C loses at most the sample in flight.
// This module is the only code that talks to SQLite. Schema: docs/store.md.
//
// Thread-safety: one Store per thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"

namespace SQLite {
class Database;
class Statement;
}  // namespace SQLite

namespace tare::store {

inline constexpr int kSchemaVersion = 2;  // 2: campaign tables (tare ab)

class Store {
 public:
  // Opens (creating parent directories and the file) and migrates to kSchemaVersion. Fails with a
  // clear message when the path is unwritable, not a tare store, or from a newer tare.
  static StatusOr<std::unique_ptr<Store>> Open(const std::string& path);
  ~Store();

  const std::string& path() const { return path_; }
  int schema_version() const;

  // Writing a run. Each call is its own committed transaction.
  StatusOr<int64_t> BeginRun(const RunRecord& run);
  Status AddExecutable(int64_t run_id, const ExecutableRecord& exe);
  StatusOr<int64_t> AddBenchmark(int64_t run_id, const BenchmarkRecord& bench);
  Status AddMetric(int64_t run_id, const MetricDef& metric);  // idempotent per (run, name)
  Status AddNote(int64_t run_id, const NoteRecord& note);     // idempotent per (run, message)
  StatusOr<int64_t> AppendSample(int64_t run_id, int64_t benchmark_id, const Sample& sample);
  // Named blobs kept with a run, e.g. a benchmark's raw callgrind profile.
  Status AddArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name,
                     const std::string& content);
  Status FinishRun(int64_t run_id, RunStatus status, int64_t ended_unix_ns);

  // Reading. `selector` is "latest" or a run id.
  StatusOr<int64_t> ResolveRun(const std::string& selector);
  StatusOr<RunData> LoadRun(int64_t run_id);
  StatusOr<std::vector<RunRecord>> ListRuns(int limit);
  StatusOr<std::string> LoadArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name);

  // Escape hatch for modules that add their own tables through migrations here (campaigns).
  SQLite::Database& db() { return *db_; }

 private:
  Store(std::string path, std::unique_ptr<SQLite::Database> db);
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
