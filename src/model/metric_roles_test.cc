// The roles of the catalogue's metrics, against the lists each user kept before issue 22 moved them
// here (report's IsDefaultMetric and MetricRank, compare's PrimaryMetric, spread's two exact
// counts, campaign's DefaultMetrics): the same answers, name for name.
#include "model/metric_roles.h"

#include <gtest/gtest.h>

#include "model/metric.h"

namespace tare {
namespace {

// report/run_report.cc's IsDefaultMetric before issue 22, verbatim: the oracle.
bool OldIsDefaultMetric(const std::string& name, const std::string& kind) {
  if (name.rfind("sim.", 0) == 0) {
    return name == "sim.Ir" || name == "sim.est_cycles" || name == "sim.D1mr" || name == "sim.DLmr" ||
           name == "sim.syscalls";
  }
  if (name == "bench.iterations") return false;
  if (name.rfind("gb.counter.", 0) == 0 || name.rfind("bench.", 0) == 0 || name.rfind("mem.", 0) == 0) {
    return true;
  }
  if (kind == "gbench" || kind == "tare") {
    return name == "gb.real_time_ns" || name == "gb.cpu_time_ns" || name == "wall_ns" || name == "peak_rss_bytes" ||
           name == "perf.instructions";
  }
  return name == "wall_ns" || name == "user_ns" || name == "sys_ns" || name == "peak_rss_bytes" ||
         name == "perf.instructions" || name == "perf.cycles";
}

TEST(MetricRoles, ShownByDefaultAsTheRunTableShowedThem) {
  std::vector<std::string> names;
  for (const auto& m : KnownMetrics()) names.push_back(m.name);
  // Families, and names tare does not know. (One answer differs on purpose: a "mem." name the
  // allocation shim never writes was shown; it is a generic count now, like any unknown name.)
  for (const char* n :
       {"gb.counter.items", "gb.counter.bytes_per_second", "bench.my_gauge", "sim.Bc", "x_ns", "other"}) {
    names.push_back(n);
  }
  for (const auto& n : names) {
    for (TargetKind k : {TargetKind::kCommand, TargetKind::kGbench, TargetKind::kTare}) {
      EXPECT_EQ(ShownByDefault(n, k), OldIsDefaultMetric(n, TargetKindName(k))) << n << " " << TargetKindName(k);
    }
  }
  EXPECT_FALSE(ShownByDefault("perf.task_clock_ns", TargetKind::kCommand));
  EXPECT_TRUE(ShownByDefault("perf.cycles", TargetKind::kCommand));
  EXPECT_FALSE(ShownByDefault("perf.cycles", TargetKind::kGbench));
}

TEST(MetricRoles, TableOrderLeadsWithTheTargetsOwnFigures) {
  const std::vector<std::string> order = {
      "bench.wall_ns", "bench.cpu_ns", "sim.Ir", "sim.est_cycles", "gb.real_time_ns",   "gb.cpu_time_ns",
      "wall_ns",       "user_ns",      "sys_ns", "peak_rss_bytes", "perf.instructions", "perf.cycles"};
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(TableRank(order[i]), static_cast<int>(i)) << order[i];
  EXPECT_EQ(TableRank("sim.Dr"), kUnranked);
  EXPECT_EQ(TableRank("gb.counter.items"), kUnranked);
}

TEST(MetricRoles, PrimaryMetricsAndTheHeadlineExactCounts) {
  EXPECT_EQ(PrimaryMetrics(),
            (std::vector<std::string>{"sim.Ir", "mem.allocs", "bench.wall_ns", "gb.real_time_ns", "wall_ns"}));
  std::vector<std::string> headline;
  for (const auto& m : KnownMetrics()) {
    if (IsHeadlineDeterministic(m.name)) headline.push_back(m.name);
  }
  EXPECT_EQ(headline, (std::vector<std::string>{"sim.Ir", "sim.est_cycles"}));
}

TEST(MetricRoles, DefaultJudgedMetricsPerKindAndInstrument) {
  using V = std::vector<std::string>;
  for (TargetKind k : {TargetKind::kCommand, TargetKind::kGbench, TargetKind::kTare}) {
    EXPECT_EQ(DefaultJudgedMetrics(k, Instrument::kSim, true), V{"sim.Ir"});
    EXPECT_EQ(DefaultJudgedMetrics(k, Instrument::kMem, true), (V{"mem.allocs", "mem.peak_live_bytes"}));
  }
  EXPECT_EQ(DefaultJudgedMetrics(TargetKind::kGbench, Instrument::kWall, true), V{"gb.cpu_time_ns"});
  EXPECT_EQ(DefaultJudgedMetrics(TargetKind::kGbench, Instrument::kWall, false), V{"gb.cpu_time_ns"});
  EXPECT_EQ(DefaultJudgedMetrics(TargetKind::kTare, Instrument::kWall, true), V{"bench.cpu_ns"});
  EXPECT_EQ(DefaultJudgedMetrics(TargetKind::kCommand, Instrument::kWall, true), V{"perf.task_clock_ns"});
  EXPECT_EQ(DefaultJudgedMetrics(TargetKind::kCommand, Instrument::kWall, false), V{"wall_ns"});
}

}  // namespace
}  // namespace tare
