// RunContext: one sample of one benchmark instance — the measurement window and what it read.
//
// The window is the benchmark's loop. Opening it (in this order): allocation-shim window begin
// (mem), CPU clock, wall clock, then CALLGRIND_ZERO_STATS + CALLGRIND_START_INSTRUMENTATION (sim);
// closing it runs the mirror image, CALLGRIND_STOP_INSTRUMENTATION + CALLGRIND_DUMP_STATS_AT(name)
// first. Each instrument's own machinery thus sits outside what it measures, and everything
// before and after the loop (setup, teardown, hooks, result formatting) is outside the window under
// every instrument. Nothing in the window allocates on the library's behalf: the latency buffer is
// sized before it opens.
//
// Ownership: created on the stack by RunSample for one call of the benchmark function.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/alloc_window.h"
#include "lib/registry.h"

namespace tare::internal {

enum class Instrument { kWall, kSim, kMem };

// Per-iteration latency is kept raw (exact quantiles); this bounds its buffer to 32 MiB.
inline constexpr uint64_t kMaxLatencyIterations = uint64_t{1} << 22;

struct LatencyFigures {
  uint64_t p50_ns = 0, p95_ns = 0, p99_ns = 0, max_ns = 0;
};

struct SampleReadings {
  std::string error;  // empty when the sample succeeded
  uint64_t iters = 0;
  uint64_t wall_ns = 0;  // totals over the window, paused time excluded
  uint64_t cpu_ns = 0;
  std::map<std::string, double> counters;  // totals over the window
  std::map<std::string, double> gauges;    // as reported
  std::optional<LatencyFigures> latency;
  std::optional<tare_alloc_stats> alloc;
};

class RunContext {
 public:
  // `shim` is required for Instrument::kMem and ignored otherwise.
  RunContext(const Instance& instance, uint64_t iters, Instrument instrument, const AllocShim* shim);

  // Loop protocol (called through tare::State).
  uint64_t OpenWindow();  // returns the iterations to run; 0 after an error
  void CloseWindow();
  void MarkIteration();
  bool KeepRunning();
  // The range-for loop (tare::State::Iterator): iterations in chunks, all at once, or one at a
  // time when per-iteration latency is recorded (each chunk's end marks one). 0 = window closed.
  uint64_t EnterLoop();
  uint64_t NextChunk();
  bool records_latency() const { return record_latency_; }

  void Pause();
  void Resume();
  void SetCounter(std::string_view name, double total);
  void AddCounter(std::string_view name, double total);
  void SetGauge(std::string_view name, double value);
  void SkipWithError(std::string_view message);
  bool error_occurred() const { return !error_.empty(); }

  const Instance& instance() const { return instance_; }
  uint64_t iters() const { return iters_; }

  // After the benchmark function returned or threw: closes a window left open and turns the
  // sample into readings (or an error).
  SampleReadings Finish();
  // Records an error that ended the sample from outside (an exception), closing the window.
  void Abort(const std::string& message);

 private:
  enum class WindowState { kNotOpened, kOpen, kClosed };
  void SetError(std::string message);
  void CloseInstruments();

  const Instance& instance_;
  const uint64_t iters_;
  const Instrument instrument_;
  const AllocShim* const shim_;
  const bool record_latency_;

  WindowState window_ = WindowState::kNotOpened;
  bool paused_ = false;
  uint64_t keep_running_left_ = 0;
  std::string error_;

  uint64_t wall_start_ns_ = 0, cpu_start_ns_ = 0;
  uint64_t wall_ns_ = 0, cpu_ns_ = 0;
  uint64_t paused_wall_ns_ = 0, paused_cpu_ns_ = 0;
  uint64_t pause_wall_start_ns_ = 0, pause_cpu_start_ns_ = 0;
  tare_alloc_stats pause_alloc_start_{};
  tare_alloc_stats paused_alloc_{};
  tare_alloc_stats alloc_{};

  std::vector<uint64_t> latency_ns_;
  uint64_t loop_left_ = 0;  // range-for iterations not yet handed out in a chunk
  uint64_t latency_count_ = 0;
  uint64_t last_mark_ns_ = 0;
  uint64_t paused_at_last_mark_ns_ = 0;

  std::map<std::string, double> counters_;
  std::map<std::string, double> gauges_;
};

// Runs one sample: setup hook, benchmark function (its own setup, the window, its teardown),
// teardown hook. Exceptions become the sample's error.
SampleReadings RunSample(const Instance& instance, uint64_t iters, Instrument instrument, const AllocShim* shim);

// Nearest-rank quantile of sorted values (rank ceil(q * n), 1-based); 0 for no values.
uint64_t NearestRank(const std::vector<uint64_t>& sorted, double q);

}  // namespace tare::internal
