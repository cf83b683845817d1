#include "bisect/time_step.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/files.h"
#include "base/json_read.h"
#include "base/json_text.h"
#include "base/sha256.h"
#include "campaign/campaign_definition.h"
#include "campaign/campaign_runner.h"
#include "campaign/prober.h"
#include "session/environment.h"
#include "store/store.h"
#include "target/target_kind.h"

namespace tare::bisect {
namespace {

constexpr char kTimeStepFormat[] = "tare.time-step/1";

std::string StepKey(const BuiltCommit& good, const BuiltCommit& candidate, const std::string& benchmark,
                    const std::vector<std::string>& args, const std::string& workdir, double allowance,
                    int64_t budget_ns) {
  // Length-prefixed fields, as count_cache.cc's keys.
  std::string text = kTimeStepFormat;
  auto add = [&](const std::string& s) { text += fmt::format("\n{}:{}", s.size(), s); };
  add(good.executable_sha256);
  add(candidate.executable_sha256);
  add(std::to_string(args.size()));
  for (const auto& a : args) add(a);
  add(workdir);
  add(benchmark);
  add(fmt::format("{:.17g}", allowance));
  add(std::to_string(budget_ns));
  return Sha256Hex(text);
}

std::optional<TimeChange> ReadStep(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  auto text = ReadFile(path);
  if (!text.ok()) return std::nullopt;
  auto read = ReadJsonText<TimeChange>(*text, path, [](const nlohmann::json& j) {
    TimeChange c;
    const std::string outcome = JsonAt<std::string>(j, "outcome");
    if (outcome == "same") {
      c.outcome = TimeOutcome::kSame;
    } else if (outcome == "changed") {
      c.outcome = TimeOutcome::kChanged;
    } else {
      JsonFail("outcome is neither same nor changed");
    }
    c.verdict = JsonAt<std::string>(j, "verdict");
    c.metric = JsonAt<std::string>(j, "metric");
    c.estimate = JsonAt<double>(j, "estimate");
    c.lo = JsonAt<double>(j, "lo");
    c.hi = JsonAt<double>(j, "hi");
    c.confidence = JsonAt<double>(j, "confidence");
    c.noise_floor = JsonAt<double>(j, "noise_floor");
    c.pairs = JsonAt<int64_t>(j, "pairs");
    c.run_id = JsonAt<int64_t>(j, "run_id");
    return c;
  });
  if (!read.ok()) return std::nullopt;
  read->from_cache = true;
  return *read;
}

Status WriteStep(const std::string& path, const TimeChange& c) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  nlohmann::json j = {{"format", kTimeStepFormat},
                      {"outcome", TimeOutcomeName(c.outcome)},
                      {"verdict", c.verdict},
                      {"metric", c.metric},
                      {"estimate", c.estimate},
                      {"lo", c.lo},
                      {"hi", c.hi},
                      {"confidence", c.confidence},
                      {"noise_floor", c.noise_floor},
                      {"pairs", c.pairs},
                      {"run_id", c.run_id}};
  return WriteFileAtomic(path, DumpJson(j, 2) + "\n");
}

// The step's answer from the cohort's comparison of the one cell.
TimeChange FromComparison(const AbComparison& cmp, int64_t run_id) {
  TimeChange c;
  c.run_id = run_id;
  if (cmp.broken.any()) {
    c.outcome = TimeOutcome::kBroken;
    c.verdict = std::string(VerdictName(cmp.verdict));
    c.reason = fmt::format("every sample of the {} arm failed: {}", cmp.broken.arms.front(), cmp.broken.error);
    return c;
  }
  if (cmp.metrics.empty()) {
    c.reason = "the campaign judged no metric";
    return c;
  }
  const AbMetricResult& m = cmp.metrics.front();
  c.verdict = std::string(VerdictName(m.verdict));
  c.metric = m.metric;
  c.estimate = m.estimate;
  c.lo = m.lo;
  c.hi = m.hi;
  c.confidence = m.confidence;
  c.noise_floor = m.noise_floor;
  c.pairs = m.pairs;
  switch (m.verdict) {
    case Verdict::kFail:
      c.outcome = TimeOutcome::kChanged;
      break;
    case Verdict::kPass:
      c.outcome = m.supported_gain ? TimeOutcome::kChanged : TimeOutcome::kSame;
      break;
    case Verdict::kInconclusive:
      c.outcome = TimeOutcome::kInconclusive;
      for (const auto& r : m.reasons) c.reason += (c.reason.empty() ? "" : "; ") + r;
      if (c.reason.empty()) c.reason = "the interval straddles the allowance";
      break;
  }
  return c;
}

}  // namespace

const char* TimeOutcomeName(TimeOutcome outcome) {
  switch (outcome) {
    case TimeOutcome::kSame:
      return "same";
    case TimeOutcome::kChanged:
      return "changed";
    case TimeOutcome::kInconclusive:
      return "inconclusive";
    case TimeOutcome::kBroken:
      return "broken";
  }
  return "inconclusive";
}

TimeStepper::TimeStepper(proc::Spawner& spawner, TimeStepSpec spec) : spawner_(spawner), spec_(std::move(spec)) {}
TimeStepper::~TimeStepper() = default;

StatusOr<TimeChange> TimeStepper::Compare(const BuiltCommit& good, const BuiltCommit& candidate,
                                          const std::string& benchmark, const std::vector<std::string>& args,
                                          const std::string& workdir) {
  const std::string step_path = candidate.record_dir + "/time/" +
                                StepKey(good, candidate, benchmark, args, workdir, spec_.allowance, spec_.budget_ns) +
                                ".json";
  if (auto cached = ReadStep(step_path)) {
    ++campaigns_from_cache_;
    return *cached;
  }

  campaign::SpawnerProber prober(spawner_);
  TARE_ASSIGN_OR_RETURN(TargetKind kind, target::DetectTargetKind(good.executable));
  std::string why;
  const bool task_clock = prober.TaskClockAvailable(workdir, &why);
  campaign::CampaignSpec spec;
  spec.name = fmt::format("bisect {}: {} vs {}", benchmark.empty() ? "(command)" : benchmark, good.commit.substr(0, 12),
                          candidate.commit.substr(0, 12));
  spec.base = good.executable;
  spec.heads = {candidate.executable};
  spec.args = args;
  spec.cwd = workdir;
  spec.budget_ns = spec_.budget_ns;
  if (!benchmark.empty()) spec.cells.push_back(campaign::CellSpec{benchmark, CellRole::kTarget, {}, {}, {}});
  // The default time metric of the kind (CPU time where it is countable), judged at the
  // bisection's allowance rather than "noise".
  spec.metrics = campaign::DefaultMetrics(kind, Instrument::kWall, task_clock);
  for (auto& m : spec.metrics) m.allowance = campaign::Allowance::Fraction(spec_.allowance);

  campaign::CampaignInput input;
  input.spec = campaign::ResolveSpecPaths(spec, workdir);
  input.campaign_source = "flags";
  input.campaign_text = campaign::SpecToJson(input.spec).dump(2);

  // The step's campaign is identified by its spec (both executables, the cell, the allowance, the
  // budget): a cohort of it that Ctrl-C interrupted is continued from its stored samples, as
  // `tare ab --resume` does, instead of starting over.
  TARE_ASSIGN_OR_RETURN(auto store, store::Store::Open(spec_.store_path));
  TARE_ASSIGN_OR_RETURN(std::vector<CohortRecord> cohorts, store->CohortsOf(campaign::CampaignIdentity(input.spec)));
  bool resume = false;
  for (const auto& c : cohorts) {
    resume = resume || c.state == CohortState::kRunning || c.state == CohortState::kInterrupted;
  }

  campaign::RunnerOptions ropts;
  ropts.resume = resume;
  ropts.stage_dir = spec_.stage_dir;
  ropts.base_env = session::ProcessEnvironment();
  ropts.command_line = spec_.command_line;
  ropts.tare_version = TARE_VERSION;
  ropts.provenance.commit = candidate.commit;
  ropts.cross_check = false;  // the step needs the time verdict only
  ropts.notice = spec_.notice;
  campaign::CampaignRunner runner(std::move(input), prober, ropts);
  TARE_RETURN_IF_ERROR(runner.Prepare());
  if (resume && spec_.notice) {
    spec_.notice(fmt::format("bisect: continuing the interrupted campaign of {} against the good end",
                             candidate.commit.substr(0, 12)));
  }
  TARE_ASSIGN_OR_RETURN(campaign::CampaignResult result, runner.Run(*store));
  ++campaigns_run_;
  if (result.stop == campaign::StopKind::kInterrupted) {
    return Status::Cancelled(fmt::format(
        "interrupted during the campaign of {} against the good end (its samples are in {}, run {}); the builds and "
        "the steps decided so far are cached",
        candidate.commit.substr(0, 12), spec_.store_path, result.report.run_id));
  }
  TimeChange c;
  c.run_id = result.report.run_id;
  if (result.stop != campaign::StopKind::kNone) {
    c.reason = fmt::format("the campaign stopped: {}", result.report.stop_reason);
    return c;
  }
  const AbComparison* found = nullptr;
  for (const auto& cmp : result.report.comparisons) {
    if (benchmark.empty() || cmp.cell == benchmark) found = &cmp;
  }
  if (found == nullptr) {
    c.reason = "the campaign judged no cell for the benchmark";
    return c;
  }
  c = FromComparison(*found, result.report.run_id);
  if (c.outcome == TimeOutcome::kSame || c.outcome == TimeOutcome::kChanged) {
    TARE_RETURN_IF_ERROR(WriteStep(step_path, c));
  }
  return c;
}

}  // namespace tare::bisect
