// The sim instrument: deterministic cost from valgrind's callgrind (docs/sim.md).
//
// The target runs under `valgrind --tool=callgrind` with a fixed cache model; the measurement
// windows come out as callgrind dumps, which ReadSimResults() turns into per-benchmark metrics:
// instructions (sim.Ir), data reads and writes, simulated L1/LL misses, system calls, and an
// estimated cycle count from a named, versioned model (kSimCycleModel). The same binary, path,
// arguments and environment give identical counts on every rerun.
//
// What the runner does with these pure pieces, per sample:
//   1. valgrind = FindValgrind()                        (once; a clear error if it is missing)
//   2. make a fresh empty directory; options.profile_dir = it
//   3. argv = SimCommand(options, target_argv); env = SimEnvironment(options, env)
//      spawn with proc::SpawnRequest::disable_aslr = options.disable_aslr   <- the runner MUST
//      honour this flag (personality(ADDR_NO_RANDOMIZE) in the spawn helper, inherited by
//      valgrind and the program across exec); a runner that cannot should prepend SetarchPrefix()
//   4. files = SimProfileFiles(dir); keep them with the sample (attribution reads them)
//   5. readings = ReadSimResults(options.target, files, iterations)
// Warnings (SimWarning) are data: the runner prints and stores them; they never fail a sample.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/metric.h"

namespace tare::instrument {

// The cycle estimate's model, recorded with every value (SimReading::cycle_model). iai-v1 is the
// model of iai 0.1 (src/lib.rs, CachegrindStats::summarize) and gungraun's default:
//   RAM hits = ILmr + DLmr + DLmw
//   LL hits  = I1mr + D1mr + D1mw - RAM hits
//   L1 hits  = Ir + Dr + Dw - LL hits - RAM hits
//   cycles   = L1 hits + 5 * LL hits + 35 * RAM hits
// Estimates from different models are different metrics: never compare them.
inline constexpr char kSimCycleModel[] = "iai-v1";

// The simulated caches: 32 KiB 8-way L1 I and D, 8 MiB 16-way last level, 64-byte lines. Fixed,
// so counts do not depend on the host (valgrind would otherwise copy the host's caches).
inline constexpr char kSimI1[] = "32768,8,64";
inline constexpr char kSimD1[] = "32768,8,64";
inline constexpr char kSimLL[] = "8388608,16,64";

enum class SimTarget {
  // A tare benchmark binary: the library opens each window with CALLGRIND_ZERO_STATS +
  // START_INSTRUMENTATION and closes it with STOP_INSTRUMENTATION + DUMP_STATS_AT(<uri>), so
  // valgrind runs with --instr-atstart=no and setup outside the windows costs nothing.
  kTareBinary,
  // Any command: the whole process, from its first instruction (the dynamic loader) to exit.
  kCommand,
  // An unmodified Google Benchmark binary: windows are cut by dumps at the library's own timing
  // boundaries (after State::StartKeepRunning, before State::FinishKeepRunning, and around
  // PauseTiming/ResumeTiming), i.e. exactly the region Google Benchmark times. Run it with
  // GoogleBenchmarkSimFlags() and one benchmark per process. Limits: docs/sim.md.
  kGoogleBenchmark,
};

struct SimOptions {
  SimTarget target = SimTarget::kTareBinary;
  std::string valgrind = "valgrind";  // absolute path from FindValgrind()
  std::string profile_dir;            // fresh, empty, absolute; one per sample
  // Turn address-space randomisation off for the program. SimCommand does not do it itself: the
  // runner honours this flag (proc::SpawnRequest::disable_aslr), or prepends SetarchPrefix().
  bool disable_aslr = true;
  // kGoogleBenchmark: leave the work between PauseTiming() and ResumeTiming() out, as Google
  // Benchmark does. Costs two extra dumps per pause; turn off for benchmarks that pause on every
  // one of very many iterations.
  bool gbench_exclude_paused = true;
};

// Absolute path of valgrind, searched on `search_path` (a PATH-style list; "" = $PATH).
// Unavailable: "valgrind is not installed; install the Debian package: apt-get install valgrind".
StatusOr<std::string> FindValgrind(const std::string& search_path = "");

// The full argv: valgrind, its options (SimValgrindOptions), then target_argv unchanged.
std::vector<std::string> SimCommand(const SimOptions& options, const std::vector<std::string>& target_argv);
// Just the valgrind options, for display and for the run's lock.
std::vector<std::string> SimValgrindOptions(const SimOptions& options);

// The environment for the program under valgrind: `env` ("KEY=VALUE") without VALGRIND_OPTS
// (which would add options behind tare's back), plus LD_BIND_NOW=1 for windowed targets so the
// dynamic linker resolves every symbol at start-up instead of inside the first window that calls
// it (~870 instructions of _dl_runtime_resolve per symbol, measured; docs/sim.md).
std::vector<std::string> SimEnvironment(const SimOptions& options, std::vector<std::string> env);

// {"setarch", "<machine>", "-R"}: the argv prefix that turns ASLR off, for runners that cannot
// set the personality themselves.
std::vector<std::string> SetarchPrefix();

// What a Google Benchmark binary's --help says it supports.
struct GbenchFlagSupport {
  bool min_warmup_time = false;   // --benchmark_min_warmup_time (1.7.0+)
  bool iteration_suffix = false;  // --benchmark_min_time=<N>x (1.8.0+)
};
GbenchFlagSupport DetectGbenchFlagSupport(const std::string& help_text);

// Flags that make a Google Benchmark binary time exactly one run with a fixed iteration count:
// --benchmark_repetitions=1 and, with `iterations` > 0 and the <N>x form, exactly N iterations;
// otherwise --benchmark_min_time=0, which in 1.7 makes the first run (1 iteration) final. With
// warm-up support a 1 ns warm-up runs one untimed iteration first, so the timed one starts with
// warm caches and lazily initialised state. Add --benchmark_filter and --benchmark_out yourself.
std::vector<std::string> GoogleBenchmarkSimFlags(const GbenchFlagSupport& support, int64_t iterations = 0);

// The profiles valgrind wrote into `profile_dir` ("callgrind.out.<pid>[.<dump>]"), ordered by
// process, then dump. NotFound when there are none.
StatusOr<std::vector<std::string>> SimProfileFiles(const std::string& profile_dir);

struct SimWarning {
  enum class Kind {
    kMeasuredNoWork,      // under kNoWorkInstructions instructions per iteration
    kSyscallHeavy,        // system calls took over kSyscallHeavyShare of the estimated time
    kIterationsNotFixed,  // Google Benchmark calibrated its iteration count (several timed runs)
  };
  Kind kind;
  std::string message;  // one line that says what to do
};

inline constexpr double kNoWorkInstructions = 10;
inline constexpr double kSyscallHeavyShare = 0.10;
// ... and only when the window made at least this many system calls: a handful in a whole window (a
// lazy initialisation, one write at the end) is incidental, not the benchmark's work (issue 44, item
// 7: the warning fired on one system call).
inline constexpr double kSyscallHeavyMinCalls = 10;
// Only used to weigh syscall time against simulated work for kSyscallHeavy.
inline constexpr double kNominalCyclesPerNs = 3.0;

struct SimReading {
  std::string benchmark;   // kTareBinary: the DUMP_STATS_AT name (the URI); "" otherwise
  int64_t iterations = 0;  // the divisor of `values`; 0 = values are window totals
  int64_t windows = 0;     // windows summed (kTareBinary, kCommand) or timed runs seen (GB)
  // The measured window's totals by callgrind event name (Ir, Dr, ..., sysCount); sysTime and
  // sysCpuTime converted to nanoseconds.
  std::map<std::string, uint64_t> window_totals;
  // sim.Ir, sim.Dr, sim.Dw, sim.I1mr, sim.D1mr, sim.D1mw, sim.ILmr, sim.DLmr, sim.DLmw,
  // sim.syscalls, sim.syscall_ns, sim.syscall_cpu_ns, sim.est_cycles: per iteration.
  std::map<std::string, double> values;
  std::string cycle_model;  // kSimCycleModel when values holds sim.est_cycles
  std::vector<SimWarning> warnings;
  std::vector<std::string> profiles;  // the files its windows came from
};

struct SimReadings {
  std::vector<SimReading> benchmarks;  // in the order their first window was dumped
};

// Reads the profiles of one sample. `iterations` (> 0) divides every value: the runner's fixed
// count for tare binaries, the count Google Benchmark reports in its JSON for kGoogleBenchmark
// (required there), 0 for commands. `gbench_threads` is the JSON's "threads": more than one
// cannot be measured under sim (FailedPrecondition). Malformed profiles give DataLoss.
StatusOr<SimReadings> ReadSimResults(SimTarget target, const std::vector<std::string>& profile_paths,
                                     int64_t iterations, int gbench_threads = 1);

// ---- pure pieces, exposed for tests and reports -------------------------------------------------

struct CycleEstimate {
  double l1_hits = 0;
  double ll_hits = 0;
  double ram_hits = 0;
  double cycles = 0;
};
// The iai-v1 estimate; nullopt unless all nine cache events (Ir Dr Dw I1mr D1mr D1mw ILmr DLmr
// DLmw) are present.
std::optional<CycleEstimate> EstimateCyclesIaiV1(const std::map<std::string, uint64_t>& totals);

// Fills values, cycle_model and warnings of a reading from its window_totals and iterations.
void ComputeSimMetrics(SimReading* reading);

}  // namespace tare::instrument
