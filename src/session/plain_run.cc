#include "session/plain_run.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <vector>

#include "base/files.h"
#include "base/regex.h"
#include "base/json_text.h"
#include "env/host_fingerprint.h"
#include "env/fingerprint_json.h"
#include "session/measurement_setup.h"
#include "session/session.h"

namespace tare::session {
namespace {

std::string OptionsJson(const RunSpec& o, const target::TargetSpec& t) {
  nlohmann::json j = {{"samples", o.samples}, {"warmup", o.warmup}, {"timeout_ns", o.timeout_ns},
                      {"filter", o.filter}, {"instrument", InstrumentName(o.instrument)},
                      {"kind", TargetKindName(t.kind)}, {"argv", t.argv}, {"cwd", t.cwd},
                      {"env_overrides", o.target.env}, {"shell", o.target.shell},
                      {"order", "round-robin-v1"}};
  return DumpJson(j);
}

// "; its stderr ends:\n  <last lines>" (at most 5 lines, 600 bytes), or "" when it wrote nothing:
// why a sample failed is usually in what it said, not in its exit status.
std::string StderrTail(const std::string& tail) {
  std::string text = tail.size() > 600 ? tail.substr(tail.size() - 600) : tail;
  std::vector<std::string> lines;
  for (size_t i = 0; i <= text.size();) {
    size_t nl = text.find('\n', i);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(i, nl - i));
    i = nl + 1;
  }
  while (!lines.empty() && lines.back().find_first_not_of(" \t\r") == std::string::npos) lines.pop_back();
  if (lines.empty()) return "";
  std::string out = "; its stderr ends:";
  for (size_t i = lines.size() > 5 ? lines.size() - 5 : 0; i < lines.size(); ++i) out += "\n  " + lines[i];
  return out;
}

// A plain run: every benchmark gets warm-up + samples blocks; failed samples are told and
// counted; --fail-fast stops at the first.
class RunObserver final : public Observer {
 public:
  RunObserver(const RunSpec& spec, std::function<void(const std::string&)> notice,
              int64_t total)
      : spec_(spec), notice_(std::move(notice)), total_(total) {}

  int64_t TargetBlocks(size_t) const override { return spec_.warmup + spec_.samples; }

  void OnSample(Session& session, size_t cell, const Sample& sample) override {
    if (sample.ok() || sample.outcome == SampleOutcome::kInterrupted) return;
    if (!sample.warmup) ++failed_;
    const auto& uri = session.plan().cells[cell].bench.uri;
    if (notice_) {
      notice_(fmt::format("{} {}: {}{}", uri, sample.warmup ? "warm-up failed" : "sample failed",
                          sample.error, StderrTail(sample.stderr_tail)));
    }
    if (spec_.fail_fast) session.Stop(StopKind::kFailFast, "--fail-fast: " + uri + ": " + sample.error);
  }

  std::string ProgressLine(const Session& session, size_t cell, const std::string&,
                           int64_t block) const override {
    const bool warmup = block < spec_.warmup;
    if (spec_.shared_process) {
      return fmt::format("[{}/{}] all {} benchmarks in one process", session.next_seq() + 1, total_,
                         session.plan().cells.size());
    }
    return fmt::format("[{}/{}] {} {} {}/{}", session.next_seq() + 1, total_,
                       session.plan().cells[cell].bench.uri, warmup ? "warm-up" : "sample",
                       warmup ? block + 1 : block - spec_.warmup + 1, warmup ? spec_.warmup : spec_.samples);
  }

  int64_t failed() const { return failed_; }

 private:
  const RunSpec& spec_;
  std::function<void(const std::string&)> notice_;
  int64_t total_;
  int64_t failed_ = 0;
};

}  // namespace

Status ValidateRunSpec(RunSpec* o) {
  const bool sim = o->instrument == Instrument::kSim;
  if (o->samples == -1) o->samples = sim ? 3 : 10;
  if (o->warmup == -1) o->warmup = sim ? 0 : 1;
  if (o->samples < 1) return Status::InvalidArgument("--samples must be at least 1");
  if (o->warmup < 0) return Status::InvalidArgument("--warmup must be 0 or more");
  if (!o->filter.empty()) TARE_RETURN_IF_ERROR(Regex::Compile(o->filter, "--filter", "--filter 'BM_Sort/.*'").status());
  if (o->iterations < 0) return Status::InvalidArgument("--iterations must be positive");
  return Status::Ok();
}

PlainRun::PlainRun(RunSpec spec, proc::Spawner& spawner, const Clock& clock)
    : spec_(std::move(spec)), spawner_(spawner), clock_(clock) {}

PlainRun::~PlainRun() {
  if (!workdir_.empty()) RemoveTree(workdir_);
}

Status PlainRun::Prepare() {
  TARE_RETURN_IF_ERROR(ValidateRunSpec(&spec_));
  TARE_ASSIGN_OR_RETURN(target_, ResolveTarget(spec_.target));
  if ((spec_.shared_process || spec_.iterations > 0) && target_.kind != TargetKind::kTare) {
    return Status::InvalidArgument(fmt::format(
        "{} needs a tare benchmark binary; '{}' is a {} target",
        spec_.shared_process ? "--no-isolation" : "--iterations", target_.argv[0],
        TargetKindName(target_.kind)));
  }
  TARE_ASSIGN_OR_RETURN(workdir_, MakeTempDir("tare-run"));
  measure_.workdir = workdir_;
  measure_.timeout_ns = spec_.timeout_ns;
  if (spec_.perf) measure_.perf_events = proc::DefaultPerfEvents();
  measure_.instrument = spec_.instrument;
  TARE_RETURN_IF_ERROR(PrepareInstrument(spawner_, target_, &measure_));

  TARE_ASSIGN_OR_RETURN(std::vector<target::Benchmark> listed,
                        target::ListBenchmarks(spawner_, target_, measure_));
  if (spec_.filter.empty()) {
    benches_ = listed;
  } else {
    TARE_ASSIGN_OR_RETURN(Regex re, Regex::Compile(spec_.filter, "--filter"));
    for (const auto& b : listed) {
      if (re.Search(b.name)) benches_.push_back(b);
    }
    if (benches_.empty()) {
      std::string names;
      for (size_t i = 0; i < listed.size() && i < 10; ++i) names += "\n  " + listed[i].name;
      return Status::InvalidArgument(fmt::format(
          "--filter '{}' matches none of the {} benchmarks in '{}':{}{}", spec_.filter, listed.size(),
          target_.argv[0], names, listed.size() > 10 ? "\n  ..." : ""));
    }
  }
  for (auto& b : benches_) {
    Status s = FixIterations(spawner_, target_, measure_, static_cast<uint64_t>(spec_.iterations), &b);
    if (!s.ok()) return s.WithContext("calibrating " + b.uri);
  }
  return Status::Ok();
}

StatusOr<RunOutcome> PlainRun::Run(store::RunWriter& store) {
  Fingerprint fp = env::CollectFingerprint(
      env::FingerprintOptions{.probe_valgrind = spec_.instrument == Instrument::kSim});
  RunRecord record;
  record.kind = "run";
  record.started_unix_ns = clock_.UnixNowNs();
  record.tare_version = spec_.tare_version;
  record.command_line = spec_.command_line;
  record.options_json = OptionsJson(spec_, target_);
  record.fingerprint_json = DumpJson(env::FingerprintToJson(fp));
  record.fingerprint_digest = fp.HardDigest();
  record.provenance = spec_.provenance;
  RunOutcome out;
  TARE_ASSIGN_OR_RETURN(out.run_id, store.BeginRun(record));

  // From here on the run exists: whatever happens, it is finished with a status.
  auto body = [&]() -> Status {
    if (!spec_.target.shell) {
      // A program that cannot be described (unreadable) is measured anyway; the record is a nicety.
      auto exe = DescribeForStore("target", target_.argv[0]);
      if (exe.ok()) TARE_RETURN_IF_ERROR(store.AddExecutable(out.run_id, *exe));
    }
    Plan plan;
    plan.warmup_blocks = spec_.warmup;
    plan.shared_process = spec_.shared_process;
    for (const auto& b : benches_) {
      Cell c;
      c.name = b.uri;
      c.bench = b;
      TARE_ASSIGN_OR_RETURN(c.benchmark_id,
                            store.AddBenchmark(out.run_id, {0, b.uri, b.name, TargetKindName(target_.kind)}));
      c.targets = {target_};
      plan.cells.push_back(std::move(c));
    }
    const int64_t total = static_cast<int64_t>(spec_.warmup + spec_.samples) *
                          static_cast<int64_t>(benches_.size());
    RunObserver observer(spec_, notice, total);
    SpawnerMeasurer measurer(spawner_, measure_);
    Session session(std::move(plan), measurer, store, out.run_id, observer);
    session.set_progress(progress);
    Status s = session.Run();
    out.samples = session.samples_taken();
    out.failed = observer.failed();
    out.interrupted = session.stop() == StopKind::kInterrupted;
    out.stopped_at_failure = session.stop() == StopKind::kFailFast;
    return s;
  };
  out.error = body();
  const RunStatus status = out.interrupted ? RunStatus::kInterrupted
                         : !out.error.ok() ? RunStatus::kFailed
                                           : RunStatus::kComplete;
  Status finished = store.FinishRun(out.run_id, status, clock_.UnixNowNs());
  if (out.error.ok() && !finished.ok()) out.error = finished;
  return out;
}

}  // namespace tare::session
