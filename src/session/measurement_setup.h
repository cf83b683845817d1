// The one measurement set-up of `tare run` and `tare ab`: what an instrument needs before the
// first sample (valgrind for sim; the allocation shim for mem; which newer flags a Google Benchmark
// binary accepts), and the work each sample does: the iteration count tare binaries run, and the
// length (or, where the binary accepts one, the iteration count) of a Google Benchmark sample.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/target.h"
#include "proc/spawner.h"
#include "target/measure.h"

namespace tare::session {

// tare binaries are calibrated so one sample's window lasts at least this long: long enough that
// the clock's resolution and the window's fixed cost are well under 0.1% of it, short enough that
// a suite of hundreds of benchmarks samples in minutes.
inline constexpr uint64_t kCalibrationWindowNs = 20'000'000;

// Google Benchmark binaries: the work of one sample when nobody chose it. Left alone, Google
// Benchmark runs every benchmark for its own minimum time, 0.5 s in 1.7.1, plus its estimation
// runs, in every process: a 3-cell A/B took 263 s. tare passes --benchmark_min_time=0.02 instead,
// the same 20 ms tare binaries are calibrated to. Google Benchmark 1.7.1 grows its count until one
// run lasts that long, so the benchmark runs 1.5-2.5x the minimum; with the process start a sample
// of examples/gbench_knob took about 50 ms (24 ms at 5 ms, 157 ms at 50 ms), against about 1 s at
// Google Benchmark's own length. Measured on the development VM; docs/measurement.md, "The length
// of a sample", has the table and the spreads behind the choice.
inline constexpr int64_t kGbenchMinTimeNs = 20'000'000;
// What --gbench-min-time accepts.
inline constexpr int64_t kMinGbenchMinTimeNs = 1'000'000;       // 1 ms
inline constexpr int64_t kMaxGbenchMinTimeNs = 60'000'000'000;  // 60 s

// Fills what `options->instrument` needs: valgrind's path under sim; the shim's path under mem;
// for a Google Benchmark `probe` target, its flag support (asked with --help). A missing tool is
// FailedPrecondition naming what to install.
Status PrepareInstrument(proc::Spawner& spawner, const target::TargetSpec& probe, target::MeasureOptions* options);

// tare binaries: one iteration count per benchmark, fixed before the first sample and run by every
// sample (and every arm): `fixed_iterations` when > 0, else calibrated on `target` for
// kCalibrationWindowNs (a fixed count under sim). No-op for other kinds.
Status FixIterations(proc::Spawner& spawner, const target::TargetSpec& target, const target::MeasureOptions& options,
                     uint64_t fixed_iterations, target::Benchmark* bench);

// Google Benchmark binaries, not under sim (which runs one exactly-counted run, docs/sim.md): fixes
// the work of every sample of `bench` before the first one, in bench->iterations or
// bench->gbench_min_time_ns:
//   - the target's own --benchmark_min_time (or BENCHMARK_MIN_TIME) is left to stand: nothing is set;
//   - `min_time_ns` > 0 (--gbench-min-time): that minimum time, as asked;
//   - otherwise, when the binary accepts --benchmark_min_time=<N>x (options.gbench_flags, 1.8 and
//     later): one run on `target` at kGbenchMinTimeNs, and the count Google Benchmark chose there
//     is fixed — every sample then times exactly that work;
//   - otherwise (1.7.1 has no way to fix a count): kGbenchMinTimeNs as the minimum time.
// No-op for other kinds. An error when the calibration run fails.
Status FixGbenchWork(proc::Spawner& spawner, const target::TargetSpec& target, const target::MeasureOptions& options,
                     int64_t min_time_ns, target::Benchmark* bench);

// The flag that fixes a Google Benchmark sample's work after FixGbenchWork:
// "--benchmark_min_time=0.02", "--benchmark_min_time=1200x", or "" when tare adds none.
std::string GbenchWorkArg(const target::Benchmark& bench);

// `tare run`'s note on a Google Benchmark target's samples, e.g. "Google Benchmark: every sample
// ran with --benchmark_min_time=0.02 (20 ms, tare's default; ...)". `source`: "default",
// "--gbench-min-time" or "arguments" (the binary's own).
std::string GbenchWorkNote(const std::vector<target::Benchmark>& benches, const std::string& source);

}  // namespace tare::session
