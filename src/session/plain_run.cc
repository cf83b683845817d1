#include "session/plain_run.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <future>
#include <set>
#include <system_error>
#include <vector>

#include "base/files.h"
#include "base/regex.h"
#include "base/units.h"
#include "base/json_text.h"
#include "env/host_fingerprint.h"
#include "env/target_environment.h"
#include "env/fingerprint_json.h"
#include "model/metric_names.h"
#include "session/environment.h"
#include "session/failure_log.h"
#include "session/measurement_setup.h"
#include "session/session.h"
#include "session/write_behind.h"
#include "target/gbench.h"

namespace tare::session {
namespace {

// Google Benchmark: who chose each sample's work — "arguments" (the binary's own
// --benchmark_min_time), "--gbench-min-time" or "default" (tare's, FixGbenchWork).
std::string GbenchWorkSource(const RunSpec& o, const target::TargetSpec& t) {
  return target::GbenchMinTimeGiven(t.argv, t.env) ? "arguments"
         : o.gbench_min_time_ns > 0                ? "--gbench-min-time"
                                                   : "default";
}

// Google Benchmark: what fixed each sample's work, as the run records it ("gbench_work").
nlohmann::json GbenchWorkJson(const RunSpec& o, const target::TargetSpec& t,
                              const std::vector<target::Benchmark>& benches) {
  nlohmann::json j = {{"source", GbenchWorkSource(o, t)}};
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& b : benches) {
    if (b.gbench_min_time_ns > 0) j["min_time_ns"] = b.gbench_min_time_ns;
    if (b.iterations > 0) counts[b.name] = b.iterations;
  }
  if (!counts.empty()) j["iterations"] = counts;
  return j;
}

std::string OptionsJson(const RunSpec& o, const std::vector<target::TargetSpec>& targets,
                        const std::vector<target::Benchmark>& benches) {
  const target::TargetSpec& t = targets.front();
  nlohmann::json j = {{"samples", o.samples},
                      {"warmup", o.warmup},
                      {"timeout_ns", o.timeout_ns},
                      {"filter", o.filter},
                      {"instrument", InstrumentName(o.instrument)},
                      {"kind", TargetKindName(t.kind)},
                      {"argv", t.argv},
                      {"cwd", t.cwd},
                      {"env_overrides", o.target.env},
                      {"shell", o.target.shell},
                      {"order", o.commands.empty() ? "round-robin-v1" : "round-robin-alternating-v1"}};
  if (!o.commands.empty()) {
    nlohmann::json commands = nlohmann::json::array();
    for (size_t i = 0; i < o.commands.size(); ++i) {
      commands.push_back({{"text", o.commands[i].text}, {"argv", targets[i].argv}});
    }
    j["commands"] = commands;
  }
  if (o.shard) j["shard"] = fmt::format("{}/{}", o.shard->index, o.shard->count);
  if (t.kind == TargetKind::kGbench && o.instrument != Instrument::kSim)
    j["gbench_work"] = GbenchWorkJson(o, t, benches);
  for (auto [key, c] : {std::pair{"prepare", &o.prepare}, {"setup", &o.setup}, {"conclude", &o.conclude}}) {
    if (c->has_value()) j[key] = (*c)->text;
  }
  return DumpJson(j);
}

// Runs an untimed command (--prepare, --setup, --conclude): FailedPrecondition naming `flag`, with
// the command's stderr, when it fails; an error from the helper as it is.
Status RunQuietly(proc::Spawner& spawner, const target::TargetSpec& t, const std::string& workdir, int64_t timeout_ns,
                  const std::string& flag, const std::string& text) {
  proc::SpawnRequest req;
  req.argv = t.argv;
  req.env = t.env;
  req.cwd = t.cwd;
  req.stdout_path = workdir + "/untimed.out";
  req.stderr_path = workdir + "/untimed.err";
  req.timeout_ns = timeout_ns;
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner.Run(req));
  if (r.ok()) return Status::Ok();
  auto tail = ReadFile(req.stderr_path);
  std::string err = tail.ok() ? *tail : "";
  if (err.size() > 600) err = err.substr(err.size() - 600);
  return Status::FailedPrecondition(fmt::format("{} '{}' failed ({}){}", flag, text, r.Describe(), StderrTail(err)));
}

// --prepare: the command runs before every sample, untimed; a failed one ends the run.
class PreparingMeasurer final : public Measurer {
 public:
  PreparingMeasurer(Measurer& inner, proc::Spawner& spawner, const target::TargetSpec& prepare, std::string text,
                    std::string workdir, int64_t timeout_ns)
      : inner_(inner),
        spawner_(spawner),
        prepare_(prepare),
        text_(std::move(text)),
        workdir_(std::move(workdir)),
        timeout_ns_(timeout_ns) {}
  StatusOr<Measured> Measure(const target::TargetSpec& target, const target::Benchmark& bench) override {
    Status prepared = RunQuietly(spawner_, prepare_, workdir_, timeout_ns_, "--prepare", text_);
    if (!prepared.ok()) return prepared.WithContext("before a sample of " + bench.name);
    return inner_.Measure(target, bench);
  }
  StatusOr<std::vector<Measured>> MeasureTogether(const target::TargetSpec& target,
                                                  const std::vector<target::Benchmark>& benches) override {
    TARE_RETURN_IF_ERROR(RunQuietly(spawner_, prepare_, workdir_, timeout_ns_, "--prepare", text_));
    return inner_.MeasureTogether(target, benches);
  }
  bool Interrupted() const override { return inner_.Interrupted(); }

 private:
  Measurer& inner_;
  proc::Spawner& spawner_;
  const target::TargetSpec& prepare_;
  std::string text_;
  std::string workdir_;
  int64_t timeout_ns_;
};

// Several commands: the declared order in even rounds, reversed in odd ones, so that no command
// always runs right after the same other one.
std::function<std::vector<size_t>(int64_t)> AlternatingOrder(size_t cells) {
  return [cells](int64_t round) {
    std::vector<size_t> order(cells);
    for (size_t i = 0; i < cells; ++i) order[i] = round % 2 == 0 ? i : cells - 1 - i;
    return order;
  };
}

// A plain run: every benchmark gets warm-up + samples blocks; failed samples are told and
// counted; --fail-fast stops at the first.
// --show-output: "<uri> sample 3 output:" and the sample's stdout and stderr tails, each line
// indented; "(none)" for a stream it left empty.
std::string ShownOutput(const std::string& uri, const Sample& sample) {
  auto indented = [](const std::string& text) {
    if (text.empty()) return std::string(" (none)");
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
      const size_t nl = text.find('\n', start);
      out += "\n    " + text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    return out;
  };
  return fmt::format("{} {} #{} output:\n  stdout:{}\n  stderr:{}", uri, sample.warmup ? "warm-up" : "sample",
                     sample.seq, indented(sample.stdout_tail), indented(sample.stderr_tail));
}

class RunObserver final : public Observer {
 public:
  RunObserver(const RunSpec& spec, std::function<void(const std::string&)> notice, int64_t total, const Clock& clock)
      : spec_(spec), notice_(std::move(notice)), total_(total), clock_(clock), start_ns_(clock.UnixNowNs()) {}

  int64_t TargetBlocks(size_t) const override { return spec_.warmup + spec_.samples; }
  bool AfterRoundReadsTheStore() const override { return false; }

  void OnSample(Session& session, size_t cell, const Sample& sample) override {
    const auto& targets = session.plan().cells[cell].targets;
    if (sample.ok() && !sample.warmup && !targets.empty() && targets[0].kind == TargetKind::kGbench &&
        sample.ended_unix_ns > sample.started_unix_ns) {
      // The process's own CPU time where wait4 gave it: what the binary's minimum time and iteration
      // estimate cost, which a busy host does not stretch as it stretches the wall time.
      const auto user = sample.values.find(metric_name::kUserNs);
      const auto sys = sample.values.find(metric_name::kSysNs);
      if (user != sample.values.end() && sys != sample.values.end()) {
        gbench_sample_ns_.push_back(static_cast<int64_t>(user->second + sys->second));
      } else {
        gbench_sample_ns_.push_back(sample.ended_unix_ns - sample.started_unix_ns);
      }
    }
    const auto& uri = session.plan().cells[cell].bench.uri;
    if (spec_.show_output && notice_ && sample.outcome != SampleOutcome::kInterrupted) {
      notice_(ShownOutput(uri, sample));
    }
    if (sample.ok() || sample.outcome == SampleOutcome::kInterrupted) return;
    if (!sample.warmup) ++failed_;
    // Told once per benchmark and error (the same error again is counted: RepeatedFailures).
    if (failures_.First(uri, sample.error) && notice_) {
      notice_(fmt::format("{} {}: {}{}", uri, sample.warmup ? "warm-up failed" : "sample failed", sample.error,
                          StderrTail(sample.stderr_tail)));
    }
    if (spec_.fail_fast) session.Stop(StopKind::kFailFast, "--fail-fast: " + uri + ": " + sample.error);
  }

  std::string ProgressLine(const Session& session, size_t cell, const std::string&, int64_t block) const override {
    const bool warmup = block < spec_.warmup;
    if (spec_.shared_process) {
      return fmt::format("[{}/{}] all {} benchmarks in one process{}", session.next_seq() + 1, total_,
                         session.plan().cells.size(), Eta(session));
    }
    return fmt::format("[{}/{}] {} {} {}/{}{}", session.next_seq() + 1, total_, session.plan().cells[cell].bench.uri,
                       warmup ? "warm-up" : "sample", warmup ? block + 1 : block - spec_.warmup + 1,
                       warmup ? spec_.warmup : spec_.samples, Eta(session));
  }

  std::string Eta(const Session& session) const {
    const std::string eta = EtaText(clock_.UnixNowNs() - start_ns_, session.samples_taken(), total_);
    return eta.empty() ? "" : "  ETA " + eta;
  }

  int64_t failed() const { return failed_; }

  // One line per benchmark whose failure repeated: told in full once, counted here.
  std::vector<std::string> RepeatedFailures() const {
    std::vector<std::string> out;
    for (const auto& r : failures_.Repeated()) {
      out.push_back(fmt::format("{}: failed {} times in all with the error told above (warm-ups included): {}", r.key,
                                r.times, r.error));
    }
    return out;
  }

  // The median process CPU time (else wall time) of the Google Benchmark samples, 0 when none.
  int64_t MedianGbenchSampleNs() const {
    if (gbench_sample_ns_.empty()) return 0;
    std::vector<int64_t> v = gbench_sample_ns_;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  }

 private:
  std::vector<int64_t> gbench_sample_ns_;
  const RunSpec& spec_;
  std::function<void(const std::string&)> notice_;
  int64_t total_;
  const Clock& clock_;
  int64_t start_ns_;
  int64_t failed_ = 0;
  FailureLog failures_;
};

}  // namespace

std::string SlowGbenchNote(int64_t median_sample_ns) {
  return fmt::format(
      "Google Benchmark samples took {} of CPU each (median): an unmodified binary estimates its own "
      "iteration count and runs for its minimum time in every process. Compiled against "
      "tare/gbench_compat.hpp instead (change the include line, link tare::gbench_compat, or "
      "`pkg-config --cflags --libs tare-gbench-compat`), the same sources run one fixed iteration count "
      "per sample, tens of milliseconds, in every process: docs/library.md. Meanwhile "
      "--gbench-min-time (or --benchmark_min_time after the binary) sets the samples' length",
      FormatDurationNs(static_cast<double>(median_sample_ns)));
}

std::string EtaText(int64_t elapsed_ns, int64_t done, int64_t total) {
  if (done < 1 || total <= done || elapsed_ns <= 0) return "";
  const double per_sample = static_cast<double>(elapsed_ns) / static_cast<double>(done);
  if (per_sample * static_cast<double>(total) < static_cast<double>(kEtaAfterNs)) return "";
  const int64_t s = std::llround(per_sample * static_cast<double>(total - done) / 1e9);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

Status ValidateRunSpec(RunSpec* o) {
  const bool sim = o->instrument == Instrument::kSim;
  if (o->samples == -1) o->samples = sim ? 3 : 10;
  if (o->warmup == -1) o->warmup = sim ? 0 : 1;
  if (o->samples < 1) return Status::InvalidArgument("--samples must be at least 1");
  if (o->warmup < 0) return Status::InvalidArgument("--warmup must be 0 or more");
  if (!o->filter.empty()) TARE_RETURN_IF_ERROR(Regex::Compile(o->filter, "--filter", "--filter 'BM_Sort/.*'").status());
  if (o->iterations < 0) return Status::InvalidArgument("--iterations must be positive");
  if (o->gbench_min_time_ns != 0) {
    if (o->gbench_min_time_ns < kMinGbenchMinTimeNs || o->gbench_min_time_ns > kMaxGbenchMinTimeNs) {
      return Status::InvalidArgument(
          fmt::format("--gbench-min-time {} is outside 1ms..60s; e.g. --gbench-min-time 50ms",
                      FormatDurationNs(static_cast<double>(o->gbench_min_time_ns))));
    }
    if (sim) {
      return Status::InvalidArgument(
          "--gbench-min-time has no effect under --instrument sim (one exactly-counted run per sample, "
          "docs/sim.md): remove it");
    }
  }
  return Status::Ok();
}

PlainRun::PlainRun(RunSpec spec, proc::Spawner& spawner, const Clock& clock)
    : spec_(std::move(spec)), spawner_(spawner), clock_(clock) {}

PlainRun::~PlainRun() {
  if (!workdir_.empty()) RemoveTree(workdir_);
}

// Several commands: each resolved as a whole-process command, one benchmark named by its text.
Status PlainRun::ResolveCommands() {
  for (const auto& c : spec_.commands) {
    if (c.args.kind != "auto" && c.args.kind != "command") {
      return Status::InvalidArgument(
          fmt::format("several commands are each measured as a whole process; --kind {} cannot apply to them "
                      "(measure a benchmark binary on its own: tare run ./my_bench)",
                      c.args.kind));
    }
    TargetArgs args = c.args;
    args.kind = "command";
    TARE_ASSIGN_OR_RETURN(target::TargetSpec t, ResolveTarget(args));
    for (const auto& b : benches_) {
      if (b.name == c.text) {
        return Status::InvalidArgument(fmt::format("the command '{}' is given twice; give each command once", c.text));
      }
    }
    benches_.push_back({c.text, t.name + "::" + c.text});
    bench_target_.push_back(targets_.size());
    targets_.push_back(std::move(t));
  }
  return Status::Ok();
}

Status PlainRun::Prepare() {
  TARE_RETURN_IF_ERROR(ValidateRunSpec(&spec_));
  const env::FingerprintOptions host{.probe_valgrind = spec_.instrument == Instrument::kSim};
  try {
    fingerprint_ = std::async(std::launch::async, [host] { return env::CollectFingerprint(host); });
  } catch (const std::system_error&) {  // no thread to be had: read when the run is recorded
    fingerprint_ = std::async(std::launch::deferred, [host] { return env::CollectFingerprint(host); });
  }
  for (auto [from, to] :
       {std::pair{&spec_.prepare, &prepare_}, {&spec_.setup, &setup_}, {&spec_.conclude, &conclude_}}) {
    if (!from->has_value()) continue;
    TargetArgs args = (*from)->args;
    args.kind = "command";
    TARE_ASSIGN_OR_RETURN(*to, ResolveTarget(args));
  }
  if (!spec_.commands.empty()) {
    if (spec_.shared_process || spec_.iterations > 0) {
      return Status::InvalidArgument(fmt::format("{} needs a tare benchmark binary, not several commands",
                                                 spec_.shared_process ? "--no-isolation" : "--iterations"));
    }
    TARE_RETURN_IF_ERROR(ResolveCommands());
  } else {
    TARE_ASSIGN_OR_RETURN(target::TargetSpec target, ResolveTarget(spec_.target));
    targets_.push_back(std::move(target));
  }
  const target::TargetSpec& first = targets_.front();
  if (spec_.gbench_min_time_ns > 0 && first.kind != TargetKind::kGbench) {
    return Status::InvalidArgument(
        fmt::format("--gbench-min-time applies to Google Benchmark binaries; '{}' is a {} target: remove it",
                    first.argv[0], TargetKindName(first.kind)));
  }
  if (spec_.gbench_min_time_ns > 0 && target::GbenchMinTimeGiven(first.argv, first.env)) {
    return Status::InvalidArgument(
        "--gbench-min-time and the binary's own --benchmark_min_time (or BENCHMARK_MIN_TIME) both set "
        "the samples' length: give one");
  }
  if ((spec_.shared_process || spec_.iterations > 0) && first.kind != TargetKind::kTare) {
    return Status::InvalidArgument(fmt::format("{} needs a tare benchmark binary; '{}' is a {} target",
                                               spec_.shared_process ? "--no-isolation" : "--iterations", first.argv[0],
                                               TargetKindName(first.kind)));
  }
  TARE_ASSIGN_OR_RETURN(workdir_, MakeTempDir("tare-run"));
  measure_.workdir = workdir_;
  measure_.timeout_ns = spec_.timeout_ns;
  if (spec_.perf) measure_.perf_events = proc::DefaultPerfEvents();
  measure_.instrument = spec_.instrument;
  TARE_RETURN_IF_ERROR(PrepareInstrument(spawner_, first, &measure_));

  std::vector<target::Benchmark> listed = benches_;
  if (spec_.commands.empty()) {
    TARE_ASSIGN_OR_RETURN(listed, target::ListBenchmarks(spawner_, first, measure_));
    bench_target_.assign(listed.size(), 0);
  }
  const std::vector<size_t> listed_target = bench_target_;
  benches_.clear();
  bench_target_.clear();
  std::optional<Regex> re;
  if (!spec_.filter.empty()) {
    TARE_ASSIGN_OR_RETURN(re, Regex::Compile(spec_.filter, "--filter"));
  }
  for (size_t i = 0; i < listed.size(); ++i) {
    if (re && !re->Search(listed[i].name)) continue;
    benches_.push_back(listed[i]);
    bench_target_.push_back(listed_target[i]);
  }
  if (benches_.empty()) {
    std::string names;
    for (size_t i = 0; i < listed.size() && i < 10; ++i) names += "\n  " + listed[i].name;
    return Status::InvalidArgument(fmt::format("--filter '{}' matches none of the {} benchmarks in '{}':{}{}",
                                               spec_.filter, listed.size(), first.argv[0], names,
                                               listed.size() > 10 ? "\n  ..." : ""));
  }
  if (spec_.shard) {
    // The whole filtered list decides the assignment; this job keeps its part (before calibrating:
    // the other shards' benchmarks cost this job nothing).
    std::vector<std::string> names;
    std::set<std::string> target_names;
    for (const auto& b : benches_) names.push_back(b.name);
    for (const auto& t : targets_) target_names.insert(t.name);
    nlohmann::json what = {{"targets", target_names}, {"filter", spec_.filter}};
    shard_ = AssignShards(names, *spec_.shard,
                          ShardGroup(RunKind::kRun, spec_.shard->count, provenance().commit, DumpJson(what)));
    TARE_RETURN_IF_ERROR(CheckShardNotEmpty(*shard_, "benchmarks"));
    std::vector<target::Benchmark> kept;
    std::vector<size_t> kept_target;
    for (size_t i = 0; i < benches_.size(); ++i) {
      if (ShardOf(*shard_, benches_[i].name) != shard_->index) continue;
      kept.push_back(benches_[i]);
      kept_target.push_back(bench_target_[i]);
    }
    benches_ = std::move(kept);
    bench_target_ = std::move(kept_target);
  }
  for (size_t i = 0; i < benches_.size(); ++i) {
    Status s = FixIterations(spawner_, targets_[bench_target_[i]], measure_, static_cast<uint64_t>(spec_.iterations),
                             &benches_[i]);
    if (!s.ok()) return s.WithContext("calibrating " + benches_[i].uri);
    s = FixGbenchWork(spawner_, targets_[bench_target_[i]], measure_, spec_.gbench_min_time_ns, &benches_[i]);
    if (!s.ok()) return s.WithContext("fixing the iteration count of " + benches_[i].uri);
  }
  return Status::Ok();
}

const Provenance& PlainRun::provenance() {
  if (spec_.pending_provenance.valid()) {
    spec_.provenance = spec_.pending_provenance.get();
    spec_.pending_provenance = {};
  }
  return spec_.provenance;
}

Status PlainRun::RunUntimed(const target::TargetSpec& target, const std::string& flag, const std::string& text) {
  if (progress) progress(flag + " " + text);
  return RunQuietly(spawner_, target, workdir_, spec_.timeout_ns, flag, text);
}

StatusOr<RunOutcome> PlainRun::Run(store::RunWriter& store) {
  // Before the run is recorded: a set-up that fails leaves nothing in the store.
  if (setup_) TARE_RETURN_IF_ERROR(RunUntimed(*setup_, "--setup", spec_.setup->text));
  Fingerprint fp =
      fingerprint_.valid()
          ? fingerprint_.get()
          : env::CollectFingerprint(env::FingerprintOptions{.probe_valgrind = spec_.instrument == Instrument::kSim});
  // What the targets' environment does to the code is part of what makes two runs comparable.
  env::AddTargetEnvironment(&fp, targets_.front().env);
  RunRecord record;
  record.kind = RunKind::kRun;
  record.started_unix_ns = clock_.UnixNowNs();
  record.tare_version = spec_.tare_version;
  record.command_line = spec_.command_line;
  record.options_json = OptionsJson(spec_, targets_, benches_);
  record.fingerprint_json = DumpJson(env::FingerprintToJson(fp));
  record.fingerprint_digest = fp.HardDigest();
  record.provenance = provenance();
  record.shard = shard_;
  RunOutcome out;
  TARE_ASSIGN_OR_RETURN(out.run_id, store.BeginRun(record));

  // From here on the run exists: whatever happens, it is finished with a status.
  auto body = [&]() -> Status {
    for (size_t t = 0; t < targets_.size(); ++t) {
      const bool shell = spec_.commands.empty() ? spec_.target.shell : spec_.commands[t].args.shell;
      if (shell) continue;
      // A program that cannot be described (unreadable) is measured anyway; the record is a nicety.
      auto exe = DescribeForStore("target", targets_[t].argv[0]);
      if (exe.ok()) TARE_RETURN_IF_ERROR(store.AddExecutable(out.run_id, *exe));
    }
    if (targets_.front().kind == TargetKind::kGbench && spec_.instrument != Instrument::kSim) {
      TARE_RETURN_IF_ERROR(
          store.AddNote(out.run_id, {"info", GbenchWorkNote(benches_, GbenchWorkSource(spec_, targets_.front()))}));
    }
    Plan plan;
    plan.warmup_blocks = spec_.warmup;
    plan.shared_process = spec_.shared_process;
    plan.write_behind = WriteBehindPaysHere();
    if (!spec_.commands.empty()) plan.cell_order = AlternatingOrder(benches_.size());
    for (size_t i = 0; i < benches_.size(); ++i) {
      const target::Benchmark& b = benches_[i];
      const target::TargetSpec& t = targets_[bench_target_[i]];
      Cell c;
      c.name = b.uri;
      c.bench = b;
      TARE_ASSIGN_OR_RETURN(c.benchmark_id, store.AddBenchmark(out.run_id, {0, b.uri, b.name, t.kind}));
      c.targets = {t};
      plan.cells.push_back(std::move(c));
    }
    const int64_t total = static_cast<int64_t>(spec_.warmup + spec_.samples) * static_cast<int64_t>(benches_.size());
    RunObserver observer(spec_, notice, total, clock_);
    SpawnerMeasurer spawned(spawner_, measure_);
    std::optional<PreparingMeasurer> prepared;
    if (prepare_) prepared.emplace(spawned, spawner_, *prepare_, spec_.prepare->text, workdir_, spec_.timeout_ns);
    Measurer& measurer = prepared ? static_cast<Measurer&>(*prepared) : spawned;
    Session session(std::move(plan), measurer, store, out.run_id, observer);
    session.set_progress(progress);
    Status s = session.Run();
    if (conclude_ && s.ok() && session.stop() != StopKind::kInterrupted) {
      s = RunUntimed(*conclude_, "--conclude", spec_.conclude->text);
    }
    out.samples = session.samples_taken();
    out.failed = observer.failed();
    if (notice) {
      for (const auto& line : observer.RepeatedFailures()) notice(line);
    }
    if (s.ok() && spec_.instrument == Instrument::kWall) {
      if (const int64_t median = observer.MedianGbenchSampleNs(); median >= kSlowGbenchSampleNs) {
        const std::string note = SlowGbenchNote(median);
        // Stored, and so printed once with the run's other notes (it was printed twice: here too).
        TARE_RETURN_IF_ERROR(store.AddNote(out.run_id, {"info", note}));
      }
    }
    out.interrupted = session.stop() == StopKind::kInterrupted;
    out.stopped_at_failure = session.stop() == StopKind::kFailFast;
    return s;
  };
  out.error = body();
  const RunStatus status = out.interrupted   ? RunStatus::kInterrupted
                           : !out.error.ok() ? RunStatus::kFailed
                                             : RunStatus::kComplete;
  Status finished = store.FinishRun(out.run_id, status, clock_.UnixNowNs());
  if (out.error.ok() && !finished.ok()) out.error = finished;
  return out;
}

}  // namespace tare::session
