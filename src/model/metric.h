// Metric: the name, unit and direction of one measured quantity. Samples carry values keyed by
// metric name; the definitions say how to read them (which way is worse, how to format them).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tare {

enum class Direction { kLowerIsBetter, kHigherIsBetter };
enum class MetricKind { kTime, kCount, kBytes, kRatio };

struct MetricDef {
  std::string name;         // stable key, e.g. "wall_ns", "perf.instructions", "gb.real_time_ns"
  std::string unit;         // "ns", "bytes", "count", "ratio" or a user counter's own unit
  Direction direction = Direction::kLowerIsBetter;
  MetricKind kind = MetricKind::kCount;
  std::string description;  // one line for --help and reports
};

// The metrics tare knows by name. User counters (Google Benchmark, tare library) are added at run
// time with unit "count" and direction taken from the benchmark where it says.
const std::vector<MetricDef>& KnownMetrics();
// Definition for a name; unknown names get a generic count definition.
MetricDef LookupMetric(const std::string& name);

const char* DirectionName(Direction d);  // "lower" / "higher"
const char* MetricKindName(MetricKind k);  // "time" / "count" / "bytes" / "ratio"

}  // namespace tare
