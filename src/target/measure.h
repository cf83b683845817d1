// The target adapters: list the benchmarks of a target and measure one benchmark in one fresh
// process. `tare run` and `tare ab` both loop over these; a failed child is a failed Sample (with
// its exit status and stderr tail), never an error — errors mean tare could not do its job.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "model/sample.h"
#include "proc/spawner.h"
#include "target/target_kind.h"

namespace tare::target {

struct TargetSpec {
  std::string name;               // short name used in benchmark URIs (the executable's basename)
  std::vector<std::string> argv;  // argv[0] is an absolute path; the rest is passed through
  TargetKind kind = TargetKind::kCommand;
  std::string cwd;                // "" = tare's working directory
  std::vector<std::string> env;   // the child's whole environment, KEY=VALUE
};

struct Benchmark {
  std::string name;  // inside the target: "BM_Sort/1024"; for commands the command line
  std::string uri;   // "<target>::<name>"
};

struct MeasureOptions {
  std::string workdir;            // private scratch directory for captured output
  int64_t timeout_ns = 0;
  std::vector<std::string> perf_events;
  size_t tail_bytes = 4096;       // how much of stdout/stderr to keep with each sample
};

// Commands have one benchmark; Google Benchmark binaries are asked with --benchmark_list_tests.
StatusOr<std::vector<Benchmark>> ListBenchmarks(proc::Spawner& spawner, const TargetSpec& target,
                                                const MeasureOptions& options);

// One fresh process for one benchmark. `unavailable` collects one-line reasons for metrics the
// host cannot provide (hardware counters on a VM, ...).
StatusOr<Sample> MeasureOnce(proc::Spawner& spawner, const TargetSpec& target, const Benchmark& bench,
                             const MeasureOptions& options, std::vector<std::string>* unavailable);

}  // namespace tare::target
