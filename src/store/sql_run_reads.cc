// SqlStore: runs read back — the run selector grammar (ResolveRun: latest, ids, uids, commits,
// branches, tags), listings, a whole run with its samples and artifacts, and one benchmark's
// history per host type; a run's samples a page at a time (LoadSamples). Written in sql_runs.cc.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <cstdlib>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

#include "base/json_read.h"
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
  for (auto o : {SampleOutcome::kOk, SampleOutcome::kFailed, SampleOutcome::kSignaled, SampleOutcome::kTimedOut,
                 SampleOutcome::kInterrupted, SampleOutcome::kSpawnError}) {
    if (s == SampleOutcomeName(o)) return o;
  }
  return SampleOutcome::kFailed;
}

RunRecord ReadRunRow(Statement& q) {
  RunRecord r;
  r.id = q.getColumn(0).getInt64();
  r.kind = StoredName(ParseRunKind(q.getColumn(1).getString()));
  r.status = ParseRunStatus(q.getColumn(2).getString());
  r.started_unix_ns = q.getColumn(3).getInt64();
  r.ended_unix_ns = q.getColumn(4).isNull() ? 0 : q.getColumn(4).getInt64();
  r.tare_version = q.getColumn(5).getString();
  r.command_line = StoredJson(ReadJsonText<std::vector<std::string>>(
      q.getColumn(6).getString(), fmt::format("run {}'s command line", r.id),
      [](const nlohmann::json& j) { return j.get<std::vector<std::string>>(); }));
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

std::vector<ExecutableRecord> SelectExecutables(Connection& db, int64_t run_id) {
  Statement e(db, "SELECT role, path, sha256, info FROM executables WHERE run_id = ? ORDER BY role, path");
  e.bind(1, run_id);
  std::vector<ExecutableRecord> out;
  while (e.executeStep()) {
    out.push_back({e.getColumn(0).getString(), e.getColumn(1).getString(), e.getColumn(2).getString(),
                   e.getColumn(3).getString()});
  }
  return out;
}

std::vector<MetricDef> SelectMetrics(Connection& db, int64_t run_id) {
  Statement m(db,
              "SELECT name, unit, direction, kind, description, cycle_model FROM metrics WHERE run_id = ? "
              "ORDER BY rowid");
  m.bind(1, run_id);
  std::vector<MetricDef> out;
  while (m.executeStep()) {
    MetricDef def;
    def.name = m.getColumn(0).getString();
    def.unit = m.getColumn(1).getString();
    // Unknown names are a store tare did not write: an error, never a default (model/kinds.h).
    def.direction = StoredName(ParseDirection(m.getColumn(2).getString()));
    def.kind = StoredName(ParseMetricKind(m.getColumn(3).getString()));
    def.description = m.getColumn(4).getString();
    // NULL: stored before schema version 7, when the model travelled only in the description.
    def.model = m.getColumn(5).isNull() ? ModelInDescription(def.description) : m.getColumn(5).getString();
    out.push_back(std::move(def));
  }
  return out;
}

// The run's shard row (schema version 5), if it has one. An assignment that is not the JSON it was
// written as is read as empty: the view then reports the shard as disagreeing, never crashes.
void ReadShard(Connection& db, RunRecord& r) {
  Statement q(db,
              "SELECT shard, shard_count, shard_group, assignment_sha256, weights, assignment "
              "FROM run_shards WHERE run_id = ?");
  q.bind(1, static_cast<int64_t>(r.id));
  if (!q.executeStep()) return;
  ShardRecord s;
  s.index = q.getColumn(0).getInt64();
  s.count = q.getColumn(1).getInt64();
  s.group = q.getColumn(2).getString();
  s.assignment_sha256 = q.getColumn(3).getString();
  s.weights = q.getColumn(4).getString();
  const auto parsed = ParseJson(q.getColumn(5).getString(), "the shard assignment");
  const nlohmann::json list = parsed.ok() ? *parsed : nlohmann::json();
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

constexpr const char* kSampleColumns =
    "id, benchmark_id, seq, arm, block, warmup, started_unix_ns, ended_unix_ns, outcome, exit_code, signal, error, "
    "stdout_tail, stderr_tail";

// One row of `SELECT kSampleColumns FROM samples ...`, without its values.
StoredSample ReadSampleRow(Statement& s) {
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
  return ss;
}

// The rows of `SELECT sample_id, metric, value ...` into the samples `index` places (sample id ->
// position in `samples`); a value of a sample not read is left out.
void ReadSampleValues(Statement& v, const std::unordered_map<int64_t, size_t>& index,
                      std::vector<StoredSample>& samples) {
  while (v.executeStep()) {
    auto it = index.find(v.getColumn(0).getInt64());
    if (it != index.end()) samples[it->second].sample.values[v.getColumn(1).getString()] = v.getColumn(2).getDouble();
  }
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
}  // namespace

StatusOr<std::vector<RunRecord>> SqlStore::ShardedRuns(const std::string& group) {
  return Guard("listing sharded runs", [&](bool) -> StatusOr<std::vector<RunRecord>> {
    std::string sql = fmt::format("SELECT {} FROM runs WHERE id IN (SELECT run_id FROM run_shards{}) ORDER BY id",
                                  kRunColumns, group.empty() ? "" : " WHERE shard_group = ?");
    Statement q(*db_, sql);
    if (!group.empty()) q.bind(1, group);
    return ReadRuns(*db_, q);
  });
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
    auto by_tag_value = [&](const std::string& v) {
      return newest("SELECT max(run_id) FROM run_tags WHERE value = ?", {v});
    };
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
        for (const auto& [c, id] : found)
          list += fmt::format("{}{} (run {})", list.empty() ? "" : ", ", c.substr(0, 12), id);
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
    if (!selector.empty() &&
        std::all_of(selector.begin(), selector.end(), [](char c) { return c >= '0' && c <= '9'; })) {
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
          return Status::InvalidArgument(
              fmt::format("uid prefix '{}' names more than one run (runs {} and {}, at least); give more digits", arg,
                          ids[0], ids[1]));
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
          "'{}' is not a run selector; use latest, a run id, commit:HEX, branch:NAME, tag:KEY=VALUE or uid:HEX",
          selector));
    }
    if (!selector.empty()) {
      if (auto id = by_branch(selector)) return *id;
      if (auto id = by_tag_value(selector)) return *id;
      if (IsHex(selector) && selector.size() >= 4) {
        TARE_ASSIGN_OR_RETURN(auto id, by_commit(selector));
        if (id) return *id;
      }
    }
    return Status::NotFound(
        fmt::format("'{}' names no run in the store '{}': it is not 'latest', a run id, a branch, a tag value or a "
                    "commit of a stored run; see `tare runs`",
                    selector, path_));
  });
}

StatusOr<std::vector<RunRecord>> SqlStore::ListRuns(int limit) {
  return Guard("listing runs", [&](bool) -> StatusOr<std::vector<RunRecord>> {
    Statement q(*db_, fmt::format("SELECT {} FROM runs ORDER BY id DESC LIMIT ?", kRunColumns));
    q.bind(1, limit);
    return ReadRuns(*db_, q);
  });
}

StatusOr<RunData> SqlStore::LoadRunHead(int64_t run_id) {
  return Guard("loading a run", [&](bool) -> StatusOr<RunData> {
    RunData d;
    Statement r(*db_, fmt::format("SELECT {} FROM runs WHERE id = ?", kRunColumns));
    r.bind(1, static_cast<int64_t>(run_id));
    if (!r.executeStep()) return Status::NotFound(fmt::format("run {} is not in the store '{}'", run_id, path_));
    d.run = ReadRunRow(r);
    ReadTags(*db_, d.run);
    ReadShard(*db_, d.run);

    d.executables = SelectExecutables(*db_, run_id);
    Statement b(*db_, "SELECT id, uri, name, kind FROM benchmarks WHERE run_id = ? ORDER BY id");
    b.bind(1, static_cast<int64_t>(run_id));
    while (b.executeStep()) {
      d.benchmarks.push_back({b.getColumn(0).getInt64(), b.getColumn(1).getString(), b.getColumn(2).getString(),
                              StoredName(ParseTargetKind(b.getColumn(3).getString()))});
    }
    d.metrics = SelectMetrics(*db_, run_id);
    Statement n(*db_, "SELECT level, message FROM notes WHERE run_id = ? ORDER BY rowid");
    n.bind(1, static_cast<int64_t>(run_id));
    while (n.executeStep()) d.notes.push_back({n.getColumn(0).getString(), n.getColumn(1).getString()});
    return d;
  });
}

StatusOr<RunData> SqlStore::LoadRun(int64_t run_id) {
  TARE_ASSIGN_OR_RETURN(RunData d, LoadRunHead(run_id));
  return Guard("loading a run", [&](bool) -> StatusOr<RunData> {
    d.samples.clear();
    Statement s(*db_, fmt::format("SELECT {} FROM samples WHERE run_id = ? ORDER BY seq, id", kSampleColumns));
    s.bind(1, static_cast<int64_t>(run_id));
    std::unordered_map<int64_t, size_t> index;
    while (s.executeStep()) {
      index[s.getColumn(0).getInt64()] = d.samples.size();
      d.samples.push_back(ReadSampleRow(s));
    }
    Statement v(*db_,
                "SELECT v.sample_id, v.metric, v.value FROM sample_values v JOIN samples s ON s.id = v.sample_id "
                "WHERE s.run_id = ?");
    v.bind(1, static_cast<int64_t>(run_id));
    ReadSampleValues(v, index, d.samples);
    return std::move(d);  // captured, not the lambda's own: returned by copy otherwise
  });
}

StatusOr<std::vector<StoredSample>> SqlStore::LoadSamples(int64_t run_id, SampleCursor& after, size_t limit) {
  return Guard("loading samples", [&](bool) -> StatusOr<std::vector<StoredSample>> {
    std::vector<StoredSample> page;
    if (limit == 0) return page;
    // `seq >= ?` keeps the read on the samples_by_run index (run_id, seq): each page starts where
    // the last ended instead of scanning the run from its first sample.
    const char* kAfter = "run_id = ? AND seq >= ? AND (seq > ? OR id > ?) ORDER BY seq, id LIMIT ?";
    auto bind = [&](Statement& q) {
      q.bind(1, run_id);
      q.bind(2, after.seq);
      q.bind(3, after.seq);
      q.bind(4, after.id);
      q.bind(5, static_cast<int64_t>(limit));
    };
    Statement s(*db_, fmt::format("SELECT {} FROM samples WHERE {}", kSampleColumns, kAfter));
    bind(s);
    std::unordered_map<int64_t, size_t> index;
    while (s.executeStep()) {
      index[s.getColumn(0).getInt64()] = page.size();
      page.push_back(ReadSampleRow(s));
    }
    if (page.empty()) return page;
    Statement v(*db_, fmt::format("SELECT sample_id, metric, value FROM sample_values WHERE sample_id IN "
                                  "(SELECT id FROM samples WHERE {})",
                                  kAfter));
    bind(v);
    ReadSampleValues(v, index, page);
    after = {page.back().sample.seq, page.back().id};
    return page;
  });
}

StatusOr<std::vector<StoredSample>> SqlStore::LoadBenchmarkSamples(int64_t run_id, int64_t benchmark_id) {
  return Guard("loading a benchmark's samples", [&](bool) -> StatusOr<std::vector<StoredSample>> {
    std::vector<StoredSample> out;
    Statement s(*db_, fmt::format("SELECT {} FROM samples WHERE benchmark_id = ? AND run_id = ? ORDER BY seq, id",
                                  kSampleColumns));
    s.bind(1, benchmark_id);
    s.bind(2, run_id);
    std::unordered_map<int64_t, size_t> index;
    while (s.executeStep()) {
      index[s.getColumn(0).getInt64()] = out.size();
      out.push_back(ReadSampleRow(s));
    }
    if (out.empty()) return out;
    Statement v(*db_,
                "SELECT v.sample_id, v.metric, v.value FROM samples s JOIN sample_values v ON v.sample_id = s.id "
                "WHERE s.benchmark_id = ? AND s.run_id = ?");
    v.bind(1, benchmark_id);
    v.bind(2, run_id);
    ReadSampleValues(v, index, out);
    return out;
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

StatusOr<std::vector<MetricDef>> SqlStore::MetricsOf(int64_t run_id) {
  return Guard("listing metrics",
               [&](bool) -> StatusOr<std::vector<MetricDef>> { return SelectMetrics(*db_, run_id); });
}

StatusOr<std::vector<ExecutableRecord>> SqlStore::ExecutablesOf(int64_t run_id) {
  return Guard("listing executables",
               [&](bool) -> StatusOr<std::vector<ExecutableRecord>> { return SelectExecutables(*db_, run_id); });
}

StatusOr<std::vector<ArtifactInfo>> SqlStore::ArtifactsOf(int64_t run_id) {
  return Guard("listing artifacts", [&](bool) -> StatusOr<std::vector<ArtifactInfo>> {
    Statement q(*db_,
                "SELECT benchmark_id, name, length(content) FROM artifacts WHERE run_id = ? "
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
        "r.git_commit, r.git_branch, r.git_dirty, min(b.id), r.options FROM benchmarks b JOIN runs r ON r.id = "
        "b.run_id "
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
      p.run.kind = StoredName(ParseRunKind(runs.getColumn(1).getString()));
      p.run.status = ParseRunStatus(runs.getColumn(2).getString());
      p.run.started_unix_ns = runs.getColumn(3).getInt64();
      p.run.ended_unix_ns = runs.getColumn(4).isNull() ? 0 : runs.getColumn(4).getInt64();
      p.run.tare_version = runs.getColumn(5).getString();
      p.run.fingerprint_digest = runs.getColumn(6).getString();
      p.run.provenance.commit = runs.getColumn(7).getString();
      p.run.provenance.branch = runs.getColumn(8).getString();
      if (!runs.getColumn(9).isNull()) p.run.provenance.dirty = runs.getColumn(9).getInt() != 0;
      bench_ids.push_back(runs.getColumn(10).getInt64());
      p.run.options_json = runs.getColumn(11).getString();
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
                  "ON m.benchmark_id = r.benchmark_id AND m.metric = ? WHERE r.benchmark_id IN (" +
                      in_list(n) + ")");
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
                  "AND v.metric = ?) FROM samples s WHERE s.benchmark_id IN (" +
                      in_list(n) +
                      ") AND s.warmup = 0 "
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
    Statement q(
        *db_,
        "SELECT r.fingerprint_digest, count(DISTINCT r.id), max(r.id) FROM benchmarks b JOIN runs r ON r.id = b.run_id "
        "WHERE b.name = ? AND r.kind = 'run' GROUP BY r.fingerprint_digest ORDER BY max(r.id) DESC");
    q.bind(1, benchmark);
    std::vector<std::pair<std::string, int64_t>> out;
    while (q.executeStep()) out.emplace_back(q.getColumn(0).getString(), q.getColumn(1).getInt64());
    return out;
  });
}

}  // namespace tare::store
