#include "target/measure.h"

#include <fmt/format.h>

#include <filesystem>

#include "base/files.h"
#include "instrument/process_metrics.h"
#include "target/gbench.h"

namespace tare::target {
namespace {

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += ' ';
    out += p;
  }
  return out;
}

proc::SpawnRequest BaseRequest(const TargetSpec& t, const MeasureOptions& o) {
  proc::SpawnRequest req;
  req.argv = t.argv;
  req.env = t.env;
  req.cwd = t.cwd;
  req.stdout_path = o.workdir + "/stdout";
  req.stderr_path = o.workdir + "/stderr";
  req.timeout_ns = o.timeout_ns;
  return req;
}

// Fills the outcome fields of a sample from the process result.
void RecordOutcome(const proc::SpawnResult& r, const MeasureOptions& o, Sample* s) {
  s->started_unix_ns = r.start_unix_ns;
  s->ended_unix_ns = r.end_unix_ns;
  s->exit_code = r.exit_code;
  s->signal = r.term_signal;
  s->stdout_tail = ReadTail(o.workdir + "/stdout", o.tail_bytes);
  s->stderr_tail = ReadTail(o.workdir + "/stderr", o.tail_bytes);
  if (!r.started) {
    s->outcome = SampleOutcome::kSpawnError;
  } else if (r.interrupted) {
    s->outcome = SampleOutcome::kInterrupted;
  } else if (r.timed_out) {
    s->outcome = SampleOutcome::kTimedOut;
  } else if (r.term_signal != 0) {
    s->outcome = SampleOutcome::kSignaled;
  } else if (r.exit_code != 0) {
    s->outcome = SampleOutcome::kFailed;
  } else {
    s->outcome = SampleOutcome::kOk;
  }
  if (s->outcome != SampleOutcome::kOk) s->error = r.Describe();
}

}  // namespace

StatusOr<std::vector<Benchmark>> ListBenchmarks(proc::Spawner& spawner, const TargetSpec& target,
                                                const MeasureOptions& options) {
  if (target.kind == TargetKind::kCommand) {
    return std::vector<Benchmark>{{Join(target.argv), target.name + "::" + Join(target.argv)}};
  }
  if (target.kind == TargetKind::kTare) {
    return Status::Unavailable(fmt::format(
        "'{}' is a tare benchmark binary, which this build cannot drive yet; run it with "
        "--kind command to measure it as a whole process", target.argv[0]));
  }
  proc::SpawnRequest req = BaseRequest(target, options);
  req.argv.push_back("--benchmark_list_tests=true");
  req.timeout_ns = 60'000'000'000;
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner.Run(req));
  if (!r.ok()) {
    return Status::FailedPrecondition(fmt::format(
        "listing the benchmarks of '{}' with --benchmark_list_tests failed ({}); stderr: {}",
        target.argv[0], r.Describe(), ReadTail(req.stderr_path, 400)));
  }
  TARE_ASSIGN_OR_RETURN(std::string text, ReadFile(req.stdout_path));
  std::vector<Benchmark> out;
  for (const auto& name : ParseGbenchList(text)) out.push_back({name, target.name + "::" + name});
  if (out.empty()) {
    return Status::FailedPrecondition(fmt::format(
        "'{}' lists no benchmarks (--benchmark_list_tests printed nothing)", target.argv[0]));
  }
  return out;
}

StatusOr<Sample> MeasureOnce(proc::Spawner& spawner, const TargetSpec& target, const Benchmark& bench,
                             const MeasureOptions& options, std::vector<std::string>* unavailable) {
  proc::SpawnRequest req = BaseRequest(target, options);
  req.perf_events = options.perf_events;
  std::string json_path = options.workdir + "/gbench.json";
  if (target.kind == TargetKind::kGbench) {
    std::filesystem::remove(json_path);
    for (auto& a : GbenchSampleArgs(bench.name, json_path)) req.argv.push_back(a);
  } else if (target.kind == TargetKind::kTare) {
    return Status::Unavailable("tare benchmark binaries are not supported by this build yet");
  }
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner.Run(req));
  Sample s;
  RecordOutcome(r, options, &s);
  if (r.started) instrument::AddProcessMetrics(r, &s.values, unavailable);
  if (target.kind == TargetKind::kGbench && s.ok()) {
    auto text = ReadFile(json_path);
    StatusOr<GbenchReading> reading =
        text.ok() ? ParseGbenchJson(*text, bench.name)
                  : StatusOr<GbenchReading>(Status::DataLoss(fmt::format(
                        "benchmark '{}' wrote no JSON output to {}", bench.name, json_path)));
    if (!reading.ok()) {
      s.outcome = SampleOutcome::kFailed;
      s.error = reading.status().message();
    } else if (reading->error) {
      s.outcome = SampleOutcome::kFailed;
      s.error = fmt::format("benchmark '{}' reported an error: {}", bench.name, reading->error_message);
    } else {
      s.values["gb.real_time_ns"] = reading->real_time_ns;
      s.values["gb.cpu_time_ns"] = reading->cpu_time_ns;
      s.values["gb.iterations"] = reading->iterations;
      for (const auto& [k, v] : reading->counters) s.values["gb.counter." + k] = v;
    }
  }
  return s;
}

}  // namespace tare::target
