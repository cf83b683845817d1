// CampaignRunner::Cohort: the cross-check of time verdicts with instruction counts (cross_check.h),
// after the last look of a time campaign (internal/running_cohort.h).
#include <map>
#include <optional>
#include <set>

#include <fmt/core.h>

#include "base/units.h"
#include "campaign/cross_check.h"
#include "internal/running_cohort.h"
#include "proc/spawner.h"
#include "report/ledger.h"
#include "session/measurement_setup.h"

namespace tare::campaign {
namespace {

// "gb.cpu_time_ns +412%, instructions +0.00%: the same work, yet slower by more than placement does
// (judged against 10%) — look for what valgrind does not simulate: ..."
std::string BeyondPlacement(const AbCrossCheck& x, const AbMetricResult& time) {
  // The kernel's time first: valgrind counts none of its instructions (issue 48, item 5).
  const std::string kernel = KernelTimeMove({x.base.begin(), x.base.end()}, {x.head.begin(), x.head.end()});
  std::string line = fmt::format(
      "{} {}, instructions {}: the same {}work, yet {} by more than placement does (judged against {}) — {}",
      time.metric, report::SignedPercent(time.estimate), report::SignedPercent(x.instructions_change),
      kernel.empty() ? "" : "user-space ",
      (time.direction == Direction::kLowerIsBetter) == (time.estimate > 0) ? "slower" : "faster", time.allowance,
      kernel.empty() ? "look for what valgrind does not simulate: branch prediction, denormal floats, memory "
                       "bandwidth, contention"
                     : "kernel time moved: " + kernel +
                           " — valgrind counts no instruction of the kernel; compare sys_ns, or `strace -c` each arm");
  // The simulated cache figures ReadCrossCheck put after the reading.
  const size_t figures = x.line.rfind(" (sim: ");
  return figures == std::string::npos ? line : line + x.line.substr(figures);
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
  // Cells the work tier read (work_tier.h) already have their counts; the others are measured now.
  std::map<size_t, std::vector<size_t>> to_measure;
  for (const auto& [c, comps] : flagged) {
    if (!(c < work_.size() && work_[c].measured)) to_measure.insert({c, comps});
  }
  std::optional<target::MeasureOptions> sim;
  std::unique_ptr<session::Measurer> measurer;
  if (!to_measure.empty()) {
    auto options = SimOptions();
    if (!options.ok()) {
      cross_check_notes_.push_back(fmt::format(
          "Cross-check skipped: {} cell{} FAILed or gained in time, but instructions could not be counted ({}); "
          "install valgrind to see whether the head does more work",
          to_measure.size(), to_measure.size() == 1 ? "" : "s", options.status().message()));
      for (const auto& [c, comps] : to_measure) flagged.erase(c);
      to_measure.clear();
    } else {
      sim = *options;
      measurer = r_.prober_.MakeMeasurer(*sim);
    }
  }
  if (static_cast<int64_t>(to_measure.size()) > kMaxCrossCheckCells) {
    cross_check_notes_.push_back(
        fmt::format("Cross-check: {} cells FAILed or gained in time; the first {} were measured under valgrind "
                    "(--instrument sim on the others shows their instructions)",
                    to_measure.size(), kMaxCrossCheckCells));
    for (auto it = std::next(to_measure.begin(), kMaxCrossCheckCells); it != to_measure.end(); ++it)
      flagged.erase(it->first);
    to_measure.erase(std::next(to_measure.begin(), kMaxCrossCheckCells), to_measure.end());
  }
  if (!to_measure.empty()) {
    const int64_t processes = static_cast<int64_t>(to_measure.size()) * (2 + static_cast<int64_t>(Heads().size()));
    Progress("");
    Notice(
        fmt::format("cross-check: {} cell{} whose time FAILed or gained, under valgrind (base, base again, "
                    "each head): {} processes",
                    to_measure.size(), to_measure.size() == 1 ? "" : "s", processes));
  }
  for (const auto& [c, comps] : flagged) {
    CellWork measured;
    const CellWork* work = c < work_.size() && work_[c].measured ? &work_[c] : nullptr;
    if (work == nullptr) {
      if (measurer->Interrupted()) break;  // Ctrl-C: the verdicts stand; the cross-check is only a pointer
      Progress(fmt::format("cross-check: {} under valgrind", r_.cells_[c].name));
      measured = MeasureCellWork(c, *measurer, *sim);
      work = &measured;
    }
    for (size_t i : comps) {
      AbComparison& comp = cells_[c].comparisons[i];
      const AbMetricResult& time = *CrossCheckedMetric(comp);
      AbCrossCheck x;
      auto head = work->heads.find(comp.head);
      if (work->error.empty() && head != work->heads.end()) {
        x = ReadCrossCheck(time, work->base, head->second, spec_.layouts);
        // A same-work cell FAILs only beyond the same-work allowance: more than placement does, so the
        // layout advice would mislead (work_tier.h).
        if (x.error.empty() && time.verdict == Verdict::kFail && work->Same()) x.line = BeyondPlacement(x, time);
      } else {
        x.error = work->error.empty() ? comp.head + ": not measured" : work->error;
      }
      x.metric = time.metric;
      x.time_change = time.estimate;
      if (!x.error.empty()) {
        x.line = fmt::format("{} {}, instructions not measured: {}", time.metric, report::SignedPercent(time.estimate),
                             x.error);
      }
      comp.cross_check = std::move(x);
    }
  }
  Progress("");
}

}  // namespace tare::campaign
