// CampaignRunner::Run: one cohort, from the lock to the report (the loop is described in
// campaign_runner.h).
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/core.h>

#include "base/sha256.h"
#include "base/units.h"
#include "campaign/analysis.h"
#include "campaign/campaign_setup.h"
#include "campaign/campaign_runner.h"
#include "campaign/lock.h"
#include "campaign/resume.h"
#include "env/executable_info.h"
#include "env/fingerprint.h"
#include "env/fingerprint_json.h"

namespace tare::campaign {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string HostSummary(const Fingerprint& fp) {
  return fmt::format("{}, {} logical CPUs, Linux {}", fp.Get("cpu.model_name"), fp.Get("cpu.logical"),
                     fp.Get("os.kernel"));
}

// "cell (arm): kind" of a warning note "cell (arm): kind: figures...".
std::string WarningKind(const std::string& note) {
  size_t arm_end = note.find("): ");
  size_t kind_end = arm_end == std::string::npos ? std::string::npos : note.find(':', arm_end + 3);
  return note.substr(0, kind_end);
}

std::string CountVerdicts(const std::vector<AbComparison>& comps) {
  int pass = 0, inconclusive = 0, fail = 0;
  for (const auto& c : comps) {
    (c.verdict == Verdict::kPass ? pass : c.verdict == Verdict::kFail ? fail : inconclusive)++;
  }
  std::vector<std::string> parts;
  if (pass) parts.push_back(fmt::format("{} PASS", pass));
  if (fail) parts.push_back(fmt::format("{} FAIL", fail));
  if (inconclusive) parts.push_back(fmt::format("{} INCONCLUSIVE", inconclusive));
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

class CampaignRunner::Session {
 public:
  Session(CampaignRunner& runner, store::Store& store)
      : r_(runner), spec_(runner.input_.spec), store_(store) {}

  StatusOr<CampaignResult> Run();

 private:
  struct CellState {
    CellSamples samples;
    int64_t blocks_done = 0;
    int64_t target = 0;
    size_t look_index = 0;  // next planned look
    bool active = true;
    std::vector<AbComparison> comparisons;  // the latest look's
  };

  Status Open();
  Status Resume();
  Status RunBlock(size_t cell, int64_t block);
  Status Look(size_t cell);
  void ReplayLooks();
  void CheckGates();
  std::vector<AbCheck> EvaluateBounds() const;
  void Stop(StopKind kind, const std::string& reason) {
    if (stop_ == StopKind::kNone) {
      stop_ = kind;
      stop_reason_ = reason;
    }
  }
  StatusOr<report::AbReport> BuildReport(const std::vector<AbCheck>& bounds);
  void Progress(const std::string& line) { if (r_.options_.progress) r_.options_.progress(line); }
  void Notice(const std::string& line) { if (r_.options_.notice) r_.options_.notice(line); }
  AnalysisSettings Settings() const;

  CampaignRunner& r_;
  const CampaignSpec& spec_;
  store::Store& store_;
  LookPlan plan_;
  Fingerprint fingerprint_;
  Lock lock_;
  std::string lock_sha256_;
  int64_t run_id_ = 0;
  int64_t cohort_ = 0;
  int64_t resumed_ = 0;
  int64_t started_unix_ns_ = 0;
  int64_t seq_ = 0;
  std::vector<CellState> cells_;
  std::set<std::string> seen_metrics_, seen_notes_, seen_warnings_, kept_profiles_;
  std::vector<std::string> warnings_;  // the target's own warnings (sim), one per kind
  std::vector<AbCheck> gate_checks_;
  bool gates_checked_ = false;
  StopKind stop_ = StopKind::kNone;
  std::string stop_reason_;
};

StatusOr<CampaignResult> CampaignRunner::Run(store::Store& store) {
  Session session(*this, store);
  return session.Run();
}

AnalysisSettings CampaignRunner::Session::Settings() const {
  AnalysisSettings s;
  for (const auto& arm : r_.arms_) {
    if (ArmRole(arm) == "head") s.heads.push_back(arm);
  }
  s.null_arm = spec_.null_arm;
  s.metrics = r_.metrics_;
  s.noise_floor = spec_.noise_floor;
  return s;
}

Status CampaignRunner::Session::Open() {
  run_id_ = 0;
  RunRecord record;
  record.kind = "ab";
  record.started_unix_ns = started_unix_ns_ = NowNs();
  record.tare_version = r_.options_.tare_version;
  record.command_line = r_.options_.command_line;
  record.options_json = SpecToJson(spec_).dump();
  record.fingerprint_json = env::FingerprintToJson(fingerprint_).dump();
  record.fingerprint_digest = fingerprint_.HardDigest();
  TARE_ASSIGN_OR_RETURN(run_id_, store_.BeginRun(record));
  for (const auto& e : r_.stage_->executables()) {
    auto info = env::DescribeExecutable(e.path);
    nlohmann::json j = info.ok() ? env::ExecutableInfoToJson(*info) : nlohmann::json::object();
    j["source"] = e.source;
    TARE_RETURN_IF_ERROR(store_.AddExecutable(run_id_, {e.arm, e.path, e.sha256, j.dump()}));
  }
  for (size_t i = 0; i < r_.cells_.size(); ++i) {
    Cell& c = r_.cells_[i];
    TARE_ASSIGN_OR_RETURN(c.benchmark_id, store_.AddBenchmark(run_id_, {0, c.bench.uri, c.bench.name, r_.kind_}));
    TARE_RETURN_IF_ERROR(store_.AddCell(
        run_id_, {static_cast<int64_t>(i), c.name, c.role, c.benchmark_id, c.args, c.env}));
  }
  for (const auto& m : r_.metrics_) TARE_RETURN_IF_ERROR(store_.AddMetric(run_id_, ResolvedMetric(m)));
  seen_metrics_.clear();

  // The lock, before the first sample.
  lock_.campaign_sha256 = r_.input_.campaign_sha256;
  lock_.campaign_source = r_.input_.campaign_source;
  lock_.campaign_name = spec_.name;
  lock_.executables = r_.stage_->executables();
  lock_.fingerprint = env::FingerprintToJson(fingerprint_);
  lock_.fingerprint_digest = fingerprint_.HardDigest();
  lock_.tare_version = r_.options_.tare_version;
  lock_.created_unix_ns = started_unix_ns_;
  lock_sha256_ = LockSha256(lock_);
  TARE_ASSIGN_OR_RETURN(cohort_, store_.NextCohort(lock_.campaign_sha256));
  CohortRecord c;
  c.run_id = run_id_;
  c.campaign_sha256 = lock_.campaign_sha256;
  c.campaign_name = spec_.name;
  c.campaign_source = lock_.campaign_source;
  c.campaign_text = r_.input_.campaign_text;
  c.spec_json = SpecToJson(spec_).dump();
  c.lock_json = LockToJson(lock_).dump();
  c.lock_sha256 = lock_sha256_;
  c.cohort = cohort_;
  c.state = "running";
  TARE_RETURN_IF_ERROR(store_.AddCohort(c));
  for (auto& s : cells_) s.target = plan_.pairs.front();
  return Status::Ok();
}

Status CampaignRunner::Session::Resume() {
  TARE_ASSIGN_OR_RETURN(std::vector<CohortRecord> all, store_.CohortsOf(r_.input_.campaign_sha256));
  const CohortRecord* open = nullptr;
  for (const auto& c : all) {
    if (c.state == "running" || c.state == "interrupted") open = &c;
  }
  if (open == nullptr) {
    return Status::FailedPrecondition(fmt::format(
        "--resume: the store '{}' holds no interrupted cohort of this campaign ({} cohort{} "
        "found, none interrupted); run without --resume to start a new cohort",
        store_.path(), all.size(), all.size() == 1 ? "" : "s"));
  }
  auto parsed = nlohmann::json::parse(open->lock_json, nullptr, false);
  TARE_ASSIGN_OR_RETURN(lock_, LockFromJson(parsed));
  TARE_RETURN_IF_ERROR(CheckResumable(lock_, r_.stage_->executables(), fingerprint_.HardDigest(),
                                      r_.options_.tare_version));
  run_id_ = open->run_id;
  cohort_ = open->cohort;
  lock_sha256_ = open->lock_sha256;
  resumed_ = open->resumed + 1;
  started_unix_ns_ = open->started_unix_ns;

  TARE_ASSIGN_OR_RETURN(std::vector<CellRecord> stored_cells, store_.CellsOf(run_id_));
  if (stored_cells.size() != r_.cells_.size()) {
    return Status::FailedPrecondition(fmt::format(
        "cannot resume cohort {}: it has {} cells, the campaign now gives {}; run without --resume",
        cohort_, stored_cells.size(), r_.cells_.size()));
  }
  std::map<int64_t, int64_t> cell_of_benchmark;
  for (size_t i = 0; i < stored_cells.size(); ++i) {
    if (stored_cells[i].name != r_.cells_[i].name) {
      return Status::FailedPrecondition(fmt::format(
          "cannot resume cohort {}: its cell {} is '{}', the campaign now gives '{}'; run without "
          "--resume", cohort_, i, stored_cells[i].name, r_.cells_[i].name));
    }
    r_.cells_[i].benchmark_id = stored_cells[i].benchmark_id;
    cell_of_benchmark[stored_cells[i].benchmark_id] = static_cast<int64_t>(i);
  }
  TARE_ASSIGN_OR_RETURN(RunData data, store_.LoadRun(run_id_));
  TARE_ASSIGN_OR_RETURN(std::set<int64_t> discarded, store_.DiscardedSamplesOf(run_id_));
  std::vector<StoredCampaignSample> stored;
  std::map<int64_t, const Sample*> by_id;
  for (const auto& s : data.samples) {
    if (discarded.count(s.id)) {
      seq_ = std::max(seq_, s.sample.seq + 1);
      continue;
    }
    auto cell = cell_of_benchmark.find(s.benchmark_id);
    stored.push_back({s.id, cell == cell_of_benchmark.end() ? -1 : cell->second, s.sample.arm,
                      s.sample.block, s.sample.seq, s.sample.outcome});
    by_id[s.id] = &s.sample;
  }
  for (const auto& m : data.metrics) seen_metrics_.insert(m.name);
  for (const auto& n : data.notes) {
    if (n.level == "warn") {
      if (seen_warnings_.insert(WarningKind(n.message)).second) warnings_.push_back(n.message);
    } else {
      seen_notes_.insert(n.message);
    }
  }
  ResumePoint point = FindResumePoint(stored, static_cast<int64_t>(r_.cells_.size()), r_.arms_);
  seq_ = std::max(seq_, point.next_seq);
  if (!point.discard.empty()) {
    TARE_RETURN_IF_ERROR(store_.DiscardSamples(
        run_id_, point.discard,
        "block cut by an interruption: run again whole on resume, so its arms run back to back"));
    Notice(fmt::format("resume: {} sample{} of blocks cut by the interruption set aside (kept in "
                       "the store); those blocks run again whole",
                       point.discard.size(), point.discard.size() == 1 ? "" : "s"));
  }
  std::set<int64_t> dropped(point.discard.begin(), point.discard.end());
  for (const auto& s : stored) {
    if (dropped.count(s.id) || s.cell < 0) continue;
    cells_[static_cast<size_t>(s.cell)].samples[s.arm][s.block] = *by_id[s.id];
  }
  for (size_t i = 0; i < cells_.size(); ++i) {
    cells_[i].blocks_done = point.complete_blocks[static_cast<int64_t>(i)];
    cells_[i].target = plan_.pairs.front();
  }
  TARE_RETURN_IF_ERROR(store_.MarkCohortResumed(run_id_));
  int64_t kept = 0;
  for (const auto& c : cells_) kept += c.blocks_done;
  Notice(fmt::format("resuming cohort {} (run {}): {} complete block{} kept", cohort_, run_id_, kept,
                     kept == 1 ? "" : "s"));
  return Status::Ok();
}

StatusOr<CampaignResult> CampaignRunner::Session::Run() {
  TARE_ASSIGN_OR_RETURN(plan_, PlanLooks(spec_.sampling, spec_.confidence, spec_.look_scheme));
  fingerprint_ = env::CollectFingerprint(env::FingerprintOptions{.probe_valgrind = spec_.instrument == "sim"});
  cells_.assign(r_.cells_.size(), CellState{});
  TARE_RETURN_IF_ERROR(r_.options_.resume ? Resume() : Open());
  ReplayLooks();

  Status error;
  while (stop_ == StopKind::kNone && error.ok()) {
    bool ran = false;
    for (size_t c = 0; c < cells_.size() && stop_ == StopKind::kNone && error.ok(); ++c) {
      CellState& st = cells_[c];
      if (!st.active || st.blocks_done >= st.target) continue;
      error = RunBlock(c, st.blocks_done);
      if (error.ok() && stop_ == StopKind::kNone) {
        ++st.blocks_done;
        ran = true;
      }
    }
    if (stop_ != StopKind::kNone || !error.ok()) break;
    if (!gates_checked_) {
      bool all_started = true;
      for (const auto& st : cells_) all_started = all_started && st.blocks_done >= 1;
      if (all_started) CheckGates();
      if (stop_ != StopKind::kNone) break;
    }
    bool looked = false;
    for (size_t c = 0; c < cells_.size() && error.ok(); ++c) {
      if (cells_[c].active && cells_[c].blocks_done >= cells_[c].target) {
        error = Look(c);
        looked = true;
      }
    }
    bool any_active = false;
    for (const auto& st : cells_) any_active = any_active || st.active;
    if (!any_active || (!ran && !looked)) break;
  }
  if (r_.options_.progress) r_.options_.progress("");

  std::vector<AbCheck> bounds;
  if (stop_ == StopKind::kNone && error.ok()) bounds = EvaluateBounds();
  if (!bounds.empty()) (void)store_.SaveChecks(run_id_, "bound", bounds);

  const std::string state = !error.ok()                         ? "stopped"
                            : stop_ == StopKind::kInterrupted   ? "interrupted"
                            : stop_ != StopKind::kNone          ? "stopped"
                                                                : "complete";
  if (!error.ok()) stop_reason_ = error.message();
  auto report = BuildReport(bounds);
  if (!report.ok()) return report.status();
  report->state = state;
  report->stop_reason = stop_reason_;
  const std::string outcome =
      state == "complete" && report->has_verdicts ? std::string(VerdictName(report->outcome)) : "";
  (void)store_.SetCohortState(run_id_, state, stop_reason_, outcome);
  (void)store_.FinishRun(run_id_,
                         state == "complete"      ? RunStatus::kComplete
                         : state == "interrupted" ? RunStatus::kInterrupted
                                                  : RunStatus::kFailed,
                         report->ended_unix_ns);
  for (auto& c : report->cohorts) {
    if (c.current) {
      c.state = state;
      c.stop_reason = stop_reason_;
      c.outcome = outcome;
    }
  }
  if (!error.ok()) return error;
  return CampaignResult{std::move(*report), stop_};
}

Status CampaignRunner::Session::RunBlock(size_t cell, int64_t block) {
  const Cell& c = r_.cells_[cell];
  CellState& st = cells_[cell];
  const std::vector<int> order =
      BlockArmOrder(spec_.order, static_cast<int>(r_.arms_.size()), block, spec_.seed);
  for (size_t pos = 0; pos < order.size(); ++pos) {
    const std::string& arm = r_.arms_[static_cast<size_t>(order[pos])];
    if (proc::Interrupted()) {
      Stop(StopKind::kInterrupted, "interrupted (Ctrl-C)");
      return Status::Ok();
    }
    Progress(fmt::format("[sample {}] {} block {}/{} {}", seq_ + 1, c.name, block + 1, st.target, arm));
    std::vector<std::string> unavailable;
    target::MeasureExtras extras;
    TARE_ASSIGN_OR_RETURN(Sample sample, target::MeasureOnce(r_.spawner_, r_.ArmTarget(arm, c), c.bench,
                                                             r_.measure_, &unavailable, &extras));
    sample.seq = seq_++;
    sample.arm = arm;
    sample.block = block;
    for (const auto& [name, value] : sample.values) {
      if (seen_metrics_.insert(name).second) (void)store_.AddMetric(run_id_, LookupMetric(name));
    }
    for (const auto& reason : unavailable) {
      if (seen_notes_.insert(reason).second) (void)store_.AddNote(run_id_, {"info", reason});
    }
    for (const auto& w : extras.warnings) {
      // One warning of a kind per cell and arm: the figures in it vary by sample.
      const std::string note = fmt::format("{} ({}): {}", c.name, arm, w);
      if (seen_warnings_.insert(WarningKind(note)).second) {
        (void)store_.AddNote(run_id_, {"warn", note});
        warnings_.push_back(note);
      }
    }
    // Raw profiles (sim) are kept once per cell and arm: the counts repeat exactly, and `tare
    // attribute` can compare base's with head's.
    if (!extras.artifacts.empty() && sample.ok() && kept_profiles_.insert(c.bench.uri + "\x1f" + arm).second) {
      for (const auto& [name, content] : extras.artifacts) {
        (void)store_.AddArtifact(run_id_, c.benchmark_id, arm + "/" + name, content);
      }
    }
    auto stored = store_.AppendSample(run_id_, c.benchmark_id, sample);
    if (!stored.ok()) return stored.status();
    const bool interrupted = sample.outcome == SampleOutcome::kInterrupted;
    if (!sample.ok() && !interrupted) {
      Progress("");
      Notice(fmt::format("{} {} block {}: sample failed: {}", c.name, arm, block, sample.error));
    }
    st.samples[arm][block] = std::move(sample);
    if (interrupted || proc::Interrupted()) {
      Stop(StopKind::kInterrupted, "interrupted (Ctrl-C)");
      return Status::Ok();
    }
    Status unchanged = r_.stage_->CheckUnchanged();
    if (!unchanged.ok()) {
      Stop(StopKind::kExecutableChanged, unchanged.message());
      return Status::Ok();
    }
  }
  return Status::Ok();
}

Status CampaignRunner::Session::Look(size_t cell) {
  CellState& st = cells_[cell];
  const Cell& c = r_.cells_[cell];
  const int64_t pairs = plan_.pairs[st.look_index];
  st.comparisons = JudgeCell(st.samples, c.name, c.role, pairs, static_cast<int64_t>(st.look_index) + 1,
                             plan_.per_look_confidence, Settings());
  ++st.look_index;
  const bool last = st.look_index >= plan_.pairs.size();
  const bool final = last || !NeedsMorePairs(st.comparisons);
  TARE_RETURN_IF_ERROR(store_.SaveVerdicts(run_id_, static_cast<int64_t>(cell),
                                             static_cast<int64_t>(st.look_index), final, st.comparisons));
  if (final) {
    st.active = false;
  } else {
    st.target = plan_.pairs[st.look_index];
  }
  Progress("");
  Notice(fmt::format("look {}/{} at {} pairs: {}: {}{}", st.look_index, plan_.pairs.size(), pairs,
                     c.name, CountVerdicts(st.comparisons),
                     final ? "" : fmt::format("; undecided, continuing to {} pairs", st.target)));
  return Status::Ok();
}

void CampaignRunner::Session::ReplayLooks() {
  bool all_started = !cells_.empty();
  for (const auto& st : cells_) all_started = all_started && st.blocks_done >= 1;
  if (all_started) CheckGates();
  for (size_t c = 0; c < cells_.size(); ++c) {
    CellState& st = cells_[c];
    while (st.active && st.look_index < plan_.pairs.size() &&
           st.blocks_done >= plan_.pairs[st.look_index]) {
      if (!Look(c).ok()) break;
    }
  }
}

void CampaignRunner::Session::CheckGates() {
  gates_checked_ = true;
  gate_checks_.clear();
  std::string violation;
  // Built in: every arm's first sample must run and carry every metric of the campaign; nothing
  // else in the campaign could be trusted otherwise.
  for (size_t c = 0; c < cells_.size(); ++c) {
    for (const auto& arm : r_.arms_) {
      auto& by_block = cells_[c].samples[arm];
      auto it = by_block.find(0);
      if (it == by_block.end()) continue;
      const Sample& s = it->second;
      if (!s.ok()) {
        std::string tail = s.stderr_tail.size() > 300 ? s.stderr_tail.substr(s.stderr_tail.size() - 300) : s.stderr_tail;
        while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
        violation = fmt::format("the {} arm's first sample in cell '{}' failed ({}){}", arm,
                                r_.cells_[c].name, s.error,
                                tail.empty() ? "" : "; its stderr ends: " + tail);
        gate_checks_.push_back({"gate", "every arm's first sample succeeds", r_.cells_[c].name, arm,
                                kNaN, kNaN, "", false});
        break;
      }
      for (const auto& m : r_.metrics_) {
        if (s.values.count(m.name)) continue;
        // Perf events the host cannot count leave a note "<event>: <why>".
        std::string why;
        for (const auto& event : PerfEventsFor({m})) {
          for (const auto& note : seen_notes_) {
            if (note.rfind(event + ":", 0) == 0) why = " (" + note + ")";
          }
        }
        violation = fmt::format("metric {} was not measured for the {} arm in cell '{}'{}; remove it "
                                "from the campaign's metrics", m.name, arm, r_.cells_[c].name, why);
        gate_checks_.push_back({"gate", "every metric is measured", r_.cells_[c].name, arm,
                                kNaN, kNaN, "", false});
        break;
      }
      if (!violation.empty()) break;
    }
    if (!violation.empty()) break;
  }
  if (violation.empty()) {
    for (const auto& g : r_.gates_) {
      const MetricDef def = LookupMetric(g.metric);
      for (size_t c = 0; c < cells_.size(); ++c) {
        const auto refs = ExpandRuleArm(g.ref_arm, r_.arms_);
        for (const auto& arm : ExpandRuleArm(g.arm, r_.arms_)) {
          const auto& samples = cells_[c].samples;
          auto value_of = [&](const std::string& a, const std::string& metric) {
            auto s = samples.find(a);
            if (s == samples.end()) return kNaN;
            auto b = s->second.find(0);
            if (b == s->second.end()) return kNaN;
            auto v = b->second.values.find(metric);
            return v == b->second.values.end() ? kNaN : v->second;
          };
          const double value = value_of(arm, g.metric);
          const double limit = refs.empty() ? kNaN : GateLimit(g, value_of(refs.front(), g.ref_metric));
          const bool ok = !(value > limit);  // a missing value cannot violate
          gate_checks_.push_back({"gate", g.text, r_.cells_[c].name, arm, value, limit, def.unit, ok});
          if (!ok && violation.empty()) {
            violation = fmt::format("sanity gate \"{}\" is violated in cell '{}': {} is {}, the limit is {}",
                                    g.text, r_.cells_[c].name, arm, FormatValue(value, def.unit),
                                    FormatValue(limit, def.unit));
          }
        }
      }
    }
  }
  (void)store_.SaveChecks(run_id_, "gate", gate_checks_);
  if (!violation.empty()) {
    Stop(StopKind::kGate, violation + "; the campaign stopped after its first block");
  }
}

std::vector<AbCheck> CampaignRunner::Session::EvaluateBounds() const {
  std::vector<AbCheck> out;
  for (const auto& b : spec_.bounds) {
    const MetricDef def = LookupMetric(b.metric);
    for (size_t c = 0; c < cells_.size(); ++c) {
      for (const auto& arm : ExpandRuleArm(b.arm, r_.arms_)) {
        std::vector<double> values;
        auto it = cells_[c].samples.find(arm);
        if (it != cells_[c].samples.end()) {
          for (const auto& [block, s] : it->second) {
            auto v = s.values.find(b.metric);
            if (s.ok() && v != s.values.end()) values.push_back(v->second);
          }
        }
        const double value = BoundStatistic(b.stat, values);
        out.push_back({"bound", b.text, r_.cells_[c].name, arm, value, b.limit, def.unit,
                       !(value > b.limit) && !std::isnan(value)});
      }
    }
  }
  return out;
}

StatusOr<report::AbReport> CampaignRunner::Session::BuildReport(const std::vector<AbCheck>& bounds) {
  report::AbReport rep;
  rep.campaign_name = spec_.name;
  rep.campaign_sha256 = r_.input_.campaign_sha256;
  rep.campaign_source = r_.input_.campaign_source;
  rep.run_id = run_id_;
  rep.cohort = cohort_;
  rep.resumed = resumed_;
  rep.lock_sha256 = lock_sha256_;
  rep.lock_json = LockToJson(lock_).dump();
  rep.tare_version = r_.options_.tare_version;
  rep.started_unix_ns = started_unix_ns_;
  rep.ended_unix_ns = NowNs();
  rep.host = HostSummary(fingerprint_);
  rep.fingerprint_digest = fingerprint_.HardDigest();
  for (const auto& check : fingerprint_.checks) {
    if (check.level == CheckLevel::kWarn) rep.host_warnings.push_back(check.finding + "; " + check.fix);
  }
  rep.kind = r_.kind_;
  rep.instrument = spec_.instrument;
  rep.args = spec_.args;
  rep.arm_order = std::string(ArmOrderName(spec_.order));
  rep.seed = spec_.seed;
  rep.sampling = spec_.sampling;
  rep.confidence = spec_.confidence;
  rep.look_scheme = std::string(LookSchemeName(plan_.scheme));
  rep.per_look_confidence = plan_.per_look_confidence;
  rep.look_pairs = plan_.pairs;
  rep.noise_floor_rule = std::string(NoiseFloorRuleName(spec_.noise_floor));
  for (const auto& e : lock_.executables) rep.arms.push_back({e.arm, ArmRole(e.arm), e.source, e.path, e.sha256});
  std::vector<Verdict> verdicts;
  for (const auto& st : cells_) {
    for (const auto& comp : st.comparisons) {
      rep.comparisons.push_back(comp);
      verdicts.push_back(comp.verdict);
    }
    for (const auto& [arm, by_block] : st.samples) {
      rep.samples += static_cast<int64_t>(by_block.size());
    }
  }
  rep.has_verdicts = !verdicts.empty();
  rep.outcome = WorstVerdict(verdicts);
  rep.checks = gate_checks_;
  rep.checks.insert(rep.checks.end(), bounds.begin(), bounds.end());
  rep.notes = r_.notes_;
  for (const auto& n : seen_notes_) rep.notes.push_back("not measured: " + n);
  for (const auto& w : warnings_) rep.notes.push_back("warning: " + w);
  TARE_ASSIGN_OR_RETURN(std::vector<CohortRecord> cohorts, store_.CohortsOf(r_.input_.campaign_sha256));
  for (const auto& c : cohorts) {
    report::AbCohort row;
    row.cohort = c.cohort;
    row.run_id = c.run_id;
    row.started_unix_ns = c.started_unix_ns;
    row.state = c.state;
    row.stop_reason = c.stop_reason;
    row.outcome = c.outcome;
    row.lock_sha256 = c.lock_sha256;
    row.samples = c.samples;
    row.current = c.run_id == run_id_;
    auto lock = LockFromJson(nlohmann::json::parse(c.lock_json, nullptr, false));
    if (lock.ok()) {
      for (const auto& e : lock->executables) {
        if (ArmRole(e.arm) == "head") row.head_sha256.push_back(e.sha256);
      }
    }
    rep.cohorts.push_back(row);
  }
  return rep;
}

}  // namespace tare::campaign
