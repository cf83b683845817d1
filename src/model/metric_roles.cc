// The roles of the catalogue's metrics (metric_roles.h).
#include "model/metric_roles.h"

#include <algorithm>

#include "model/metric.h"

namespace tare {
namespace {

// Which benchmarks' tables show a metric by default.
enum class Shown { kNever, kAlways, kForCommands, kForBenchmarks /* Google Benchmark, tare */ };

struct Role {
  const char* name;
  Shown shown;
  int table_rank;          // 0, 1, ...; kUnranked
  int primary_rank;        // 0 best; kUnranked: not a primary metric
  bool judged_by_default;  // by tare ab (DefaultJudgedMetrics)
};

constexpr int kNo = kUnranked;
using S = Shown;

// Every catalogue metric with a role; a name missing here has none (a user counter's or a tare
// library counter's family is shown: below).
constexpr Role kRoles[] = {
    {"bench.wall_ns", S::kAlways, 0, 2, false},
    {"bench.cpu_ns", S::kAlways, 1, kNo, true},
    {"bench.latency_p50_ns", S::kAlways, kNo, kNo, false},
    {"bench.latency_p95_ns", S::kAlways, kNo, kNo, false},
    {"bench.latency_p99_ns", S::kAlways, kNo, kNo, false},
    {"bench.latency_max_ns", S::kAlways, kNo, kNo, false},
    {"sim.Ir", S::kAlways, 2, 0, true},
    {"sim.est_cycles", S::kAlways, 3, kNo, false},
    {"sim.D1mr", S::kAlways, kNo, kNo, false},
    {"sim.DLmr", S::kAlways, kNo, kNo, false},
    {"sim.syscalls", S::kAlways, kNo, kNo, false},
    {"gb.real_time_ns", S::kForBenchmarks, 4, 3, false},
    {"gb.cpu_time_ns", S::kForBenchmarks, 5, kNo, true},
    {"wall_ns", S::kAlways, 6, 4, true},
    {"user_ns", S::kForCommands, 7, kNo, false},
    {"sys_ns", S::kForCommands, 8, kNo, false},
    {"peak_rss_bytes", S::kAlways, 9, kNo, false},
    {"perf.instructions", S::kAlways, 10, kNo, false},
    {"perf.cycles", S::kForCommands, 11, kNo, false},
    {"perf.task_clock_ns", S::kNever, kNo, kNo, true},
    {"mem.allocs", S::kAlways, kNo, 1, true},
    {"mem.frees", S::kAlways, kNo, kNo, false},
    {"mem.bytes_allocated", S::kAlways, kNo, kNo, false},
    {"mem.peak_live_bytes", S::kAlways, kNo, kNo, true},
};

const Role* RoleOf(const std::string& name) {
  for (const auto& r : kRoles) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

}  // namespace

bool ShownByDefault(const std::string& name, TargetKind kind) {
  const Role* r = RoleOf(name);
  if (r == nullptr) {
    // The families named at run time: Google Benchmark's user counters, the tare library's
    // counters and gauges (a catalogue metric without a role is not one of them).
    const auto& known = KnownMetrics();
    if (std::any_of(known.begin(), known.end(), [&](const MetricDef& m) { return m.name == name; })) return false;
    const MetricSource source = LookupMetric(name).source;
    return source == MetricSource::kGbench || source == MetricSource::kBench;
  }
  switch (r->shown) {
    case Shown::kNever:
      return false;
    case Shown::kAlways:
      return true;
    case Shown::kForCommands:
      return kind != TargetKind::kGbench && kind != TargetKind::kTare;
    case Shown::kForBenchmarks:
      return kind == TargetKind::kGbench || kind == TargetKind::kTare;
  }
  return false;
}

int TableRank(const std::string& name) {
  const Role* r = RoleOf(name);
  return r == nullptr ? kUnranked : r->table_rank;
}

const std::vector<std::string>& PrimaryMetrics() {
  static const std::vector<std::string> kPrimary = [] {
    std::vector<const Role*> ranked;
    for (const auto& r : kRoles) {
      if (r.primary_rank != kUnranked) ranked.push_back(&r);
    }
    std::sort(ranked.begin(), ranked.end(),
              [](const Role* a, const Role* b) { return a->primary_rank < b->primary_rank; });
    std::vector<std::string> names;
    for (const Role* r : ranked) names.push_back(r->name);
    return names;
  }();
  return kPrimary;
}

bool IsHeadlineDeterministic(const std::string& name) {
  return LookupMetric(name).deterministic && TableRank(name) != kUnranked;
}

namespace {

// The most direct measurement first: the instrument's own, the target's own, the process's CPU
// time (perf task-clock), its wall time.
constexpr MetricSource kJudgedSources[] = {MetricSource::kSim,   MetricSource::kMem,  MetricSource::kGbench,
                                           MetricSource::kBench, MetricSource::kPerf, MetricSource::kProcess};

// The first source with a judged metric that `usable` accepts gives them all.
template <typename Usable>
std::vector<std::string> JudgedByPreference(Usable usable) {
  for (MetricSource source : kJudgedSources) {
    std::vector<std::string> names;
    for (const auto& m : KnownMetrics()) {
      const Role* r = RoleOf(m.name);
      if (m.source == source && r != nullptr && r->judged_by_default && usable(m.name)) names.push_back(m.name);
    }
    if (!names.empty()) return names;
  }
  return {};
}

}  // namespace

const std::vector<std::string>& JudgedPreference() {
  static const std::vector<std::string> kOrder = [] {
    std::vector<std::string> names;
    for (MetricSource source : kJudgedSources) {
      for (const auto& m : KnownMetrics()) {
        const Role* r = RoleOf(m.name);
        if (m.source == source && r != nullptr && r->judged_by_default) names.push_back(m.name);
      }
    }
    return names;
  }();
  return kOrder;
}

std::string CpuCompanion(const std::string& primary) {
  if (primary == "gb.real_time_ns") return "gb.cpu_time_ns";
  if (primary == "bench.wall_ns") return "bench.cpu_ns";
  return "";
}

std::vector<std::string> DefaultJudgedMetrics(TargetKind kind, Instrument instrument, bool task_clock_available) {
  return JudgedByPreference([&](const std::string& name) {
    if (LookupMetric(name).source == MetricSource::kPerf && !task_clock_available) return false;
    return IsMeasured(name, kind, instrument);
  });
}

std::vector<std::string> JudgedByDefaultAmong(const std::vector<std::string>& present) {
  return JudgedByPreference(
      [&](const std::string& name) { return std::find(present.begin(), present.end(), name) != present.end(); });
}

}  // namespace tare
