#include "model/metric.h"

#include <fmt/format.h>

namespace tare {
namespace {

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The families: name prefix, source.
struct Family {
  const char* prefix;
  MetricSource source;
};
constexpr Family kFamilies[] = {
    {"gb.counter.", MetricSource::kGbench}, {"bench.", MetricSource::kBench}, {"app.", MetricSource::kApp}};

// Whether a source's metrics are in samples of this kind under this instrument
// (target/measure.cc decides what a sample carries; this is its summary).
bool SourceMeasured(MetricSource source, TargetKind kind, Instrument instrument) {
  switch (source) {
    case MetricSource::kSim:
      return instrument == Instrument::kSim;
    case MetricSource::kMem:
      return instrument == Instrument::kMem;
    // Under valgrind the process-level figures are valgrind's, not the program's: not recorded.
    case MetricSource::kProcess:
    case MetricSource::kPerf:
      return instrument != Instrument::kSim;
    case MetricSource::kGbench:
      return instrument != Instrument::kSim && kind == TargetKind::kGbench;
    case MetricSource::kBench:
      return instrument != Instrument::kSim && kind == TargetKind::kTare;
    // Whatever the program writes: a command, a Google Benchmark or tare binary, under any
    // instrument (under sim its times are valgrind's, its counts its own).
    case MetricSource::kApp:
      return true;
    case MetricSource::kOther:
      return false;
  }
  return false;
}

}  // namespace

const std::vector<MetricDef>& KnownMetrics() {
  using D = Direction;
  using K = MetricKind;
  using S = MetricSource;
  static const std::vector<MetricDef> kMetrics = {
      // Whole process, from the spawn helper (clock) and wait4 (rusage) of that child alone.
      {"wall_ns", "ns", D::kLowerIsBetter, K::kTime, "wall time of the whole process, spawn to exit", false,
       S::kProcess},
      {"user_ns", "ns", D::kLowerIsBetter, K::kTime, "user CPU time of the process (wait4)", false, S::kProcess},
      {"sys_ns", "ns", D::kLowerIsBetter, K::kTime, "system CPU time of the process (wait4)", false, S::kProcess},
      {"peak_rss_bytes", "bytes", D::kLowerIsBetter, K::kBytes, "peak resident set of that child alone", false,
       S::kProcess},
      {"minor_faults", "count", D::kLowerIsBetter, K::kCount, "minor page faults (wait4)", false, S::kProcess},
      {"major_faults", "count", D::kLowerIsBetter, K::kCount, "major page faults (wait4)", false, S::kProcess},
      {"voluntary_ctx_switches", "count", D::kLowerIsBetter, K::kCount, "voluntary context switches (wait4)", false,
       S::kProcess},
      {"involuntary_ctx_switches", "count", D::kLowerIsBetter, K::kCount, "involuntary context switches (wait4)", false,
       S::kProcess},
      // perf_event counters opened on the child (inherit, enable on exec), scaled for multiplexing.
      {"perf.task_clock_ns", "ns", D::kLowerIsBetter, K::kTime, "perf task-clock", false, S::kPerf},
      {"perf.page_faults", "count", D::kLowerIsBetter, K::kCount, "perf page-faults", false, S::kPerf},
      {"perf.context_switches", "count", D::kLowerIsBetter, K::kCount, "perf context-switches", false, S::kPerf},
      {"perf.cpu_migrations", "count", D::kLowerIsBetter, K::kCount, "perf cpu-migrations", false, S::kPerf},
      {"perf.instructions", "count", D::kLowerIsBetter, K::kCount, "retired instructions (user space)", false, S::kPerf,
       true},
      {"perf.cycles", "count", D::kLowerIsBetter, K::kCount, "CPU cycles (user space)", false, S::kPerf},
      {"perf.branches", "count", D::kLowerIsBetter, K::kCount, "branch instructions (user space)", false, S::kPerf},
      {"perf.branch_misses", "count", D::kLowerIsBetter, K::kCount, "mispredicted branches (user space)", false,
       S::kPerf},
      // Google Benchmark's own figures, per iteration, converted from its time_unit.
      {"gb.real_time_ns", "ns", D::kLowerIsBetter, K::kTime, "Google Benchmark real time per iteration", false,
       S::kGbench},
      {"gb.cpu_time_ns", "ns", D::kLowerIsBetter, K::kTime, "Google Benchmark CPU time per iteration", false,
       S::kGbench},
      {"gb.iterations", "count", D::kLowerIsBetter, K::kCount, "iterations Google Benchmark chose", false, S::kGbench},
      // tare binaries: the library's measurement window, per iteration (docs/protocol.md).
      {"bench.wall_ns", "ns", D::kLowerIsBetter, K::kTime, "wall time per iteration in the measurement window", false,
       S::kBench},
      {"bench.cpu_ns", "ns", D::kLowerIsBetter, K::kTime, "process CPU time per iteration in the window", false,
       S::kBench},
      {"bench.iterations", "count", D::kLowerIsBetter, K::kCount, "iterations the window ran (fixed per benchmark)",
       true, S::kBench},
      {"bench.latency_p50_ns", "ns", D::kLowerIsBetter, K::kTime, "median latency of a timed operation", false,
       S::kBench},
      {"bench.latency_p95_ns", "ns", D::kLowerIsBetter, K::kTime, "95th percentile latency", false, S::kBench},
      {"bench.latency_p99_ns", "ns", D::kLowerIsBetter, K::kTime, "99th percentile latency", false, S::kBench},
      {"bench.latency_max_ns", "ns", D::kLowerIsBetter, K::kTime, "largest latency", false, S::kBench},
      // valgrind callgrind with a fixed cache model (docs/sim.md): identical on every rerun.
      {"sim.Ir", "count", D::kLowerIsBetter, K::kCount, "instructions executed (callgrind Ir)", true, S::kSim, true},
      {"sim.Dr", "count", D::kLowerIsBetter, K::kCount, "data reads (callgrind Dr)", true, S::kSim},
      {"sim.Dw", "count", D::kLowerIsBetter, K::kCount, "data writes (callgrind Dw)", true, S::kSim},
      {"sim.I1mr", "count", D::kLowerIsBetter, K::kCount, "simulated L1 instruction cache misses", true, S::kSim},
      {"sim.D1mr", "count", D::kLowerIsBetter, K::kCount, "simulated L1 data cache read misses", true, S::kSim},
      {"sim.D1mw", "count", D::kLowerIsBetter, K::kCount, "simulated L1 data cache write misses", true, S::kSim},
      {"sim.ILmr", "count", D::kLowerIsBetter, K::kCount, "simulated last-level instruction misses", true, S::kSim},
      {"sim.DLmr", "count", D::kLowerIsBetter, K::kCount, "simulated last-level data read misses", true, S::kSim},
      {"sim.DLmw", "count", D::kLowerIsBetter, K::kCount, "simulated last-level data write misses", true, S::kSim},
      {"sim.syscalls", "count", D::kLowerIsBetter, K::kCount, "system calls made in the window", true, S::kSim},
      {"sim.syscall_ns", "ns", D::kLowerIsBetter, K::kTime,
       "elapsed time in system calls (real, not simulated: varies between runs)", false, S::kSim},
      {"sim.syscall_cpu_ns", "ns", D::kLowerIsBetter, K::kTime,
       "system CPU time in system calls (real, not simulated: varies between runs)", false, S::kSim},
      {"sim.est_cycles", "count", D::kLowerIsBetter, K::kCount,
       "estimated cycles, model iai-v1: L1 hits + 5 x LL hits + 35 x RAM hits", true, S::kSim, false, "iai-v1"},
      // The allocation shim (LD_PRELOAD): inside the window for tare binaries, else the process.
      {"mem.allocs", "count", D::kLowerIsBetter, K::kCount, "allocations (malloc, calloc, realloc, aligned)", true,
       S::kMem},
      {"mem.frees", "count", D::kLowerIsBetter, K::kCount, "frees", true, S::kMem},
      {"mem.bytes_allocated", "bytes", D::kLowerIsBetter, K::kBytes, "bytes requested from the allocator", true,
       S::kMem},
      {"mem.peak_live_bytes", "bytes", D::kLowerIsBetter, K::kBytes, "largest heap in use at once", true, S::kMem},
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
  for (const auto& f : kFamilies) {
    if (StartsWith(name, f.prefix) && name.size() > std::char_traits<char>::length(f.prefix)) {
      generic.source = f.source;
      generic.description = f.source == MetricSource::kGbench  ? "Google Benchmark user counter"
                            : f.source == MetricSource::kBench ? "tare library counter or gauge"
                                                               : "reported by the program in $TARE_METRICS_FILE";
    }
  }
  // SetBytesProcessed / SetItemsProcessed: Google Benchmark's rates by name, per second.
  if (generic.source == MetricSource::kGbench && name.size() > 11 &&
      name.compare(name.size() - 11, 11, "_per_second") == 0) {
    generic.unit = name == "gb.counter.bytes_per_second" ? "bytes/s" : "/s";
    generic.direction = Direction::kHigherIsBetter;
    generic.description = "Google Benchmark rate counter (per second)";
    return generic;
  }
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "_ns") == 0) {
    generic.unit = "ns";
    generic.kind = MetricKind::kTime;
  } else if (name.size() > 6 && name.compare(name.size() - 6, 6, "_bytes") == 0) {
    generic.unit = "bytes";
    generic.kind = MetricKind::kBytes;
  }
  return generic;
}

bool CountsInstructions(const std::string& name) {
  for (const auto& m : KnownMetrics()) {
    if (m.name == name) return m.counts_instructions;
  }
  return false;
}

bool IsMeasured(const std::string& name, TargetKind kind, Instrument instrument) {
  return SourceMeasured(LookupMetric(name).source, kind, instrument);
}

std::string MeasuredMetricList(TargetKind kind, Instrument instrument) {
  std::string out;
  auto add = [&](const std::string& name) { out += (out.empty() ? "" : ", ") + name; };
  for (const auto& m : KnownMetrics()) {
    if (SourceMeasured(m.source, kind, instrument)) add(m.name);
  }
  for (const auto& f : kFamilies) {
    if (SourceMeasured(f.source, kind, instrument)) add(std::string(f.prefix) + "NAME");
  }
  return out;
}

const char* DirectionName(Direction d) { return d == Direction::kLowerIsBetter ? "lower" : "higher"; }

StatusOr<Direction> ParseDirection(std::string_view name) {
  if (name == "lower") return Direction::kLowerIsBetter;
  if (name == "higher") return Direction::kHigherIsBetter;
  return Status::InvalidArgument(fmt::format("direction '{}' is unknown (lower or higher)", name));
}

const char* MetricKindName(MetricKind k) {
  switch (k) {
    case MetricKind::kTime:
      return "time";
    case MetricKind::kCount:
      return "count";
    case MetricKind::kBytes:
      return "bytes";
    case MetricKind::kRatio:
      return "ratio";
  }
  return "count";
}

std::string MetricModel(const MetricDef& metric) { return metric.model; }

std::string ModelInDescription(const std::string& description) {
  const std::string marker = "model ";
  const size_t at = description.find(marker);
  if (at == std::string::npos) return "";
  const size_t begin = at + marker.size();
  const size_t end = description.find(':', begin);
  if (end == std::string::npos || end == begin) return "";
  const std::string name = description.substr(begin, end - begin);
  return name.find(' ') == std::string::npos ? name : "";
}

StatusOr<MetricKind> ParseMetricKind(std::string_view name) {
  for (MetricKind k : {MetricKind::kTime, MetricKind::kCount, MetricKind::kBytes, MetricKind::kRatio}) {
    if (name == MetricKindName(k)) return k;
  }
  return Status::InvalidArgument(fmt::format("metric kind '{}' is unknown (time, count, bytes or ratio)", name));
}

}  // namespace tare
