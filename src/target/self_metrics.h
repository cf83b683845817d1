// Metrics a program reports about itself (issue 26 item 5; docs/measurement.md, "Metrics a program
// reports about itself"). tare names a file in the child's environment, $TARE_METRICS_FILE, one per
// sample and empty before it; a program that has figures of its own — throughput, a p99 latency,
// its RSS after draining — writes one JSON object there before it exits:
//
//   {"throughput": 18234.5, "p99_ms": {"value": 3.2, "unit": "ms", "direction": "lower"}}
//
// Each becomes the metric "app.NAME" of that sample, stored, exported and judged like any other
// (`tare ab --metric app.throughput=1%:higher`). The file is the program's output: hostile input,
// read with a size cap and checked field by field.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/metric.h"
#include "model/metric_names.h"

namespace tare::target {

inline constexpr const char* kMetricsFileEnv = "TARE_METRICS_FILE";
inline constexpr const char* kAppPrefix = metric_name::kAppPrefix;
inline constexpr size_t kMaxMetricsFileBytes = 64 * 1024;
inline constexpr size_t kMaxSelfMetrics = 256;
inline constexpr size_t kMaxSelfMetricName = 64;

struct SelfMetric {
  std::string name;  // with the prefix: app.throughput
  double value = 0;
  std::string unit;  // "" when the program gave none
  std::optional<Direction> direction;
};

// The file's text to its metrics, sorted by name. InvalidArgument naming the field for
// anything else: not an object, a name outside [A-Za-z0-9_.-] (1 to 64 characters), a value that is
// not a finite number, an unknown key in a {value, unit, direction} object, a unit that is not 1 to
// 16 printable characters, a direction other than "lower" or "higher", more than 256 metrics, a
// name or a metric's key given twice (JSON would keep the last silently).
StatusOr<std::vector<SelfMetric>> ParseSelfMetrics(std::string_view text);

// Reads the file a sample's program wrote: nullopt when it wrote none. FailedPrecondition for a
// file that is not a regular file or is larger than kMaxMetricsFileBytes, InvalidArgument (from
// ParseSelfMetrics) for its content. Messages start with "$TARE_METRICS_FILE".
StatusOr<std::optional<std::vector<SelfMetric>>> ReadSelfMetrics(const std::string& path);

// The definition a self-reported metric is stored with: the family's, with the program's unit
// (its kind: time for ns/us/ms/s, bytes for B/bytes/KiB/MiB/GiB) and direction.
MetricDef SelfMetricDef(const SelfMetric& m);

}  // namespace tare::target
