// The target adapters: list the benchmarks of a target and measure one benchmark in one fresh
// process. `tare run` and `tare ab` both loop over these; a failed child is a failed Sample (with
// its exit status and stderr tail), never an error — errors mean tare could not do its job.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "instrument/sim.h"
#include "model/metric.h"
#include "model/sample.h"
#include "proc/spawner.h"
#include "model/target.h"
#include "target/target_kind.h"

namespace tare::target {

struct TargetSpec {
  std::string name;               // short name used in benchmark URIs (the executable's basename)
  std::vector<std::string> argv;  // argv[0] is an absolute path; the rest is passed through
  TargetKind kind = TargetKind::kCommand;
  std::string cwd;               // "" = tare's working directory
  std::vector<std::string> env;  // the child's whole environment, KEY=VALUE
};

struct Benchmark {
  std::string name;  // inside the target: "BM_Sort/1024"; for commands the command line
  std::string uri;   // "<target>::<name>"
  // The iteration count every sample runs, fixed before the first sample so that every sample
  // (and every arm and cohort of a campaign) times the same amount of work: tare binaries
  // (Calibrate()), and Google Benchmark binaries that accept --benchmark_min_time=<N>x (1.8+).
  uint64_t iterations = 0;
  // Google Benchmark without a fixed count (1.7.1): --benchmark_min_time for every sample, in ns
  // (0: none added; the binary's own choice, 0.5 s unless its arguments say otherwise).
  int64_t gbench_min_time_ns = 0;
};

struct MeasureOptions {
  std::string workdir;  // private scratch directory for captured output
  int64_t timeout_ns = 0;
  std::vector<std::string> perf_events;
  size_t tail_bytes = 4096;  // how much of stdout/stderr to keep with each sample
  Instrument instrument = Instrument::kWall;
  std::string valgrind;                        // sim: absolute path (instrument::FindValgrind)
  instrument::GbenchFlagSupport gbench_flags;  // sim on Google Benchmark: ProbeGbenchFlags
  std::string alloc_shim;                      // mem: absolute path of libtare_alloc.so (FindAllocShim)
  // "app.NAME" metrics the campaign judges: a sample whose program did not report one in
  // $TARE_METRICS_FILE fails, saying so (self_metrics.h).
  std::vector<std::string> required_metrics;
};

// What a sample leaves besides its values: raw profiles to keep with the run, and warnings
// (one line each, with the fix) to show once per benchmark.
struct MeasureExtras {
  std::vector<std::pair<std::string, std::string>> artifacts;  // name -> content
  std::vector<std::string> warnings;
  // Metric names of Google Benchmark rate counters in this sample ("gb.counter.bytes_per_second"):
  // per second, higher is better (GbenchRateCounters).
  std::vector<std::string> rates;
  // What the program reported about itself in $TARE_METRICS_FILE, with its units and directions.
  std::vector<MetricDef> reported;
};

// tare binaries only: every benchmark of `benches` in ONE process (protocol: several names in
// TARE_BENCH), one sample each, in order. This is what process isolation removes — allocator
// state, caches and lazily initialised globals leak from one benchmark into the next — and exists
// to show it (`tare run --no-isolation`). The process-level metrics are the shared process's.
StatusOr<std::vector<Sample>> MeasureTogether(proc::Spawner& spawner, const TargetSpec& target,
                                              const std::vector<Benchmark>& benches, const MeasureOptions& options,
                                              std::vector<std::string>* unavailable,
                                              std::vector<MeasureExtras>* extras = nullptr);

// tare binaries: asks the child for the smallest iteration count whose window lasts at least
// `window_ns` under the wall clock and stores it in bench->iterations. Under sim nothing is timed:
// the count is kSimIterations, fixed, because a count chosen by a clock varies from run to run
// and with it the per-iteration share of the window's fixed cost — the same binary must give the
// same counts on every rerun. No-op for other kinds.
inline constexpr uint64_t kSimIterations = 10;
Status Calibrate(proc::Spawner& spawner, const TargetSpec& target, const MeasureOptions& options, uint64_t window_ns,
                 Benchmark* bench);

// A Google Benchmark binary: which of the newer flags it accepts (from its --help).
StatusOr<instrument::GbenchFlagSupport> ProbeGbenchFlags(proc::Spawner& spawner, const TargetSpec& target,
                                                         const MeasureOptions& options);

// Commands have one benchmark; Google Benchmark binaries are asked with --benchmark_list_tests.
StatusOr<std::vector<Benchmark>> ListBenchmarks(proc::Spawner& spawner, const TargetSpec& target,
                                                const MeasureOptions& options);

// One fresh process for one benchmark; the program may report figures of its own in the file named
// by $TARE_METRICS_FILE (target/self_metrics.h). `unavailable` collects one-line reasons for metrics the
// host cannot provide (hardware counters on a VM, ...).
StatusOr<Sample> MeasureOnce(proc::Spawner& spawner, const TargetSpec& target, const Benchmark& bench,
                             const MeasureOptions& options, std::vector<std::string>* unavailable,
                             MeasureExtras* extras = nullptr);

}  // namespace tare::target
