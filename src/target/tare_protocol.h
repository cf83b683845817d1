// The runner's side of the tare child protocol, version 1 (docs/protocol.md), as pure functions:
// the environment for a request, the parsing of a result line, and the per-iteration metrics a
// measurement maps to. No I/O: the runner spawns the benchmark binary (src/proc) with ChildEnv()
// added to its environment, reads what the child wrote to the result fd, and hands it here.
//
// Errors: a line that is not a valid v1 result is kDataLoss; a result in which the child reports
// an error (unknown benchmark, setup threw, SkipWithError, …) is kFailedPrecondition carrying the
// child's message. Every message names the benchmark. Thread-safe: no shared state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace tare::protocol {

inline constexpr int kVersion = 1;

// "TARE_CHILD_PROTOCOL_V1", the string every tare benchmark binary contains. Assembled at run time
// so that the runner's own executable does not contain it (scanning tare itself must not find a
// tare benchmark binary).
std::string ProtocolMarker();
// True when `file_bytes` (an executable's contents) contains the marker.
bool HasProtocolMarker(std::string_view file_bytes);

enum class Mode { kList, kCalibrate, kMeasure };
enum class Instrument { kWall, kSim, kMem };
const char* ModeName(Mode mode);                    // "list" | "calibrate" | "measure"
const char* InstrumentName(Instrument instrument);  // "wall" | "sim" | "mem"

struct Request {
  Mode mode = Mode::kMeasure;
  Instrument instrument = Instrument::kWall;
  // calibrate/measure: the benchmark names as listed. Several names run in ONE process, one
  // result line each, in order (the runner's --no-isolation).
  std::vector<std::string> benches;
  uint64_t iters = 0;         // measure: iterations in the window, > 0
  uint64_t calibrate_ns = 0;  // calibrate: the window must last at least this long, > 0
  int result_fd = 3;          // the fd the runner opens for the child's result
};

// The variables to add to the child's environment, as KEY=VALUE: TARE_CHILD, TARE_PROTOCOL,
// TARE_MODE, TARE_INSTRUMENT, TARE_RESULT_FD, TARE_BENCH, TARE_ITERS / TARE_CALIBRATE_NS, and
// LD_BIND_NOW=1 (resolve symbols at load, so no lazy binding lands in a window). Under mem the
// runner adds LD_PRELOAD=<shim> itself (AllocShimCandidates); under sim it runs the child under
// valgrind itself. Fails for requests the protocol cannot express.
StatusOr<std::vector<std::string>> ChildEnv(const Request& request);

struct ListedBenchmark {
  std::string name;    // "sort/1024": what TARE_BENCH takes
  std::string family;  // "sort"
  std::vector<int64_t> args;
  bool records_latency = false;
};

struct Calibration {
  std::string bench;
  uint64_t iters = 0;
  uint64_t window_ns = 0;
  bool capped = false;  // the iteration cap was reached before the target time
};

struct AllocFigures {
  uint64_t allocs = 0;
  uint64_t frees = 0;
  uint64_t bytes_allocated = 0;
  uint64_t peak_live_bytes = 0;
};

struct Latency {
  uint64_t p50_ns = 0, p95_ns = 0, p99_ns = 0, max_ns = 0;
};

struct Measurement {
  std::string bench;
  uint64_t iters = 0;
  uint64_t wall_ns = 0;  // totals over the window
  uint64_t cpu_ns = 0;
  std::map<std::string, double> counters;  // totals over the window
  std::map<std::string, double> gauges;    // as reported
  std::optional<Latency> latency;          // per iteration, when the benchmark records it
  std::optional<AllocFigures> alloc;       // mem instrument
};

// The non-empty lines of what the child wrote (one per benchmark; one for list).
std::vector<std::string_view> ResultLines(std::string_view text);

StatusOr<std::vector<ListedBenchmark>> ParseList(std::string_view line);
// `bench` is the name that was requested; the line must be for it.
StatusOr<Calibration> ParseCalibration(std::string_view line, std::string_view bench);
StatusOr<Measurement> ParseMeasurement(std::string_view line, std::string_view bench);

struct Metric {
  std::string name;
  double value = 0;
  std::string unit;  // "ns", "count", "bytes"
};

// Per-iteration metrics of one measurement (docs/protocol.md, "Metrics"):
//   bench.wall_ns, bench.cpu_ns                 window totals / iters
//   bench.<counter>                             counter total / iters (bytes_processed in bytes)
//   bench.<gauge>                               as reported
//   bench.latency_{p50,p95,p99,max}_ns          per-iteration latency quantiles
//   mem.allocs, mem.frees, mem.bytes_allocated  window totals / iters
//   mem.peak_live_bytes                         for the window (a peak does not divide)
// A counter or gauge whose name collides with a built-in one is reported as bench.user.<name>.
std::vector<Metric> PerIterationMetrics(const Measurement& m);

// The whole-process figures in a TARE_ALLOC_OUT file (one JSON line per process that loaded the
// shim) for the process `pid` — the one the runner spawned.
StatusOr<AllocFigures> ParseAllocOut(std::string_view file_text, int64_t pid);

// Where the runner should look for libtare_alloc.so, in order: $TARE_ALLOC_SHIM (pass its value,
// "" when unset), then next to the tare executable in an install (<exe_dir>/../lib/tare/) and in a
// build tree (<exe_dir>/src/lib/).
std::vector<std::string> AllocShimCandidates(std::string_view env_value, std::string_view exe_dir);

}  // namespace tare::protocol
