// PlainRun: `tare run` — one target (or several commands), one arm, every benchmark measured in
// fresh processes, no verdict. The command line builds a RunSpec; this does the rest on a Session:
//
//   PlainRun run(spec, spawner);
//   TARE_RETURN_IF_ERROR(run.Prepare());                  // usage errors: nothing stored yet
//   TARE_ASSIGN_OR_RETURN(RunOutcome out, run.Run(store)); // the run, stored as it goes
//
// Prepare() resolves the target, sets up the instrument, lists the benchmarks, applies the filter
// and fixes tare binaries' iteration counts. Run() records the run (fingerprint, executable,
// benchmarks), runs warm-up + measured rounds in round-robin order, and finishes the run with its
// final status (complete / interrupted / failed).
//
// Several commands (`tare run 'sleep 0.1' 'sleep 0.2'`, hyperfine's habit): each is a whole-process
// benchmark of its own, named as the user wrote it; the round-robin order interleaves them, so
// sample i of every command runs back to back in block i, and the blocks pair their samples.
// --setup runs once before the first sample, --conclude once after the last, --prepare before
// every sample (warm-ups included) — none of them timed; a failure of any ends the run with an
// error naming it and its stderr, as hyperfine does.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "model/run.h"
#include "base/status.h"
#include "proc/spawner.h"
#include "session/measurer.h"
#include "session/shard.h"
#include "session/target_setup.h"
#include "store/store.h"
#include "target/measure.h"

namespace tare::session {

// A command line given as one string (session/command_line.h): what the user wrote, and the
// target it runs (split into words, or through /bin/sh -c with --shell).
struct CommandString {
  std::string text;
  TargetArgs args;
};

struct RunSpec {
  TargetArgs target;
  // Several commands, each measured as a whole process and named by its text; when not empty,
  // `target` is unused.
  std::vector<CommandString> commands;
  std::optional<CommandString> prepare;   // before every sample, untimed
  std::optional<CommandString> setup;     // once before the first sample
  std::optional<CommandString> conclude;  // once after the last
  int samples = -1;                       // -1: 10, or 3 under sim (its counts are identical on every rerun)
  int warmup = -1;                        // -1: 1, or 0 under sim
  int64_t timeout_ns = 0;                 // per sample; 0 = none
  std::string filter;                     // regular expression over benchmark names ("" = all)
  Instrument instrument = Instrument::kWall;
  bool perf = true;             // open perf_event counters
  bool shared_process = false;  // --no-isolation (tare binaries)
  bool fail_fast = false;
  // --show-output: after each sample, the end of its stdout and stderr (as kept with the sample,
  // MeasureOptions::tail_bytes each) through `notice`. Captured while it runs, shown after.
  bool show_output = false;
  int64_t iterations = 0;  // tare binaries: fixed count instead of calibration
  // Google Benchmark binaries: --benchmark_min_time for every sample (--gbench-min-time; 0: tare's
  // default, FixGbenchWork). The binary's own --benchmark_min_time after it stands instead.
  int64_t gbench_min_time_ns = 0;
  std::vector<std::string> command_line;  // tare's argv, recorded with the run
  std::string tare_version;
  Provenance provenance;  // recorded with the run (env::ResolveProvenance)
  // When valid: the provenance is still being read (git runs while tare starts up, ~10 ms of every
  // run's start); it stands for `provenance` from the first time the run needs it.
  std::shared_future<Provenance> pending_provenance;
  // --shard K/N: only this job's part of the (filtered) benchmarks, the whole assignment recorded
  // with the run (session/shard.h).
  std::optional<ShardSpec> shard;
};

// The time left, for the progress line: "1m05s", "12s", "2h03m" — or "" while it would not help:
// before the first sample, and when the samples so far predict a whole run under kEtaAfterNs (a
// short run is over before an estimate could be read). The samples so far predict the rest: the
// round-robin order makes every round alike (the first, with warm-ups and cold caches, counts in).
inline constexpr int64_t kEtaAfterNs = 10'000'000'000;
std::string EtaText(int64_t elapsed_ns, int64_t done, int64_t total);

// An unmodified Google Benchmark binary runs its own iteration estimate and minimum time (0.5 s on
// 1.7) in every process, so a sample costs about a second whatever the benchmark. When the median
// sample of a `tare run` under wall takes at least this long of CPU (user + system, wait4; the wall
// time where rusage is missing: a busy host stretches wall time, not the binary's own cost), the
// run gets an info note
// (SlowGbenchNote) showing the route to fixed, short samples: tare/gbench_compat.hpp. A quarter
// second is ten times the tens of milliseconds that route gives, and well below the default 0.5 s.
inline constexpr int64_t kSlowGbenchSampleNs = 250'000'000;
std::string SlowGbenchNote(int64_t median_sample_ns);

// Fills the defaults that depend on the instrument and checks everything that can be checked
// before a process runs. InvalidArgument naming the flag.
Status ValidateRunSpec(RunSpec* spec);

struct RunOutcome {
  int64_t run_id = 0;
  int64_t samples = 0;  // stored by this run, warm-ups included
  int64_t failed = 0;   // measured (not warm-up) samples that failed
  bool interrupted = false;
  bool stopped_at_failure = false;  // --fail-fast
  Status error;                     // tare could not finish (store write refused, helper died)
};

class PlainRun {
 public:
  PlainRun(RunSpec spec, proc::Spawner& spawner, const Clock& clock = SystemClock());
  ~PlainRun();

  Status Prepare();
  // After Prepare(): what was resolved (the first command's kind for several).
  TargetKind kind() const { return targets_.front().kind; }
  // After Prepare() with --shard: the whole assignment this run records.
  const std::optional<ShardRecord>& shard() const { return shard_; }
  // The run is in the store from the first line on; even a failed run is finished with its status.
  StatusOr<RunOutcome> Run(store::RunWriter& store);

  std::function<void(const std::string&)> progress;  // a status line ("" clears it)
  std::function<void(const std::string&)> notice;    // a line worth keeping (a failed sample)

 private:
  Status ResolveCommands();
  // --setup / --conclude: once, untimed; an error naming `flag` when it fails.
  Status RunUntimed(const target::TargetSpec& target, const std::string& flag, const std::string& text);
  // spec_.provenance, once spec_.pending_provenance (if any) has answered.
  const Provenance& provenance();

  RunSpec spec_;
  // The host's fingerprint, read from Prepare on while the targets are resolved and the store
  // opens (~7 ms of every run's start on the VM of bench/README.md); Run takes it.
  std::future<Fingerprint> fingerprint_;
  proc::Spawner& spawner_;
  const Clock& clock_;
  std::vector<target::TargetSpec> targets_;  // one, or one per command
  std::vector<target::Benchmark> benches_;
  std::vector<size_t> bench_target_;  // index into targets_ per benchmark
  std::optional<target::TargetSpec> prepare_, setup_, conclude_;
  target::MeasureOptions measure_;
  std::string workdir_;
  std::optional<ShardRecord> shard_;
};

}  // namespace tare::session
