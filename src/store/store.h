// Store: where every run, sample, verdict and profile is kept. The interface below is all the rest
// of tare sees; the SQLite backend (the embedded default, .tare/tare.db) implements it, and a
// second backend (PostgreSQL, for many CI hosts) implements the same interface with the same
// schema. Only this module holds SQL. Schema and migrations: docs/store.md.
//
// Durability: each call below is its own committed transaction unless the caller groups several
// (InTransaction, WriteTogether: a session commits the samples of up to 50 ms together, so a crash
// loses at most those; session/write_behind.h). Every write returns a Status; a caller that drops
// one loses data silently, so none does.
//
// RunWriter is the narrow part a measurement session writes through (fakes implement it in tests);
// Store adds reading and the campaign tables.
//
// Thread-safety: one Store per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/output_path.h"
#include "base/status.h"
#include "model/cohort.h"
#include "model/run.h"
#include "model/verdict.h"

namespace tare::store {

// 2: campaign tables (tare ab); 3: run provenance; 4: global run ids (runs.uid); 5: sharded runs
// (run_shards); 6: per-run summaries for tare history (run_summaries, run_summary_metrics); 7: every
// field of a verdict, comparison, cross-check and check (model/record_fields.h), a metric's cycle model
inline constexpr int kSchemaVersion = 7;

// Whether `location` names a database server (postgresql:// or postgres://) rather than a file.
bool IsStoreUrl(const std::string& location);

// The local directory of a store, where tare keeps what goes beside it (arm copies in bin/,
// ledgers/): a file store's own directory ("." for a bare file name); for a server URL, .tare in
// the working directory (never a directory named after the URL, which may hold a password).
std::string LocalDirectory(const std::string& location);
// Where `tare ab` keeps a cohort's whole ledger beside its store (written on a terminal, read by
// `tare bundle` and `tare report --format summary`): `local_directory`/ledgers/cohort-RUN.md.
std::string KeptLedgerPath(const std::string& local_directory, int64_t run_id);

// `location` as tare prints or records it: a URL's password redacted (base/redact.h).
std::string PrintableLocation(const std::string& location);

// The files no output may replace (base/output_path.h): a file store and the files SQLite keeps
// beside it (-wal, -shm, -journal); replacing any of them loses or corrupts every stored run.
std::vector<KeptFile> StoreFiles(const std::string& location);

// InvalidArgument, naming the forms that work, for a location that would not keep a run: "" and
// ":memory:" (SQLite's temporary databases), "file:" URIs, URLs of other schemes and malformed
// postgres ones (they would become local files of that name). Store::Open and OpenForReading
// check it; commands that measure check it before the first process.
Status CheckStoreLocation(const std::string& location);

// A fresh run uid: 16 bytes from getrandom(2), as 32 lowercase hex digits.
std::string NewRunUid();
// Whether `uid` is 32 lowercase hex digits.
bool IsRunUid(std::string_view uid);

// One look of one cell, as Store::SaveVerdicts took it (read back by Store::LooksOf; moving runs
// between stores: store/transfer.h).
struct StoredLook {
  int64_t cell = 0;
  int64_t look = 0;
  bool final = false;
  std::vector<AbComparison> comparisons;
  // The fields its rows do not have (model/record_fields.h names; "comparison" for a comparison's
  // own fields, broken arms and cross-check): a store written by a tare older than schema version 7,
  // or a tare.run/2 document written by one. Empty when the look is kept whole.
  std::set<std::string> lacks;
};

// Where Store::LoadSamples goes on from: after the sample (seq, id), in the order LoadRun reads a
// run's samples (seq, then id). The default is before the first sample.
struct SampleCursor {
  int64_t seq = std::numeric_limits<int64_t>::min();
  int64_t id = std::numeric_limits<int64_t>::min();
};

struct ArtifactInfo {
  int64_t benchmark_id = 0;
  std::string name;  // e.g. "callgrind.out", or "base/callgrind.out" in a campaign
  int64_t size = 0;  // bytes
};

// Writing one run's records as they happen.
class RunWriter {
 public:
  virtual ~RunWriter() = default;

  // Where the data goes, for messages ("store '.tare/tare.db'").
  virtual const std::string& path() const = 0;

  // Starts a run with run.uid, or a fresh uid (NewRunUid) when it is empty; InvalidArgument for a
  // uid that is not 32 lowercase hex digits, FailedPrecondition for one the store already holds.
  virtual StatusOr<int64_t> BeginRun(const RunRecord& run) = 0;
  virtual Status AddExecutable(int64_t run_id, const ExecutableRecord& exe) = 0;
  // Idempotent per (run, uri): returns the existing id.
  virtual StatusOr<int64_t> AddBenchmark(int64_t run_id, const BenchmarkRecord& bench) = 0;
  virtual Status AddMetric(int64_t run_id, const MetricDef& metric) = 0;  // idempotent per name
  virtual Status AddNote(int64_t run_id, const NoteRecord& note) = 0;     // idempotent per message
  virtual StatusOr<int64_t> AppendSample(int64_t run_id, int64_t benchmark_id, const Sample& sample) = 0;
  // Many samples of one run at once, in one transaction (copying runs between stores; PostgreSQL
  // takes them with COPY). Each StoredSample's benchmark_id is this store's; ids returned in order.
  virtual StatusOr<std::vector<int64_t>> AppendSamples(int64_t run_id, const std::vector<StoredSample>& samples) = 0;
  // Named blobs kept with a run, e.g. a benchmark's raw callgrind profile.
  virtual Status AddArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name,
                             const std::string& content) = 0;
  virtual Status FinishRun(int64_t run_id, RunStatus status, int64_t ended_unix_ns) = 0;
  // Whether a write has failed for want of space (a full disk, `ulimit -f`, a quota) or because the
  // server went away: what was stored before is intact and the same work can continue once the
  // cause is fixed (tare ab leaves such a cohort `interrupted`, for --resume). Sticky.
  virtual bool LostAWriteToTheHost() const { return false; }
  // Whether WriteTogether stores a batch of writes as one transaction — all of them or none, its
  // body run once — which costs a sample's commit a third of its own (the pages samples share are
  // written once: session/write_behind.h). SQLite does; PostgreSQL keeps a transaction per write,
  // which a lost connection can then repeat alone.
  virtual bool CanWriteTogether() const { return false; }
  virtual Status WriteTogether(const std::function<Status()>& body) { return body(); }
};

// One benchmark's metric over stored runs of `tare run` (tare history). A run's values are its
// measured (not warm-up), successful samples' values of the metric.
struct HistoryQuery {
  std::string benchmark;  // the benchmark's name inside its target, exactly
  std::string metric;
  std::string branch;              // "" = any
  std::string fingerprint_digest;  // "" = any host (callers pick one: never pool hosts)
  int limit = 200;                 // the newest runs
};
// A finished run is read from its summary (written when it finished: docs/store.md, "Schema version
// 6"), a run without one (still running, killed) from its samples; both give the same point.
struct HistoryPoint {
  RunRecord run;       // with its options, without command line and fingerprint text
  int64_t n = 0;       // the run's values
  double median = 0;   // their median (stats::Median's rule); NaN when n is 0
  int64_t failed = 0;  // measured samples that failed
};

// Ok when a store can be created at `location` without creating directories the user did not
// ask for: a URL, a file in a directory that exists, or the default store's `.tare/` (missing,
// in a directory that exists). Otherwise InvalidArgument naming the directory and the `mkdir -p`
// to type: a typo must not start a new history. Store::Open checks it; `tare ab` checks it before
// staging its arms beside the store.
Status CheckStoreDirectory(const std::string& location);

class Store : public RunWriter {
 public:
  // Opens the store at `location` and migrates it to kSchemaVersion: a file path is SQLite (the
  // file is created in a directory that exists; a missing directory is refused with the `mkdir -p`
  // to type, a typo must not start a new history, except a missing `.tare` whose own directory
  // exists: the default store's), a postgresql:// URL a PostgreSQL database (libpq's connection
  // URI; the database must exist). Fails with a clear message when the path is
  // unwritable, the server unreachable, not a tare store, or from a newer tare; a refused file or
  // database is left as it was.
  static StatusOr<std::unique_ptr<Store>> Open(const std::string& location);
  // For the commands that only read (runs, export, compare, history, report...): opens the store
  // as Open does when tare may write it; a store file tare may not write (its mode, a read-only
  // directory or mount) is opened read-only instead — never created or migrated, every write
  // refused. Open on such a file fails with a message saying so.
  static StatusOr<std::unique_ptr<Store>> OpenForReading(const std::string& location);

  virtual int schema_version() const = 0;

  // Reading. `selector` names one run (docs/store.md, "Selecting runs"):
  //   latest | N (a run id) | commit:HEX | branch:NAME | tag:KEY=VALUE | tag:KEY | uid:HEX (a prefix)
  //   | a bare word: a branch, else a tag value, else a commit prefix (>= 4 hex digits).
  // Everything but an id means the newest run that matches. NotFound / InvalidArgument name the
  // selector and say what would match; an ambiguous commit prefix lists the commits.
  virtual StatusOr<int64_t> ResolveRun(const std::string& selector) = 0;
  // Everything stored for one run, every sample in memory: for runs of a measuring session's size.
  // What must work on a run of any size reads LoadRunHead and then LoadSamples a page at a time.
  virtual StatusOr<RunData> LoadRun(int64_t run_id) = 0;
  // LoadRun without the samples (RunData::samples empty): the run, executables, benchmarks, metrics
  // and notes.
  virtual StatusOr<RunData> LoadRunHead(int64_t run_id) = 0;
  // Up to `limit` samples of the run, with their values, that come after `after` in LoadRun's order;
  // `after` is moved past the last one returned. Fewer than `limit` (none at all, possibly): the run
  // has no more. Memory is bounded by the page, not the run (tare merge and push copy a run this way
  // whatever its size: docs/scale-out.md, "Memory").
  virtual StatusOr<std::vector<StoredSample>> LoadSamples(int64_t run_id, SampleCursor& after, size_t limit) = 0;
  // The samples of one benchmark of a run, with their values, in LoadRun's order: memory for one
  // benchmark's samples, not the run's (tare report --run builds its page a benchmark at a time).
  virtual StatusOr<std::vector<StoredSample>> LoadBenchmarkSamples(int64_t run_id, int64_t benchmark_id) = 0;
  virtual StatusOr<std::vector<RunRecord>> ListRuns(int limit) = 0;
  virtual StatusOr<std::string> LoadArtifact(int64_t run_id, int64_t benchmark_id, const std::string& name) = 0;
  // Oldest first. Runs in which the benchmark exists but no sample carries the metric are left out.
  virtual StatusOr<std::vector<HistoryPoint>> History(const HistoryQuery& query) = 0;
  // The fingerprint digests of the runs that measured `benchmark`, newest first, with their counts.
  virtual StatusOr<std::vector<std::pair<std::string, int64_t>>> HostsOf(const std::string& benchmark) = 0;
  // The artifacts kept with a run (names and sizes, not contents), by benchmark then name.
  virtual StatusOr<std::vector<ArtifactInfo>> ArtifactsOf(int64_t run_id) = 0;
  // The executables a run measured (LoadRun's, without its samples); empty for an unknown run.
  virtual StatusOr<std::vector<ExecutableRecord>> ExecutablesOf(int64_t run_id) = 0;
  // The metrics a run defined (LoadRun's, without its samples): their units, directions and
  // descriptions as that run's tare wrote them — a modelled metric's model with them (MetricModel).
  virtual StatusOr<std::vector<MetricDef>> MetricsOf(int64_t run_id) = 0;
  // The runs recorded with a shard (RunRecord::shard set), oldest first; only those of `group`
  // unless it is empty. Each as ListRuns gives it, its shard included.
  virtual StatusOr<std::vector<RunRecord>> ShardedRuns(const std::string& group) = 0;
  // The id of the run with this uid in this store, if it holds one.
  virtual StatusOr<std::optional<int64_t>> FindRunByUid(const std::string& uid) = 0;

  // Runs `body` as one transaction: everything it wrote is committed together, or nothing is when
  // it returns an error (or the process dies). The calls above nest inside it. Takes the write
  // lock at once, so concurrent writers queue instead of failing half-way.
  virtual Status InTransaction(const std::function<Status()>& body) = 0;
  // After a bulk load (tare merge, tare push): refreshes the query planner's statistics (PostgreSQL
  // ANALYZE, SQLite PRAGMA optimize), so the next queries use the indexes as they should.
  virtual Status RefreshStatistics() = 0;

  // Campaigns (schema version 2): cohorts with their campaign and lock, cells, the verdicts of
  // every look, gates and bounds, and samples set aside by a resume.
  virtual Status AddCohort(const CohortRecord& c) = 0;
  virtual Status SetCohortState(int64_t run_id, CohortState state, const std::string& stop_reason,
                                const std::string& outcome) = 0;
  // The notes the cohort's ledger printed (CohortRecord::notes), so a ledger rebuilt from the store
  // prints them too.
  virtual Status SetCohortNotes(int64_t run_id, const std::vector<std::string>& notes) = 0;
  // Counts a resume and marks the cohort and its run running again.
  virtual Status MarkCohortResumed(int64_t run_id) = 0;
  // The next cohort number for a campaign (1 for a new one).
  virtual StatusOr<int64_t> NextCohort(const std::string& campaign_sha256) = 0;
  // Every cohort of a campaign, oldest first.
  virtual StatusOr<std::vector<CohortRecord>> CohortsOf(const std::string& campaign_sha256) = 0;
  virtual Status AddCell(int64_t run_id, const CellRecord& cell) = 0;
  virtual StatusOr<std::vector<CellRecord>> CellsOf(int64_t run_id) = 0;
  virtual Status DiscardSamples(int64_t run_id, const std::vector<int64_t>& sample_ids, const std::string& reason) = 0;
  virtual StatusOr<std::set<int64_t>> DiscardedSamplesOf(int64_t run_id) = 0;
  // Sample id -> the reason it was set aside.
  virtual StatusOr<std::map<int64_t, std::string>> DiscardReasonsOf(int64_t run_id) = 0;
  // The cohort record of a run of kind "ab" (nullopt for other runs).
  virtual StatusOr<std::optional<CohortRecord>> CohortOf(int64_t run_id) = 0;
  // One look's verdicts for a cell (replacing that look's earlier rows, if any); `final` marks
  // the cell's last look. Every field model/record_fields.h lists is kept; `lacks` (a look read from
  // an older store, StoredLook::lacks) names the fields to keep as not known.
  virtual Status SaveVerdicts(int64_t run_id, int64_t cell, int64_t look, bool final,
                              const std::vector<AbComparison>& comparisons,
                              const std::set<std::string>& lacks = {}) = 0;
  // Replaces the cohort's checks of that kind (gates or bounds).
  virtual Status SaveChecks(int64_t run_id, CheckKind kind, const std::vector<AbCheck>& checks) = 0;
  // Every look SaveVerdicts stored, in (cell, look) order; within a look the comparisons and their
  // metrics in the order they were saved, each as it was saved. A look stored before schema version
  // 7 says what it lacks (StoredLook::lacks): its comparisons then carry their cell's name and role
  // and their head, their verdict and gain recomputed from their metrics, and cell-level reasons
  // inside each metric's.
  virtual StatusOr<std::vector<StoredLook>> LooksOf(int64_t run_id) = 0;
  // Every gate and bound, by kind then as saved.
  virtual StatusOr<std::vector<AbCheck>> ChecksOf(int64_t run_id) = 0;
};

}  // namespace tare::store
