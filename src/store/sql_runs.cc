// SqlStore: runs and everything recorded with them (executables, benchmarks, metrics, notes,
// samples and their values, artifacts), written and read back.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>

#include "base/json_text.h"
#include "internal/pg_connection.h"
#include "internal/sql_store.h"
#include "stats/summary.h"

namespace tare::store {
namespace {

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

RunRecord ReadRunRow(Statement& q) {
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
  r.provenance.commit = q.getColumn(10).getString();
  r.provenance.branch = q.getColumn(11).getString();
  if (!q.getColumn(12).isNull()) r.provenance.dirty = q.getColumn(12).getInt() != 0;
  r.uid = q.getColumn(13).getString();
  return r;
}

void ReadTags(Connection& db, RunRecord& r) {
  Statement t(db, "SELECT key, value FROM run_tags WHERE run_id = ? ORDER BY key");
  t.bind(1, static_cast<int64_t>(r.id));
  while (t.executeStep()) r.provenance.tags.emplace_back(t.getColumn(0).getString(), t.getColumn(1).getString());
}

// The run's shard row (schema version 5), if it has one. An assignment that is not the JSON it was
// written as is read as empty: the view then reports the shard as disagreeing, never crashes.
void ReadShard(Connection& db, RunRecord& r) {
  Statement q(db, "SELECT shard, shard_count, shard_group, assignment_sha256, weights, assignment "
                  "FROM run_shards WHERE run_id = ?");
  q.bind(1, static_cast<int64_t>(r.id));
  if (!q.executeStep()) return;
  ShardRecord s;
  s.index = q.getColumn(0).getInt64();
  s.count = q.getColumn(1).getInt64();
  s.group = q.getColumn(2).getString();
  s.assignment_sha256 = q.getColumn(3).getString();
  s.weights = q.getColumn(4).getString();
  auto list = nlohmann::json::parse(q.getColumn(5).getString(), nullptr, false);
  if (list.is_array()) {
    for (const auto& e : list) {
      if (e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_number_integer()) {
        s.assignment.emplace_back(e[0].get<std::string>(), e[1].get<int64_t>());
      }
    }
  }
  r.shard = std::move(s);
}

// Every row of a `SELECT kRunColumns FROM runs ...`, with its tags and shard.
std::vector<RunRecord> ReadRuns(Connection& db, Statement& q) {
  std::vector<RunRecord> out;
  while (q.executeStep()) out.push_back(ReadRunRow(q));
  for (auto& r : out) {
    ReadTags(db, r);
    ReadShard(db, r);
  }
  return out;
}

void WriteShard(Connection& db, int64_t run_id, const ShardRecord& s) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [name, shard] : s.assignment) list.push_back({name, shard});
  Statement q(db, "INSERT INTO run_shards (run_id, shard, shard_count, shard_group, assignment_sha256, weights, "
                  "assignment) VALUES (?,?,?,?,?,?,?)");
  q.bind(1, run_id);
  q.bind(2, s.index);
  q.bind(3, s.count);
  q.bind(4, s.group);
  q.bind(5, s.assignment_sha256);
  q.bind(6, s.weights);
  q.bind(7, DumpJson(list));
  q.exec();
}

bool IsHex(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

constexpr const char* kRunColumns =
    "id, kind, status, started_unix_ns, ended_unix_ns, tare_version, command_line, options, "
    "fingerprint, fingerprint_digest, git_commit, git_branch, git_dirty, uid";

constexpr const char* kInsertSample =
    "INSERT INTO samples (run_id, benchmark_id, seq, arm, block, warmup, started_unix_ns, "
    "ended_unix_ns, outcome, exit_code, signal, error, stdout_tail, stderr_tail) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id";
constexpr const char* kFindSample =
    "SELECT id FROM samples WHERE run_id = ? AND benchmark_id = ? AND seq = ? AND arm = ?";
// A sample's values go in with one statement per this many rows instead of one per value.
constexpr size_t kValuesPerInsert = 32;
// Bulk copies (AppendSamples on SQLite): samples and values per multi-row INSERT. 15 and 3
// parameters a row keep a statement well under SQLite's 32,766 host parameters.
constexpr size_t kSamplesPerBulkInsert = 64;
constexpr size_t kValuesPerBulkInsert = 256;
constexpr const char* kInsertMetric =
    "INSERT INTO metrics (run_id, name, unit, direction, kind, description) "
    "VALUES (?,?,?,?,?,?) ON CONFLICT DO NOTHING";
constexpr const char* kInsertNote = "INSERT INTO notes (run_id, level, message) VALUES (?,?,?) ON CONFLICT DO NOTHING";

// Binds a sample's 14 columns of kInsertSample (run_id ... stderr_tail) from parameter `first`;
// returns the next parameter's index.
int BindSampleRow(Statement& q, int first, int64_t run_id, int64_t benchmark_id, const Sample& s) {
  int p = first;
  q.bind(p++, static_cast<int64_t>(run_id));
  q.bind(p++, static_cast<int64_t>(benchmark_id));
  q.bind(p++, static_cast<int64_t>(s.seq));
  q.bind(p++, s.arm);
  q.bind(p++, static_cast<int64_t>(s.block));
  q.bind(p++, s.warmup ? 1 : 0);
  q.bind(p++, static_cast<int64_t>(s.started_unix_ns));
  q.bind(p++, static_cast<int64_t>(s.ended_unix_ns));
  q.bind(p++, SampleOutcomeName(s.outcome));
  q.bind(p++, s.exit_code);
  q.bind(p++, s.signal);
  q.bindBytes(p++, s.error);
  q.bindBytes(p++, s.stdout_tail);
  q.bindBytes(p++, s.stderr_tail);
  return p;
}

}  // namespace

SqlStore::SqlStore(std::string path, std::unique_ptr<Connection> db, bool read_only)
    : path_(std::move(path)), db_(std::move(db)), read_only_(read_only) {}
SqlStore::~SqlStore() {
  value_inserts_.clear();  // statements before their connection
  sample_inserts_.clear();
}

Statement& SqlStore::InsertSampleRows(size_t rows) {
  auto& slot = sample_inserts_[rows];
  if (slot == nullptr) {
    std::string sql =
        "INSERT INTO samples (id, run_id, benchmark_id, seq, arm, block, warmup, started_unix_ns, "
        "ended_unix_ns, outcome, exit_code, signal, error, stdout_tail, stderr_tail) VALUES ";
    for (size_t r = 0; r < rows; ++r) sql += r == 0 ? "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    slot = std::make_unique<Statement>(*db_, sql);
  } else {
    slot->tryReset();
  }
  return *slot;
}

Statement& SqlStore::InsertValues(size_t rows) {
  auto& slot = value_inserts_[rows];
  if (slot == nullptr) {
    std::string sql = "INSERT INTO sample_values (sample_id, metric, value) VALUES (?,?,?)";
    for (size_t r = 1; r < rows; ++r) sql += ",(?,?,?)";
    slot = std::make_unique<Statement>(*db_, sql);
  } else {
    slot->tryReset();
  }
  return *slot;
}

StatusOr<int64_t> SqlStore::BeginRun(const RunRecord& run) {
  const std::string uid = run.uid.empty() ? NewRunUid() : run.uid;
  if (!IsRunUid(uid)) {
    return Status::InvalidArgument(fmt::format(
        "run uid '{}' is not 32 lowercase hex digits; leave it empty for a fresh one", run.uid));
  }
  return Guard("starting a run", [&](bool) -> StatusOr<int64_t> {
    WriteScope tx(*db_);
    Statement exists(*db_, "SELECT id FROM runs WHERE uid = ?");
    exists.bind(1, uid);
    if (exists.executeStep()) {
      return Status::FailedPrecondition(fmt::format(
          "the store '{}' already holds run {} with uid {}", path_, exists.getColumn(0).getInt64(), uid));
    }
    Statement q(*db_,
        "INSERT INTO runs (kind, status, started_unix_ns, tare_version, command_line, options, "
        "fingerprint, fingerprint_digest, git_commit, git_branch, git_dirty, uid) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) "
        "RETURNING id");
    q.bind(1, run.kind);
    q.bind(2, RunStatusName(run.status));
    q.bind(3, static_cast<int64_t>(run.started_unix_ns));
    q.bind(4, run.tare_version);
    q.bind(5, DumpJson(nlohmann::json(run.command_line)));
    q.bind(6, run.options_json.empty() ? "{}" : run.options_json);
    q.bind(7, run.fingerprint_json.empty() ? "{}" : run.fingerprint_json);
    q.bind(8, run.fingerprint_digest);
    q.bind(9, run.provenance.commit);
    q.bind(10, run.provenance.branch);
    if (run.provenance.dirty) {
      q.bind(11, *run.provenance.dirty ? 1 : 0);
    } else {
      q.bind(11);
    }
    q.bind(12, uid);
    q.executeStep();
    const int64_t id = q.getColumn(0).getInt64();
    q.exec();
    Statement t(*db_, "INSERT INTO run_tags (run_id, key, value) VALUES (?,?,?) "
                      "ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value");
    for (const auto& [key, value] : run.provenance.tags) {
      t.bind(1, id);
      t.bind(2, key);
      t.bind(3, value);
      t.exec();
      t.reset();
    }
    if (run.shard) WriteShard(*db_, id, *run.shard);
    tx.Release();
    return id;
  });
}

StatusOr<std::optional<int64_t>> SqlStore::FindRunByUid(const std::string& uid) {
  return Guard("finding a run by uid", [&](bool) -> StatusOr<std::optional<int64_t>> {
    Statement q(*db_, "SELECT id FROM runs WHERE uid = ?");
    q.bind(1, uid);
    if (q.executeStep()) return std::optional<int64_t>(q.getColumn(0).getInt64());
    return std::optional<int64_t>();
  });
}

StatusOr<std::vector<RunRecord>> SqlStore::ShardedRuns(const std::string& group) {
  return Guard("listing sharded runs", [&](bool) -> StatusOr<std::vector<RunRecord>> {
    std::string sql = fmt::format("SELECT {} FROM runs WHERE id IN (SELECT run_id FROM run_shards{}) ORDER BY id",
                                  kRunColumns, group.empty() ? "" : " WHERE shard_group = ?");
    Statement q(*db_, sql);
    if (!group.empty()) q.bind(1, group);
    return ReadRuns(*db_, q);
  });
}

Status SqlStore::AddExecutable(int64_t run_id, const ExecutableRecord& exe) {
  return Guard("recording an executable", [&](bool) -> Status {
    Statement q(*db_,
        "INSERT INTO executables (run_id, role, path, sha256, info) VALUES (?,?,?,?,?) "
        "ON CONFLICT (run_id, role, path) DO UPDATE SET sha256 = excluded.sha256, info = excluded.info");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, exe.role);
    q.bind(3, exe.path);
    q.bind(4, exe.sha256);
    q.bind(5, exe.info_json.empty() ? "{}" : exe.info_json);
    q.exec();
    return Status::Ok();
  });
}

StatusOr<int64_t> SqlStore::AddBenchmark(int64_t run_id, const BenchmarkRecord& bench) {
  return Guard("recording a benchmark", [&](bool) -> StatusOr<int64_t> {
    Statement find(*db_, "SELECT id FROM benchmarks WHERE run_id = ? AND uri = ?");
    find.bind(1, static_cast<int64_t>(run_id));
    find.bind(2, bench.uri);
    if (find.executeStep()) return static_cast<int64_t>(find.getColumn(0).getInt64());
    Statement q(*db_, "INSERT INTO benchmarks (run_id, uri, name, kind) VALUES (?,?,?,?) RETURNING id");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, bench.uri);
    q.bind(3, bench.name);
    q.bind(4, bench.kind);
    q.executeStep();
    const int64_t id = q.getColumn(0).getInt64();
    q.exec();
    return id;
  });
}

Status SqlStore::AddMetric(int64_t run_id, const MetricDef& m) {
  return Guard("recording a metric", [&](bool) -> Status {
    Statement& q = db_->Cached(kInsertMetric);
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

Status SqlStore::AddNote(int64_t run_id, const NoteRecord& note) {
  return Guard("recording a note", [&](bool) -> Status {
    Statement& q = db_->Cached(kInsertNote);
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, note.level);
    q.bind(3, note.message);
    q.exec();
    return Status::Ok();
  });
}

int64_t SqlStore::InsertSample(int64_t run_id, int64_t benchmark_id, const Sample& s) {
  Statement& q = db_->Cached(kInsertSample);
  BindSampleRow(q, 1, run_id, benchmark_id, s);
  q.executeStep();
  const int64_t sample_id = q.getColumn(0).getInt64();
  q.exec();
  auto it = s.values.begin();
  for (size_t left = s.values.size(); left > 0;) {
    size_t rows = std::min(left, kValuesPerInsert);
    Statement& v = InsertValues(rows);
    int param = 1;
    for (size_t r = 0; r < rows; ++r, ++it) {
      v.bind(param++, static_cast<int64_t>(sample_id));
      v.bind(param++, it->first);
      v.bind(param++, it->second);
    }
    v.exec();
    left -= rows;
  }
  return sample_id;
}

StatusOr<int64_t> SqlStore::AppendSample(int64_t run_id, int64_t benchmark_id, const Sample& s) {
  return Guard(fmt::format("storing sample {} (benchmark {})", s.seq, benchmark_id), [&](bool retry) -> StatusOr<int64_t> {
    if (retry) {
      // The connection was lost: if it went while committing, the sample may be there already.
      Statement& find = db_->Cached(kFindSample);
      find.bind(1, static_cast<int64_t>(run_id));
      find.bind(2, static_cast<int64_t>(benchmark_id));
      find.bind(3, static_cast<int64_t>(s.seq));
      find.bind(4, s.arm);
      if (find.executeStep()) return find.getColumn(0).getInt64();
    }
    WriteScope tx(*db_);
    ForgetSummaries({benchmark_id});
    const int64_t id = InsertSample(run_id, benchmark_id, s);
    tx.Release();
    return id;
  });
}

std::vector<int64_t> SqlStore::CopySamples(int64_t run_id, const std::vector<StoredSample>& samples) {
  std::vector<int64_t> ids;
  ids.reserve(samples.size());
  Statement next(*db_, "SELECT nextval(pg_get_serial_sequence('samples', 'id')) FROM generate_series(1, ?)");
  next.bind(1, static_cast<int64_t>(samples.size()));
  while (next.executeStep()) ids.push_back(next.getColumn(0).getInt64());
  if (ids.size() != samples.size()) throw SqlError("the samples' id sequence gave too few ids");
  std::string rows, values;
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i].sample;
    rows += fmt::format("{}\t{}\t{}\t{}\t", ids[i], run_id, samples[i].benchmark_id, s.seq);
    AppendCopyText(rows, s.arm);
    rows += fmt::format("\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t", s.block, s.warmup ? 1 : 0, s.started_unix_ns,
                        s.ended_unix_ns, SampleOutcomeName(s.outcome), s.exit_code, s.signal);
    AppendCopyBytes(rows, s.error);
    rows += '\t';
    AppendCopyBytes(rows, s.stdout_tail);
    rows += '\t';
    AppendCopyBytes(rows, s.stderr_tail);
    rows += '\n';
    for (const auto& [metric, value] : s.values) {
      values += fmt::format("{}\t", ids[i]);
      AppendCopyText(values, metric);
      values += fmt::format("\t{}\n", value);
    }
  }
  db_->CopyIn("COPY samples (id, run_id, benchmark_id, seq, arm, block, warmup, started_unix_ns, ended_unix_ns, "
              "outcome, exit_code, signal, error, stdout_tail, stderr_tail) FROM STDIN", rows);
  db_->CopyIn("COPY sample_values (sample_id, metric, value) FROM STDIN", values);
  return ids;
}

std::vector<int64_t> SqlStore::BulkInsertSamples(int64_t run_id, const std::vector<StoredSample>& samples) {
  // Inside the write transaction no one else inserts: the ids after the largest are free.
  Statement last(*db_, "SELECT coalesce(max(id), 0) FROM samples");
  if (!last.executeStep()) throw SqlError("could not read the largest sample id");
  const int64_t first_id = last.getColumn(0).getInt64() + 1;
  std::vector<int64_t> ids(samples.size());
  for (size_t i = 0; i < samples.size(); ++i) ids[i] = first_id + static_cast<int64_t>(i);

  for (size_t done = 0; done < samples.size();) {
    const size_t rows = std::min(samples.size() - done, kSamplesPerBulkInsert);
    Statement& q = InsertSampleRows(rows);
    int p = 1;
    for (size_t r = 0; r < rows; ++r) {
      const StoredSample& stored = samples[done + r];
      const Sample& x = stored.sample;
      q.bind(p++, ids[done + r]);
      p = BindSampleRow(q, p, run_id, stored.benchmark_id, x);
    }
    q.exec();
    done += rows;
  }

  // Values of many samples per statement.
  size_t sample = 0;
  auto value = samples.empty() ? std::map<std::string, double>::const_iterator{} : samples[0].sample.values.begin();
  auto skip_empty = [&]() {
    while (sample < samples.size() && value == samples[sample].sample.values.end()) {
      if (++sample < samples.size()) value = samples[sample].sample.values.begin();
    }
  };
  size_t total = 0;
  for (const auto& x : samples) total += x.sample.values.size();
  skip_empty();
  for (size_t left = total; left > 0;) {
    const size_t rows = std::min(left, kValuesPerBulkInsert);
    Statement& v = InsertValues(rows);
    int p = 1;
    for (size_t r = 0; r < rows; ++r) {
      v.bind(p++, ids[sample]);
      v.bind(p++, value->first);
      v.bind(p++, value->second);
      ++value;
      skip_empty();
    }
    v.exec();
    left -= rows;
  }
  return ids;
}

StatusOr<std::vector<int64_t>> SqlStore::AppendSamples(int64_t run_id, const std::vector<StoredSample>& samples) {
  return Guard(fmt::format("storing {} samples of run {}", samples.size(), run_id), [&](bool) -> StatusOr<std::vector<int64_t>> {
    WriteScope tx(*db_);
    std::set<int64_t> benchmarks;
    for (const auto& x : samples) benchmarks.insert(x.benchmark_id);
    ForgetSummaries(benchmarks);
    std::vector<int64_t> ids;
    if (db_->dialect() == Dialect::kPostgres) {
      ids = CopySamples(run_id, samples);
    } else {
      ids = BulkInsertSamples(run_id, samples);
    }
    tx.Release();
    return ids;
  });
}

Status SqlStore::AddArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name,
                          const std::string& content) {
  return Guard("storing an artifact", [&](bool) -> Status {
    Statement q(*db_,
        "INSERT INTO artifacts (run_id, benchmark_id, name, content) VALUES (?,?,?,?) "
        "ON CONFLICT (run_id, benchmark_id, name) DO UPDATE SET content = excluded.content");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, static_cast<int64_t>(benchmark_id));
    q.bind(3, name);
    q.bind(4, content.data(), static_cast<int>(content.size()));
    q.exec();
    return Status::Ok();
  });
}

Status SqlStore::FinishRun(int64_t run_id, RunStatus status, int64_t ended_unix_ns) {
  const Status finished = Finishing("finishing a run", [&](bool) -> Status {
    Statement q(*db_, "UPDATE runs SET status = ?, ended_unix_ns = ? WHERE id = ?");
    q.bind(1, RunStatusName(status));
    q.bind(2, static_cast<int64_t>(ended_unix_ns));
    q.bind(3, static_cast<int64_t>(run_id));
    q.exec();
    return Status::Ok();
  });
  if (!finished.ok() || status == RunStatus::kRunning) return finished;
  // The run's summary for tare history, in a transaction of its own: it is derived from the
  // samples, so a run whose summary could not be written (say the disk filled up) is complete
  // all the same and is read from its samples; its status is what must be stored.
  const Status summarized = Guard("summarizing a run for tare history", [&](bool) -> Status {
    WriteScope tx(*db_);
    WriteRunSummaries(run_id);
    tx.Release();
    return Status::Ok();
  });
  // Inside InTransaction a lost connection took the whole transaction: say so, so it is repeated.
  if (!summarized.ok() && db_->depth() > 0 && lost_in_transaction_) return summarized;
  return finished;
}

StatusOr<int64_t> SqlStore::ResolveRun(const std::string& selector) {
  return Guard("finding a run", [&](bool) -> StatusOr<int64_t> {
    auto newest = [&](const std::string& sql, const std::vector<std::string>& binds) -> std::optional<int64_t> {
      Statement q(*db_, sql);
      for (size_t i = 0; i < binds.size(); ++i) q.bind(static_cast<int>(i + 1), binds[i]);
      if (q.executeStep() && !q.getColumn(0).isNull()) return q.getColumn(0).getInt64();
      return std::nullopt;
    };
    auto by_branch = [&](const std::string& b) { return newest("SELECT max(id) FROM runs WHERE git_branch = ?", {b}); };
    auto by_tag = [&](const std::string& key, std::optional<std::string> value) {
      return value ? newest("SELECT max(run_id) FROM run_tags WHERE key = ? AND value = ?", {key, *value})
                   : newest("SELECT max(run_id) FROM run_tags WHERE key = ?", {key});
    };
    auto by_tag_value = [&](const std::string& v) { return newest("SELECT max(run_id) FROM run_tags WHERE value = ?", {v}); };
    // A commit prefix: the newest run of the one commit it names; an error if it names several.
    auto by_commit = [&](const std::string& prefix) -> StatusOr<std::optional<int64_t>> {
      Statement q(*db_,
          "SELECT git_commit, max(id) FROM runs WHERE git_commit != '' AND substr(git_commit, 1, ?) = ? "
          "GROUP BY git_commit ORDER BY max(id) DESC LIMIT 6");
      q.bind(1, static_cast<int>(prefix.size()));
      q.bind(2, Lower(prefix));
      std::vector<std::pair<std::string, int64_t>> found;
      while (q.executeStep()) found.emplace_back(q.getColumn(0).getString(), q.getColumn(1).getInt64());
      if (found.size() > 1) {
        std::string list;
        for (const auto& [c, id] : found) list += fmt::format("{}{} (run {})", list.empty() ? "" : ", ", c.substr(0, 12), id);
        return Status::InvalidArgument(fmt::format(
            "commit prefix '{}' names more than one commit in the store: {}; give more digits", prefix, list));
      }
      if (found.empty()) return std::optional<int64_t>();
      return std::optional<int64_t>(found[0].second);
    };
    auto not_found = [&](const std::string& what) {
      return Status::NotFound(fmt::format("no run in the store '{}' {}; see `tare runs`", path_, what));
    };

    if (selector == "latest") {
      if (auto id = newest("SELECT max(id) FROM runs", {})) return *id;
      return Status::NotFound(fmt::format("the store '{}' has no runs yet; run `tare run` first", path_));
    }
    if (!selector.empty() && std::all_of(selector.begin(), selector.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      char* end = nullptr;
      long long id = std::strtoll(selector.c_str(), &end, 10);
      if (id <= 0 || *end != '\0') {
        return Status::InvalidArgument(fmt::format("'{}' is not a run id (ids start at 1; see `tare runs`)", selector));
      }
      if (newest("SELECT id FROM runs WHERE id = ?", {selector})) return static_cast<int64_t>(id);
      return Status::NotFound(fmt::format("run {} is not in the store '{}'", id, path_));
    }
    const auto colon = selector.find(':');
    if (colon != std::string::npos) {
      const std::string kind = selector.substr(0, colon), arg = selector.substr(colon + 1);
      if (kind == "branch" && !arg.empty()) {
        if (auto id = by_branch(arg)) return *id;
        return not_found(fmt::format("was measured on branch '{}'", arg));
      }
      if (kind == "tag" && !arg.empty()) {
        const auto eq = arg.find('=');
        const std::string key = arg.substr(0, eq);
        std::optional<std::string> value;
        if (eq != std::string::npos) value = arg.substr(eq + 1);
        if (auto id = by_tag(key, value)) return *id;
        return not_found(fmt::format("has the tag '{}'", arg));
      }
      if (kind == "uid" && !arg.empty()) {
        if (!IsHex(arg) || arg.size() < 4 || arg.size() > 32) {
          return Status::InvalidArgument(fmt::format("'{}': a run uid is 4 to 32 hex digits", selector));
        }
        Statement q(*db_, "SELECT id FROM runs WHERE substr(uid, 1, ?) = ? ORDER BY id DESC LIMIT 2");
        q.bind(1, static_cast<int>(arg.size()));
        q.bind(2, Lower(arg));
        std::vector<int64_t> ids;
        while (q.executeStep()) ids.push_back(q.getColumn(0).getInt64());
        if (ids.size() > 1) {
          return Status::InvalidArgument(fmt::format(
              "uid prefix '{}' names more than one run (runs {} and {}, at least); give more digits", arg, ids[0], ids[1]));
        }
        if (ids.size() == 1) return ids[0];
        return not_found(fmt::format("has a uid starting '{}'", arg));
      }
      if (kind == "commit" && !arg.empty()) {
        if (!IsHex(arg) || arg.size() < 4) {
          return Status::InvalidArgument(fmt::format("'{}': a commit is at least 4 hex digits", selector));
        }
        TARE_ASSIGN_OR_RETURN(auto id, by_commit(arg));
        if (id) return *id;
        return not_found(fmt::format("was measured at a commit starting '{}'", arg));
      }
      return Status::InvalidArgument(fmt::format(
          "'{}' is not a run selector; use latest, a run id, commit:HEX, branch:NAME, tag:KEY=VALUE or uid:HEX", selector));
    }
    if (!selector.empty()) {
      if (auto id = by_branch(selector)) return *id;
      if (auto id = by_tag_value(selector)) return *id;
      if (IsHex(selector) && selector.size() >= 4) {
        TARE_ASSIGN_OR_RETURN(auto id, by_commit(selector));
        if (id) return *id;
      }
    }
    return Status::NotFound(fmt::format(
        "'{}' names no run in the store '{}': it is not 'latest', a run id, a branch, a tag value or a "
        "commit of a stored run; see `tare runs`", selector, path_));
  });
}

StatusOr<std::vector<RunRecord>> SqlStore::ListRuns(int limit) {
  return Guard("listing runs", [&](bool) -> StatusOr<std::vector<RunRecord>> {
    Statement q(*db_, fmt::format("SELECT {} FROM runs ORDER BY id DESC LIMIT ?", kRunColumns));
    q.bind(1, limit);
    return ReadRuns(*db_, q);
  });
}

StatusOr<RunData> SqlStore::LoadRun(int64_t run_id) {
  return Guard("loading a run", [&](bool) -> StatusOr<RunData> {
    RunData d;
    Statement r(*db_, fmt::format("SELECT {} FROM runs WHERE id = ?", kRunColumns));
    r.bind(1, static_cast<int64_t>(run_id));
    if (!r.executeStep()) return Status::NotFound(fmt::format("run {} is not in the store '{}'", run_id, path_));
    d.run = ReadRunRow(r);
    ReadTags(*db_, d.run);
    ReadShard(*db_, d.run);

    Statement e(*db_, "SELECT role, path, sha256, info FROM executables WHERE run_id = ? ORDER BY role, path");
    e.bind(1, static_cast<int64_t>(run_id));
    while (e.executeStep()) {
      d.executables.push_back({e.getColumn(0).getString(), e.getColumn(1).getString(),
                               e.getColumn(2).getString(), e.getColumn(3).getString()});
    }
    Statement b(*db_, "SELECT id, uri, name, kind FROM benchmarks WHERE run_id = ? ORDER BY id");
    b.bind(1, static_cast<int64_t>(run_id));
    while (b.executeStep()) {
      d.benchmarks.push_back({b.getColumn(0).getInt64(), b.getColumn(1).getString(),
                              b.getColumn(2).getString(), b.getColumn(3).getString()});
    }
    Statement m(*db_, "SELECT name, unit, direction, kind, description FROM metrics WHERE run_id = ? ORDER BY rowid");
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
    Statement n(*db_, "SELECT level, message FROM notes WHERE run_id = ? ORDER BY rowid");
    n.bind(1, static_cast<int64_t>(run_id));
    while (n.executeStep()) d.notes.push_back({n.getColumn(0).getString(), n.getColumn(1).getString()});

    Statement s(*db_,
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
      x.error = s.getColumn(11).getByteString();
      x.stdout_tail = s.getColumn(12).getByteString();
      x.stderr_tail = s.getColumn(13).getByteString();
      index[ss.id] = d.samples.size();
      d.samples.push_back(std::move(ss));
    }
    Statement v(*db_,
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

StatusOr<std::string> SqlStore::LoadArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name) {
  return Guard("loading an artifact", [&](bool) -> StatusOr<std::string> {
    Statement q(*db_, "SELECT content FROM artifacts WHERE run_id = ? AND benchmark_id = ? AND name = ?");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, static_cast<int64_t>(benchmark_id));
    q.bind(3, name);
    if (!q.executeStep()) {
      return Status::NotFound(fmt::format("run {} has no artifact '{}'", run_id, name));
    }
    return q.getColumn(0).getBlobString();
  });
}

StatusOr<std::vector<ArtifactInfo>> SqlStore::ArtifactsOf(int64_t run_id) {
  return Guard("listing artifacts", [&](bool) -> StatusOr<std::vector<ArtifactInfo>> {
    Statement q(*db_, "SELECT benchmark_id, name, length(content) FROM artifacts WHERE run_id = ? "
                              "ORDER BY benchmark_id, name");
    q.bind(1, static_cast<int64_t>(run_id));
    std::vector<ArtifactInfo> out;
    while (q.executeStep()) {
      out.push_back({q.getColumn(0).getInt64(), q.getColumn(1).getString(), q.getColumn(2).getInt64()});
    }
    return out;
  });
}

StatusOr<std::vector<HistoryPoint>> SqlStore::History(const HistoryQuery& q) {
  return Guard("reading a history", [&](bool) -> StatusOr<std::vector<HistoryPoint>> {
    // The newest runs of kind "run" that measured the benchmark (one benchmark row per run: the
    // first if a run has two targets with the same benchmark name).
    std::string sql =
        "SELECT r.id, r.kind, r.status, r.started_unix_ns, r.ended_unix_ns, r.tare_version, r.fingerprint_digest, "
        "r.git_commit, r.git_branch, r.git_dirty, min(b.id) FROM benchmarks b JOIN runs r ON r.id = b.run_id "
        "WHERE b.name = ? AND r.kind = 'run'";
    if (!q.branch.empty()) sql += " AND r.git_branch = ?";
    if (!q.fingerprint_digest.empty()) sql += " AND r.fingerprint_digest = ?";
    sql += " GROUP BY r.id ORDER BY r.id DESC LIMIT ?";
    Statement runs(*db_, sql);
    int k = 1;
    runs.bind(k++, q.benchmark);
    if (!q.branch.empty()) runs.bind(k++, q.branch);
    if (!q.fingerprint_digest.empty()) runs.bind(k++, q.fingerprint_digest);
    runs.bind(k, std::max(1, q.limit));
    std::vector<HistoryPoint> points;
    std::vector<int64_t> bench_ids;
    while (runs.executeStep()) {
      HistoryPoint p;
      p.run.id = runs.getColumn(0).getInt64();
      p.run.kind = runs.getColumn(1).getString();
      p.run.status = ParseRunStatus(runs.getColumn(2).getString());
      p.run.started_unix_ns = runs.getColumn(3).getInt64();
      p.run.ended_unix_ns = runs.getColumn(4).isNull() ? 0 : runs.getColumn(4).getInt64();
      p.run.tare_version = runs.getColumn(5).getString();
      p.run.fingerprint_digest = runs.getColumn(6).getString();
      p.run.provenance.commit = runs.getColumn(7).getString();
      p.run.provenance.branch = runs.getColumn(8).getString();
      if (!runs.getColumn(9).isNull()) p.run.provenance.dirty = runs.getColumn(9).getInt() != 0;
      bench_ids.push_back(runs.getColumn(10).getInt64());
      points.push_back(std::move(p));
    }
    // Each run's point from its benchmark's summary (schema version 6: primary-key lookups, up to
    // kRunsPerQuery runs per statement, since a round trip per run costs more than the query on a
    // server); a benchmark without one (its run still running, or killed) from its samples.
    constexpr size_t kRunsPerQuery = 100;
    auto in_list = [](size_t n) {
      std::string in = "?";
      for (size_t k = 1; k < n; ++k) in += ",?";
      return in;
    };
    std::map<int64_t, size_t> point_of;  // benchmark id -> index into points
    for (size_t i = 0; i < points.size(); ++i) {
      point_of[bench_ids[i]] = i;
      points[i].median = std::numeric_limits<double>::quiet_NaN();
    }
    std::vector<bool> summarized(points.size(), false);
    for (size_t first = 0; first < points.size(); first += kRunsPerQuery) {
      const size_t n = std::min(kRunsPerQuery, points.size() - first);
      Statement v(*db_,
          "SELECT r.benchmark_id, r.failed, m.n, m.median FROM run_summaries r LEFT JOIN run_summary_metrics m "
          "ON m.benchmark_id = r.benchmark_id AND m.metric = ? WHERE r.benchmark_id IN (" + in_list(n) + ")");
      v.bind(1, q.metric);
      for (size_t k = 0; k < n; ++k) v.bind(static_cast<int>(k + 2), static_cast<int64_t>(bench_ids[first + k]));
      while (v.executeStep()) {
        const size_t i = point_of[v.getColumn(0).getInt64()];
        summarized[i] = true;
        points[i].failed = v.getColumn(1).getInt64();
        if (!v.getColumn(2).isNull()) {
          points[i].n = v.getColumn(2).getInt64();
          points[i].median = v.getColumn(3).getDouble();
        }
      }
    }
    std::vector<int64_t> from_samples;
    for (size_t i = 0; i < points.size(); ++i) {
      if (!summarized[i]) from_samples.push_back(bench_ids[i]);
    }
    std::map<size_t, std::vector<double>> values;  // point -> its values, in sample order
    for (size_t first = 0; first < from_samples.size(); first += kRunsPerQuery) {
      const size_t n = std::min(kRunsPerQuery, from_samples.size() - first);
      // The value by a correlated lookup, not a join: PostgreSQL's planner otherwise chose to hash
      // every stored value of the metric (1.9 s for 200 runs of a 1,000,000-sample store).
      Statement v(*db_,
          "SELECT s.benchmark_id, s.outcome, (SELECT v.value FROM sample_values v WHERE v.sample_id = s.id "
          "AND v.metric = ?) FROM samples s WHERE s.benchmark_id IN (" + in_list(n) + ") AND s.warmup = 0 "
          "ORDER BY s.benchmark_id, s.seq");
      v.bind(1, q.metric);
      for (size_t k = 0; k < n; ++k) v.bind(static_cast<int>(k + 2), static_cast<int64_t>(from_samples[first + k]));
      while (v.executeStep()) {
        const size_t i = point_of[v.getColumn(0).getInt64()];
        if (v.getColumn(1).getString() != "ok") {
          ++points[i].failed;
        } else if (!v.getColumn(2).isNull()) {
          values[i].push_back(v.getColumn(2).getDouble());
        }
      }
    }
    for (auto& [i, run_values] : values) {
      points[i].n = static_cast<int64_t>(run_values.size());
      points[i].median = stats::Median(run_values);
    }
    std::erase_if(points, [](const HistoryPoint& p) { return p.n == 0 && p.failed == 0; });
    std::reverse(points.begin(), points.end());
    return points;
  });
}

StatusOr<std::vector<std::pair<std::string, int64_t>>> SqlStore::HostsOf(const std::string& benchmark) {
  return Guard("listing hosts", [&](bool) -> StatusOr<std::vector<std::pair<std::string, int64_t>>> {
    Statement q(*db_,
        "SELECT r.fingerprint_digest, count(DISTINCT r.id), max(r.id) FROM benchmarks b JOIN runs r ON r.id = b.run_id "
        "WHERE b.name = ? AND r.kind = 'run' GROUP BY r.fingerprint_digest ORDER BY max(r.id) DESC");
    q.bind(1, benchmark);
    std::vector<std::pair<std::string, int64_t>> out;
    while (q.executeStep()) out.emplace_back(q.getColumn(0).getString(), q.getColumn(1).getInt64());
    return out;
  });
}

}  // namespace tare::store
