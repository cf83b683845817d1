// CampaignRunner::Cohort: the cross-check of time verdicts with instruction counts (cross_check.h),
// after the last look of a time campaign (internal/cohort.h).
#include <map>
#include <set>

#include <fmt/core.h>

#include "base/units.h"
#include "campaign/cross_check.h"
#include "internal/cohort.h"
#include "proc/spawner.h"
#include "report/ledger.h"
#include "session/measurement_setup.h"

namespace tare::campaign {
namespace {

// The sim values of one process of `arm` in `cell`, or the reason there are none.
StatusOr<std::map<std::string, double>> MeasureSim(session::Measurer& measurer, const target::TargetSpec& target,
                                                   const target::Benchmark& bench) {
  TARE_ASSIGN_OR_RETURN(session::Measured m, measurer.Measure(target, bench));
  const Sample& s = m.sample;
  if (!s.ok()) return Status::Unavailable(s.error.empty() ? std::string("the sample failed") : s.error);
  return s.values;
}

}  // namespace

void CampaignRunner::Cohort::CrossCheck() {
  if (!r_.options_.cross_check || spec_.instrument != Instrument::kWall) return;
  // The comparisons whose time FAILed or gained, by cell.
  std::map<size_t, std::vector<size_t>> flagged;
  for (size_t c = 0; c < cells_.size(); ++c) {
    for (size_t i = 0; i < cells_[c].comparisons.size(); ++i) {
      if (CrossCheckedMetric(cells_[c].comparisons[i]) != nullptr) flagged[c].push_back(i);
    }
  }
  if (flagged.empty()) return;
  target::MeasureOptions sim = r_.measure_;
  sim.instrument = Instrument::kSim;
  sim.perf_events.clear();
  Cell probe;
  Status ready = r_.prober_.PrepareInstrument(r_.ArmTarget("base", probe), &sim);
  if (!ready.ok()) {
    cross_check_notes_.push_back(fmt::format(
        "Cross-check skipped: {} cell{} FAILed or gained in time, but instructions could not be counted ({}); "
        "install valgrind to see whether the head does more work",
        flagged.size(), flagged.size() == 1 ? "" : "s", ready.message()));
    return;
  }
  const std::unique_ptr<session::Measurer> measurer = r_.prober_.MakeMeasurer(sim);
  if (static_cast<int64_t>(flagged.size()) > kMaxCrossCheckCells) {
    cross_check_notes_.push_back(fmt::format(
        "Cross-check: {} cells FAILed or gained in time; the first {} were measured under valgrind "
        "(--instrument sim on the others shows their instructions)",
        flagged.size(), kMaxCrossCheckCells));
    flagged.erase(std::next(flagged.begin(), kMaxCrossCheckCells), flagged.end());
  }
  // The rerun of base comes from the null arm's copy when there is one (a same-length path).
  const std::string rerun = spec_.null_arm ? "null" : "base";
  int64_t processes = 0;
  for (const auto& [c, comps] : flagged) processes += 2 + static_cast<int64_t>(comps.size());
  Progress("");
  Notice(fmt::format("cross-check: {} cell{} whose time FAILed or gained, under valgrind (base, head, base "
                     "again): {} processes",
                     flagged.size(), flagged.size() == 1 ? "" : "s", processes));
  for (const auto& [c, comps] : flagged) {
    if (measurer->Interrupted()) break;  // Ctrl-C: the verdicts stand; the cross-check is only a pointer
    const Cell& cell = r_.cells_[c];
    Progress(fmt::format("cross-check: {} under valgrind", cell.name));
    target::Benchmark bench = cell.bench;
    // Under sim a Google Benchmark binary runs one exactly counted run (docs/sim.md): not the wall
    // campaign's minimum time or count.
    bench.gbench_min_time_ns = 0;
    if (r_.kind_ == TargetKind::kGbench) bench.iterations = 0;
    std::string error;
    if (r_.kind_ == TargetKind::kTare) {
      Status fixed = r_.prober_.FixIterations(r_.ArmTarget("base", cell), sim, 0, &bench);
      if (!fixed.ok()) error = fixed.message();
    }
    StatusOr<std::map<std::string, double>> base = Status::Unavailable(error);
    StatusOr<std::map<std::string, double>> again = Status::Unavailable(error);
    if (error.empty()) {
      base = MeasureSim(*measurer, r_.ArmTarget("base", cell), bench);
      if (base.ok()) again = MeasureSim(*measurer, r_.ArmTarget(rerun, cell), bench);
      if (!base.ok()) error = "base: " + base.status().message();
      else if (!again.ok()) error = "base again: " + again.status().message();
      else if (base->count("sim.Ir") == 0 || again->count("sim.Ir") == 0) error = "valgrind read no instructions";
      else if (base->at("sim.Ir") != again->at("sim.Ir")) {
        error = fmt::format("the instructions differ between base and its rerun ({} against {}): the program is "
                            "not deterministic under valgrind, so its instruction change cannot be read from one pair",
                            FormatCount(base->at("sim.Ir")), FormatCount(again->at("sim.Ir")));
      }
    }
    for (size_t i : comps) {
      AbComparison& comp = cells_[c].comparisons[i];
      const AbMetricResult& time = *CrossCheckedMetric(comp);
      AbCrossCheck x;
      if (error.empty()) {
        auto head = MeasureSim(*measurer, r_.ArmTarget(comp.head, cell), bench);
        if (head.ok()) {
          x = ReadCrossCheck(time, *base, *head, spec_.layouts);
        } else {
          x.error = comp.head + ": " + head.status().message();
        }
      } else {
        x.error = error;
      }
      x.metric = time.metric;
      x.time_change = time.estimate;
      if (!x.error.empty()) {
        x.line = fmt::format("{} {}, instructions not measured: {}", time.metric,
                             report::SignedPercent(time.estimate), x.error);
      }
      comp.cross_check = std::move(x);
    }
  }
  Progress("");
}

}  // namespace tare::campaign
