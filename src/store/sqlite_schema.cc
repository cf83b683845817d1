// SqliteStore: opening a store file and bringing its schema up to date.
#include "internal/sqlite_store.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

namespace tare::store {
namespace {

// How long an opener waits for another process's write lock before giving up.
constexpr int kBusyTimeoutMs = 10000;

// Migration i brings the schema from version i to i+1. Never edit a shipped migration: add one.
const char* const kMigrations[] = {
    // v0 -> v1
    R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  started_unix_ns INTEGER NOT NULL,
  ended_unix_ns INTEGER,
  tare_version TEXT NOT NULL,
  command_line TEXT NOT NULL,
  options TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  fingerprint_digest TEXT NOT NULL
);
CREATE TABLE executables (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  role TEXT NOT NULL,
  path TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  info TEXT NOT NULL,
  PRIMARY KEY (run_id, role, path)
);
CREATE TABLE benchmarks (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  uri TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  UNIQUE (run_id, uri)
);
CREATE TABLE metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  name TEXT NOT NULL,
  unit TEXT NOT NULL,
  direction TEXT NOT NULL,
  kind TEXT NOT NULL,
  description TEXT NOT NULL,
  PRIMARY KEY (run_id, name)
);
CREATE TABLE notes (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  level TEXT NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (run_id, message)
);
CREATE TABLE samples (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id),
  seq INTEGER NOT NULL,
  arm TEXT NOT NULL,
  block INTEGER NOT NULL,
  warmup INTEGER NOT NULL,
  started_unix_ns INTEGER NOT NULL,
  ended_unix_ns INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  exit_code INTEGER NOT NULL,
  signal INTEGER NOT NULL,
  error TEXT NOT NULL,
  stdout_tail TEXT NOT NULL,
  stderr_tail TEXT NOT NULL
);
CREATE INDEX samples_by_run ON samples(run_id, seq);
CREATE TABLE sample_values (
  sample_id INTEGER NOT NULL REFERENCES samples(id),
  metric TEXT NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (sample_id, metric)
) WITHOUT ROWID;
CREATE TABLE artifacts (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  benchmark_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (run_id, benchmark_id, name)
);
)sql",
    // v1 -> v2: campaigns (`tare ab`). A cohort is a run of kind "ab"; these tables hold what a
    // run does not: the campaign and its lock, the cells, the verdicts of every look, the gates
    // and bounds, and the samples a resume set aside. docs/store.md, "Schema version 2".
    R"sql(
CREATE TABLE ab_cohorts (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id),
  campaign_sha256 TEXT NOT NULL,
  campaign_name TEXT NOT NULL,
  campaign_source TEXT NOT NULL,
  campaign_text TEXT NOT NULL,
  spec TEXT NOT NULL,
  lock TEXT NOT NULL,
  lock_sha256 TEXT NOT NULL,
  cohort INTEGER NOT NULL,
  state TEXT NOT NULL,
  stop_reason TEXT NOT NULL,
  outcome TEXT NOT NULL,
  resumed INTEGER NOT NULL
);
CREATE INDEX ab_cohorts_by_campaign ON ab_cohorts(campaign_sha256, cohort);
CREATE TABLE ab_cells (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  cell INTEGER NOT NULL,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id),
  params TEXT NOT NULL,
  PRIMARY KEY (run_id, cell)
);
CREATE TABLE ab_verdicts (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  cell INTEGER NOT NULL,
  head TEXT NOT NULL,
  metric TEXT NOT NULL,
  look INTEGER NOT NULL,
  final INTEGER NOT NULL,
  pairs INTEGER NOT NULL,
  confidence REAL NOT NULL,
  estimate REAL,
  lo REAL,
  hi REAL,
  base_median REAL,
  head_median REAL,
  allowance TEXT NOT NULL,
  delta REAL,
  noise_floor REAL,
  null_estimate REAL,
  null_lo REAL,
  null_hi REAL,
  host_too_noisy INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  supported_gain INTEGER NOT NULL,
  reasons TEXT NOT NULL,
  PRIMARY KEY (run_id, cell, head, metric, look)
);
CREATE TABLE ab_checks (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  kind TEXT NOT NULL,
  rule TEXT NOT NULL,
  cell TEXT NOT NULL,
  arm TEXT NOT NULL,
  value REAL,
  limit_value REAL,
  ok INTEGER NOT NULL,
  PRIMARY KEY (run_id, kind, rule, cell, arm)
);
CREATE TABLE ab_discarded_samples (
  sample_id INTEGER PRIMARY KEY REFERENCES samples(id),
  run_id INTEGER NOT NULL REFERENCES runs(id),
  reason TEXT NOT NULL
);
)sql",
    // v2 -> v3: where each run's code came from (git commit, branch, dirty state, --tag K=V), so
    // that runs are selected by commit, branch or tag; indexes for a benchmark's history.
    // docs/store.md, "Schema version 3".
    R"sql(
ALTER TABLE runs ADD COLUMN git_commit TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN git_branch TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN git_dirty INTEGER;
CREATE INDEX runs_by_commit ON runs(git_commit, id);
CREATE INDEX runs_by_branch ON runs(git_branch, id);
CREATE TABLE run_tags (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
);
CREATE INDEX run_tags_by_value ON run_tags(key, value, run_id);
CREATE INDEX benchmarks_by_name ON benchmarks(name, run_id);
CREATE INDEX samples_by_benchmark ON samples(benchmark_id);
)sql",
};
static_assert(std::size(kMigrations) == kSchemaVersion);

// Switching to WAL needs an exclusive lock. When another process opening the same new file holds
// a lock that is waiting for ours, SQLite answers SQLITE_BUSY at once instead of calling the busy
// handler (it would deadlock), so the switch is retried here for as long as the busy timeout.
Status NewerSchema(const std::string& path, int version) {
  return Status::FailedPrecondition(fmt::format(
      "the store '{}' has schema version {}, newer than this tare understands ({}); upgrade tare",
      path, version, kSchemaVersion));
}

Status NotATareStore(const std::string& path) {
  return Status::InvalidArgument(fmt::format(
      "'{}' is a SQLite database but not a tare store; choose another path with --store", path));
}

void SwitchToWal(SQLite::Database& db) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (;;) {
    try {
      db.exec("PRAGMA journal_mode=WAL");
      return;
    } catch (const SQLite::Exception& e) {
      if (e.getErrorCode() != SQLITE_BUSY || std::chrono::steady_clock::now() > give_up) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

StatusOr<std::unique_ptr<Store>> SqliteStore::Open(const std::string& path) {
  std::error_code ec;
  auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      return Status::InvalidArgument(fmt::format(
          "cannot create the store directory '{}': {}; choose another with --store PATH",
          parent.string(), ec.message()));
    }
  }
  std::unique_ptr<SQLite::Database> db;
  try {
    db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db->setBusyTimeout(kBusyTimeoutMs);
    // Reading the schema is the first real I/O: it fails here for a directory or a non-SQLite file.
    // A file tare refuses must be left exactly as it was, and switching to WAL rewrites its header:
    // someone else's database and a newer tare's store are refused before anything is written.
    // One statement, one snapshot: another process may be creating this store right now.
    SQLite::Statement state(*db, "SELECT user_version, (SELECT count(*) FROM sqlite_master) FROM pragma_user_version");
    state.executeStep();
    const int version = state.getColumn(0).getInt();
    const int tables = state.getColumn(1).getInt();
    state.reset();
    if (version == 0 && tables > 0) return NotATareStore(path);
    if (version > kSchemaVersion) return NewerSchema(path, version);
    SwitchToWal(*db);
    db->exec("PRAGMA synchronous=NORMAL");
    db->exec("PRAGMA foreign_keys=ON");
  } catch (const std::exception& e) {
    return Status::InvalidArgument(fmt::format(
        "cannot open the store '{}': {}; check the path is a writable tare store or choose "
        "another with --store PATH", path, e.what()));
  }
  std::unique_ptr<SqliteStore> store(new SqliteStore(path, std::move(db)));
  TARE_RETURN_IF_ERROR(store->Migrate());
  return std::unique_ptr<Store>(std::move(store));
}

int SqliteStore::schema_version() const {
  try {
    return db_->execAndGet("PRAGMA user_version").getInt();
  } catch (const std::exception&) {
    return -1;
  }
}

// Reads user_version and migrates inside one BEGIN IMMEDIATE transaction, so processes that
// create the same new store at once serialize on SQLite's write lock: the first migrates, the
// others wait (busy timeout), then read the new version and find nothing to do. Reading the
// version before taking the lock let several of them run the v0 -> v1 migration ("table runs
// already exists"). A store that is already current never takes the write lock.
Status SqliteStore::Migrate() {
  int version = schema_version();
  if (version == kSchemaVersion) return Status::Ok();
  if (version < 0) {
    return Status::InvalidArgument(fmt::format(
        "'{}' is not a SQLite database tare can read; choose another path with --store", path_));
  }
  if (version > kSchemaVersion) return NewerSchema(path_, version);
  return Guard("schema migration", path_, [&]() -> Status {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    // Under the write lock: another process may have migrated since the first read.
    const int locked_version = db_->execAndGet("PRAGMA user_version").getInt();
    if (locked_version > kSchemaVersion) return NewerSchema(path_, locked_version);
    if (locked_version == 0) {
      // A version-0 file must be empty: refuse to scribble tables into someone else's database.
      if (db_->execAndGet("SELECT count(*) FROM sqlite_master").getInt() > 0) {
        return NotATareStore(path_);
      }
    }
    for (int v = locked_version; v < kSchemaVersion; ++v) {
      db_->exec(kMigrations[v]);
      db_->exec(fmt::format("PRAGMA user_version = {}", v + 1));
    }
    tx.commit();
    return Status::Ok();
  });
}


StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& location) {
  // One backend today; a URL scheme (postgresql://) will choose another here.
  return SqliteStore::Open(location);
}

}  // namespace tare::store
