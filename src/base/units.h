// Parsing and formatting of the units tare shows to people: durations and byte sizes.
// Values are carried in base units (nanoseconds, bytes) as doubles; unit names live in metric
// definitions, never in bare numbers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace tare {

// "250ms", "1.5s", "10us", "2m", "300" (seconds when no suffix) -> nanoseconds.
StatusOr<double> ParseDurationNs(std::string_view text);
// A per-process time limit (--timeout): a duration above zero and at most kMaxTimeoutNs. The bound
// keeps the nanosecond count far inside int64 ("1e99s" would otherwise wrap to no limit at all).
inline constexpr int64_t kMaxTimeoutNs = int64_t{7} * 24 * 3600 * 1000000000;  // 7 days
StatusOr<int64_t> ParseTimeoutNs(std::string_view text);
// "64MiB", "1.5GB", "4096" (bytes) -> bytes.
StatusOr<double> ParseBytes(std::string_view text);

// 3 significant digits with an adaptive unit: "1.23 ms", "850 ns", "2.00 s".
std::string FormatDurationNs(double ns);
// "1.20 MiB", "512 B".
std::string FormatBytes(double bytes);
// A value in the named unit ("ns", "bytes", "count", "ratio", "percent", anything else verbatim).
std::string FormatValue(double value, std::string_view unit);
// Count with 3-4 significant digits and SI-ish suffix for large values: "128,070", "1.23e+09".
std::string FormatCount(double value);

}  // namespace tare
