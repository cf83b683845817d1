// Process-level instruments (wall, cpu, rusage, perf_event): turns one measured child process
// (proc::SpawnResult) into named metric values. Counters the host cannot provide are not blanks:
// they come back as one-line reasons, recorded once per run as notes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "proc/spawner.h"

namespace tare::instrument {

// Adds wall_ns, user_ns, sys_ns, peak_rss_bytes, faults, context switches and every perf counter
// that has a value (perf.<event with '-' as '_'>, e.g. perf.task_clock_ns, perf.instructions).
// Reasons for counters without a value are appended to `unavailable`.
void AddProcessMetrics(const proc::SpawnResult& result, std::map<std::string, double>* values,
                       std::vector<std::string>* unavailable);

// "task-clock" -> "perf.task_clock_ns", "branch-misses" -> "perf.branch_misses".
std::string PerfMetricName(const std::string& event);

}  // namespace tare::instrument
