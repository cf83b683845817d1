// Run: one execution of a plan (`tare run`, one cohort of `tare ab`), with everything needed to
// judge and reproduce it: the fingerprint, the executables and their hashes, the command line,
// tare's version, and (in the store) every raw sample.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/fingerprint.h"
#include "model/kinds.h"
#include "model/metric.h"
#include "model/sample.h"
#include "model/target.h"

namespace tare {

enum class RunStatus { kRunning, kComplete, kInterrupted, kFailed };
const char* RunStatusName(RunStatus s);  // "running", "complete", "interrupted", "failed"

// Where the measured code came from, so runs can be selected by commit, branch or tag
// (`tare compare main feature-x`). Read from the git checkout tare runs in (env/provenance.h),
// and from --commit / --branch / --tag, which win over what git says.
struct Provenance {
  std::string commit;                                     // full hex id; "" unknown
  std::string branch;                                     // "" unknown or detached HEAD
  std::optional<bool> dirty;                              // tracked files modified; nullopt unknown
  std::vector<std::pair<std::string, std::string>> tags;  // --tag K=V, sorted by key, keys unique
};

// One job's part of a sharded run (`tare run --shard K/N`, `tare ab --shard K/N`; schema version 5).
// Every job of one sharded run computes the same assignment of the whole benchmark (cell) list to
// N shards and records all of it, so a merged store knows which shards are there, which are
// missing, and whether the jobs agreed (session/shard.h, docs/scale-out.md).
struct ShardRecord {
  int64_t index = 0;  // K, 1-based
  int64_t count = 0;  // N
  // What the N jobs have in common (sha256 of the run's kind, N, commit and what it measures: the
  // campaign's identity for ab, the targets and filter for run): the shards of one sharded run
  // share it, whether or not their assignments agree.
  std::string group;
  std::string assignment_sha256;  // of the whole assignment (session::AssignmentSha256)
  std::string weights;            // where the weights came from: "equal" or "uid:<run uid>"
  // Every benchmark (cell) name of the whole list -> its shard (1-based), sorted by name.
  std::vector<std::pair<std::string, int64_t>> assignment;
};

struct RunRecord {
  int64_t id = 0;  // this store's id
  // The run's global id (schema version 4): 32 lowercase hex digits from the kernel's random
  // source, given by store::RunWriter::BeginRun when empty. The same run keeps it in every store
  // it is merged, pushed or imported into, which is how copying a run twice adds nothing.
  std::string uid;
  RunKind kind = RunKind::kRun;
  RunStatus status = RunStatus::kRunning;
  int64_t started_unix_ns = 0;
  int64_t ended_unix_ns = 0;
  std::string tare_version;
  std::vector<std::string> command_line;  // tare's own argv
  std::string options_json;               // the resolved options, as JSON text
  std::string fingerprint_json;           // env::FingerprintToJson(...) text
  std::string fingerprint_digest;         // Fingerprint::HardDigest()
  Provenance provenance;                  // schema version 3
  std::optional<ShardRecord> shard;       // schema version 5: set for a sharded run
};

struct ExecutableRecord {
  std::string role;  // "target", "base", "head", "null"...
  std::string path;  // absolute path as run
  std::string sha256;
  std::string info_json;  // build id, compiler, ... (env::ExecutableInfo as JSON)
};

struct BenchmarkRecord {
  int64_t id = 0;
  std::string uri;   // "<target-name>::<benchmark-name>"
  std::string name;  // benchmark name inside the target ("BM_Sort/1024", or the command)
  TargetKind kind = TargetKind::kCommand;
};

struct NoteRecord {
  std::string level;    // "info" | "warn" | "error"
  std::string message;  // one line, with the fix
};

struct StoredSample {
  int64_t id = 0;
  int64_t benchmark_id = 0;
  Sample sample;
};

// Everything stored for one run.
struct RunData {
  RunRecord run;
  std::vector<ExecutableRecord> executables;
  std::vector<BenchmarkRecord> benchmarks;
  std::vector<MetricDef> metrics;
  std::vector<NoteRecord> notes;
  std::vector<StoredSample> samples;  // in seq order
  // A sharded run read whole (compare/run_set.h): the runs merged into this one, by shard (`run` is
  // the one selected, its shard record carrying the whole assignment), and the shard numbers of its
  // group that the store lacks. Both empty for a run read alone.
  std::vector<int64_t> set_runs;
  std::vector<int64_t> missing_shards;
};

}  // namespace tare
