#include "cli/run_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <regex>
#include <set>

#include "base/files.h"
#include "base/units.h"
#include "cli/exit_codes.h"
#include "cli/progress.h"
#include "cli/target_setup.h"
#include "env/fingerprint.h"
#include "env/fingerprint_json.h"
#include "instrument/sim.h"
#include "proc/spawner.h"
#include "report/run_report.h"
#include "store/store.h"

namespace tare::cli {
namespace {

// tare binaries are calibrated so one sample's window lasts at least this long.
constexpr uint64_t kCalibrationWindowNs = 20'000'000;

struct RunOptions {
  TargetArgs target;
  int samples = -1;  // -1: 10, or 3 under sim (its counts are identical on every rerun)
  int warmup = -1;   // -1: 1, or 0 under sim
  std::string timeout = "10m";
  std::string filter;
  std::string instrument = "wall";
  std::string store_path = ".tare/tare.db";
  std::string json_path;
  bool quiet = false;
  bool fail_fast = false;
  bool no_perf = false;
  bool all_metrics = false;
  bool no_isolation = false;
  int64_t iterations = 0;  // tare binaries: fixed count instead of calibration
  std::vector<std::string> metrics;
};

// Everything that can be checked before a single process runs; a usage error leaves no trace.
Status Validate(const RunOptions& o) {
  if (o.samples < 1) return Status::InvalidArgument("--samples must be at least 1");
  if (o.warmup < 0) return Status::InvalidArgument("--warmup must be 0 or more");
  TARE_RETURN_IF_ERROR(ParseInstrument(o.instrument).status().WithContext("--instrument"));
  if (!o.filter.empty()) {
    try {
      std::regex re(o.filter);
    } catch (const std::regex_error& e) {
      return Status::InvalidArgument(fmt::format(
          "--filter '{}' is not a valid regular expression ({}); e.g. --filter 'BM_Sort/.*'",
          o.filter, e.what()));
    }
  }
  if (o.iterations < 0) return Status::InvalidArgument("--iterations must be positive");
  if (!o.json_path.empty()) {
    auto parent = std::filesystem::path(o.json_path).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent)) {
      return Status::InvalidArgument(fmt::format(
          "--json '{}': directory '{}' does not exist", o.json_path, parent.string()));
    }
  }
  return Status::Ok();
}

std::string OptionsJson(const RunOptions& o, int64_t timeout_ns, const target::TargetSpec& t) {
  nlohmann::json j = {{"samples", o.samples}, {"warmup", o.warmup}, {"timeout_ns", timeout_ns},
                      {"filter", o.filter}, {"instrument", o.instrument},
                      {"kind", TargetKindName(t.kind)}, {"argv", t.argv}, {"cwd", t.cwd},
                      {"env_overrides", o.target.env}, {"shell", o.target.shell},
                      {"order", "round-robin-v1"}};
  return j.dump();
}

// Notes are stored one per event ("instructions: hardware counters are not supported...");
// printed, events that share a reason share a line.
std::vector<std::string> GroupNotes(const std::vector<NoteRecord>& notes) {
  std::vector<std::pair<std::string, std::string>> grouped;  // reason -> events
  std::vector<std::string> warnings;
  for (const auto& n : notes) {
    if (n.level == "warn") {
      warnings.push_back("warning: " + n.message);
      continue;
    }
    size_t colon = n.message.find(": ");
    std::string event = colon == std::string::npos ? "" : n.message.substr(0, colon);
    std::string reason = colon == std::string::npos ? n.message : n.message.substr(colon + 2);
    auto it = std::find_if(grouped.begin(), grouped.end(), [&](auto& g) { return g.first == reason; });
    if (it == grouped.end()) {
      grouped.push_back({reason, event});
    } else {
      it->second += ", " + event;
    }
  }
  std::vector<std::string> out;
  for (const auto& [reason, events] : grouped) out.push_back("note: " + (events.empty() ? reason : events + ": " + reason));
  out.insert(out.end(), warnings.begin(), warnings.end());
  return out;
}

int Run(RunOptions o) {
  const bool sim = o.instrument == "sim";
  if (o.samples == -1) o.samples = sim ? 3 : 10;
  if (o.warmup == -1) o.warmup = sim ? 0 : 1;
  if (Status s = Validate(o); !s.ok()) return ReportError(s);
  auto timeout_ns = ParseDurationNs(o.timeout);
  if (!timeout_ns.ok()) return ReportError(timeout_ns.status().WithContext("--timeout"));
  auto spec = ResolveTarget(o.target);
  if (!spec.ok()) return ReportError(spec.status());
  auto workdir = MakeTempDir("tare-run");
  if (!workdir.ok()) return ReportError(workdir.status());
  struct Cleanup {
    std::string dir;
    ~Cleanup() { RemoveTree(dir); }
  } cleanup{*workdir};

  proc::InstallInterruptHandler();
  auto spawner = proc::Spawner::Start();
  if (!spawner.ok()) return ReportError(spawner.status());

  target::MeasureOptions mopts;
  mopts.workdir = *workdir;
  mopts.timeout_ns = static_cast<int64_t>(*timeout_ns);
  if (!o.no_perf) mopts.perf_events = proc::DefaultPerfEvents();
  mopts.instrument = *ParseInstrument(o.instrument);
  if (mopts.instrument == Instrument::kSim) {
    auto valgrind = instrument::FindValgrind();
    if (!valgrind.ok()) return ReportError(valgrind.status());
    mopts.valgrind = *valgrind;
    if (spec->kind == TargetKind::kGbench) {
      auto flags = target::ProbeGbenchFlags(**spawner, *spec, mopts);
      if (!flags.ok()) return ReportError(flags.status().WithContext("asking the benchmark for --help"));
      mopts.gbench_flags = *flags;
    }
  } else if (mopts.instrument == Instrument::kMem) {
    auto shim = target::FindAllocShim();
    if (!shim.ok()) return ReportError(shim.status());
    mopts.alloc_shim = *shim;
  }

  auto listed = target::ListBenchmarks(**spawner, *spec, mopts);
  if (!listed.ok()) return ReportError(listed.status());
  std::vector<target::Benchmark> benches;
  if (o.filter.empty()) {
    benches = *listed;
  } else {
    std::regex re(o.filter);
    for (const auto& b : *listed) {
      if (std::regex_search(b.name, re)) benches.push_back(b);
    }
    if (benches.empty()) {
      std::string names;
      for (size_t i = 0; i < listed->size() && i < 10; ++i) names += "\n  " + (*listed)[i].name;
      return ReportError(Status::InvalidArgument(fmt::format(
          "--filter '{}' matches none of the {} benchmarks in '{}':{}{}", o.filter, listed->size(),
          spec->argv[0], names, listed->size() > 10 ? "\n  ..." : "")));
    }
  }

  if ((o.no_isolation || o.iterations > 0) && spec->kind != TargetKind::kTare) {
    return ReportError(Status::InvalidArgument(fmt::format(
        "{} needs a tare benchmark binary; '{}' is a {} target",
        o.no_isolation ? "--no-isolation" : "--iterations", spec->argv[0],
        TargetKindName(spec->kind))));
  }
  // tare binaries: one iteration count per benchmark, fixed before the first sample.
  for (auto& b : benches) {
    if (o.iterations > 0) {
      b.iterations = static_cast<uint64_t>(o.iterations);
      continue;
    }
    Status c = target::Calibrate(**spawner, *spec, mopts, kCalibrationWindowNs, &b);
    if (!c.ok()) return ReportError(c.WithContext("calibrating " + b.uri));
  }

  // Opened only once the input is known to be good: a usage error creates no store.
  auto store = store::Store::Open(o.store_path);
  if (!store.ok()) return ReportError(store.status());

  // The run exists in the store from here on: everything below is recorded, even on failure.
  Fingerprint fp = env::CollectFingerprint(env::FingerprintOptions{.probe_valgrind = sim});
  RunRecord record;
  record.kind = "run";
  record.started_unix_ns = UnixNowNs();
  record.tare_version = TARE_VERSION;
  record.command_line = Invocation();
  record.options_json = OptionsJson(o, mopts.timeout_ns, *spec);
  record.fingerprint_json = env::FingerprintToJson(fp).dump();
  record.fingerprint_digest = fp.HardDigest();
  auto run_id = (*store)->BeginRun(record);
  if (!run_id.ok()) return ReportError(run_id.status());
  store::Store& db = **store;
  if (spec->argv[0] != "/bin/sh" || !o.target.shell) {
    auto exe = DescribeForStore("target", spec->argv[0]);
    if (exe.ok()) (void)db.AddExecutable(*run_id, *exe);
  }
  std::vector<int64_t> bench_ids;
  for (const auto& b : benches) {
    auto id = db.AddBenchmark(*run_id, {0, b.uri, b.name, TargetKindName(spec->kind)});
    if (!id.ok()) return ReportError(id.status());
    bench_ids.push_back(*id);
  }

  Progress progress(o.quiet);
  std::set<std::string> seen_metrics, seen_notes, kept_profiles;
  int64_t seq = 0, failed = 0;
  const int rounds = o.warmup + o.samples;
  const int64_t total = static_cast<int64_t>(rounds) * static_cast<int64_t>(benches.size());
  bool interrupted = false, stopped = false;
  Status store_error;
  // Round-robin over benchmarks: sample i of every benchmark before sample i+1 of any, so slow
  // drift of the machine spreads over all benchmarks instead of biasing the last ones.
  for (int round = 0; round < rounds && !interrupted && !stopped; ++round) {
    // --no-isolation: all benchmarks of the round share one process, measured up front.
    std::vector<Sample> shared;
    std::vector<std::string> shared_unavailable;
    std::vector<target::MeasureExtras> shared_extras;
    if (o.no_isolation && !proc::Interrupted()) {
      progress.Update(fmt::format("[{}/{}] all {} benchmarks in one process", seq + 1, total, benches.size()));
      auto together = target::MeasureTogether(**spawner, *spec, benches, mopts, &shared_unavailable, &shared_extras);
      if (!together.ok()) {
        store_error = together.status();
        break;
      }
      shared = std::move(*together);
    }
    for (size_t i = 0; i < benches.size(); ++i) {
      if (proc::Interrupted() && shared.empty()) {
        interrupted = true;
        break;
      }
      bool warmup = round < o.warmup;
      progress.Update(fmt::format("[{}/{}] {} {} {}/{}", seq + 1, total, benches[i].uri,
                                  warmup ? "warm-up" : "sample",
                                  warmup ? round + 1 : round - o.warmup + 1,
                                  warmup ? o.warmup : o.samples));
      std::vector<std::string> unavailable = i == 0 ? shared_unavailable : std::vector<std::string>{};
      target::MeasureExtras extras;
      if (i < shared_extras.size()) extras = shared_extras[i];
      auto sample = shared.empty()
          ? target::MeasureOnce(**spawner, *spec, benches[i], mopts, &unavailable, &extras)
          : StatusOr<Sample>(shared[i]);
      if (!sample.ok()) {
        store_error = sample.status();
        stopped = true;
        break;
      }
      sample->seq = seq++;
      sample->warmup = warmup;
      for (const auto& [name, value] : sample->values) {
        if (seen_metrics.insert(name).second) (void)db.AddMetric(*run_id, LookupMetric(name));
      }
      for (const auto& reason : unavailable) {
        if (seen_notes.insert(reason).second) (void)db.AddNote(*run_id, {"info", reason});
      }
      for (std::string w : extras.warnings) {
        // Warnings may start with the benchmark's own name; the note names it by URI.
        if (w.rfind(benches[i].name + ": ", 0) == 0) w.erase(0, benches[i].name.size() + 2);
        // One warning of a kind per benchmark: the figures in it vary by sample.
        std::string kind = w.substr(0, w.find(':'));
        if (seen_notes.insert(benches[i].uri + "\x1f" + kind).second) {
          (void)db.AddNote(*run_id, {"warn", benches[i].uri + ": " + w});
        }
      }
      // Raw profiles are kept once per benchmark (sim counts repeat exactly; attribution reads them).
      if (!extras.artifacts.empty() && sample->ok() && kept_profiles.insert(benches[i].uri).second) {
        for (const auto& [name, content] : extras.artifacts) (void)db.AddArtifact(*run_id, bench_ids[i], name, content);
      }
      auto stored = db.AppendSample(*run_id, bench_ids[i], *sample);
      if (!stored.ok()) {
        store_error = stored.status();
        stopped = true;
        break;
      }
      if (sample->outcome == SampleOutcome::kInterrupted || proc::Interrupted()) {
        interrupted = true;
        break;
      }
      if (!sample->ok()) {
        if (!warmup) ++failed;
        progress.Clear();
        if (!o.quiet) fmt::print(stderr, "tare: {} {}: {}\n", benches[i].uri, warmup ? "warm-up failed" : "sample failed", sample->error);
        if (o.fail_fast) {
          stopped = true;
          break;
        }
      }
    }
  }
  progress.Clear();
  RunStatus final_status = interrupted ? RunStatus::kInterrupted
                         : !store_error.ok() ? RunStatus::kFailed
                         : RunStatus::kComplete;
  (void)db.FinishRun(*run_id, final_status, UnixNowNs());

  // Read back only for what is shown or written: `--quiet` without `--json` needs nothing, and a
  // long run's load is milliseconds.
  StatusOr<RunData> data = RunData{};
  if (!o.quiet || !o.json_path.empty()) data = db.LoadRun(*run_id);
  if (!data.ok()) return ReportError(data.status());
  if (!o.quiet) {
    report::RunReport rep = report::BuildRunReport(*data);
    report::ConsoleOptions copts;
    copts.metrics = o.metrics;
    copts.all_metrics = o.all_metrics;
    fmt::print("{}", report::RenderConsole(rep, copts));
    for (const auto& line : GroupNotes(data->notes)) fmt::print(stderr, "{}\n", line);
  }
  if (!o.json_path.empty()) {
    Status w = WriteFileAtomic(o.json_path, report::RunToJson(*data).dump(2) + "\n");
    if (!w.ok()) return ReportError(w);
  }
  if (!o.quiet) {
    fmt::print(stderr, "tare: run {} {}: {} samples in {}\n", *run_id,
               interrupted ? "interrupted; completed samples stored" : "stored", seq, o.store_path);
  }
  if (!store_error.ok()) return ReportError(store_error);
  if (interrupted) return kExitInterrupted;
  if (failed > 0) {
    fmt::print(stderr, "tare: {} of the measured samples failed (see FAILED lines above)\n", failed);
    return kExitFailed;
  }
  return kExitOk;
}

}  // namespace

const std::vector<std::string>& RunValueOptions() {
  static const std::vector<std::string> kOptions = {
      "--samples", "-n", "--warmup", "-w", "--timeout", "--filter", "-f", "--kind", "--cwd",
      "--env", "--instrument", "-i", "--store", "--json", "--metrics", "--iterations"};
  return kOptions;
}

void AddRunCommand(CLI::App& app, int* exit_code, const std::vector<std::string>* target_argv) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand(
      "run", "Measure a program in fresh processes and store every sample\n"
             "Usage: tare run [OPTIONS] TARGET [ARGS...]   (or: tare run [OPTIONS] -- TARGET [ARGS...])");
  sub->footer(R"(
TARGET is measured as:
  a tare benchmark binary        each benchmark in its own process per sample (child protocol)
  a Google Benchmark binary      each benchmark in its own process per sample, via its own flags
  any other command              the whole process, like hyperfine
The kind is detected by scanning the executable (it is never run to find out); force it with --kind.
Everything after TARGET is passed to it unchanged; `--` also ends tare's options.

Examples:
  tare run ./build/string_bench                       # every benchmark, 10 samples each
  tare run --filter 'BM_Sort/.*' --samples 20 ./build/sort_bench
  tare run -- ./my_program --input data.bin           # a command, whole process
  tare run --shell 'grep -c x big.txt | wc -l'        # through /bin/sh -c
  tare run --json out.json --quiet ./bench            # machine-readable results

Metrics per sample: wall_ns, user_ns, sys_ns, peak_rss_bytes (the child's own), page faults,
context switches (wait4 of that child); perf counters where the host has them (hardware counters
are often missing on VMs: a note says why); for Google Benchmark, gb.real_time_ns, gb.cpu_time_ns,
gb.iterations and user counters (gb.counter.NAME).

Exit status: 0 all samples ok; 1 some samples failed; 2 bad input (nothing measured);
130 interrupted (completed samples are kept in the store).)");
  sub->add_option("--samples,-n", opts->samples, "Measured samples per benchmark (default 10; 3 under sim)");
  sub->add_option("--warmup,-w", opts->warmup, "Discarded samples per benchmark before measuring (default 1; 0 under sim)");
  sub->add_option("--timeout", opts->timeout, "Per-sample limit, e.g. 30s or 2m; the process group is killed (default 10m)");
  sub->add_option("--filter,-f", opts->filter, "Only benchmarks whose name matches this regular expression");
  sub->add_option("--kind", opts->target.kind, "auto | command | gbench | tare (default auto)");
  sub->add_flag("--shell", opts->target.shell, "Run the command line through /bin/sh -c");
  sub->add_option("--cwd", opts->target.cwd, "Working directory for the target");
  sub->add_option("--env", opts->target.env, "Set KEY=VALUE in the target's environment (repeatable)");
  sub->add_option("--instrument,-i", opts->instrument,
                  "wall (default): clocks, rusage, perf counters | sim: valgrind instruction counts and "
                  "simulated caches, identical on every rerun | mem: allocation counts via an LD_PRELOAD shim");
  sub->add_option("--store", opts->store_path, "SQLite store (default .tare/tare.db)");
  sub->add_option("--json", opts->json_path, "Also write the results as JSON (schema tare.run/1) to FILE");
  sub->add_option("--metrics", opts->metrics, "Metrics to show in the table (default: a per-kind selection)")->delimiter(',');
  sub->add_flag("--all-metrics", opts->all_metrics, "Show every metric in the table");
  sub->add_flag("--no-perf", opts->no_perf, "Do not open perf_event counters");
  sub->add_flag("--no-isolation", opts->no_isolation,
                "tare binaries: run all benchmarks in ONE process per sample, to see what isolation removes");
  sub->add_option("--iterations", opts->iterations,
                  "tare binaries: iterations per sample (default: calibrated to a 20 ms window; 10 under sim)");
  sub->add_flag("--fail-fast", opts->fail_fast, "Stop at the first failed sample");
  sub->add_flag("--quiet,-q", opts->quiet, "No table, progress or notes (use with --json)");
  sub->callback([opts, exit_code, target_argv]() {
    opts->target.argv = *target_argv;
    *exit_code = Run(*opts);
  });
}

}  // namespace tare::cli
