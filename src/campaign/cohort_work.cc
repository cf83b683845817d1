// CampaignRunner::Cohort: the work tier (work_tier.h) — before the first timed sample, every cell once
// under valgrind in base, base again and each head — and the one measurement of a cell's work that
// the tier and the cross-check (cohort_cross_check.cc) share (internal/running_cohort.h).
#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

#include <fmt/core.h>

#include "base/units.h"
#include "campaign/work_tier.h"
#include "internal/running_cohort.h"

namespace tare::campaign {
namespace {

// The sim values of one process, or the reason there are none.
StatusOr<std::map<std::string, double>> MeasureSim(session::Measurer& measurer, const target::TargetSpec& target,
                                                   const target::Benchmark& bench) {
  TARE_ASSIGN_OR_RETURN(session::Measured m, measurer.Measure(target, bench));
  const Sample& s = m.sample;
  if (!s.ok()) return Status::Unavailable(s.error.empty() ? std::string("the sample failed") : s.error);
  return s.values;
}

}  // namespace

bool CampaignRunner::Cohort::WorkTierApplies() const {
  if (spec_.same_work_allowance <= 0 || spec_.instrument != Instrument::kWall || exact_blocks_ > 0) return false;
  if (r_.kind_ != TargetKind::kTare && r_.kind_ != TargetKind::kGbench)
    return false;  // commands: exec'd children are not counted
  auto time = [](const std::vector<MetricSpec>& metrics) {
    for (const auto& m : metrics) {
      const MetricDef def = LookupMetric(m.name);
      if (def.kind == MetricKind::kTime && !def.deterministic) return true;
    }
    return false;
  };
  bool any = time(r_.metrics_);
  for (const auto& [cell, metrics] : r_.cell_metrics_) any = any || time(metrics);
  return any;
}

StatusOr<target::MeasureOptions> CampaignRunner::Cohort::SimOptions(int worker) const {
  target::MeasureOptions sim = r_.measure_;
  sim.instrument = Instrument::kSim;
  sim.perf_events.clear();
  // Each worker of the tier in a directory of its own, of one length: the path is in the program's
  // environment ($TARE_METRICS_FILE), and its length moves the stack and so, a little, the counts
  // (docs/sim.md), which must not depend on which worker read a cell.
  sim.workdir = fmt::format("{}/s{}", r_.measure_.workdir, worker);
  if (::mkdir(sim.workdir.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::Unavailable(fmt::format("cannot create {}: {}", sim.workdir, std::strerror(errno)));
  }
  Cell probe;
  TARE_RETURN_IF_ERROR(r_.prober_.PrepareInstrument(r_.ArmTarget("base", probe), &sim));
  return sim;
}

CellWork CampaignRunner::Cohort::MeasureCellWork(size_t c, session::Measurer& measurer,
                                                 const target::MeasureOptions& sim) const {
  CellWork work;
  work.measured = true;
  const Cell& cell = r_.cells_[c];
  target::Benchmark bench = cell.bench;
  // Under sim a Google Benchmark binary runs one exactly counted run (docs/sim.md): not the time
  // campaign's minimum time or count.
  bench.gbench_min_time_ns = 0;
  if (r_.kind_ == TargetKind::kGbench) bench.iterations = 0;
  if (r_.kind_ == TargetKind::kTare) {
    Status fixed = r_.prober_.FixIterations(r_.ArmTarget("base", cell), sim, 0, &bench);
    if (!fixed.ok()) {
      work.error = fixed.message();
      return work;
    }
  }
  auto base = MeasureSim(measurer, r_.ArmTarget("base", cell), bench);
  if (!base.ok()) {
    work.error = "base: " + base.status().message();
    work.sample_failed = true;
    return work;
  }
  work.base = std::move(*base);
  // The rerun of base comes from the null arm's copy when there is one (a same-length path).
  auto again = MeasureSim(measurer, r_.ArmTarget(spec_.null_arm ? "null" : "base", cell), bench);
  if (!again.ok()) {
    work.error = "base again: " + again.status().message();
    work.sample_failed = true;
    return work;
  }
  for (const std::string& head : Heads()) {
    auto values = MeasureSim(measurer, r_.ArmTarget(head, cell), bench);
    if (!values.ok()) {
      work.error = head + ": " + values.status().message();
      work.sample_failed = true;
      return work;
    }
    work.heads[head] = std::move(*values);
  }
  ReadCellWork(*again, &work);
  return work;
}

Status CampaignRunner::Cohort::WorkTier() {
  work_.assign(cells_.size(), CellWork{});
  if (!WorkTierApplies()) return Status::Ok();
  auto sim = SimOptions();
  if (!sim.ok()) {
    return KeepWorkNote(
        fmt::format("Work tier skipped: instructions could not be counted ({}), so every cell is judged on time at the "
                    "campaign's allowance; install valgrind to tell a change of placement from a change of work",
                    sim.status().message()));
  }
  const std::unique_ptr<session::Measurer> measurer = r_.prober_.MakeMeasurer(*sim);
  // A second worker with its own spawn helper, in a directory of the same length: valgrind runs one
  // thread, so two cores read two cells at once. A Google Benchmark cell needs nothing of the prober
  // between its processes; a tare binary's iteration count is fixed through it, so those stay on one.
  std::unique_ptr<session::Measurer> second;
  target::MeasureOptions second_options;
  if (r_.kind_ == TargetKind::kGbench && cells_.size() > 1 && std::thread::hardware_concurrency() >= 2) {
    auto options = SimOptions(2);
    if (options.ok()) {
      second_options = *options;
      second = r_.prober_.MakeOwnMeasurer(second_options);
    }
  }
  const int64_t started = r_.options_.clock->UnixNowNs();
  // The tier may take at most half the budget (at least a minute): a suite too large for it is
  // judged on time where it was not read.
  const int64_t most_ns = budget_ns_ > 0 ? std::max<int64_t>(budget_ns_ / 2, 60'000'000'000) : 0;
  const int64_t per_cell = 2 + static_cast<int64_t>(Heads().size());
  Notice(fmt::format("work tier: {} cell{} under valgrind before timing (base, base again, {}): {} processes",
                     cells_.size(), cells_.size() == 1 ? "" : "s", Heads().size() == 1 ? "the head" : "each head",
                     per_cell * static_cast<int64_t>(cells_.size())));
  std::vector<std::string> names;
  for (const auto& c : r_.cells_) names.push_back(c.name);
  // Cells are taken in order by whichever worker is free; each cell's arms all run in one worker. The
  // main thread is a worker too, and says how far the tier is before each of its cells.
  std::atomic<size_t> next{0}, done{0};
  std::atomic<bool> stop{false};
  auto work = [&](session::Measurer& m, const target::MeasureOptions& options, bool progress) {
    while (!stop.load()) {
      if (progress) {
        Progress(fmt::format("work tier {}/{}: under valgrind{}", done.load(), cells_.size(),
                             second ? ", two at a time" : ""));
      }
      const size_t c = next.fetch_add(1);
      if (c >= cells_.size()) return;
      if (m.Interrupted() || (most_ns > 0 && r_.options_.clock->UnixNowNs() - started > most_ns)) {
        stop.store(true);
        return;
      }
      work_[c] = MeasureCellWork(c, m, options);
      done.fetch_add(1);
    }
  };
  std::thread helper;
  if (second) helper = std::thread(work, std::ref(*second), std::cref(second_options), false);
  work(*measurer, *sim, true);
  if (helper.joinable()) helper.join();
  Progress("");
  work_tier_ns_ = r_.options_.clock->UnixNowNs() - started;
  const std::string note = WorkTierNote(work_, names, spec_.same_work_allowance);
  Notice(fmt::format("{} ({})", note, FormatDurationNs(static_cast<double>(work_tier_ns_))));
  // Interrupted: the cohort stops before its first timed sample, and --resume reads the tier again.
  if (measurer->Interrupted()) return Status::Ok();
  return KeepWorkNote(note);
}

Status CampaignRunner::Cohort::KeepWorkNote(const std::string& note) {
  work_notes_.push_back(note);
  // Stored with the run, so the ledger rebuilt from the store (tare bundle) says it too.
  return store_.AddNote(run_id_, {"info", note});
}

}  // namespace tare::campaign
