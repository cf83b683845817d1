// Metric roles: what tare does with a metric of the catalogue (metric.h) when the user names none.
// Which metrics a run's table shows and in which order, which one stands for a benchmark (tare
// compare, tare history, the HTML plot), which tare ab judges, which tare spread lists. One table
// in metric_roles.cc, beside the catalogue, that every one of those reads (issue 22: each kept its
// own list of names).
//
// Roles are a property of the name, not of a run: a run's stored MetricDef (its unit, direction)
// carries none of them.
#pragma once

#include <string>
#include <vector>

#include "model/target.h"

namespace tare {

// Whether a run's table (tare run, its relative summary, the HTML page) shows `name` of a benchmark
// of `kind` when no metric is named: the benchmark's own figures, the process's wall time, peak RSS
// and instructions, and for commands their CPU times and cycles too; every user counter and
// allocation figure; the headline simulated counts.
bool ShownByDefault(const std::string& name, TargetKind kind);

// The place of `name` in a benchmark's table: the target's own figures first, then the process's
// (0, 1, ...); kUnranked for the rest, which keep their order after them.
inline constexpr int kUnranked = 1 << 20;
int TableRank(const std::string& name);

// The metrics that stand for a benchmark, best first: the instrument's own figure (sim.Ir,
// mem.allocs: `tare run --instrument mem` shows the allocations on its one line), then its own
// measurement (bench.wall_ns of tare binaries, gb.real_time_ns of Google Benchmark, wall_ns of
// commands). The
// first one a benchmark carries is what tare compare judges, tare history follows and the HTML
// page plots when no metric is named.
const std::vector<std::string>& PrimaryMetrics();

// The metrics in both `deterministic` (metric.h) and the head of a run's table (TableRank): the
// exact counts tare spread lists beside the time metrics (sim.Ir, sim.est_cycles).
bool IsHeadlineDeterministic(const std::string& name);

// What tare ab judges when a campaign names no metric: the instrument's own figures (sim.Ir; the
// allocation count and peak), else the target's own CPU time (gb.cpu_time_ns, bench.cpu_ns), else
// the process's task-clock where perf has it, else its wall time.
std::vector<std::string> DefaultJudgedMetrics(TargetKind kind, Instrument instrument, bool task_clock_available);

// The same choice among the metrics a stored benchmark carries (`present`): what tare compare and
// tare variance judge when no metric is named, so that they judge what tare ab judges (issue 23).
// Empty when none of them is judged by default (a user counter alone).
std::vector<std::string> JudgedByDefaultAmong(const std::vector<std::string>& present);

// Every metric tare ab may judge by default, in the order it prefers them (the instrument's own
// figures, the target's CPU time, perf task-clock, wall time): what tare history and tare site
// follow when no metric is named, before PrimaryMetrics, so a benchmark's page plots what its gate
// judges — gb.cpu_time_ns, not gb.real_time_ns (issue 44, item 5).
const std::vector<std::string>& JudgedPreference();

// A command whose median CPU time (perf.task_clock_ns) is under kWaitingCpuShare of its median
// wall time mostly waits — sleep, I/O, a server answering — and its CPU time says nothing of how
// long it takes: tare compare and tare history judge its wall_ns instead of the task-clock, and
// tare run's note says to gate it with --metric wall_ns (issue 44, item 7).
inline constexpr double kWaitingCpuShare = 0.5;
inline bool MostlyWaits(double task_clock_median_ns, double wall_median_ns) {
  return wall_median_ns > 0 && task_clock_median_ns < kWaitingCpuShare * wall_median_ns;
}

// The CPU time a benchmark reports beside `primary`, its wall-clock measurement, as Google
// Benchmark prints "Time" and "CPU" side by side: gb.cpu_time_ns beside gb.real_time_ns,
// bench.cpu_ns beside bench.wall_ns; "" for any other metric. tare run's table shows it.
std::string CpuCompanion(const std::string& primary);

}  // namespace tare
