#include "model/metric.h"

namespace tare {

const std::vector<MetricDef>& KnownMetrics() {
  using D = Direction;
  using K = MetricKind;
  static const std::vector<MetricDef> kMetrics = {
      // Whole process, from the spawn helper (clock) and wait4 (rusage) of that child alone.
      {"wall_ns", "ns", D::kLowerIsBetter, K::kTime, "wall time of the whole process, spawn to exit"},
      {"user_ns", "ns", D::kLowerIsBetter, K::kTime, "user CPU time of the process (wait4)"},
      {"sys_ns", "ns", D::kLowerIsBetter, K::kTime, "system CPU time of the process (wait4)"},
      {"peak_rss_bytes", "bytes", D::kLowerIsBetter, K::kBytes, "peak resident set of that child alone"},
      {"minor_faults", "count", D::kLowerIsBetter, K::kCount, "minor page faults (wait4)"},
      {"major_faults", "count", D::kLowerIsBetter, K::kCount, "major page faults (wait4)"},
      {"voluntary_ctx_switches", "count", D::kLowerIsBetter, K::kCount, "voluntary context switches (wait4)"},
      {"involuntary_ctx_switches", "count", D::kLowerIsBetter, K::kCount, "involuntary context switches (wait4)"},
      // perf_event counters opened on the child (inherit, enable on exec), scaled for multiplexing.
      {"perf.task_clock_ns", "ns", D::kLowerIsBetter, K::kTime, "perf task-clock"},
      {"perf.page_faults", "count", D::kLowerIsBetter, K::kCount, "perf page-faults"},
      {"perf.context_switches", "count", D::kLowerIsBetter, K::kCount, "perf context-switches"},
      {"perf.cpu_migrations", "count", D::kLowerIsBetter, K::kCount, "perf cpu-migrations"},
      {"perf.instructions", "count", D::kLowerIsBetter, K::kCount, "retired instructions (user space)"},
      {"perf.cycles", "count", D::kLowerIsBetter, K::kCount, "CPU cycles (user space)"},
      {"perf.branches", "count", D::kLowerIsBetter, K::kCount, "branch instructions (user space)"},
      {"perf.branch_misses", "count", D::kLowerIsBetter, K::kCount, "mispredicted branches (user space)"},
      // Google Benchmark's own figures, per iteration, converted from its time_unit.
      {"gb.real_time_ns", "ns", D::kLowerIsBetter, K::kTime, "Google Benchmark real time per iteration"},
      {"gb.cpu_time_ns", "ns", D::kLowerIsBetter, K::kTime, "Google Benchmark CPU time per iteration"},
      {"gb.iterations", "count", D::kLowerIsBetter, K::kCount, "iterations Google Benchmark chose"},
  };
  return kMetrics;
}

MetricDef LookupMetric(const std::string& name) {
  for (const auto& m : KnownMetrics()) {
    if (m.name == name) return m;
  }
  MetricDef generic;
  generic.name = name;
  generic.unit = "count";
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "_ns") == 0) {
    generic.unit = "ns";
    generic.kind = MetricKind::kTime;
  } else if (name.size() > 6 && name.compare(name.size() - 6, 6, "_bytes") == 0) {
    generic.unit = "bytes";
    generic.kind = MetricKind::kBytes;
  }
  return generic;
}

const char* DirectionName(Direction d) {
  return d == Direction::kLowerIsBetter ? "lower" : "higher";
}

const char* MetricKindName(MetricKind k) {
  switch (k) {
    case MetricKind::kTime: return "time";
    case MetricKind::kCount: return "count";
    case MetricKind::kBytes: return "bytes";
    case MetricKind::kRatio: return "ratio";
  }
  return "count";
}

}  // namespace tare
