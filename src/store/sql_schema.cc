// SqlStore: the one schema description (a list of migrations) rendered for each dialect, migrating
// a store to the current version, transactions, and choosing the backend from the location.
#include <fmt/format.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "base/redact.h"
#include "internal/sql_store.h"

namespace tare::store {
namespace {

// Migration i brings the schema from version i to i+1. Never edit a shipped migration: add one.
// Written in SQLite's dialect, which is also what a SQLite store runs, byte for byte; RenderMigration
// derives PostgreSQL's from it (docs/store.md, "Backends").
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
    // v3 -> v4: a global id per run, so that merging, pushing or importing a run into another
    // store twice adds it once. Existing runs get a fresh one ({random_uid}: SQLite's randomblob
    // draws from a ChaCha20 generator the unix VFS seeds from /dev/urandom; PostgreSQL's
    // gen_random_uuid from its strong random source). docs/store.md, "Schema version 4".
    R"sql(
ALTER TABLE runs ADD COLUMN uid TEXT;
UPDATE runs SET uid = {random_uid} WHERE uid IS NULL;
CREATE UNIQUE INDEX runs_by_uid ON runs(uid);
)sql",
    // v4 -> v5: sharded runs (`--shard K/N`). One row per sharded run: its shard, the group the N
    // jobs share, and the whole assignment (JSON [[name, shard], ...]) with its digest, so a merged
    // store knows which shards are missing and whether the jobs agreed. docs/store.md, "Schema
    // version 5".
    R"sql(
CREATE TABLE run_shards (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id),
  shard INTEGER NOT NULL,
  shard_count INTEGER NOT NULL,
  shard_group TEXT NOT NULL,
  assignment_sha256 TEXT NOT NULL,
  weights TEXT NOT NULL,
  assignment TEXT NOT NULL
);
CREATE INDEX run_shards_by_group ON run_shards(shard_group, shard);
)sql",
    // v5 -> v6: what `tare history` reads of a finished run, so that it never reads the run's
    // samples: per benchmark the measured and failed sample counts, per benchmark and metric the
    // number of values and their median. Derived from the samples (sql_history.cc,
    // WriteRunSummaries); the migration fills them for every finished run (FillRunSummaries).
    // docs/store.md, "Schema version 6".
    R"sql(
CREATE TABLE run_summaries (
  benchmark_id INTEGER PRIMARY KEY REFERENCES benchmarks(id),
  run_id INTEGER NOT NULL REFERENCES runs(id),
  measured INTEGER NOT NULL,
  failed INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE run_summary_metrics (
  benchmark_id INTEGER NOT NULL REFERENCES run_summaries(benchmark_id),
  metric TEXT NOT NULL,
  n INTEGER NOT NULL,
  median REAL NOT NULL,
  PRIMARY KEY (benchmark_id, metric)
) WITHOUT ROWID;
)sql",
    // v6 -> v7: everything tare shows of a verdict (issue 47). The verdict rows keep the fields of
    // AbMetricResult they lacked; ab_comparisons keeps each head's comparison in each look of a cell
    // (its own fields, its broken arms, its cross-check: model/record_fields.h lists them); a gate's
    // or bound's unit; a metric's cycle model (issue 45, item 7). Rows stored before read these
    // columns as NULL: what they lack is said, never shown as a default. docs/store.md, "Schema
    // version 7".
    R"sql(
ALTER TABLE ab_verdicts ADD COLUMN unit TEXT;
ALTER TABLE ab_verdicts ADD COLUMN direction TEXT;
ALTER TABLE ab_verdicts ADD COLUMN declared REAL;
ALTER TABLE ab_verdicts ADD COLUMN has_null INTEGER;
ALTER TABLE ab_verdicts ADD COLUMN pass_bound REAL;
ALTER TABLE ab_verdicts ADD COLUMN changed INTEGER;
ALTER TABLE ab_verdicts ADD COLUMN exact INTEGER;
ALTER TABLE ab_checks ADD COLUMN unit TEXT;
ALTER TABLE metrics ADD COLUMN cycle_model TEXT;
ALTER TABLE ab_cohorts ADD COLUMN notes TEXT;
CREATE TABLE ab_comparisons (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  cell INTEGER NOT NULL,
  head TEXT NOT NULL,
  look INTEGER NOT NULL,
  final INTEGER NOT NULL,
  role TEXT NOT NULL,
  blocks INTEGER NOT NULL,
  looks INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  supported_gain INTEGER NOT NULL,
  failed_samples INTEGER NOT NULL,
  reasons TEXT NOT NULL,
  layout_hint TEXT NOT NULL,
  broken_arms TEXT NOT NULL,
  broken_samples INTEGER NOT NULL,
  broken_error TEXT NOT NULL,
  broken_stderr_tail TEXT NOT NULL,
  broken_fix TEXT NOT NULL,
  cross_check INTEGER NOT NULL,
  cross_check_metric TEXT NOT NULL,
  cross_check_time_change REAL,
  cross_check_instructions_change REAL,
  cross_check_reading TEXT NOT NULL,
  cross_check_phrase TEXT NOT NULL,
  cross_check_line TEXT NOT NULL,
  cross_check_error TEXT NOT NULL,
  cross_check_base TEXT NOT NULL,
  cross_check_head TEXT NOT NULL,
  PRIMARY KEY (run_id, cell, head, look)
);
)sql",
};
static_assert(std::size(kMigrations) == kSchemaVersion);

// SQLite's migration text in PostgreSQL's dialect. Integers are 64-bit (BIGINT: times are ns since
// 1970), REAL is DOUBLE PRECISION, BLOB is BYTEA; an `id INTEGER PRIMARY KEY` (SQLite's rowid
// alias) is a BIGSERIAL. SQLite keeps every other table's insertion order in its hidden rowid,
// which the store orders by (metrics, notes, verdicts, checks as written): those tables get an
// explicit `rowid BIGSERIAL` column, except the WITHOUT ROWID ones, which have none in SQLite either.
// A sample's error and output tails are BYTEA: PostgreSQL's text holds neither NUL nor invalid UTF-8
// (so are a broken arm's error and stderr in ab_comparisons).
std::string ToPostgres(const std::string& sqlite) {
  std::istringstream in(sqlite);
  std::string out, line;
  const std::regex serial_id(R"(^(\s*)id INTEGER PRIMARY KEY\b)");
  const std::regex integer(R"(\bINTEGER\b)"), real(R"(\bREAL\b)"), blob(R"(\bBLOB\b)");
  const std::regex child_bytes(R"(\b(error|stdout_tail|stderr_tail) TEXT\b)");
  // A broken arm's error and stderr, a cross-check's error: a program's words (Field::bytes).
  const std::regex comparison_bytes(R"(\b(broken_error|broken_stderr_tail|cross_check_error) TEXT\b)");
  std::string table;  // the CREATE TABLE being copied, until its closing line
  size_t table_start = 0;
  bool has_id = false;
  while (std::getline(in, line)) {
    if (line.rfind("CREATE TABLE ", 0) == 0) {
      table = line;
      table_start = out.size();
      has_id = false;
    }
    if (std::regex_search(line, serial_id)) {
      line = std::regex_replace(line, serial_id, "$1id BIGSERIAL PRIMARY KEY");
      has_id = true;
    }
    // What the measured program wrote is bytes, not necessarily text (internal/sql.h, BindBytes).
    if (table.rfind("CREATE TABLE samples ", 0) == 0) line = std::regex_replace(line, child_bytes, "$1 BYTEA");
    if (table.rfind("CREATE TABLE ab_comparisons ", 0) == 0)
      line = std::regex_replace(line, comparison_bytes, "$1 BYTEA");
    line = std::regex_replace(line, integer, "BIGINT");
    line = std::regex_replace(line, real, "DOUBLE PRECISION");
    line = std::regex_replace(line, blob, "BYTEA");
    if (!table.empty() && line.rfind(')', 0) == 0) {
      const bool without_rowid = line.find("WITHOUT ROWID") != std::string::npos;
      if (without_rowid) line = ");";
      if (!has_id && !without_rowid) {
        const size_t first_column = out.find('\n', table_start) + 1;
        out.insert(first_column, "  rowid BIGSERIAL NOT NULL,\n");
      }
      table.clear();
    }
    out += line;
    out += '\n';
  }
  return out;
}

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

std::string RenderMigration(int from_version, Dialect dialect) {
  const std::string generic = kMigrations[from_version];
  if (dialect == Dialect::kSqlite) return ReplaceAll(generic, "{random_uid}", "lower(hex(randomblob(16)))");
  return ReplaceAll(ToPostgres(generic), "{random_uid}", "replace(gen_random_uuid()::text, '-', '')");
}

Status NewerSchema(const std::string& path, int version) {
  return Status::FailedPrecondition(
      fmt::format("the store '{}' has schema version {}, newer than this tare understands ({}); upgrade tare", path,
                  version, kSchemaVersion));
}

Status NotATareStore(const std::string& path) {
  return Status::InvalidArgument(
      fmt::format("'{}' is a SQLite database but not a tare store; choose another path with --store", path));
}

// The schema version as stored: PRAGMA user_version on SQLite; on PostgreSQL the row of
// tare_schema (0 when the table does not exist yet). -1 when it cannot be read.
int SqlStore::ReadSchemaVersion() {
  if (db_->dialect() == Dialect::kSqlite) {
    Statement q(*db_, "PRAGMA user_version");
    q.executeStep();
    return q.getColumn(0).getInt();
  }
  Statement exists(*db_, "SELECT to_regclass('tare_schema') IS NOT NULL");
  exists.executeStep();
  if (exists.getColumn(0).getString() != "t") return 0;
  Statement q(*db_, "SELECT max(version) FROM tare_schema");
  if (!q.executeStep() || q.getColumn(0).isNull()) return 0;
  return q.getColumn(0).getInt();
}

int SqlStore::schema_version() const {
  try {
    return const_cast<SqlStore*>(this)->ReadSchemaVersion();
  } catch (const std::exception&) {
    return -1;
  }
}

// Reads the version and migrates inside one transaction that holds the write lock (SQLite: BEGIN
// IMMEDIATE; PostgreSQL: an advisory lock), so processes that create the same new store at once
// serialize: the first migrates, the others wait, then read the new version and find nothing to
// do. Reading the version before taking the lock let several of them run the v0 -> v1 migration
// ("table runs already exists"). A store that is already current never takes the write lock.
Status SqlStore::Migrate() {
  int version = schema_version();
  if (version == kSchemaVersion) return Status::Ok();
  if (version < 0) {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a database tare can read; choose another with --store", path_));
  }
  if (version > kSchemaVersion) return NewerSchema(path_, version);
  const Dialect dialect = db_->dialect();
  return Guard("schema migration", [&](bool) -> Status {
    // PostgreSQL: the lock is taken before the transaction begins, and held for the session until
    // after it commits. Taken inside it (pg_advisory_xact_lock), a process that waited while
    // another migrated went on with the catalog it had cached before the wait: its first version
    // read had cached "no tare_schema", so it saw the other's tables but no version and refused
    // the store as someone else's (1 of 8 concurrent writers, postgres_e2e). A transaction begun
    // after the lock is granted reads the catalog as committed.
    struct Unlock {
      Connection* db = nullptr;
      ~Unlock() {
        if (db == nullptr) return;
        try {
          db->Exec("SELECT pg_advisory_unlock(1952543333)");
        } catch (const std::exception&) {
          // The connection is gone, and the session's lock with it.
        }
      }
    } unlock;
    if (dialect == Dialect::kPostgres) {
      // Any constant will do, as long as every tare uses the same one: "tare" in ASCII.
      db_->Exec("SELECT pg_advisory_lock(1952543333)");
      unlock.db = db_.get();
    }
    WriteScope tx(*db_);
    // Under the write lock: another process may have migrated since the first read.
    const int locked_version = ReadSchemaVersion();
    if (locked_version > kSchemaVersion) return NewerSchema(path_, locked_version);
    if (locked_version == 0) {
      // A version-0 database must be empty: refuse to scribble tables into someone else's.
      Statement tables(*db_,
                       dialect == Dialect::kSqlite
                           ? "SELECT count(*) FROM sqlite_master"
                           : "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()");
      tables.executeStep();
      if (tables.getColumn(0).getInt64() > 0) {
        return dialect == Dialect::kSqlite
                   ? NotATareStore(path_)
                   : Status::InvalidArgument(fmt::format(
                         "the database '{}' already has tables but is not a tare store; give tare a database "
                         "(or schema) of its own",
                         path_));
      }
      if (dialect == Dialect::kPostgres) db_->Exec("CREATE TABLE tare_schema (version INTEGER NOT NULL)");
    }
    for (int v = locked_version; v < kSchemaVersion; ++v) {
      db_->Exec(RenderMigration(v, dialect));
      // Derived data SQL cannot compute on both backends (a median) is filled in here, in the
      // same transaction: a store is never at version 6 without its runs' summaries.
      if (v == 5) FillRunSummaries();
      if (dialect == Dialect::kSqlite) {
        db_->Exec(fmt::format("PRAGMA user_version = {}", v + 1));
      } else {
        db_->Exec(fmt::format("DELETE FROM tare_schema; INSERT INTO tare_schema (version) VALUES ({})", v + 1));
      }
    }
    tx.Release();
    return Status::Ok();
  });
}

// SQLite's InTransaction never repeats its body (only a lost PostgreSQL connection does).
bool SqlStore::CanWriteTogether() const { return db_->dialect() == Dialect::kSqlite && !read_only_; }

Status SqlStore::InTransaction(const std::function<Status()>& body) {
  for (int attempt = 0;; ++attempt) {
    lost_in_transaction_ = false;
    TARE_RETURN_IF_ERROR(Guard("beginning a transaction", [&](bool) -> Status {
      db_->Begin();
      return Status::Ok();
    }));
    const Status result = body();
    const Status ended =
        Guard(result.ok() ? "committing a transaction" : "rolling back a transaction", [&](bool) -> Status {
          if (result.ok()) {
            db_->Commit();
          } else {
            db_->Rollback();
          }
          return Status::Ok();
        });
    if (!result.ok() || !ended.ok()) unsummarized_.clear();  // the summaries it deleted are back
    if (db_->depth() > 0) {
      // COMMIT failed (SQLite leaves the transaction open): end it.
      try {
        db_->Rollback();
      } catch (const std::exception&) {
      }
    }
    // A PostgreSQL connection lost inside the body: the server rolled everything back; once the
    // connection is back, the body runs once more (it must be safe to repeat: WriteFullRun is).
    if (!result.ok() && lost_in_transaction_ && attempt == 0) {
      value_inserts_.clear();
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(kReconnectSeconds);
      while (!db_->Reconnect() && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
      }
      continue;
    }
    return result.ok() ? ended : result;
  }
}

Status SqlStore::RefreshStatistics() {
  return Guard("refreshing statistics", [&](bool) -> Status {
    db_->Exec(db_->dialect() == Dialect::kSqlite ? "PRAGMA optimize" : "ANALYZE");
    return Status::Ok();
  });
}

bool IsStoreUrl(const std::string& location) {
  return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

std::string LocalDirectory(const std::string& location) {
  if (IsStoreUrl(location)) return ".tare";
  const std::string dir = std::filesystem::path(location).parent_path().string();
  return dir.empty() ? "." : dir;
}

std::string KeptLedgerPath(const std::string& local_directory, int64_t run_id) {
  return (std::filesystem::path(local_directory) / "ledgers" / ("cohort-" + std::to_string(run_id) + ".md")).string();
}

std::string PrintableLocation(const std::string& location) { return RedactSecrets(location); }

std::vector<KeptFile> StoreFiles(const std::string& location) {
  return {{location, "the store"},
          {location + "-wal", "the store's write-ahead log"},
          {location + "-shm", "the store's shared-memory index"},
          {location + "-journal", "the store's rollback journal"}};
}

namespace {

constexpr char kStoreForms[] =
    "a store is a file path (default .tare/tare.db) or postgresql://USER@HOST[:PORT]/DATABASE";

}  // namespace

Status CheckStoreLocation(const std::string& location) {
  if (location.empty()) {
    return Status::InvalidArgument(std::string("--store '' names no store: ") + kStoreForms);
  }
  if (location == ":memory:" || location.rfind("file:", 0) == 0) {
    return Status::InvalidArgument(
        "the store '" + location +
        "' would be SQLite's temporary or URI database, not a file that keeps the run: " + kStoreForms);
  }
  if (IsStoreUrl(location)) return Status::Ok();
  const size_t scheme = location.find("://");
  const bool bare_scheme = location.rfind("postgres:", 0) == 0 || location.rfind("postgresql:", 0) == 0;
  if (bare_scheme || (scheme != std::string::npos && scheme > 0 && location.find('/') == scheme + 1)) {
    return Status::InvalidArgument("the store '" + location.substr(0, location.find(':')) +
                                   ":...' is not a location tare can use: " + kStoreForms);
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& location) {
  TARE_RETURN_IF_ERROR(CheckStoreLocation(location));
  return IsStoreUrl(location) ? OpenPostgres(location) : OpenSqlite(location, /*for_reading=*/false);
}

StatusOr<std::unique_ptr<Store>> Store::OpenForReading(const std::string& location) {
  TARE_RETURN_IF_ERROR(CheckStoreLocation(location));
  return IsStoreUrl(location) ? OpenPostgres(location) : OpenSqlite(location, /*for_reading=*/true);
}

}  // namespace tare::store
