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
  // Measure, and do `while_running` (the session's store write of the sample before) while the
  // process runs, where that cannot take the process's CPU; this default does it first, then
  // measures. Its error is returned (the sample measured meanwhile is dropped).
  virtual StatusOr<Measured> MeasureWhile(const target::TargetSpec& target, const target::Benchmark& bench,
                                          const proc::WhileRunning& while_running) {
    if (while_running) TARE_RETURN_IF_ERROR(while_running());
    return Measure(target, bench);
  }
  // tare binaries only: every benchmark of `benches` in one process (`tare run --no-isolation`).
  virtual StatusOr<std::vector<Measured>> MeasureTogether(const target::TargetSpec& target,
                                                          const std::vector<target::Benchmark>& benches) = 0;
  // Whether the user asked to stop (Ctrl-C); checked between samples.
  virtual bool Interrupted() const = 0;
};

// The real one: target::MeasureOnce through the spawn helper; Ctrl-C from proc::Interrupted.
// MeasureWhile overlaps the store write with the process when tare may use two CPUs or more
// (proc::CpusAvailable); on one it writes first. $TARE_OVERLAP_STORE=0 writes first everywhere
// (bench/overhead.sh compares the two).
class SpawnerMeasurer final : public Measurer {
 public:
  SpawnerMeasurer(proc::Spawner& spawner, target::MeasureOptions options);
  StatusOr<Measured> Measure(const target::TargetSpec& target, const target::Benchmark& bench) override;
  StatusOr<Measured> MeasureWhile(const target::TargetSpec& target, const target::Benchmark& bench,
                                  const proc::WhileRunning& while_running) override;
  StatusOr<std::vector<Measured>> MeasureTogether(const target::TargetSpec& target,
                                                  const std::vector<target::Benchmark>& benches) override;
  bool Interrupted() const override;

 private:
  proc::Spawner& spawner_;
  target::MeasureOptions options_;
  bool overlap_;
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t UnixNowNs() const = 0;  // since the epoch
};

// The system's real-time clock.
const Clock& SystemClock();

}  // namespace tare::session
