#include "session/measurement_setup.h"

#include "instrument/sim.h"

namespace tare::session {

Status PrepareInstrument(proc::Spawner& spawner, const target::TargetSpec& probe,
                         target::MeasureOptions* options) {
  if (options->instrument == Instrument::kSim) {
    TARE_ASSIGN_OR_RETURN(options->valgrind, instrument::FindValgrind());
    if (probe.kind == TargetKind::kGbench) {
      auto flags = target::ProbeGbenchFlags(spawner, probe, *options);
      if (!flags.ok()) return flags.status().WithContext("asking the benchmark for --help");
      options->gbench_flags = *flags;
    }
  } else if (options->instrument == Instrument::kMem) {
    TARE_ASSIGN_OR_RETURN(options->alloc_shim, target::FindAllocShim());
  }
  return Status::Ok();
}

Status FixIterations(proc::Spawner& spawner, const target::TargetSpec& target,
                     const target::MeasureOptions& options, uint64_t fixed_iterations,
                     target::Benchmark* bench) {
  if (target.kind != TargetKind::kTare) return Status::Ok();
  if (fixed_iterations > 0) {
    bench->iterations = fixed_iterations;
    return Status::Ok();
  }
  return target::Calibrate(spawner, target, options, kCalibrationWindowNs, bench);
}

}  // namespace tare::session
