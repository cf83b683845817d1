#include "campaign/campaign_runner.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/core.h>

#include "base/files.h"
#include "base/regex.h"
#include "campaign/campaign_setup.h"
#include "campaign/lock.h"
#include "campaign/suite_diff.h"
#include "model/metric_names.h"
#include "session/environment.h"
#include "session/measurement_setup.h"
#include "target/gbench.h"
#include "target/preload.h"
#include "target/self_metrics.h"

namespace tare::campaign {

CampaignRunner::CampaignRunner(CampaignInput input, Prober& prober, RunnerOptions options)
    : input_(std::move(input)), prober_(prober), options_(std::move(options)) {}

CampaignRunner::~CampaignRunner() {
  stage_.reset();
  if (!workdir_.empty()) RemoveTree(workdir_);
}

std::vector<std::string> CampaignRunner::CellNames() const {
  std::vector<std::string> names;
  for (const auto& c : cells_) names.push_back(c.name);
  return names;
}

target::TargetSpec CampaignRunner::ArmTarget(const std::string& arm, const Cell& cell) const {
  target::TargetSpec t;
  t.name = std::filesystem::path(input_.spec.base).filename().string();
  t.kind = kind_;
  t.argv.push_back(stage_->PathOf(arm));
  t.argv.insert(t.argv.end(), input_.spec.args.begin(), input_.spec.args.end());
  t.argv.insert(t.argv.end(), cell.args.begin(), cell.args.end());
  t.cwd = input_.spec.cwd;
  t.env = session::ApplyEnvOverrides(session::ApplyEnvOverrides(options_.base_env, input_.spec.env), cell.env);
  auto library_path = arm_env_.find(arm);
  if (library_path != arm_env_.end()) t.env = session::ApplyEnvOverrides(t.env, {library_path->second});
  // --layouts: the heap moves too (TARE_HEAP_SHIFT, in the layout cell's environment), through a
  // library preloaded before any the environment already preloads.
  if (cell.layout >= 0 && !heap_shift_.empty()) target::AddPreload(&t.env, heap_shift_);
  return t;
}

// Prepare, step by step: nothing is stored, every step can refuse the campaign with what to fix.
Status CampaignRunner::Prepare() {
  CampaignSpec& spec = input_.spec;
  // Before any default is filled in: the declaration as given is the campaign's identity.
  input_.campaign_sha256 = CampaignIdentity(spec);
  TARE_RETURN_IF_ERROR(CheckExecutables());
  TARE_ASSIGN_OR_RETURN(kind_, ResolveKind(spec));
  TARE_RETURN_IF_ERROR(ValidateSpec(spec, kind_));
  if (spec.name.empty()) spec.name = DefaultCampaignName(spec);
  TARE_ASSIGN_OR_RETURN(workdir_, MakeTempDir("tare-ab"));
  ChooseMetrics();
  TARE_RETURN_IF_ERROR(ChooseGates());
  TARE_RETURN_IF_ERROR(StageArms());
  Cell probe;  // no cell parameters: what every arm lists
  TARE_RETURN_IF_ERROR(prober_.PrepareInstrument(ArmTarget("base", probe), &measure_).WithContext("the base arm"));
  TARE_RETURN_IF_ERROR(kind_ == TargetKind::kCommand ? CommandCells() : ListedCells());
  // --shard K/N: the whole cell list decides the assignment (every job computes the same one); this
  // job keeps its part before calibrating (the other shards' cells cost it nothing) and before
  // --layouts expands a cell (all layouts of a cell stay in one shard).
  if (options_.shard) TARE_RETURN_IF_ERROR(KeepThisShard());
  TARE_RETURN_IF_ERROR(ProbeCounters());
  // The work per sample (iteration counts, Google Benchmark's length) is fixed by the cohort, which
  // knows what earlier cohorts of the campaign ran (FixWork, from Cohort::Open or Resume).
  // Layouts: every cell once per layout, each its own cell (own benchmark row, own verdicts), with
  // the layout's padding in its environment; the report groups them back (cohort_report.cc).
  if (spec.layouts > 1) ExpandLayouts();
  return Status::Ok();
}

Status CampaignRunner::CheckExecutables() const {
  TARE_RETURN_IF_ERROR(CheckExecutable(input_.spec.base));
  for (const auto& h : input_.spec.heads) TARE_RETURN_IF_ERROR(CheckExecutable(h));
  return Status::Ok();
}

void CampaignRunner::ChooseMetrics() {
  const CampaignSpec& spec = input_.spec;
  measure_.instrument = spec.instrument;
  if (!spec.metrics.empty()) {
    metrics_ = spec.metrics;
    return;
  }
  std::string why;
  const bool task_clock = kind_ != TargetKind::kCommand || spec.instrument == Instrument::kSim ||
                          prober_.TaskClockAvailable(workdir_, &why);
  metrics_ = DefaultMetrics(kind_, spec.instrument, task_clock);
  if (task_clock && spec.instrument == Instrument::kWall) {
    notes_.push_back(
        fmt::format("Metric: {} by default, CPU time, which leaves out time spent waiting for a CPU (the "
                    "largest noise on a loaded host); judge wall time too with --metric wall_ns (or "
                    "[metrics] in the campaign file)",
                    metrics_.front().name));
  }
  if (!task_clock) {
    notes_.push_back(
        fmt::format("Metric: wall_ns by default, because this host cannot count perf task-clock ({}); wall "
                    "time includes time spent waiting for a CPU, so a loaded host widens every interval",
                    why));
  }
}

Status CampaignRunner::ChooseGates() {
  const CampaignSpec& spec = input_.spec;
  if (spec.gates) {
    gates_ = *spec.gates;
  } else if (spec.instrument == Instrument::kSim) {
    gates_.clear();  // under valgrind no process-level figures are recorded: nothing to gate on
  } else {
    TARE_ASSIGN_OR_RETURN(GateRule g, ParseGate(kDefaultGate));
    gates_ = {g};
  }
  return Status::Ok();
}

Status CampaignRunner::StageArms() {
  const CampaignSpec& spec = input_.spec;
  arms_ = ArmNames(spec);
  measure_.workdir = workdir_;
  measure_.timeout_ns = spec.timeout_ns;
  measure_.perf_events = PerfEventsFor(metrics_);
  // A figure the program reports about itself that the campaign judges must be in every sample.
  for (const auto& m : metrics_) {
    if (m.name.rfind(target::kAppPrefix, 0) == 0) measure_.required_metrics.push_back(m.name);
  }
  std::vector<std::pair<std::string, std::string>> sources;
  for (const auto& arm : arms_) {
    if (RoleOfArm(arm) != ArmRole::kHead) {
      sources.emplace_back(arm, spec.base);
    } else {
      size_t head_index = arm == kFirstHeadArm ? 0 : static_cast<size_t>(std::stoi(arm.substr(2))) - 1;
      sources.emplace_back(arm, spec.heads[head_index]);
    }
  }
  TARE_ASSIGN_OR_RETURN(stage_, ArmStage::Create(options_.stage_dir, sources));
  std::string inherited;
  for (const auto& kv : session::ApplyEnvOverrides(options_.base_env, spec.env)) {
    if (kv.rfind("LD_LIBRARY_PATH=", 0) == 0) inherited = kv.substr(16);
  }
  std::string note;
  arm_env_ = OriginLibraryPaths(sources, inherited, &note);
  if (!note.empty()) notes_.push_back(note);
  return Status::Ok();
}

Status CampaignRunner::CommandCells() {
  const CampaignSpec& spec = input_.spec;
  if (spec.cells.empty()) {
    Cell c;
    c.name = DefaultCommandCellName(spec);
    c.role = CellRole::kTarget;
    cells_.push_back(c);
  } else {
    for (const auto& cs : spec.cells) cells_.push_back({cs.name, cs.role, {}, cs.args, cs.env, 0, "", -1});
  }
  for (auto& c : cells_) {
    c.bench.name = c.name;
    c.bench.uri = fmt::format("{}::{}", ArmTarget("base", c).name, c.name);
  }
  return Status::Ok();
}

Status CampaignRunner::ListedCells() {
  const CampaignSpec& spec = input_.spec;
  const Cell probe;
  std::map<std::string, std::vector<target::Benchmark>> listed;
  for (const auto& arm : arms_) {
    if (RoleOfArm(arm) == ArmRole::kNull) continue;
    auto list = prober_.ListBenchmarks(ArmTarget(arm, probe), measure_);
    if (!list.ok()) return list.status().WithContext(fmt::format("the {} arm", arm));
    listed[arm] = *list;
  }
  // What the campaign asks for, in each arm's list: --filter, or the declared [[cells]].
  auto wanted = [&](const std::vector<target::Benchmark>& all) -> StatusOr<std::vector<target::Benchmark>> {
    std::vector<target::Benchmark> out;
    if (!spec.cells.empty()) {
      for (const auto& cs : spec.cells) {
        for (const auto& b : all) {
          if (b.name == cs.name) out.push_back(b);
        }
      }
      return out;
    }
    TARE_ASSIGN_OR_RETURN(Regex filter, Regex::Compile(spec.filter.empty() ? ".*" : spec.filter, "filter"));
    for (const auto& b : all) {
      if (spec.filter.empty() || filter.Search(b.name)) out.push_back(b);
    }
    return out;
  };
  TARE_ASSIGN_OR_RETURN(std::vector<target::Benchmark> base, wanted(listed["base"]));
  std::vector<ListedArm> heads;
  for (const auto& arm : arms_) {
    if (RoleOfArm(arm) != ArmRole::kHead) continue;
    TARE_ASSIGN_OR_RETURN(std::vector<target::Benchmark> list, wanted(listed[arm]));
    heads.push_back({arm, std::move(list)});
  }
  suite_ = DiffSuites(base, heads);
  // A declared cell no arm lists is a typo, not a change of the suite.
  for (const auto& cs : spec.cells) {
    bool anywhere = false;
    for (const auto& [arm, all] : listed) {
      for (const auto& b : all) anywhere = anywhere || b.name == cs.name;
    }
    if (!anywhere) {
      return Status::InvalidArgument(
          fmt::format("cell '{}' is not a benchmark of the base executable '{}' nor of any head; its benchmarks are:{}",
                      cs.name, spec.base, ListSome(listed["base"])));
    }
  }
  if (suite_.common.empty()) {
    if (spec.cells.empty() && base.empty()) {
      return Status::InvalidArgument(
          fmt::format("filter '{}' matches none of the {} benchmarks of the base executable '{}'{}", spec.filter,
                      listed["base"].size(), spec.base, ListSome(listed["base"])));
    }
    return Status::InvalidArgument(
        fmt::format("base and head have no {}benchmark in common, so there is nothing to compare ({}); choose "
                    "builds of the same suite, or a --filter both match; base's benchmarks are:{}",
                    spec.cells.empty() ? "" : "declared ", SuiteChangeLine(suite_), ListSome(listed["base"])));
  }
  TARE_ASSIGN_OR_RETURN(Regex control,
                        Regex::Compile(spec.control_filter.empty() ? "$^" : spec.control_filter, "control"));
  if (spec.cells.empty()) {
    for (const auto& b : suite_.common) {
      Cell c;
      c.name = b.name;
      c.role = !spec.control_filter.empty() && control.Search(b.name) ? CellRole::kControl : CellRole::kTarget;
      c.bench = b;
      cells_.push_back(c);
    }
  } else {
    for (const auto& cs : spec.cells) {
      for (const auto& b : suite_.common) {
        if (b.name != cs.name) continue;
        Cell c{cs.name, cs.role, b, cs.args, cs.env, 0, "", -1};
        cells_.push_back(c);
      }
    }
  }
  if (!suite_.changes.empty()) {
    notes_.push_back(fmt::format("Suite: {}.", SuiteChangeLine(suite_)));
    if (options_.notice) options_.notice(SuiteChangeLine(suite_));
  }
  return Status::Ok();
}

Status CampaignRunner::ProbeCounters() {
  if (kind_ != TargetKind::kGbench) return Status::Ok();
  auto is_counter = [](const MetricSpec& m) { return m.name.rfind(metric_name::kGbCounterPrefix, 0) == 0; };
  if (std::none_of(metrics_.begin(), metrics_.end(), is_counter)) return Status::Ok();
  // One short wall-clock process per cell (1 ms of Google Benchmark's own loop), whatever the
  // campaign's instrument: only which counters come back matters.
  target::MeasureOptions options = measure_;
  options.instrument = Instrument::kWall;
  options.perf_events.clear();
  const std::unique_ptr<session::Measurer> measurer = prober_.MakeMeasurer(options);
  std::map<std::string, std::set<std::string>> reported;  // cell -> the counters its sample carried
  std::set<std::string> known;                            // every counter some cell reports
  for (const auto& c : cells_) {
    if (options_.progress) options_.progress(fmt::format("[counters] asking base which counters {} reports", c.name));
    target::Benchmark b = c.bench;
    b.iterations = 0;
    b.gbench_min_time_ns = 1'000'000;
    auto m = measurer->Measure(ArmTarget("base", c), b);
    if (!m.ok()) return m.status().WithContext("asking base which counters its benchmarks report");
    if (measurer->Interrupted()) return Status::Cancelled("interrupted while asking base which counters it reports");
    if (!m->sample.ok()) continue;  // a broken benchmark: its cell says so once the campaign runs
    reported[c.name];               // probed: reports these (perhaps none)
    for (const auto& [name, value] : m->sample.values) {
      if (name.rfind(metric_name::kGbCounterPrefix, 0) != 0) continue;
      reported[c.name].insert(name);
      known.insert(name);
    }
  }
  if (options_.progress) options_.progress("");
  for (const auto& m : metrics_) {
    if (!is_counter(m) || known.count(m.name)) continue;
    std::string names;
    for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
    return Status::InvalidArgument(fmt::format(
        "metric {}: none of the {} benchmarks of the base executable '{}' reports it (the counters they report: "
        "{}); check the name, or leave it out",
        m.name, cells_.size(), input_.spec.base, names.empty() ? "none" : names));
  }
  const std::vector<MetricSpec> fallback = DefaultMetrics(kind_, input_.spec.instrument, true);
  std::map<std::string, std::vector<std::string>> where;  // counter -> the cells that report it
  std::vector<std::string> on_default;
  for (const auto& c : cells_) {
    auto r = reported.find(c.name);
    if (r == reported.end()) continue;  // its probe failed: the campaign's metrics, and its cell says why
    std::vector<MetricSpec> mine;
    for (const auto& m : metrics_) {
      if (!is_counter(m) || r->second.count(m.name)) mine.push_back(m);
      if (is_counter(m) && r->second.count(m.name)) where[m.name].push_back(c.name);
    }
    if (mine.empty()) {
      mine = fallback;
      on_default.push_back(c.name);
    }
    const bool same = mine.size() == metrics_.size() &&
                      std::equal(mine.begin(), mine.end(), metrics_.begin(),
                                 [](const MetricSpec& a, const MetricSpec& b) { return a.name == b.name; });
    if (!same) cell_metrics_[c.name] = std::move(mine);
  }
  for (const auto& [counter, cells] : where) {
    if (cells.size() == cells_.size()) continue;
    notes_.push_back(fmt::format("Metric {}: reported by {} of the {} cells ({}{}), judged there only.", counter,
                                 cells.size(), cells_.size(), cells.front(),
                                 cells.size() > 1 ? fmt::format(" and {} more", cells.size() - 1) : ""));
  }
  if (!on_default.empty()) {
    notes_.push_back(fmt::format(
        "{} cell{} report{} none of the declared metrics ({}{}): judged on {} instead.", on_default.size(),
        on_default.size() == 1 ? "" : "s", on_default.size() == 1 ? "s" : "", on_default.front(),
        on_default.size() > 1 ? fmt::format(" and {} more", on_default.size() - 1) : "", fallback.front().name));
  }
  return Status::Ok();
}

Status CampaignRunner::KeepThisShard() {
  std::vector<std::string> names;
  for (const auto& c : cells_) names.push_back(c.name);
  shard_ = session::AssignShards(
      names, *options_.shard,
      session::ShardGroup(RunKind::kAb, options_.shard->count, options_.provenance.commit, input_.campaign_sha256));
  TARE_RETURN_IF_ERROR(session::CheckShardNotEmpty(*shard_, "cells"));
  std::erase_if(cells_, [&](const Cell& c) { return session::ShardOf(*shard_, c.name) != shard_->index; });
  notes_.push_back(fmt::format(
      "Shard {}/{}: {} of the campaign's {} cells ({} weights; assignment {}); `tare shards` shows every "
      "shard's verdicts side by side.",
      shard_->index, shard_->count, cells_.size(), shard_->assignment.size(),
      shard_->weights == "equal" ? "equal" : "stored run " + shard_->weights, ShortHash(shard_->assignment_sha256)));
  return Status::Ok();
}

void CampaignRunner::ExpandLayouts() {
  const CampaignSpec& spec = input_.spec;
  auto heap_shift = target::FindHeapShift();
  if (heap_shift.ok()) heap_shift_ = *heap_shift;
  std::vector<Cell> expanded;
  for (const auto& c : cells_) {
    for (int64_t k = 0; k < spec.layouts; ++k) {
      Cell l = c;
      l.name = LayoutCellName(c.name, k);
      l.bench.uri = LayoutCellName(c.bench.uri, k);
      l.env.push_back(LayoutEnv(k));
      if (!heap_shift_.empty()) l.env.push_back(HeapShiftEnv(k));
      l.declared = c.name;
      l.layout = k;
      if (auto m = cell_metrics_.find(c.name); m != cell_metrics_.end()) cell_metrics_[l.name] = m->second;
      expanded.push_back(std::move(l));
    }
  }
  cells_ = std::move(expanded);
  notes_.push_back(fmt::format(
      "Layouts: every cell ran under {} layouts (layout k: the environment variable TARE_LAYOUT of "
      "k x {} bytes, moving the initial stack, and {}; code, static data and shared libraries do not move: "
      "that needs a rebuild){}.",
      spec.layouts, kLayoutPadBytes,
      heap_shift_.empty() ? fmt::format("the heap does not move: {}", heap_shift.status().message())
                          : fmt::format("an allocation of k x {} bytes before main (libtare_heap_shift.so), moving the "
                                        "program's heap by as much",
                                        kLayoutPadBytes),
      measure_.instrument == Instrument::kSim
          ? "; under sim ASLR is off, so each layout is one fixed stack and heap position"
          : "; with ASLR on (`tare env`) the stack is also randomized per process, which hides most of "
            "what a layout changes"));
}

StatusOr<std::vector<LockedWork>> CampaignRunner::FixWork(const std::vector<LockedWork>& locked) {
  const bool sim = measure_.instrument == Instrument::kSim;
  // Under sim and mem a Google Benchmark sample is one counted run of a fixed count (docs/sim.md).
  const bool counted = sim || measure_.instrument == Instrument::kMem;
  if (kind_ == TargetKind::kCommand || (kind_ == TargetKind::kGbench && counted)) {
    if (kind_ == TargetKind::kGbench) notes_.push_back(WorkNote(kind_, measure_.instrument, {}, false));
    return std::vector<LockedWork>{};
  }
  std::map<std::string, LockedWork> by_cell;  // declared cell -> its work, once fixed
  std::vector<LockedWork> fixed;
  bool own_min_time = false;
  for (auto& c : cells_) {
    const std::string& declared = c.declared.empty() ? c.name : c.declared;
    auto it = by_cell.find(declared);
    if (it == by_cell.end()) {
      LockedWork w;
      w.cell = declared;
      const target::TargetSpec base = ArmTarget("base", c);
      // A count from a lock runs only on a binary that takes counts: a Google Benchmark build
      // without <N>x support would reject it in every sample, so it is fixed anew.
      auto usable = [&](const LockedWork& l) {
        if (l.cell != declared) return false;
        if (kind_ == TargetKind::kTare) return l.iterations > 0;
        return l.iterations > 0 ? measure_.gbench_flags.iteration_suffix : l.gbench_min_time_ns > 0;
      };
      auto from_lock = std::find_if(locked.begin(), locked.end(), usable);
      if (kind_ == TargetKind::kGbench && target::GbenchMinTimeGiven(base.argv, base.env)) {
        own_min_time = true;  // the binary's own flag stands: nothing to fix or record
      } else if (from_lock != locked.end()) {
        w = *from_lock;
      } else if (kind_ == TargetKind::kTare) {
        Status s = prober_.FixIterations(base, measure_, 0, &c.bench);
        if (!s.ok()) return s.WithContext("calibrating " + c.name + " on base");
        w.iterations = c.bench.iterations;
        w.from = sim ? "sim" : "calibrated";
      } else {
        Status s = prober_.FixGbenchWork(base, measure_, input_.spec.gbench_min_time_ns, &c.bench);
        if (!s.ok()) return s.WithContext("fixing the iteration count of " + c.name + " on base");
        w.iterations = c.bench.iterations;
        w.gbench_min_time_ns = c.bench.iterations > 0 ? 0 : c.bench.gbench_min_time_ns;
        w.from = c.bench.iterations > 0               ? "calibrated"
                 : input_.spec.gbench_min_time_ns > 0 ? "--gbench-min-time"
                                                      : "default";
      }
      it = by_cell.emplace(declared, w).first;
      if (w.iterations > 0 || w.gbench_min_time_ns > 0) fixed.push_back(w);
    }
    c.bench.iterations = it->second.iterations;
    c.bench.gbench_min_time_ns = it->second.gbench_min_time_ns;
  }
  notes_.push_back(WorkNote(kind_, measure_.instrument, fixed, own_min_time));
  return fixed;
}

}  // namespace tare::campaign
