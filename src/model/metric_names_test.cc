// metric_names.h spells the catalogue's names for other modules; these tests hold the two against
// each other, so a constant cannot name a metric the catalogue does not define (or define with
// another source), and the catalogue's one "counts instructions" property answers as the cross-check
// and the verdict lines used to by listing names.
#include "model/metric_names.h"

#include <gtest/gtest.h>

#include <string>

#include "model/metric.h"

namespace tare {
namespace {

TEST(MetricNames, EveryFullNameIsACatalogueMetricOfItsSource) {
  namespace n = metric_name;
  const std::pair<const char*, MetricSource> names[] = {
      {n::kPerfTaskClockNs, MetricSource::kPerf},
      {n::kPerfInstructions, MetricSource::kPerf},
      {n::kGbRealTimeNs, MetricSource::kGbench},
      {n::kGbCpuTimeNs, MetricSource::kGbench},
      {n::kGbIterations, MetricSource::kGbench},
      {n::kBenchWallNs, MetricSource::kBench},
      {n::kBenchCpuNs, MetricSource::kBench},
      {n::kBenchIterations, MetricSource::kBench},
      {n::kBenchLatencyP50Ns, MetricSource::kBench},
      {n::kBenchLatencyP95Ns, MetricSource::kBench},
      {n::kBenchLatencyP99Ns, MetricSource::kBench},
      {n::kBenchLatencyMaxNs, MetricSource::kBench},
      {n::kSimIr, MetricSource::kSim},
      {n::kSimI1mr, MetricSource::kSim},
      {n::kSimD1mr, MetricSource::kSim},
      {n::kSimD1mw, MetricSource::kSim},
      {n::kSimILmr, MetricSource::kSim},
      {n::kSimDLmr, MetricSource::kSim},
      {n::kSimDLmw, MetricSource::kSim},
      {n::kSimSyscalls, MetricSource::kSim},
      {n::kSimSyscallNs, MetricSource::kSim},
      {n::kSimSyscallCpuNs, MetricSource::kSim},
      {n::kSimEstCycles, MetricSource::kSim},
      {n::kMemAllocs, MetricSource::kMem},
      {n::kMemFrees, MetricSource::kMem},
      {n::kMemBytesAllocated, MetricSource::kMem},
      {n::kMemPeakLiveBytes, MetricSource::kMem},
  };
  for (const auto& [name, source] : names) {
    bool known = false;
    for (const auto& m : KnownMetrics()) known = known || m.name == name;
    EXPECT_TRUE(known) << name << " is spelled in metric_names.h but not defined in the catalogue";
    EXPECT_EQ(LookupMetric(name).source, source) << name;
  }
}

TEST(MetricNames, EachPrefixStartsTheNamesOfItsSource) {
  namespace n = metric_name;
  const std::pair<const char*, MetricSource> prefixes[] = {
      {n::kPerfPrefix, MetricSource::kPerf}, {n::kSimPrefix, MetricSource::kSim}, {n::kMemPrefix, MetricSource::kMem}};
  for (const auto& [prefix, source] : prefixes) {
    int of_source = 0;
    for (const auto& m : KnownMetrics()) {
      if (m.source != source) continue;
      ++of_source;
      EXPECT_EQ(m.name.rfind(prefix, 0), 0u) << m.name << " does not start with " << prefix;
    }
    EXPECT_GT(of_source, 0) << prefix;
  }
  // The families the catalogue knows by prefix alone.
  EXPECT_EQ(LookupMetric(std::string(n::kGbCounterPrefix) + "items").source, MetricSource::kGbench);
  EXPECT_EQ(LookupMetric(std::string(n::kBenchPrefix) + "hits").source, MetricSource::kBench);
  EXPECT_EQ(LookupMetric(std::string(n::kAppPrefix) + "throughput").source, MetricSource::kApp);
  EXPECT_EQ(std::string(n::kBenchUserPrefix).rfind(n::kBenchPrefix, 0), 0u);
}

TEST(MetricNames, TheCatalogueSaysWhichMetricsCountInstructions) {
  EXPECT_TRUE(CountsInstructions("perf.instructions"));
  EXPECT_TRUE(CountsInstructions("sim.Ir"));
  for (const char* other : {"sim.Dr", "sim.est_cycles", "perf.cycles", "perf.branches", "wall_ns", "gb.cpu_time_ns",
                            "gb.counter.instructions", "app.instructions", ""}) {
    EXPECT_FALSE(CountsInstructions(other)) << other;
  }
  int counting = 0;
  for (const auto& m : KnownMetrics()) counting += m.counts_instructions;
  EXPECT_EQ(counting, 2) << "a new metric that counts instructions: check the cross-check's wording reads it";
}

}  // namespace
}  // namespace tare
