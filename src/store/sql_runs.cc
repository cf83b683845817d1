// SqlStore: runs and everything recorded with them (executables, benchmarks, metrics, notes,
// samples and their values, artifacts), written. Read back in sql_run_reads.cc.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <map>
#include <set>

#include "base/json_text.h"
#include "internal/pg_connection.h"
#include "internal/sql_store.h"

namespace tare::store {
namespace {

void WriteShard(Connection& db, int64_t run_id, const ShardRecord& s) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [name, shard] : s.assignment) list.push_back({name, shard});
  Statement q(db,
              "INSERT INTO run_shards (run_id, shard, shard_count, shard_group, assignment_sha256, weights, "
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
    "INSERT INTO metrics (run_id, name, unit, direction, kind, description, cycle_model) "
    "VALUES (?,?,?,?,?,?,?) ON CONFLICT DO NOTHING";
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
    for (size_t r = 0; r < rows; ++r)
      sql += r == 0 ? "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
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
    return Status::InvalidArgument(
        fmt::format("run uid '{}' is not 32 lowercase hex digits; leave it empty for a fresh one", run.uid));
  }
  return Guard("starting a run", [&](bool) -> StatusOr<int64_t> {
    WriteScope tx(*db_);
    Statement exists(*db_, "SELECT id FROM runs WHERE uid = ?");
    exists.bind(1, uid);
    if (exists.executeStep()) {
      return Status::FailedPrecondition(
          fmt::format("the store '{}' already holds run {} with uid {}", path_, exists.getColumn(0).getInt64(), uid));
    }
    Statement q(
        *db_,
        "INSERT INTO runs (kind, status, started_unix_ns, tare_version, command_line, options, "
        "fingerprint, fingerprint_digest, git_commit, git_branch, git_dirty, uid) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) "
        "RETURNING id");
    q.bind(1, RunKindName(run.kind));
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
    Statement t(*db_,
                "INSERT INTO run_tags (run_id, key, value) VALUES (?,?,?) "
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
    q.bind(4, TargetKindName(bench.kind));
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
    q.bind(7, m.model);
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
  return Guard(fmt::format("storing sample {} (benchmark {})", s.seq, benchmark_id),
               [&](bool retry) -> StatusOr<int64_t> {
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
    rows += fmt::format("\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t", s.block, s.warmup ? 1 : 0, s.started_unix_ns, s.ended_unix_ns,
                        SampleOutcomeName(s.outcome), s.exit_code, s.signal);
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
  db_->CopyIn(
      "COPY samples (id, run_id, benchmark_id, seq, arm, block, warmup, started_unix_ns, ended_unix_ns, "
      "outcome, exit_code, signal, error, stdout_tail, stderr_tail) FROM STDIN",
      rows);
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
  return Guard(fmt::format("storing {} samples of run {}", samples.size(), run_id),
               [&](bool) -> StatusOr<std::vector<int64_t>> {
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

}  // namespace tare::store
