#include "store/store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace tare::store {
namespace {

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
};
static_assert(std::size(kMigrations) == kSchemaVersion);

// SQLiteCpp reports errors by exception; nothing of that crosses this module's boundary.
template <typename F>
auto Guard(const std::string& what, const std::string& path, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    return Status::DataLoss(fmt::format("store '{}': {} failed: {}", path, what, e.what()));
  }
}

RunStatus ParseRunStatus(const std::string& s) {
  if (s == "running") return RunStatus::kRunning;
  if (s == "complete") return RunStatus::kComplete;
  if (s == "interrupted") return RunStatus::kInterrupted;
  return RunStatus::kFailed;
}

SampleOutcome ParseOutcome(const std::string& s) {
  for (auto o : {SampleOutcome::kOk, SampleOutcome::kFailed, SampleOutcome::kSignaled,
                 SampleOutcome::kTimedOut, SampleOutcome::kInterrupted, SampleOutcome::kSpawnError}) {
    if (s == SampleOutcomeName(o)) return o;
  }
  return SampleOutcome::kFailed;
}

RunRecord ReadRunRow(SQLite::Statement& q) {
  RunRecord r;
  r.id = q.getColumn(0).getInt64();
  r.kind = q.getColumn(1).getString();
  r.status = ParseRunStatus(q.getColumn(2).getString());
  r.started_unix_ns = q.getColumn(3).getInt64();
  r.ended_unix_ns = q.getColumn(4).isNull() ? 0 : q.getColumn(4).getInt64();
  r.tare_version = q.getColumn(5).getString();
  auto argv = nlohmann::json::parse(q.getColumn(6).getString(), nullptr, false);
  if (argv.is_array()) r.command_line = argv.get<std::vector<std::string>>();
  r.options_json = q.getColumn(7).getString();
  r.fingerprint_json = q.getColumn(8).getString();
  r.fingerprint_digest = q.getColumn(9).getString();
  return r;
}

constexpr const char* kRunColumns =
    "id, kind, status, started_unix_ns, ended_unix_ns, tare_version, command_line, options, "
    "fingerprint, fingerprint_digest";

constexpr const char* kInsertSample =
    "INSERT INTO samples (run_id, benchmark_id, seq, arm, block, warmup, started_unix_ns, "
    "ended_unix_ns, outcome, exit_code, signal, error, stdout_tail, stderr_tail) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
// A sample's values go in with one statement per this many rows instead of one per value.
constexpr size_t kValuesPerInsert = 32;
constexpr const char* kInsertMetric =
    "INSERT OR IGNORE INTO metrics (run_id, name, unit, direction, kind, description) "
    "VALUES (?,?,?,?,?,?)";
constexpr const char* kInsertNote = "INSERT OR IGNORE INTO notes (run_id, level, message) VALUES (?,?,?)";

}  // namespace

Store::Store(std::string path, std::unique_ptr<SQLite::Database> db)
    : path_(std::move(path)), db_(std::move(db)) {}
Store::~Store() = default;

SQLite::Statement& Store::InsertValues(size_t rows) {
  auto& slot = value_inserts_[rows];
  if (slot == nullptr) {
    std::string sql = "INSERT INTO sample_values (sample_id, metric, value) VALUES (?,?,?)";
    for (size_t r = 1; r < rows; ++r) sql += ",(?,?,?)";
    slot = std::make_unique<SQLite::Statement>(*db_, sql);
  } else {
    slot->tryReset();
  }
  return *slot;
}

SQLite::Statement& Store::Cached(const char* sql) {
  auto& slot = statements_[sql];
  if (slot == nullptr) {
    slot = std::make_unique<SQLite::Statement>(*db_, sql);
  } else {
    slot->tryReset();  // also after a step that threw; every parameter is bound again
  }
  return *slot;
}

StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& path) {
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
    db->setBusyTimeout(10000);
    // Reading the schema is the first real I/O: it fails here for a directory or a non-SQLite file.
    db->exec("PRAGMA journal_mode=WAL");
    db->exec("PRAGMA synchronous=NORMAL");
    db->exec("PRAGMA foreign_keys=ON");
  } catch (const std::exception& e) {
    return Status::InvalidArgument(fmt::format(
        "cannot open the store '{}': {}; check the path is a writable tare store or choose "
        "another with --store PATH", path, e.what()));
  }
  std::unique_ptr<Store> store(new Store(path, std::move(db)));
  TARE_RETURN_IF_ERROR(store->Migrate());
  return store;
}

int Store::schema_version() const {
  try {
    return db_->execAndGet("PRAGMA user_version").getInt();
  } catch (const std::exception&) {
    return -1;
  }
}

Status Store::Migrate() {
  int version = schema_version();
  if (version < 0) {
    return Status::InvalidArgument(fmt::format(
        "'{}' is not a SQLite database tare can read; choose another path with --store", path_));
  }
  if (version > kSchemaVersion) {
    return Status::FailedPrecondition(fmt::format(
        "the store '{}' has schema version {}, newer than this tare understands ({}); upgrade tare",
        path_, version, kSchemaVersion));
  }
  if (version == 0) {
    // A version-0 file must be empty: refuse to scribble tables into someone else's database.
    int tables = 0;
    try {
      tables = db_->execAndGet("SELECT count(*) FROM sqlite_master").getInt();
    } catch (const std::exception& e) {
      return Status::InvalidArgument(fmt::format(
          "'{}' is not a tare store ({}); choose another path with --store", path_, e.what()));
    }
    if (tables > 0) {
      return Status::InvalidArgument(fmt::format(
          "'{}' is a SQLite database but not a tare store; choose another path with --store", path_));
    }
  }
  for (int v = version; v < kSchemaVersion; ++v) {
    TARE_RETURN_IF_ERROR(Guard("schema migration", path_, [&]() -> Status {
      SQLite::Transaction tx(*db_);
      db_->exec(kMigrations[v]);
      db_->exec(fmt::format("PRAGMA user_version = {}", v + 1));
      tx.commit();
      return Status::Ok();
    }));
  }
  return Status::Ok();
}

StatusOr<int64_t> Store::BeginRun(const RunRecord& run) {
  return Guard("starting a run", path_, [&]() -> StatusOr<int64_t> {
    SQLite::Statement q(*db_,
        "INSERT INTO runs (kind, status, started_unix_ns, tare_version, command_line, options, "
        "fingerprint, fingerprint_digest) VALUES (?,?,?,?,?,?,?,?)");
    q.bind(1, run.kind);
    q.bind(2, RunStatusName(run.status));
    q.bind(3, static_cast<int64_t>(run.started_unix_ns));
    q.bind(4, run.tare_version);
    q.bind(5, nlohmann::json(run.command_line).dump());
    q.bind(6, run.options_json.empty() ? "{}" : run.options_json);
    q.bind(7, run.fingerprint_json.empty() ? "{}" : run.fingerprint_json);
    q.bind(8, run.fingerprint_digest);
    q.exec();
    return static_cast<int64_t>(db_->getLastInsertRowid());
  });
}

Status Store::AddExecutable(int64_t run_id, const ExecutableRecord& exe) {
  return Guard("recording an executable", path_, [&]() -> Status {
    SQLite::Statement q(*db_,
        "INSERT OR REPLACE INTO executables (run_id, role, path, sha256, info) VALUES (?,?,?,?,?)");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, exe.role);
    q.bind(3, exe.path);
    q.bind(4, exe.sha256);
    q.bind(5, exe.info_json.empty() ? "{}" : exe.info_json);
    q.exec();
    return Status::Ok();
  });
}

StatusOr<int64_t> Store::AddBenchmark(int64_t run_id, const BenchmarkRecord& bench) {
  return Guard("recording a benchmark", path_, [&]() -> StatusOr<int64_t> {
    SQLite::Statement find(*db_, "SELECT id FROM benchmarks WHERE run_id = ? AND uri = ?");
    find.bind(1, static_cast<int64_t>(run_id));
    find.bind(2, bench.uri);
    if (find.executeStep()) return static_cast<int64_t>(find.getColumn(0).getInt64());
    SQLite::Statement q(*db_, "INSERT INTO benchmarks (run_id, uri, name, kind) VALUES (?,?,?,?)");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, bench.uri);
    q.bind(3, bench.name);
    q.bind(4, bench.kind);
    q.exec();
    return static_cast<int64_t>(db_->getLastInsertRowid());
  });
}

Status Store::AddMetric(int64_t run_id, const MetricDef& m) {
  return Guard("recording a metric", path_, [&]() -> Status {
    SQLite::Statement& q = Cached(kInsertMetric);
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, m.name);
    q.bind(3, m.unit);
    q.bind(4, DirectionName(m.direction));
    q.bind(5, MetricKindName(m.kind));
    q.bind(6, m.description);
    q.exec();
    return Status::Ok();
  });
}

Status Store::AddNote(int64_t run_id, const NoteRecord& note) {
  return Guard("recording a note", path_, [&]() -> Status {
    SQLite::Statement& q = Cached(kInsertNote);
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, note.level);
    q.bind(3, note.message);
    q.exec();
    return Status::Ok();
  });
}

StatusOr<int64_t> Store::AppendSample(int64_t run_id, int64_t benchmark_id, const Sample& s) {
  return Guard("storing a sample", path_, [&]() -> StatusOr<int64_t> {
    SQLite::Transaction tx(*db_);
    SQLite::Statement& q = Cached(kInsertSample);
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, static_cast<int64_t>(benchmark_id));
    q.bind(3, static_cast<int64_t>(s.seq));
    q.bind(4, s.arm);
    q.bind(5, static_cast<int64_t>(s.block));
    q.bind(6, s.warmup ? 1 : 0);
    q.bind(7, static_cast<int64_t>(s.started_unix_ns));
    q.bind(8, static_cast<int64_t>(s.ended_unix_ns));
    q.bind(9, SampleOutcomeName(s.outcome));
    q.bind(10, s.exit_code);
    q.bind(11, s.signal);
    q.bind(12, s.error);
    q.bind(13, s.stdout_tail);
    q.bind(14, s.stderr_tail);
    q.exec();
    int64_t sample_id = db_->getLastInsertRowid();
    auto it = s.values.begin();
    for (size_t left = s.values.size(); left > 0;) {
      size_t rows = std::min(left, kValuesPerInsert);
      SQLite::Statement& v = InsertValues(rows);
      int param = 1;
      for (size_t r = 0; r < rows; ++r, ++it) {
        v.bind(param++, static_cast<int64_t>(sample_id));
        v.bind(param++, it->first);
        v.bind(param++, it->second);
      }
      v.exec();
      left -= rows;
    }
    tx.commit();
    return sample_id;
  });
}

Status Store::AddArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name,
                          const std::string& content) {
  return Guard("storing an artifact", path_, [&]() -> Status {
    SQLite::Statement q(*db_,
        "INSERT OR REPLACE INTO artifacts (run_id, benchmark_id, name, content) VALUES (?,?,?,?)");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, static_cast<int64_t>(benchmark_id));
    q.bind(3, name);
    q.bind(4, content.data(), static_cast<int>(content.size()));
    q.exec();
    return Status::Ok();
  });
}

Status Store::FinishRun(int64_t run_id, RunStatus status, int64_t ended_unix_ns) {
  return Guard("finishing a run", path_, [&]() -> Status {
    SQLite::Statement q(*db_, "UPDATE runs SET status = ?, ended_unix_ns = ? WHERE id = ?");
    q.bind(1, RunStatusName(status));
    q.bind(2, static_cast<int64_t>(ended_unix_ns));
    q.bind(3, static_cast<int64_t>(run_id));
    q.exec();
    return Status::Ok();
  });
}

StatusOr<int64_t> Store::ResolveRun(const std::string& selector) {
  return Guard("finding a run", path_, [&]() -> StatusOr<int64_t> {
    if (selector == "latest") {
      SQLite::Statement q(*db_, "SELECT max(id) FROM runs");
      if (q.executeStep() && !q.getColumn(0).isNull()) return static_cast<int64_t>(q.getColumn(0).getInt64());
      return Status::NotFound(fmt::format("the store '{}' has no runs yet; run `tare run` first", path_));
    }
    char* end = nullptr;
    long long id = std::strtoll(selector.c_str(), &end, 10);
    if (selector.empty() || *end != '\0' || id <= 0) {
      return Status::InvalidArgument(
          fmt::format("'{}' is not a run; use 'latest' or a run id (see `tare runs`)", selector));
    }
    SQLite::Statement q(*db_, "SELECT id FROM runs WHERE id = ?");
    q.bind(1, static_cast<int64_t>(id));
    if (!q.executeStep()) {
      return Status::NotFound(fmt::format("run {} is not in the store '{}'", id, path_));
    }
    return static_cast<int64_t>(id);
  });
}

StatusOr<std::vector<RunRecord>> Store::ListRuns(int limit) {
  return Guard("listing runs", path_, [&]() -> StatusOr<std::vector<RunRecord>> {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM runs ORDER BY id DESC LIMIT ?", kRunColumns));
    q.bind(1, limit);
    std::vector<RunRecord> out;
    while (q.executeStep()) out.push_back(ReadRunRow(q));
    return out;
  });
}

StatusOr<RunData> Store::LoadRun(int64_t run_id) {
  return Guard("loading a run", path_, [&]() -> StatusOr<RunData> {
    RunData d;
    SQLite::Statement r(*db_, fmt::format("SELECT {} FROM runs WHERE id = ?", kRunColumns));
    r.bind(1, static_cast<int64_t>(run_id));
    if (!r.executeStep()) return Status::NotFound(fmt::format("run {} is not in the store '{}'", run_id, path_));
    d.run = ReadRunRow(r);

    SQLite::Statement e(*db_, "SELECT role, path, sha256, info FROM executables WHERE run_id = ? ORDER BY role, path");
    e.bind(1, static_cast<int64_t>(run_id));
    while (e.executeStep()) {
      d.executables.push_back({e.getColumn(0).getString(), e.getColumn(1).getString(),
                               e.getColumn(2).getString(), e.getColumn(3).getString()});
    }
    SQLite::Statement b(*db_, "SELECT id, uri, name, kind FROM benchmarks WHERE run_id = ? ORDER BY id");
    b.bind(1, static_cast<int64_t>(run_id));
    while (b.executeStep()) {
      d.benchmarks.push_back({b.getColumn(0).getInt64(), b.getColumn(1).getString(),
                              b.getColumn(2).getString(), b.getColumn(3).getString()});
    }
    SQLite::Statement m(*db_, "SELECT name, unit, direction, kind, description FROM metrics WHERE run_id = ? ORDER BY rowid");
    m.bind(1, static_cast<int64_t>(run_id));
    while (m.executeStep()) {
      MetricDef def;
      def.name = m.getColumn(0).getString();
      def.unit = m.getColumn(1).getString();
      def.direction = m.getColumn(2).getString() == "higher" ? Direction::kHigherIsBetter : Direction::kLowerIsBetter;
      std::string kind = m.getColumn(3).getString();
      def.kind = kind == "time" ? MetricKind::kTime : kind == "bytes" ? MetricKind::kBytes
               : kind == "ratio" ? MetricKind::kRatio : MetricKind::kCount;
      def.description = m.getColumn(4).getString();
      d.metrics.push_back(def);
    }
    SQLite::Statement n(*db_, "SELECT level, message FROM notes WHERE run_id = ? ORDER BY rowid");
    n.bind(1, static_cast<int64_t>(run_id));
    while (n.executeStep()) d.notes.push_back({n.getColumn(0).getString(), n.getColumn(1).getString()});

    SQLite::Statement s(*db_,
        "SELECT id, benchmark_id, seq, arm, block, warmup, started_unix_ns, ended_unix_ns, outcome, "
        "exit_code, signal, error, stdout_tail, stderr_tail FROM samples WHERE run_id = ? ORDER BY seq, id");
    s.bind(1, static_cast<int64_t>(run_id));
    std::map<int64_t, size_t> index;
    while (s.executeStep()) {
      StoredSample ss;
      ss.id = s.getColumn(0).getInt64();
      ss.benchmark_id = s.getColumn(1).getInt64();
      Sample& x = ss.sample;
      x.seq = s.getColumn(2).getInt64();
      x.arm = s.getColumn(3).getString();
      x.block = s.getColumn(4).getInt64();
      x.warmup = s.getColumn(5).getInt() != 0;
      x.started_unix_ns = s.getColumn(6).getInt64();
      x.ended_unix_ns = s.getColumn(7).getInt64();
      x.outcome = ParseOutcome(s.getColumn(8).getString());
      x.exit_code = s.getColumn(9).getInt();
      x.signal = s.getColumn(10).getInt();
      x.error = s.getColumn(11).getString();
      x.stdout_tail = s.getColumn(12).getString();
      x.stderr_tail = s.getColumn(13).getString();
      index[ss.id] = d.samples.size();
      d.samples.push_back(std::move(ss));
    }
    SQLite::Statement v(*db_,
        "SELECT v.sample_id, v.metric, v.value FROM sample_values v JOIN samples s ON s.id = v.sample_id "
        "WHERE s.run_id = ?");
    v.bind(1, static_cast<int64_t>(run_id));
    while (v.executeStep()) {
      auto it = index.find(v.getColumn(0).getInt64());
      if (it != index.end()) d.samples[it->second].sample.values[v.getColumn(1).getString()] = v.getColumn(2).getDouble();
    }
    return d;
  });
}

StatusOr<std::string> Store::LoadArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name) {
  return Guard("loading an artifact", path_, [&]() -> StatusOr<std::string> {
    SQLite::Statement q(*db_, "SELECT content FROM artifacts WHERE run_id = ? AND benchmark_id = ? AND name = ?");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, static_cast<int64_t>(benchmark_id));
    q.bind(3, name);
    if (!q.executeStep()) {
      return Status::NotFound(fmt::format("run {} has no artifact '{}'", run_id, name));
    }
    auto col = q.getColumn(0);
    return std::string(static_cast<const char*>(col.getBlob()), static_cast<size_t>(col.getBytes()));
  });
}

}  // namespace tare::store
