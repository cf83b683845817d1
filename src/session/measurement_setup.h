// The one measurement set-up of `tare run` and `tare ab`: what an instrument needs before the
// first sample (valgrind for sim, and which newer Google Benchmark flags the binary accepts; the
// allocation shim for mem), and the iteration count tare binaries run.
#pragma once

#include <cstdint>
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

// Fills what `options->instrument` needs: valgrind's path and, for a Google Benchmark `probe`
// target under sim, its flag support (asked with --help); the shim's path under mem. A missing
// tool is FailedPrecondition naming what to install.
Status PrepareInstrument(proc::Spawner& spawner, const target::TargetSpec& probe,
                         target::MeasureOptions* options);

// tare binaries: one iteration count per benchmark, fixed before the first sample and run by every
// sample (and every arm): `fixed_iterations` when > 0, else calibrated on `target` for
// kCalibrationWindowNs (a fixed count under sim). No-op for other kinds.
Status FixIterations(proc::Spawner& spawner, const target::TargetSpec& target,
                     const target::MeasureOptions& options, uint64_t fixed_iterations,
                     target::Benchmark* bench);

}  // namespace tare::session
