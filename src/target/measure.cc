#include "target/measure.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>

#include <filesystem>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/files.h"
#include "base/json_read.h"
#include "base/terminal_text.h"
#include "instrument/process_metrics.h"
#include "model/metric_names.h"
#include "target/gbench.h"
#include "target/preload.h"
#include "target/self_metrics.h"
#include "target/tare_protocol.h"

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
  // The helper reports how much the child wrote; most benchmarks print nothing, and then there is
  // no file to open (bytes -1 = not reported: read it).
  if (r.stdout_bytes != 0) s->stdout_tail = ReadTail(o.workdir + "/stdout", o.tail_bytes);
  if (r.stderr_bytes != 0) s->stderr_tail = ReadTail(o.workdir + "/stderr", o.tail_bytes);
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

protocol::Instrument ProtocolInstrument(Instrument i) {
  switch (i) {
    case Instrument::kSim:
      return protocol::Instrument::kSim;
    case Instrument::kMem:
      return protocol::Instrument::kMem;
    case Instrument::kWall:
      break;
  }
  return protocol::Instrument::kWall;
}

// Runs a tare binary for a list or calibrate request and returns its one result line.
StatusOr<std::string> RunProtocol(proc::Spawner& spawner, const TargetSpec& target, const MeasureOptions& options,
                                  const protocol::Request& request) {
  proc::SpawnRequest req = BaseRequest(target, options);
  TARE_ASSIGN_OR_RETURN(auto env, protocol::ChildEnv(request));
  for (auto& kv : env) req.env.push_back(kv);
  req.result_fd = request.result_fd;
  req.result_path = options.workdir + "/result";
  if (req.timeout_ns == 0) req.timeout_ns = 600'000'000'000;
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner.Run(req));
  std::string text = ReadFile(req.result_path).ok() ? *ReadFile(req.result_path) : "";
  auto lines = protocol::ResultLines(text);
  if (!r.ok() && lines.empty()) {
    return Status::FailedPrecondition(fmt::format("'{}' failed to answer a {} request ({}); stderr: {}", target.argv[0],
                                                  protocol::ModeName(request.mode), r.Describe(),
                                                  ReadTail(req.stderr_path, 400)));
  }
  if (lines.empty()) {
    return Status::DataLoss(
        fmt::format("'{}' wrote no result for a {} request", target.argv[0], protocol::ModeName(request.mode)));
  }
  return std::string(lines.front());
}

// Below this a window's CPU time per iteration is not work: an empty loop body. Both loops, Google
// Benchmark's and tare's (include/tare/state.hpp), are bare countdowns the compiler removes when
// the body is empty. Measured on the 2.1 GHz development VM at -O2: an empty body reads 1.3e-6 ns
// per iteration under Google Benchmark 1.7.1 and 6e-6 ns under tare, one `DoNotOptimize(x += 1)`
// 0.29-0.31 ns (real work, under a cycle because it pipelines). The line is drawn far from both,
// and far from what a loaded host adds: a hundredth of a nanosecond.
constexpr double kNoWorkNsPerIteration = 0.01;

void AddWallWarnings(const Sample& s, std::vector<std::string>* warnings) {
  // CPU time, not wall time: a preempted window must not hide (or fake) an empty loop. Google
  // Benchmark binaries report theirs per iteration as well (gb.cpu_time_ns).
  const bool gbench = !s.values.count(metric_name::kBenchCpuNs) && !s.values.count(metric_name::kBenchWallNs);
  auto it = s.values.find(gbench ? metric_name::kGbCpuTimeNs : metric_name::kBenchCpuNs);
  if (it == s.values.end()) it = s.values.find(gbench ? metric_name::kGbRealTimeNs : metric_name::kBenchWallNs);
  if (it != s.values.end() && it->second < kNoWorkNsPerIteration) {
    warnings->push_back(
        fmt::format("measured no work: {:.3g} ns per iteration is below {} ns; the loop body was likely optimised "
                    "away; use {} on its result",
                    it->second, kNoWorkNsPerIteration, gbench ? "benchmark::DoNotOptimize" : "tare::do_not_optimize"));
  }
  // Syscall-heavy is judged on a whole run's medians: session::SampleRecorder::WriteRunWarnings.
}

// Runs `req` under valgrind callgrind instead: a fresh profile directory
// (<workdir>/callgrind), the valgrind argv and environment, ASLR off in the spawn helper.
instrument::SimOptions WrapForSim(TargetKind kind, const MeasureOptions& options, proc::SpawnRequest* req) {
  instrument::SimOptions sim;
  sim.target = kind == TargetKind::kGbench ? instrument::SimTarget::kGoogleBenchmark
               : kind == TargetKind::kTare ? instrument::SimTarget::kTareBinary
                                           : instrument::SimTarget::kCommand;
  sim.valgrind = options.valgrind;
  sim.profile_dir = options.workdir + "/callgrind";
  std::filesystem::remove_all(sim.profile_dir);
  std::filesystem::create_directories(sim.profile_dir);
  req->argv = instrument::SimCommand(sim, req->argv);
  req->env = instrument::SimEnvironment(sim, req->env);
  req->disable_aslr = sim.disable_aslr;
  return sim;
}

}  // namespace

Status Calibrate(proc::Spawner& spawner, const TargetSpec& target, const MeasureOptions& options, uint64_t window_ns,
                 Benchmark* bench) {
  if (target.kind != TargetKind::kTare) return Status::Ok();
  if (options.instrument == Instrument::kSim) {
    bench->iterations = kSimIterations;
    return Status::Ok();
  }
  protocol::Request request;
  request.mode = protocol::Mode::kCalibrate;
  request.benches = {bench->name};
  request.calibrate_ns = window_ns;
  TARE_ASSIGN_OR_RETURN(std::string line, RunProtocol(spawner, target, options, request));
  TARE_ASSIGN_OR_RETURN(protocol::Calibration c, protocol::ParseCalibration(line, bench->name));
  bench->iterations = std::max<uint64_t>(c.iters, 1);
  return Status::Ok();
}

namespace {

// A benchmark name with a newline prints as two lines of --benchmark_list_tests: two phantom
// benchmarks that each fail, and the real one never measured (issue 27, item 12). The list cannot
// show where a name ends, so the binary is asked once more, for the names holding a newline only;
// any is refused by name, with the fix. Skipped when the target's own arguments set a filter
// (a second filter would replace the user's).
Status RefuseNamesWithNewlines(proc::Spawner& spawner, const TargetSpec& target, const MeasureOptions& options) {
  for (size_t i = 1; i < target.argv.size(); ++i) {
    if (target.argv[i].rfind("--benchmark_filter", 0) == 0) return Status::Ok();
  }
  proc::SpawnRequest req = BaseRequest(target, options);
  req.argv.push_back("--benchmark_list_tests=true");
  req.argv.push_back(GbenchNewlineFilterArg());
  req.timeout_ns = 60'000'000'000;
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner.Run(req));
  if (!r.ok()) return Status::Ok();  // a binary whose regex cannot take it: nothing more is known
  auto text = ReadFile(req.stdout_path);
  if (!text.ok() || text->find_first_not_of(" \r\n") == std::string::npos) return Status::Ok();
  while (!text->empty() && text->back() == '\n') text->pop_back();
  return Status::FailedPrecondition(
      fmt::format("'{}' has benchmark names holding a newline ('{}'), which --benchmark_list_tests prints as "
                  "several names and no filter can select; rename them (->Name(...) without a newline), or leave "
                  "them out with --benchmark_filter=... after the target",
                  target.argv[0], SingleLineText(*text)));
}

}  // namespace

StatusOr<std::vector<Benchmark>> ListBenchmarks(proc::Spawner& spawner, const TargetSpec& target,
                                                const MeasureOptions& options) {
  if (target.kind == TargetKind::kCommand) {
    return std::vector<Benchmark>{{Join(target.argv), target.name + "::" + Join(target.argv)}};
  }
  if (target.kind == TargetKind::kTare) {
    protocol::Request request;
    request.mode = protocol::Mode::kList;
    TARE_ASSIGN_OR_RETURN(std::string line, RunProtocol(spawner, target, options, request));
    TARE_ASSIGN_OR_RETURN(auto listed, protocol::ParseList(line));
    std::vector<Benchmark> out;
    for (const auto& b : listed) out.push_back({b.name, target.name + "::" + b.name});
    if (out.empty()) {
      return Status::FailedPrecondition(fmt::format("'{}' registers no benchmarks", target.argv[0]));
    }
    return out;
  }
  proc::SpawnRequest req = BaseRequest(target, options);
  req.argv.push_back("--benchmark_list_tests=true");
  req.timeout_ns = 60'000'000'000;
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner.Run(req));
  if (!r.ok()) {
    return Status::FailedPrecondition(
        fmt::format("listing the benchmarks of '{}' with --benchmark_list_tests failed ({}); stderr: {}",
                    target.argv[0], r.Describe(), ReadTail(req.stderr_path, 400)));
  }
  TARE_ASSIGN_OR_RETURN(std::string text, ReadFile(req.stdout_path));
  std::vector<Benchmark> out;
  for (const auto& name : ParseGbenchList(text)) out.push_back({name, target.name + "::" + name});
  if (out.empty()) {
    return Status::FailedPrecondition(
        fmt::format("'{}' lists no benchmarks (--benchmark_list_tests printed nothing)", target.argv[0]));
  }
  TARE_RETURN_IF_ERROR(RefuseNamesWithNewlines(spawner, target, options));
  return out;
}

StatusOr<instrument::GbenchFlagSupport> ProbeGbenchFlags(proc::Spawner& spawner, const TargetSpec& target,
                                                         const MeasureOptions& options) {
  proc::SpawnRequest req = BaseRequest(target, options);
  req.argv = {target.argv[0], "--help"};
  req.timeout_ns = 60'000'000'000;
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner.Run(req));
  if (!r.started) return Status::FailedPrecondition(r.Describe());
  auto text = ReadFile(req.stdout_path);
  return instrument::DetectGbenchFlagSupport(text.ok() ? *text : "");
}

namespace {

// What the program reported about itself ($TARE_METRICS_FILE): its values into the sample, their
// definitions into `extras`. A file tare cannot read, or one without a metric the campaign judges,
// fails the sample with the reason: its figures are part of what is measured.
void AddSelfMetrics(const std::string& path, const std::vector<std::string>& required, Sample* s,
                    MeasureExtras* extras) {
  auto read = ReadSelfMetrics(path);
  if (!read.ok()) {
    s->outcome = SampleOutcome::kFailed;
    s->error = read.status().message();
    return;
  }
  std::string reported;
  if (*read) {
    for (const auto& m : **read) {
      s->values[m.name] = m.value;
      if (extras != nullptr) extras->reported.push_back(SelfMetricDef(m));
      reported += (reported.empty() ? "" : ", ") + m.name.substr(std::string_view(kAppPrefix).size());
    }
  }
  for (const auto& name : required) {
    if (s->values.count(name)) continue;
    s->outcome = SampleOutcome::kFailed;
    s->error =
        !*read ? fmt::format("{} is judged, but the program wrote nothing to $TARE_METRICS_FILE", name)
               : fmt::format("{} is judged, but the program's $TARE_METRICS_FILE has no \"{}\" (it has: {})", name,
                             name.substr(std::string_view(kAppPrefix).size()), reported.empty() ? "nothing" : reported);
    return;
  }
}

}  // namespace

StatusOr<Sample> MeasureOnce(proc::Spawner& spawner, const TargetSpec& target, const Benchmark& bench,
                             const MeasureOptions& options, std::vector<std::string>* unavailable,
                             MeasureExtras* extras) {
  proc::SpawnRequest req = BaseRequest(target, options);
  const bool sim = options.instrument == Instrument::kSim;
  const bool mem = options.instrument == Instrument::kMem;
  if (!sim) req.perf_events = options.perf_events;
  std::string json_path = options.workdir + "/gbench.json";
  // Where the program may report figures of its own (self_metrics.h); gone before every sample.
  const std::string metrics_path = options.workdir + "/metrics.json";
  std::error_code no_metrics_file;
  std::filesystem::remove(metrics_path, no_metrics_file);
  req.env.push_back(std::string(kMetricsFileEnv) + "=" + metrics_path);
  if (target.kind == TargetKind::kGbench) {
    std::filesystem::remove(json_path);
    for (auto& a : GbenchSampleArgs(bench.name, json_path)) req.argv.push_back(a);
    if (sim || mem) {
      // One exactly-timed run instead of Google Benchmark's calibration (docs/sim.md). Under mem too:
      // the shim counts the whole process, and a calibration's rounds follow the benchmark's speed,
      // so a faster head would allocate less in Google Benchmark's own bookkeeping (issue 42).
      for (auto& a : instrument::GoogleBenchmarkSimFlags(options.gbench_flags)) req.argv.push_back(a);
    } else if (bench.iterations > 0) {
      // Exactly that count (1.8+): the work per sample is fixed, not the time.
      req.argv.push_back(GbenchIterationsArg(bench.iterations));
    } else if (bench.gbench_min_time_ns > 0) {
      // Seconds as a plain number: 1.7 reads a double; 1.8+ also reads "<N>s" and still takes a bare number.
      req.argv.push_back(GbenchMinTimeArg(bench.gbench_min_time_ns));
    }
  } else if (target.kind == TargetKind::kTare) {
    if (bench.iterations == 0) {
      return Status::Internal(fmt::format("benchmark '{}' was not calibrated", bench.name));
    }
    protocol::Request request;
    request.mode = protocol::Mode::kMeasure;
    request.instrument = ProtocolInstrument(options.instrument);
    request.benches = {bench.name};
    request.iters = bench.iterations;
    TARE_ASSIGN_OR_RETURN(auto env, protocol::ChildEnv(request));
    for (auto& kv : env) req.env.push_back(kv);
    req.result_fd = request.result_fd;
    req.result_path = options.workdir + "/result";  // emptied by the helper for each request
  }
  instrument::SimOptions sim_options;
  const std::string profile_dir = options.workdir + "/callgrind";
  if (sim) sim_options = WrapForSim(target.kind, options, &req);
  std::string alloc_out = options.workdir + "/alloc.jsonl";
  if (mem) {
    AddPreload(&req.env, options.alloc_shim);
    // tare binaries report their own window's allocations; others are counted for the whole
    // process, which the shim writes at exit.
    if (target.kind != TargetKind::kTare) {
      std::filesystem::remove(alloc_out);
      req.env.push_back("TARE_ALLOC_OUT=" + alloc_out);
    }
  }
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner.Run(req));
  Sample s;
  RecordOutcome(r, options, &s);
  if (r.started && !sim) instrument::AddProcessMetrics(r, &s.values, unavailable);
  auto fail = [&](const std::string& why) {
    s.outcome = SampleOutcome::kFailed;
    s.error = why;
  };
  GbenchReading gb;
  int gb_threads = 1;
  if (target.kind == TargetKind::kGbench) s.stderr_tail = WithoutGbenchContext(s.stderr_tail);
  if (target.kind == TargetKind::kGbench && s.ok()) {
    auto text = ReadFile(json_path);
    StatusOr<GbenchReading> reading = text.ok()
                                          ? ParseGbenchJson(*text, bench.name)
                                          : StatusOr<GbenchReading>(Status::DataLoss(fmt::format(
                                                "benchmark '{}' wrote no JSON output to {}", bench.name, json_path)));
    if (!reading.ok()) {
      fail(reading.status().message());
    } else if (reading->error) {
      fail(fmt::format("benchmark '{}' reported an error: {}", bench.name, reading->error_message));
    } else {
      gb = *reading;
      gb_threads = gb.threads;
      if (sim) {
        s.values[metric_name::kGbIterations] = gb.iterations;
      } else {
        s.values[metric_name::kGbRealTimeNs] = gb.real_time_ns;
        s.values[metric_name::kGbCpuTimeNs] = gb.cpu_time_ns;
        s.values[metric_name::kGbIterations] = gb.iterations;
        for (const auto& [k, v] : gb.counters) s.values[metric_name::kGbCounterPrefix + k] = v;
        if (extras != nullptr) {
          for (const auto& k : GbenchRateCounters(s.stdout_tail, gb.counters))
            extras->rates.push_back(metric_name::kGbCounterPrefix + k);
        }
      }
    }
  }
  if (target.kind == TargetKind::kTare && (s.ok() || s.outcome == SampleOutcome::kFailed)) {
    auto read = ReadFile(req.result_path);
    const std::string text = read.ok() ? *read : "";
    auto lines = protocol::ResultLines(text);  // views into `text`
    if (lines.empty()) {
      if (s.ok()) fail(fmt::format("benchmark '{}' wrote no result line", bench.name));
    } else {
      auto m = protocol::ParseMeasurement(lines.front(), bench.name);
      if (!m.ok()) {
        fail(m.status().message());  // the child's own error, naming the benchmark
      } else if (s.ok()) {
        s.values[metric_name::kBenchIterations] = static_cast<double>(m->iters);
        if (!sim) {
          for (const auto& metric : protocol::PerIterationMetrics(*m)) s.values[metric.name] = metric.value;
        }
      }
    }
  }
  if (sim && s.ok()) {
    auto files = instrument::SimProfileFiles(profile_dir);
    int64_t iterations = target.kind == TargetKind::kGbench ? static_cast<int64_t>(gb.iterations)
                         : target.kind == TargetKind::kTare ? static_cast<int64_t>(bench.iterations)
                                                            : 0;
    StatusOr<instrument::SimReadings> readings =
        files.ok() ? instrument::ReadSimResults(sim_options.target, *files, iterations, gb_threads)
                   : StatusOr<instrument::SimReadings>(files.status());
    if (!readings.ok()) {
      fail(fmt::format("benchmark '{}': {}", bench.name, readings.status().message()));
    } else if (readings->benchmarks.empty()) {
      fail(fmt::format("benchmark '{}': valgrind wrote no measurement window", bench.name));
    } else {
      const auto& reading = readings->benchmarks.front();
      for (const auto& [k, v] : reading.values) s.values[k] = v;
      if (extras != nullptr) {
        for (const auto& w : reading.warnings) extras->warnings.push_back(w.message);
        for (const auto& path : *files) {
          auto content = ReadFile(path);
          if (content.ok()) {
            extras->artifacts.push_back({"callgrind/" + std::filesystem::path(path).filename().string(), *content});
          }
        }
      }
    }
  }
  if (extras != nullptr && s.ok() && !sim) AddWallWarnings(s, &extras->warnings);
  if (mem && s.ok() && target.kind != TargetKind::kTare) {
    Status st = ReadAllocTotals(alloc_out, r.pid, &s.values);
    if (!st.ok()) fail(fmt::format("benchmark '{}': {}", bench.name, st.message()));
  }
  if (s.ok()) AddSelfMetrics(metrics_path, options.required_metrics, &s, extras);
  return s;
}

StatusOr<std::vector<Sample>> MeasureTogether(proc::Spawner& spawner, const TargetSpec& target,
                                              const std::vector<Benchmark>& benches, const MeasureOptions& options,
                                              std::vector<std::string>* unavailable,
                                              std::vector<MeasureExtras>* extras) {
  if (extras != nullptr) extras->assign(benches.size(), MeasureExtras{});
  if (target.kind != TargetKind::kTare) {
    return Status::InvalidArgument("running several benchmarks in one process needs a tare benchmark binary");
  }
  protocol::Request request;
  request.mode = protocol::Mode::kMeasure;
  request.instrument = ProtocolInstrument(options.instrument);
  for (const auto& b : benches) request.benches.push_back(b.name);
  request.iters = benches.empty() ? 1 : benches.front().iterations;  // replaced per name below
  proc::SpawnRequest req = BaseRequest(target, options);
  TARE_ASSIGN_OR_RETURN(auto env, protocol::ChildEnv(request));
  for (auto& kv : env) {
    if (kv.rfind("TARE_ITERS=", 0) == 0) {
      // One count per benchmark, newline-separated, in TARE_BENCH's order (docs/protocol.md).
      kv = "TARE_ITERS=";
      for (size_t i = 0; i < benches.size(); ++i) {
        kv += (i ? "\n" : "") + std::to_string(benches[i].iterations);
      }
    }
    req.env.push_back(kv);
  }
  req.result_fd = request.result_fd;
  req.result_path = options.workdir + "/result";  // emptied by the helper for each request
  const bool sim = options.instrument == Instrument::kSim;
  const std::string profile_dir = options.workdir + "/callgrind";
  instrument::SimOptions sim_options;
  if (sim) {
    sim_options = WrapForSim(target.kind, options, &req);
  } else {
    req.perf_events = options.perf_events;
  }
  if (options.instrument == Instrument::kMem) AddPreload(&req.env, options.alloc_shim);
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner.Run(req));
  Sample shared;
  RecordOutcome(r, options, &shared);
  if (r.started && !sim) instrument::AddProcessMetrics(r, &shared.values, unavailable);
  auto read = ReadFile(req.result_path);
  const std::string text = read.ok() ? *read : "";
  auto lines = protocol::ResultLines(text);
  std::map<std::string, instrument::SimReading> sim_by_name;
  if (sim && r.ok()) {
    auto files = instrument::SimProfileFiles(profile_dir);
    if (files.ok()) {
      auto readings = instrument::ReadSimResults(sim_options.target, *files, 0);
      if (readings.ok()) {
        for (auto& reading : readings->benchmarks) sim_by_name[reading.benchmark] = reading;
      }
    }
  }
  std::vector<Sample> out;
  for (size_t i = 0; i < benches.size(); ++i) {
    Sample s = shared;
    const Benchmark& bench = benches[i];
    if (s.ok()) {
      if (i >= lines.size()) {
        s.outcome = SampleOutcome::kFailed;
        s.error = fmt::format("benchmark '{}' wrote no result line", bench.name);
      } else if (auto m = protocol::ParseMeasurement(lines[i], bench.name); !m.ok()) {
        s.outcome = SampleOutcome::kFailed;
        s.error = m.status().message();
      } else {
        s.values[metric_name::kBenchIterations] = static_cast<double>(m->iters);
        if (!sim) {
          for (const auto& metric : protocol::PerIterationMetrics(*m)) s.values[metric.name] = metric.value;
        }
      }
    }
    if (sim && s.ok()) {
      auto it = sim_by_name.find(bench.name);
      if (it == sim_by_name.end()) {
        s.outcome = SampleOutcome::kFailed;
        s.error = fmt::format("benchmark '{}': valgrind wrote no measurement window for it", bench.name);
      } else {
        instrument::SimReading reading = it->second;
        reading.iterations = static_cast<int64_t>(bench.iterations);
        instrument::ComputeSimMetrics(&reading);
        for (const auto& [k, v] : reading.values) s.values[k] = v;
        if (extras != nullptr) {
          for (const auto& w : reading.warnings) (*extras)[i].warnings.push_back(w.message);
        }
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace tare::target
