// CampaignRunner::Cohort: opening or resuming a cohort and the loop's hooks (internal/running_cohort.h;
// the loop itself is session::Session's). The looks, the budget and the estimates: cohort_looks.cc.
#include "internal/running_cohort.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/json_text.h"
#include "base/units.h"
#include "campaign/broken_cell.h"
#include "campaign/campaign_setup.h"
#include "campaign/exact_plan.h"
#include "campaign/resume.h"
#include "env/executable_info.h"
#include "env/host_fingerprint.h"
#include "env/target_environment.h"
#include "env/fingerprint_json.h"
#include "model/metric_names.h"
#include "report/ledger.h"
#include "session/write_behind.h"

namespace tare::campaign {
namespace {

// Google Benchmark user counters (gb.counter.NAME) whose meaning tare does not know by name.
bool IsUserCounter(const std::string& metric) {
  return metric.rfind(metric_name::kGbCounterPrefix, 0) == 0 &&
         LookupMetric(metric).direction == Direction::kLowerIsBetter;
}

}  // namespace

StatusOr<CampaignResult> CampaignRunner::Run(store::Store& store) {
  stage_->Keep();
  Cohort cohort(*this, store);
  return cohort.Run();
}

AnalysisSettings CampaignRunner::Cohort::Settings() const {
  AnalysisSettings s;
  for (const auto& arm : r_.arms_) {
    if (RoleOfArm(arm) == ArmRole::kHead) s.heads.push_back(arm);
  }
  s.null_arm = spec_.null_arm;
  s.metrics = r_.metrics_;
  s.cell_metrics = r_.cell_metrics_;
  // A Google Benchmark counter the binary reports as a rate (Counter::kIsRate) is higher-is-better
  // whatever its name says, unless the campaign declared a direction.
  if (session_ != nullptr) {
    auto rate = [&](MetricSpec& m) {
      if (!m.direction && session_->recorder().rates().count(m.name)) m.direction = Direction::kHigherIsBetter;
    };
    for (auto& m : s.metrics) rate(m);
    for (auto& [cell, metrics] : s.cell_metrics) {
      for (auto& m : metrics) rate(m);
    }
  }
  s.noise_floor = spec_.noise_floor;
  s.interval = spec_.interval;
  s.noise_cap = spec_.noise_cap;
  s.same_work_allowance = spec_.same_work_allowance;
  for (size_t c = 0; c < work_.size() && c < r_.cells_.size(); ++c) {
    if (work_[c].Same()) s.same_work[r_.cells_[c].name] = SameWorkNote(work_[c], spec_.same_work_allowance);
  }
  for (const auto& c : spec_.cells) {
    if (c.allowances.empty()) continue;
    s.cell_allowances[c.name] = c.allowances;
    for (int64_t k = 0; k < spec_.layouts && spec_.layouts > 1; ++k) {
      s.cell_allowances[LayoutCellName(c.name, k)] = c.allowances;
    }
  }
  return s;
}

session::Plan CampaignRunner::Cohort::MakePlan() const {
  session::Plan plan;
  plan.arms = r_.arms_;
  plan.write_behind = session::WriteBehindPaysHere();
  for (const auto& c : r_.cells_) {
    session::Cell cell;
    cell.name = c.name;
    cell.bench = c.bench;
    cell.benchmark_id = c.benchmark_id;
    for (const auto& arm : r_.arms_) cell.targets.push_back(r_.ArmTarget(arm, c));
    plan.cells.push_back(std::move(cell));
  }
  plan.arm_order = [order = spec_.order, arms = static_cast<int>(r_.arms_.size()), seed = spec_.seed](int64_t block) {
    return BlockArmOrder(order, arms, block, seed);
  };
  return plan;
}

// What earlier cohorts of the campaign ran per cell, the latest cohort's entry for each cell, each
// saying where it was fixed ("cohort 1"): a later cohort runs the same work instead of calibrating.
StatusOr<std::vector<LockedWork>> CampaignRunner::Cohort::EarlierWork() const {
  TARE_ASSIGN_OR_RETURN(std::vector<CohortRecord> all, store_.CohortsOf(r_.input_.campaign_sha256));
  std::sort(all.begin(), all.end(), [](const CohortRecord& a, const CohortRecord& b) { return a.cohort < b.cohort; });
  std::map<std::string, LockedWork> latest;
  for (const auto& c : all) {
    auto lock = LockFromJsonText(c.lock_json, fmt::format("cohort {}'s lock", c.cohort));
    if (!lock.ok()) continue;  // a damaged lock fixes nothing; the cell is calibrated anew
    for (LockedWork w : lock->work) {
      if (w.from.rfind("cohort ", 0) != 0) w.from = fmt::format("cohort {}", c.cohort);
      latest[w.cell] = w;
    }
  }
  std::vector<LockedWork> out;
  for (auto& [cell, w] : latest) out.push_back(std::move(w));
  return out;
}

Status CampaignRunner::Cohort::Open() {
  // The work per sample first: what an earlier cohort ran, else calibrated now (before anything is
  // stored, so a calibration that fails leaves no run behind).
  TARE_ASSIGN_OR_RETURN(std::vector<LockedWork> earlier, EarlierWork());
  TARE_ASSIGN_OR_RETURN(lock_.work, r_.FixWork(earlier));
  RunRecord record;
  record.kind = RunKind::kAb;
  record.started_unix_ns = started_unix_ns_ = r_.options_.clock->UnixNowNs();
  record.tare_version = r_.options_.tare_version;
  record.command_line = r_.options_.command_line;
  record.options_json = DumpJson(SpecToJson(spec_));
  record.fingerprint_json = DumpJson(env::FingerprintToJson(fingerprint_));
  record.fingerprint_digest = fingerprint_.HardDigest();
  record.provenance = r_.options_.provenance;
  record.shard = r_.shard_;
  TARE_ASSIGN_OR_RETURN(run_id_, store_.BeginRun(record));
  for (const auto& e : r_.stage_->executables()) {
    auto info = env::DescribeExecutable(e.path);
    nlohmann::json j = info.ok() ? env::ExecutableInfoToJson(*info) : nlohmann::json::object();
    j["source"] = e.source;
    TARE_RETURN_IF_ERROR(store_.AddExecutable(run_id_, {e.arm, e.path, e.sha256, DumpJson(j)}));
  }
  for (size_t i = 0; i < r_.cells_.size(); ++i) {
    Cell& c = r_.cells_[i];
    TARE_ASSIGN_OR_RETURN(c.benchmark_id, store_.AddBenchmark(run_id_, {0, c.bench.uri, c.bench.name, r_.kind_}));
    TARE_RETURN_IF_ERROR(
        store_.AddCell(run_id_, {static_cast<int64_t>(i), c.name, c.role, c.benchmark_id, c.args, c.env}));
  }
  for (const auto& m : r_.metrics_) {
    // A user counter's unit and direction come from the binary with its first sample (the
    // recorder stores it then): only the binary knows whether it is a rate.
    if (!m.direction && IsUserCounter(m.name)) continue;
    TARE_RETURN_IF_ERROR(store_.AddMetric(run_id_, ResolvedMetric(m)));
  }

  // The lock, before the first sample.
  lock_.campaign_sha256 = r_.input_.campaign_sha256;
  lock_.campaign_source = r_.input_.campaign_source;
  lock_.campaign_name = spec_.name;
  lock_.executables = r_.stage_->executables();
  lock_.fingerprint = env::FingerprintToJson(fingerprint_);
  lock_.fingerprint_digest = fingerprint_.HardDigest();
  lock_.tare_version = r_.options_.tare_version;
  lock_.created_unix_ns = started_unix_ns_;
  lock_.suite = r_.suite_.changes;
  lock_sha256_ = LockSha256(lock_);
  TARE_ASSIGN_OR_RETURN(cohort_, store_.NextCohort(lock_.campaign_sha256));
  CohortRecord c;
  c.run_id = run_id_;
  c.campaign_sha256 = lock_.campaign_sha256;
  c.campaign_name = spec_.name;
  c.campaign_source = lock_.campaign_source;
  c.campaign_text = r_.input_.campaign_text;
  c.spec_json = DumpJson(SpecToJson(spec_));
  c.lock_json = DumpJson(LockToJson(lock_));
  c.lock_sha256 = lock_sha256_;
  c.cohort = cohort_;
  c.state = CohortState::kRunning;
  TARE_RETURN_IF_ERROR(store_.AddCohort(c));
  return Status::Ok();
}

Status CampaignRunner::Cohort::Resume(RunData* stored_run, std::vector<int64_t>* blocks_done) {
  TARE_ASSIGN_OR_RETURN(std::vector<CohortRecord> all, store_.CohortsOf(r_.input_.campaign_sha256));
  // A sharded campaign's shards may share a store (one PostgreSQL database): only a cohort of the
  // same shard (or, unsharded, one without a shard) is continued.
  TARE_ASSIGN_OR_RETURN(std::vector<RunRecord> sharded,
                        store_.ShardedRuns(r_.shard_ ? r_.shard_->group : std::string()));
  std::map<int64_t, int64_t> shard_of_run;
  for (const auto& s : sharded) shard_of_run[s.id] = s.shard ? s.shard->index : 0;
  auto same_shard = [&](int64_t run_id) {
    auto it = shard_of_run.find(run_id);
    return r_.shard_ ? it != shard_of_run.end() && it->second == r_.shard_->index : it == shard_of_run.end();
  };
  const CohortRecord* open = nullptr;
  for (const auto& c : all) {
    if ((c.state == CohortState::kRunning || c.state == CohortState::kInterrupted) && same_shard(c.run_id)) open = &c;
  }
  if (open == nullptr) {
    return Status::FailedPrecondition(
        fmt::format("--resume: the store '{}' holds no interrupted cohort of this campaign{} ({} cohort{} "
                    "found, none interrupted{}); run without --resume to start a new cohort",
                    store_.path(), r_.shard_ ? fmt::format(" in shard {}/{}", r_.shard_->index, r_.shard_->count) : "",
                    all.size(), all.size() == 1 ? "" : "s", r_.shard_ ? " in this shard" : ""));
  }
  TARE_ASSIGN_OR_RETURN(lock_, LockFromJsonText(open->lock_json, fmt::format("--resume: run {} (cohort {})'s lock",
                                                                             open->run_id, open->cohort)));
  TARE_RETURN_IF_ERROR(
      CheckResumable(lock_, r_.stage_->executables(), fingerprint_.HardDigest(), r_.options_.tare_version));
  // The work the cohort locked, not a fresh calibration: its samples so far ran exactly that.
  TARE_RETURN_IF_ERROR(r_.FixWork(lock_.work).status());
  run_id_ = open->run_id;
  cohort_ = open->cohort;
  lock_sha256_ = open->lock_sha256;
  resumed_ = open->resumed + 1;
  started_unix_ns_ = open->started_unix_ns;

  TARE_ASSIGN_OR_RETURN(std::vector<CellRecord> stored_cells, store_.CellsOf(run_id_));
  if (stored_cells.size() != r_.cells_.size()) {
    return Status::FailedPrecondition(
        fmt::format("cannot resume cohort {}: it has {} cells, the campaign now gives {}; run without --resume",
                    cohort_, stored_cells.size(), r_.cells_.size()));
  }
  std::map<int64_t, int64_t> cell_of_benchmark;
  for (size_t i = 0; i < stored_cells.size(); ++i) {
    if (stored_cells[i].name != r_.cells_[i].name) {
      return Status::FailedPrecondition(
          fmt::format("cannot resume cohort {}: its cell {} is '{}', the campaign now gives '{}'; run without "
                      "--resume",
                      cohort_, i, stored_cells[i].name, r_.cells_[i].name));
    }
    r_.cells_[i].benchmark_id = stored_cells[i].benchmark_id;
    cell_of_benchmark[stored_cells[i].benchmark_id] = static_cast<int64_t>(i);
  }
  TARE_ASSIGN_OR_RETURN(*stored_run, store_.LoadRun(run_id_));
  TARE_ASSIGN_OR_RETURN(std::set<int64_t> discarded, store_.DiscardedSamplesOf(run_id_));
  std::vector<StoredCampaignSample> stored;
  std::map<int64_t, const Sample*> by_id;
  for (const auto& s : stored_run->samples) {
    if (discarded.count(s.id)) {
      next_seq_ = std::max(next_seq_, s.sample.seq + 1);
      continue;
    }
    auto cell = cell_of_benchmark.find(s.benchmark_id);
    stored.push_back({s.id, cell == cell_of_benchmark.end() ? -1 : cell->second, s.sample.arm, s.sample.block,
                      s.sample.seq, s.sample.outcome});
    by_id[s.id] = &s.sample;
  }
  ResumePoint point = FindResumePoint(stored, static_cast<int64_t>(r_.cells_.size()), r_.arms_);
  next_seq_ = std::max(next_seq_, point.next_seq);
  if (!point.discard.empty()) {
    TARE_RETURN_IF_ERROR(
        store_.DiscardSamples(run_id_, point.discard,
                              "block cut by an interruption: run again whole on resume, so its arms run back to back"));
    Notice(
        fmt::format("resume: {} sample{} of blocks cut by the interruption set aside (kept in "
                    "the store); those blocks run again whole",
                    point.discard.size(), point.discard.size() == 1 ? "" : "s"));
  }
  std::set<int64_t> dropped(point.discard.begin(), point.discard.end());
  for (const auto& s : stored) {
    if (dropped.count(s.id) || s.cell < 0) continue;
    cells_[static_cast<size_t>(s.cell)].samples[s.arm][s.block] = *by_id[s.id];
  }
  blocks_done->assign(cells_.size(), 0);
  int64_t kept = 0;
  for (size_t i = 0; i < cells_.size(); ++i) {
    (*blocks_done)[i] = point.complete_blocks[static_cast<int64_t>(i)];
    kept += (*blocks_done)[i];
  }
  TARE_RETURN_IF_ERROR(store_.MarkCohortResumed(run_id_));
  Notice(fmt::format("resuming cohort {} (run {}): {} complete block{} kept", cohort_, run_id_, kept,
                     kept == 1 ? "" : "s"));
  return Status::Ok();
}

StatusOr<CampaignResult> CampaignRunner::Cohort::Run() {
  TARE_ASSIGN_OR_RETURN(plan_, PlanLooks(spec_.sampling, spec_.confidence, spec_.look_scheme));
  fingerprint_ =
      env::CollectFingerprint(env::FingerprintOptions{.probe_valgrind = spec_.instrument == Instrument::kSim});
  // What the arms' environment (tare's, with --env) does to the code: as `tare run` and `tare env` say it.
  env::AddTargetEnvironment(&fingerprint_, session::ApplyEnvOverrides(r_.options_.base_env, spec_.env));
  cells_.assign(r_.cells_.size(), CellState{});
  budget_ns_ = BudgetNs(spec_, cells_.size());
  exact_blocks_ = ExactPlanApplies(spec_) ? ExactPlanBlocks(spec_.null_arm) : 0;
  for (auto& st : cells_) {
    st.exact = exact_blocks_ > 0;
    st.target = st.exact ? exact_blocks_ : plan_.pairs.front();
  }
  RunData stored;
  std::vector<int64_t> blocks_done;
  TARE_RETURN_IF_ERROR(r_.options_.resume ? Resume(&stored, &blocks_done) : Open());

  const std::unique_ptr<session::Measurer> measurer = r_.prober_.MakeMeasurer(r_.measure_);
  session_ = std::make_unique<session::Session>(MakePlan(), *measurer, store_, run_id_, *this);
  session_->set_progress(r_.options_.progress);
  session_->recorder().Seed(stored);
  session_->Resume(next_seq_, blocks_done);

  session_started_ns_ = r_.options_.clock->UnixNowNs();
  NoticePlanCost();
  NoticeEarlierCohort();
  // The work tier counts against the budget: the suite's wall time is what CI waits for. A resumed
  // cohort reads it again (the counts are exact, so the same), before its stored looks are replayed.
  Status error = WorkTier();
  if (error.ok()) error = ReplayLooks();
  if (error.ok()) error = session_->Run();
  suite_ = r_.suite_.changes;
  if (error.ok() && session_->stop() == StopKind::kNone) error = MeasureNewBenchmarks(*measurer, stored);
  // Failed samples were told once per cell and error; how often each came back, for the cells that
  // ran (a broken cell's count is in its verdict).
  for (const auto& repeat : failures_.Repeated()) {
    bool broken = false;
    for (size_t c = 0; c < cells_.size(); ++c) {
      if (r_.cells_[c].name != repeat.key) continue;
      for (const auto& comp : cells_[c].comparisons) broken = broken || comp.broken.any();
    }
    if (!broken) {
      Notice(fmt::format("{}: {} failed samples in all with the error told above: {}", repeat.key, repeat.times,
                         repeat.error));
    }
  }

  std::vector<AbCheck> bounds;
  if (session_->stop() == StopKind::kNone && error.ok()) {
    CrossCheck();
    error = StoreShownLooks();
    bounds = EvaluateBounds();
    if (!bounds.empty() && error.ok()) error = store_.SaveChecks(run_id_, CheckKind::kBound, bounds);
  }
  const StopKind stop = session_->stop();
  // A store write that failed for want of space or a server leaves the cohort resumable: what was
  // stored is intact, and --resume continues once space (or the server) is back.
  const bool store_lost_a_write = !error.ok() && store_.LostAWriteToTheHost();
  if (store_lost_a_write) {
    error = error.WithMore(
        "once fixed, run the same `tare ab` command with --resume to continue this cohort from its stored samples");
  }
  const CohortState state = store_lost_a_write               ? CohortState::kInterrupted
                            : !error.ok()                    ? CohortState::kStopped
                            : stop == StopKind::kInterrupted ? CohortState::kInterrupted
                            : stop != StopKind::kNone        ? CohortState::kStopped
                                                             : CohortState::kComplete;
  const std::string stop_reason = !error.ok() ? error.message() : session_->stop_reason();
  auto report = BuildReport(bounds);
  if (!report.ok()) {
    // The report reads the store, which the error that ended the cohort (a server gone) usually
    // took too: the cohort's state is still written, and the first error, with its advice to
    // resume, is the one told (issue 48, item 6: the report's error replaced it, and the cohort
    // was left `running`).
    Status saved = store_.SetCohortState(run_id_, state, stop_reason, "");
    Status finished =
        store_.FinishRun(run_id_, state == CohortState::kInterrupted ? RunStatus::kInterrupted : RunStatus::kFailed,
                         r_.options_.clock->UnixNowNs());
    if (error.ok()) return report.status();
    if (!saved.ok()) {
      error =
          error.WithMore(fmt::format("the cohort is still marked running in the store ({}); --resume continues "
                                     "it all the same",
                                     saved.message()));
    }
    return error;
  }
  report->state = state;
  report->stop_reason = stop_reason;
  const std::string outcome =
      state == CohortState::kComplete && report->has_verdicts ? report::OutcomeWord(*report) : "";  // BROKEN too
  // The cohort's final state is written even after an error; if that write fails too, the first
  // error is the one reported.
  Status saved = store_.SetCohortState(run_id_, state, stop_reason, outcome);
  Status finished = store_.FinishRun(run_id_,
                                     state == CohortState::kComplete      ? RunStatus::kComplete
                                     : state == CohortState::kInterrupted ? RunStatus::kInterrupted
                                                                          : RunStatus::kFailed,
                                     report->ended_unix_ns);
  for (auto& c : report->cohorts) {
    if (c.current) {
      c.state = state;
      c.stop_reason = stop_reason;
      c.outcome = outcome;
    }
  }
  if (!error.ok() && !saved.ok()) {
    return error.WithMore(
        fmt::format("the cohort is still marked running in the store ({}); --resume continues it "
                    "all the same",
                    saved.message()));
  }
  if (!error.ok()) return error;
  if (!saved.ok()) return saved;
  if (!finished.ok()) return finished;
  return CampaignResult{std::move(*report), stop, work_tier_ns_};
}

int64_t CampaignRunner::Cohort::TargetBlocks(size_t cell) const {
  return cells_[cell].active ? cells_[cell].target : 0;
}

std::string CampaignRunner::Cohort::ProgressLine(const session::Session& session, size_t cell, const std::string& arm,
                                                 int64_t block) const {
  const std::string eta = Eta();
  return fmt::format("[sample {}] {} block {}/{} {}{}", session.next_seq() + 1, r_.cells_[cell].name, block + 1,
                     cells_[cell].target, arm, eta.empty() ? "" : " · " + eta);
}

std::string CampaignRunner::Cohort::Eta() const {
  if (samples_run_ < 1 || !session_) return "";
  // The work tier ran before the first sample: not a sample's cost.
  const double per_sample = static_cast<double>(r_.options_.clock->UnixNowNs() - session_started_ns_ - work_tier_ns_) /
                            static_cast<double>(samples_run_);
  const double arms = static_cast<double>(r_.arms_.size());
  double planned = 0, most = 0;  // samples left: to the current targets, and to the cap
  for (size_t c = 0; c < cells_.size(); ++c) {
    if (!cells_[c].active) continue;
    const int64_t done = BlocksDone(c);
    planned += static_cast<double>(std::max<int64_t>(0, cells_[c].target - done)) * arms;
    most += static_cast<double>(std::max<int64_t>(0, plan_.pairs.back() - done)) * arms;
  }
  double eta = planned * per_sample, at_most = most * per_sample;
  if (budget_ns_ > 0) {
    // The budget counts after the first looks: until then it can end nothing sooner than they do.
    double first = 0;
    for (size_t c = 0; c < cells_.size(); ++c) {
      if (cells_[c].active && cells_[c].look_index == 0) {
        first += static_cast<double>(std::max<int64_t>(0, cells_[c].target - BlocksDone(c))) * arms;
      }
    }
    const double left = std::max(
        first * per_sample, static_cast<double>(budget_ns_ - (r_.options_.clock->UnixNowNs() - session_started_ns_)));
    eta = std::min(eta, std::max(0.0, left));
    at_most = std::min(at_most, std::max(0.0, left));
  }
  return at_most > eta * 1.05 ? fmt::format("ETA {} (at most {})", FormatDurationNs(eta), FormatDurationNs(at_most))
                              : fmt::format("ETA {}", FormatDurationNs(eta));
}

void CampaignRunner::Cohort::OnSample(session::Session& session, size_t cell, const Sample& sample) {
  const Cell& c = r_.cells_[cell];
  // Told once per cell and error, with the end of its stderr: a benchmark that fails the same way
  // in every process (a broken one) is not told again per sample; every failure is stored and
  // counted in the ledger.
  if (!sample.ok() && sample.outcome != SampleOutcome::kInterrupted && failures_.First(c.name, sample.error)) {
    Progress("");
    Notice(fmt::format("{} {} block {}: sample failed: {}{}", c.name, sample.arm, sample.block, sample.error,
                       session::StderrTail(sample.stderr_tail)));
  }
  cells_[cell].samples[sample.arm][sample.block] = sample;
  ++samples_run_;
  if (!gates_checked_ && !early_estimate_told_ && samples_run_ == kEarlyEstimateSamples &&
      cells_.size() * r_.arms_.size() >= 4 * static_cast<size_t>(kEarlyEstimateSamples)) {
    early_estimate_told_ = true;
    NoticeEstimate(/*early=*/true);
  }
  Status unchanged = r_.stage_->CheckUnchanged();
  if (!unchanged.ok()) session.Stop(StopKind::kExecutableChanged, unchanged.message());
}

Status CampaignRunner::Cohort::AfterRound(session::Session& session) {
  if (!gates_checked_) {
    bool all_started = true;
    for (size_t c = 0; c < cells_.size(); ++c) all_started = all_started && BlocksDone(c) >= 1;
    if (all_started) {
      TARE_RETURN_IF_ERROR(CheckGates());
      NoticeEstimate();
    }
    if (session.stop() != StopKind::kNone) return Status::Ok();
  }
  // A broken benchmark is one failed cell: settled as soon as it is known, the others go on.
  for (size_t c = 0; c < cells_.size(); ++c) {
    if (!cells_[c].active) continue;
    if (const int64_t at = BreakageSettlesAt(cells_[c].samples, r_.arms_, Heads(), BlocksDone(c)); at > 0) {
      TARE_RETURN_IF_ERROR(SettleBroken(c, at));
    }
  }
  // The exact plan's check first: it spends no confidence and ends the cell when it holds, so a
  // budget that runs out in the same round does not pre-empt it.
  for (size_t c = 0; c < cells_.size(); ++c) {
    if (cells_[c].active && cells_[c].exact && BlocksDone(c) >= cells_[c].target) TARE_RETURN_IF_ERROR(Look(c));
  }
  // Every planned look that is due is taken (a look at its planned pair count is one the scheme
  // covers, however late), then the budget ends what is still undecided.
  for (size_t c = 0; c < cells_.size(); ++c) {
    if (cells_[c].active && BlocksDone(c) >= cells_[c].target) TARE_RETURN_IF_ERROR(Look(c));
  }
  if (!projection_told_ && exact_blocks_ == 0 && FirstLooksTaken()) {
    projection_told_ = true;
    NoticeProjection();
  }
  if (budget_ns_ > 0 && !budget_spent_ && FirstLooksTaken() &&
      r_.options_.clock->UnixNowNs() - session_started_ns_ >= budget_ns_) {
    return SpendBudget();
  }
  return Status::Ok();
}

}  // namespace tare::campaign
