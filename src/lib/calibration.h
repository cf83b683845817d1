// Calibration: the iteration count whose window lasts at least a target time. Used by the child
// protocol's calibrate mode (the runner calibrates once, then fixes the count for every sample of
// every arm) and by the standalone main.
#pragma once

#include <cstdint>
#include <string>

#include "lib/run_context.h"

namespace tare::internal {

// A window of 2^30 iterations of an empty loop already takes ~0.3 s; past it the benchmark is
// measuring nothing, and a calibration must end.
inline constexpr uint64_t kMaxCalibratedIterations = uint64_t{1} << 30;

struct Calibration {
  std::string error;
  uint64_t iters = 0;
  uint64_t window_ns = 0;  // wall time of the window at `iters`
  bool capped = false;     // stopped at the cap before reaching the target
};

// Runs whole samples (setup, window, teardown) at 1, 2, 4, … iterations — jumping ahead by at
// most 16x when a window is far below the target, always to a power of two — until a window
// lasts >= target_ns or the cap (kMaxCalibratedIterations, or kMaxLatencyIterations for
// benchmarks that record latency) is reached.
Calibration Calibrate(const Instance& instance, uint64_t target_ns, Instrument instrument, const AllocShim* shim);

}  // namespace tare::internal
