// SqlStore: store::Store written once in SQL, over either backend's connection (internal/sql.h):
// SQLite (the embedded default, WAL mode, schema version in PRAGMA user_version) or PostgreSQL
// (a shared server, schema version in the table tare_schema). Private to src/store: the rest of
// tare opens it through Store::Open.
//   sql_schema.cc     the one list of migrations, rendered for each dialect; migrating
//   sqlite_open.cc    opening a SQLite file (refusing foreign and newer files untouched)
//   pg_open.cc        opening a PostgreSQL database
//   sql_runs.cc       runs, executables, benchmarks, metrics, notes, samples, artifacts
//   sql_cohorts.cc    the campaign tables (their records' columns from internal/sql_fields.h)
//   sql_summaries.cc  the per-run summaries `tare history` reads (schema version 6)
#pragma once

#include <fmt/format.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "store/internal/sql.h"
#include "store/store.h"

namespace tare::store {

// The one migration list rendered for `dialect`: migration `from_version` brings the schema from
// that version to the next.
std::string RenderMigration(int from_version, Dialect dialect);

// for_reading: Store::OpenForReading (a store tare may not write is opened read-only).
StatusOr<std::unique_ptr<Store>> OpenSqlite(const std::string& path, bool for_reading);
StatusOr<std::unique_ptr<Store>> OpenPostgres(const std::string& url);

Status NewerSchema(const std::string& path, int version);
Status NotATareStore(const std::string& path);

class SqlStore final : public Store {
 public:
  // `path` names the store in messages; a read_only store refuses every write with a message.
  SqlStore(std::string path, std::unique_ptr<Connection> db, bool read_only = false);
  ~SqlStore() override;
  // Brings the schema to kSchemaVersion under one write lock (safe with concurrent openers).
  Status Migrate();

  const std::string& path() const override { return path_; }
  bool LostAWriteToTheHost() const override { return lost_a_write_; }
  int schema_version() const override;

  StatusOr<int64_t> BeginRun(const RunRecord& run) override;
  Status AddExecutable(int64_t run_id, const ExecutableRecord& exe) override;
  StatusOr<int64_t> AddBenchmark(int64_t run_id, const BenchmarkRecord& bench) override;
  Status AddMetric(int64_t run_id, const MetricDef& metric) override;
  Status AddNote(int64_t run_id, const NoteRecord& note) override;
  StatusOr<int64_t> AppendSample(int64_t run_id, int64_t benchmark_id, const Sample& sample) override;
  StatusOr<std::vector<int64_t>> AppendSamples(int64_t run_id, const std::vector<StoredSample>& samples) override;
  Status AddArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name,
                     const std::string& content) override;
  Status FinishRun(int64_t run_id, RunStatus status, int64_t ended_unix_ns) override;

  StatusOr<int64_t> ResolveRun(const std::string& selector) override;
  StatusOr<RunData> LoadRun(int64_t run_id) override;
  StatusOr<RunData> LoadRunHead(int64_t run_id) override;
  StatusOr<std::vector<StoredSample>> LoadSamples(int64_t run_id, SampleCursor& after, size_t limit) override;
  StatusOr<std::vector<StoredSample>> LoadBenchmarkSamples(int64_t run_id, int64_t benchmark_id) override;
  StatusOr<std::vector<RunRecord>> ListRuns(int limit) override;
  StatusOr<std::string> LoadArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name) override;
  StatusOr<std::vector<ArtifactInfo>> ArtifactsOf(int64_t run_id) override;
  StatusOr<std::vector<ExecutableRecord>> ExecutablesOf(int64_t run_id) override;
  StatusOr<std::vector<MetricDef>> MetricsOf(int64_t run_id) override;
  StatusOr<std::optional<int64_t>> FindRunByUid(const std::string& uid) override;
  StatusOr<std::vector<RunRecord>> ShardedRuns(const std::string& group) override;
  Status InTransaction(const std::function<Status()>& body) override;
  bool CanWriteTogether() const override;
  Status WriteTogether(const std::function<Status()>& body) override { return InTransaction(body); }
  Status RefreshStatistics() override;
  StatusOr<std::vector<HistoryPoint>> History(const HistoryQuery& query) override;
  StatusOr<std::vector<std::pair<std::string, int64_t>>> HostsOf(const std::string& benchmark) override;

  Status AddCohort(const CohortRecord& c) override;
  Status SetCohortState(int64_t run_id, CohortState state, const std::string& stop_reason,
                        const std::string& outcome) override;
  Status SetCohortNotes(int64_t run_id, const std::vector<std::string>& notes) override;
  Status MarkCohortResumed(int64_t run_id) override;
  StatusOr<int64_t> NextCohort(const std::string& campaign_sha256) override;
  StatusOr<std::vector<CohortRecord>> CohortsOf(const std::string& campaign_sha256) override;
  Status AddCell(int64_t run_id, const CellRecord& cell) override;
  StatusOr<std::vector<CellRecord>> CellsOf(int64_t run_id) override;
  Status DiscardSamples(int64_t run_id, const std::vector<int64_t>& sample_ids, const std::string& reason) override;
  StatusOr<std::set<int64_t>> DiscardedSamplesOf(int64_t run_id) override;
  StatusOr<std::map<int64_t, std::string>> DiscardReasonsOf(int64_t run_id) override;
  StatusOr<std::optional<CohortRecord>> CohortOf(int64_t run_id) override;
  Status SaveVerdicts(int64_t run_id, int64_t cell, int64_t look, bool final,
                      const std::vector<AbComparison>& comparisons, const std::set<std::string>& lacks = {}) override;
  Status SaveChecks(int64_t run_id, CheckKind kind, const std::vector<AbCheck>& checks) override;
  StatusOr<std::vector<StoredLook>> LooksOf(int64_t run_id) override;
  StatusOr<std::vector<AbCheck>> ChecksOf(int64_t run_id) override;

  Connection& connection() { return *db_; }

 private:
  // Runs `f(retry)` (the statements of one store call), turning exceptions into DataLoss naming
  // the store and `what`: none crosses this module's boundary. A PostgreSQL connection lost
  // outside an InTransaction is re-established (for up to kReconnectSeconds) and `f` run again
  // with retry = true: a call whose transaction was cut off was rolled back whole; one cut off
  // while committing may have landed, which a non-idempotent `f` checks when retry is set.
  template <typename F>
  auto Guard(const std::string& what, F&& f) -> decltype(f(false));
  // Guard for the writes that finish a run or cohort: when one fails for want of space, frees
  // what the connection can (FreeSpace) and tries again, so a run stopped by a full disk is
  // still finished with its status instead of being left `running`.
  // A server that stayed away for a whole window while samples were written gets one more window
  // here, once per store: a run's final state is worth the wait (issue 48, item 6: a 60 s outage
  // left the cohort `running`), while a server that is gone for good delays the exit once.
  template <typename F>
  Status Finishing(const std::string& what, F&& f) {
    if (server_gone_ && !finishing_waited_) {
      server_gone_ = false;
      finishing_waited_ = true;
    }
    Status s = Guard(what, f);
    while (!s.ok() && disk_full_ && db_->FreeSpace()) s = Guard(what, f);
    return s;
  }
  // One sample's rows, inside the caller's transaction.
  int64_t InsertSample(int64_t run_id, int64_t benchmark_id, const Sample& s);
  // PostgreSQL: samples and their values by COPY, inside the caller's transaction.
  std::vector<int64_t> CopySamples(int64_t run_id, const std::vector<StoredSample>& samples);
  // SQLite: many samples and their values with multi-row INSERTs and ids chosen here (no
  // RETURNING), inside the caller's transaction.
  std::vector<int64_t> BulkInsertSamples(int64_t run_id, const std::vector<StoredSample>& samples);
  // INSERT INTO sample_values with `rows` rows of (sample_id, metric, value), cached.
  Statement& InsertValues(size_t rows);
  // INSERT INTO samples with `rows` rows, ids given, cached.
  Statement& InsertSampleRows(size_t rows);
  int ReadSchemaVersion();
  // Per-run summaries (sql_summaries.cc; docs/store.md, "Schema version 6"), inside the caller's
  // transaction, SqlError on failure. WriteRunSummaries (re)writes the summary of each benchmark of
  // a run of kind "run" from its samples; FillRunSummaries does it for every finished run (the v6
  // migration); ForgetSummaries deletes those of benchmarks about to get samples, so a summary is
  // never older than its samples.
  void WriteRunSummaries(int64_t run_id);
  void FillRunSummaries();
  void ForgetSummaries(const std::set<int64_t>& benchmark_ids);

  std::string path_;
  std::unique_ptr<Connection> db_;
  std::map<size_t, std::unique_ptr<Statement>> value_inserts_;
  std::map<size_t, std::unique_ptr<Statement>> sample_inserts_;
  // Benchmarks whose summaries this connection deleted (ForgetSummaries), so that each sample of
  // a run does not delete them again; cleared when a transaction rolls back, the connection is
  // re-established, or a summary is written.
  std::set<int64_t> unsummarized_;
  bool lost_in_transaction_ = false;
  bool server_gone_ = false;
  bool read_only_ = false;
  bool disk_full_ = false;         // the last failed call failed for want of space
  bool lost_a_write_ = false;      // some call failed for want of space or a lost server (sticky)
  bool finishing_waited_ = false;  // Finishing gave a gone server its one more window
};

// A name read back from a column as its enum (model/kinds.h, model/target.h): a name this tare does
// not know (a damaged store, or one written by a newer tare) is an error Guard reports, never a
// silent default.
template <typename E>
E StoredName(StatusOr<E> parsed) {
  if (!parsed.ok()) throw SqlError(parsed.status().message());
  return *parsed;
}

// A JSON column read back through base/json_read.h (ReadJsonText): text that is not JSON, or not
// the shape tare wrote, is an error Guard reports naming the row, never a default.
template <typename T>
T StoredJson(StatusOr<T> read) {
  if (!read.ok()) throw SqlError(read.status().message());
  return std::move(read).value();
}

inline constexpr int kReconnectSeconds = 60;

template <typename F>
auto SqlStore::Guard(const std::string& what, F&& f) -> decltype(f(false)) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(kReconnectSeconds);
  bool retry = false;
  disk_full_ = false;
  for (;;) {
    std::string error;
    try {
      return f(retry);
    } catch (const SqlError& e) {
      unsummarized_.clear();  // what f deleted was rolled back
      if (!e.connection_lost() || db_->depth() > 0) {
        // Inside InTransaction the whole transaction is gone with the connection; it decides.
        if (e.connection_lost()) lost_in_transaction_ = lost_a_write_ = true;
        return Status::DataLoss(fmt::format("store '{}': {} failed: {}", path_, what, e.what()));
      }
      error = e.what();
    } catch (const std::exception& e) {
      unsummarized_.clear();
      const std::string cause = db_->DiskFullCause(e);
      disk_full_ = !cause.empty();
      lost_a_write_ = lost_a_write_ || disk_full_;
      if (read_only_) {
        return Status::FailedPrecondition(
            fmt::format("store '{}': {} failed: the store was opened read-only ({}); make it writable or choose "
                        "another with --store PATH",
                        path_, what, e.what()));
      }
      return Status::DataLoss(
          fmt::format("store '{}': {} failed: {}{}", path_, what, e.what(), cause.empty() ? "" : " — " + cause));
    }
    value_inserts_.clear();
    sample_inserts_.clear();
    while (!db_->Reconnect()) {
      // Once the server stayed away for a whole window, later calls try once and fail at once:
      // a run that has already lost a sample reports it instead of waiting again per call.
      if (server_gone_ || std::chrono::steady_clock::now() > give_up) {
        server_gone_ = lost_a_write_ = true;
        return Status::DataLoss(
            fmt::format("store '{}': {} failed: the connection was lost ({}) and the server did not come back "
                        "within {} s; check the server and run again",
                        path_, what, error, kReconnectSeconds));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    server_gone_ = false;
    retry = true;
  }
}

}  // namespace tare::store
