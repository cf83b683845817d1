#include "session/measurement_setup.h"

#include <fmt/format.h>

#include <cmath>

#include "base/units.h"
#include "instrument/sim.h"
#include "model/metric_names.h"
#include "target/gbench.h"
#include "target/preload.h"

namespace tare::session {

Status PrepareInstrument(proc::Spawner& spawner, const target::TargetSpec& probe, target::MeasureOptions* options) {
  if (options->instrument == Instrument::kSim) {
    TARE_ASSIGN_OR_RETURN(options->valgrind, instrument::FindValgrind());
  } else if (options->instrument == Instrument::kMem) {
    TARE_ASSIGN_OR_RETURN(options->alloc_shim, target::FindAllocShim());
  }
  // Under sim: whether one run can be given a count and a warm-up; otherwise whether a sample's
  // work can be fixed as a count (FixGbenchWork).
  if (probe.kind == TargetKind::kGbench) {
    auto flags = target::ProbeGbenchFlags(spawner, probe, *options);
    if (!flags.ok()) return flags.status().WithContext("asking the benchmark for --help");
    options->gbench_flags = *flags;
  }
  return Status::Ok();
}

Status FixIterations(proc::Spawner& spawner, const target::TargetSpec& target, const target::MeasureOptions& options,
                     uint64_t fixed_iterations, target::Benchmark* bench) {
  if (target.kind != TargetKind::kTare) return Status::Ok();
  if (fixed_iterations > 0) {
    bench->iterations = fixed_iterations;
    return Status::Ok();
  }
  return target::Calibrate(spawner, target, options, kCalibrationWindowNs, bench);
}

Status FixGbenchWork(proc::Spawner& spawner, const target::TargetSpec& target, const target::MeasureOptions& options,
                     int64_t min_time_ns, target::Benchmark* bench) {
  if (target.kind != TargetKind::kGbench || options.instrument == Instrument::kSim) return Status::Ok();
  bench->iterations = 0;
  bench->gbench_min_time_ns = 0;
  if (target::GbenchMinTimeGiven(target.argv, target.env)) return Status::Ok();
  if (min_time_ns > 0 || !options.gbench_flags.iteration_suffix) {
    bench->gbench_min_time_ns = min_time_ns > 0 ? min_time_ns : kGbenchMinTimeNs;
    return Status::Ok();
  }
  // A count: the one Google Benchmark itself settles on for the default length, once, here.
  target::Benchmark probe = *bench;
  probe.gbench_min_time_ns = kGbenchMinTimeNs;
  std::vector<std::string> unavailable;
  TARE_ASSIGN_OR_RETURN(Sample s, target::MeasureOnce(spawner, target, probe, options, &unavailable));
  auto it = s.values.find(metric_name::kGbIterations);
  if (!s.ok() || it == s.values.end() || !(it->second >= 1) || !std::isfinite(it->second)) {
    return Status::FailedPrecondition(
        fmt::format("benchmark '{}': the run that fixes its iteration count failed ({}); run the binary with "
                    "--benchmark_filter to see why, or set the length yourself with --benchmark_min_time=<seconds>",
                    bench->name, s.ok() ? "no iteration count in its output" : s.error));
  }
  bench->iterations = static_cast<uint64_t>(std::llround(it->second));
  return Status::Ok();
}

std::string GbenchWorkArg(const target::Benchmark& bench) {
  if (bench.iterations > 0) return target::GbenchIterationsArg(bench.iterations);
  if (bench.gbench_min_time_ns > 0) return target::GbenchMinTimeArg(bench.gbench_min_time_ns);
  return "";
}

std::string GbenchWorkNote(const std::vector<target::Benchmark>& benches, const std::string& source) {
  if (source == "arguments") {
    return "Google Benchmark: every sample ran for the length the binary's own --benchmark_min_time (or "
           "BENCHMARK_MIN_TIME) sets; tare added none";
  }
  std::string counts;
  size_t shown = 0;
  int64_t min_time_ns = 0;
  for (const auto& b : benches) {
    if (b.gbench_min_time_ns > 0) min_time_ns = b.gbench_min_time_ns;
    if (b.iterations == 0) continue;
    if (shown++ < 10) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", b.name, b.iterations);
  }
  if (shown > 10) counts += fmt::format(", ... ({} in all)", shown);
  if (!counts.empty()) {
    return fmt::format(
        "Google Benchmark: iteration counts fixed per benchmark with --benchmark_min_time=<N>x, each the "
        "count Google Benchmark chose in one run of {} ({}); --gbench-min-time, or --benchmark_min_time "
        "after the binary, sets a length instead",
        FormatDurationNs(static_cast<double>(kGbenchMinTimeNs)), counts);
  }
  if (source == "default") {
    return fmt::format(
        "Google Benchmark: every sample ran with --benchmark_min_time={:g} ({}, tare's default; "
        "--gbench-min-time, or --benchmark_min_time=SECONDS after the binary, sets another). This build "
        "cannot be given an iteration count (--benchmark_min_time=<N>x needs Google Benchmark 1.8), so "
        "it picks its own within that time in every process",
        static_cast<double>(min_time_ns) / 1e9, FormatDurationNs(static_cast<double>(min_time_ns)));
  }
  return fmt::format(
      "Google Benchmark: every sample ran with --benchmark_min_time={:g} ({}, --gbench-min-time); Google "
      "Benchmark picks the iteration count within that time in every process",
      static_cast<double>(min_time_ns) / 1e9, FormatDurationNs(static_cast<double>(min_time_ns)));
}

}  // namespace tare::session
