#include "lib/calibration.h"

#include <algorithm>

namespace tare::internal {
namespace {

uint64_t PowerOfTwoAtLeast(uint64_t n) {
  uint64_t p = 1;
  while (p < n && p < (uint64_t{1} << 62)) p <<= 1;
  return p;
}

}  // namespace

Calibration Calibrate(const Instance& instance, uint64_t target_ns, Instrument instrument, const AllocShim* shim) {
  uint64_t cap = kMaxCalibratedIterations;
  if (instance.family->records_latency() && instrument != Instrument::kSim) {
    cap = std::min(cap, kMaxLatencyIterations);
  }
  Calibration c;
  uint64_t iters = 1;
  while (true) {
    SampleReadings r = RunSample(instance, iters, instrument, shim);
    if (!r.error.empty()) {
      c.error = r.error;
      return c;
    }
    c.iters = iters;
    c.window_ns = r.wall_ns;
    if (r.wall_ns >= target_ns) return c;
    if (iters >= cap) {
      c.capped = true;
      return c;
    }
    // Estimate the count that reaches the target; never less than double, never more than 16x
    // (a first window can be dominated by cold caches and page faults).
    const double scale = double(target_ns) / double(std::max<uint64_t>(r.wall_ns, 1));
    const double wanted = std::clamp(double(iters) * scale, double(iters) * 2, double(iters) * 16);
    iters = std::min(cap, PowerOfTwoAtLeast(uint64_t(wanted)));
  }
}

}  // namespace tare::internal
