// The seams of a measurement session: how one sample is taken (Measurer) and what time it is
// (Clock). The real ones spawn fresh processes through proc::Spawner and read the system clock;
// tests give the session scripted ones, so the run loop is tested in-process as well as end to
// end (as leveldb's Env, ninja's FakeCommandRunner, hyperfine's MockExecutor).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/sample.h"
#include "proc/spawner.h"
#include "target/measure.h"

namespace tare::session {

// One sample and what it left besides its values.
struct Measured {
  Sample sample;
  std::vector<std::string> unavailable;  // one-line reasons for metrics the host cannot give
  target::MeasureExtras extras;          // raw profiles and the target's warnings
};

class Measurer {
 public:
  virtual ~Measurer() = default;
  // One fresh process for one benchmark. A failed child is a failed Sample; an error means tare
  // could not do its job (the spawn helper died).
  virtual StatusOr<Measured> Measure(const target::TargetSpec& target, const target::Benchmark& bench) = 0;
  // tare binaries only: every benchmark of `benches` in one process (`tare run --no-isolation`).
  virtual StatusOr<std::vector<Measured>> MeasureTogether(const target::TargetSpec& target,
                                                          const std::vector<target::Benchmark>& benches) = 0;
  // Whether the user asked to stop (Ctrl-C); checked between samples.
  virtual bool Interrupted() const = 0;
};

// The real one: target::MeasureOnce through the spawn helper; Ctrl-C from proc::Interrupted.
class SpawnerMeasurer final : public Measurer {
 public:
  SpawnerMeasurer(proc::Spawner& spawner, target::MeasureOptions options)
      : spawner_(spawner), options_(std::move(options)) {}
  StatusOr<Measured> Measure(const target::TargetSpec& target, const target::Benchmark& bench) override;
  StatusOr<std::vector<Measured>> MeasureTogether(const target::TargetSpec& target,
                                                  const std::vector<target::Benchmark>& benches) override;
  bool Interrupted() const override;

 private:
  proc::Spawner& spawner_;
  target::MeasureOptions options_;
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t UnixNowNs() const = 0;  // since the epoch
};

// The system's real-time clock.
const Clock& SystemClock();

}  // namespace tare::session
