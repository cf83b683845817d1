#include "base/units.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

namespace tare {
namespace {

// Splits "12.5ms" into 12.5 and "ms". Fails on empty numbers and trailing garbage.
StatusOr<std::pair<double, std::string>> SplitNumber(std::string_view text, const char* what) {
  std::string s(text);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  const char* begin = s.c_str();
  char* end = nullptr;
  double v = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(v) || v < 0) {
    return Status::InvalidArgument(fmt::format("'{}' is not a {}; write a non-negative number with a unit, e.g. {}",
                                               text, what,
                                               std::string_view(what) == "duration" ? "250ms or 2s" : "64MiB"));
  }
  std::string suffix(end);
  while (!suffix.empty() && std::isspace(static_cast<unsigned char>(suffix.front()))) suffix.erase(0, 1);
  return std::make_pair(v, suffix);
}

}  // namespace

StatusOr<double> ParseDurationNs(std::string_view text) {
  TARE_ASSIGN_OR_RETURN(auto parts, SplitNumber(text, "duration"));
  const auto& [v, unit] = parts;
  if (unit.empty() || unit == "s") return v * 1e9;
  if (unit == "ms") return v * 1e6;
  if (unit == "us") return v * 1e3;
  if (unit == "ns") return v;
  if (unit == "m" || unit == "min") return v * 60e9;
  if (unit == "h") return v * 3600e9;
  return Status::InvalidArgument(
      fmt::format("unknown duration unit '{}' in '{}'; use ns, us, ms, s, m or h", unit, text));
}

StatusOr<int64_t> ParseTimeoutNs(std::string_view text) {
  TARE_ASSIGN_OR_RETURN(double ns, ParseDurationNs(text));
  if (ns < 1) {
    return Status::InvalidArgument(
        fmt::format("'{}' is no time at all; give a positive limit such as 30s or 10m", text));
  }
  if (ns > static_cast<double>(kMaxTimeoutNs)) {
    return Status::InvalidArgument(
        fmt::format("'{}' is longer than 7 days, the longest limit tare accepts; give e.g. 2h", text));
  }
  return static_cast<int64_t>(ns);
}

StatusOr<double> ParseBytes(std::string_view text) {
  TARE_ASSIGN_OR_RETURN(auto parts, SplitNumber(text, "byte size"));
  const auto& [v, unit] = parts;
  struct Unit {
    const char* name;
    double factor;
  };
  static constexpr Unit kUnits[] = {
      {"", 1},     {"B", 1},    {"KiB", 1024.0}, {"MiB", 1024.0 * 1024}, {"GiB", 1024.0 * 1024 * 1024}, {"KB", 1e3},
      {"kB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
  };
  for (const auto& u : kUnits) {
    if (unit == u.name) return v * u.factor;
  }
  return Status::InvalidArgument(
      fmt::format("unknown size unit '{}' in '{}'; use B, KiB, MiB, GiB, KB, MB or GB", unit, text));
}

std::string FormatDurationNs(double ns) {
  if (std::isnan(ns)) return "-";
  double a = std::fabs(ns);
  if (a < 1e3) return fmt::format("{:.3g} ns", ns);
  if (a < 1e6) return fmt::format("{:.3g} us", ns / 1e3);
  if (a < 1e9) return fmt::format("{:.3g} ms", ns / 1e6);
  // Past 100 s, minutes and hours: "27.2 min", not "1.63e+03 s".
  if (a < 100e9) return fmt::format("{:.3g} s", ns / 1e9);
  if (a < 6000e9) return fmt::format("{:.3g} min", ns / 60e9);
  return fmt::format("{:.3g} h", ns / 3600e9);
}

std::string FormatBytes(double bytes) {
  if (std::isnan(bytes)) return "-";
  double a = std::fabs(bytes);
  if (a < 1024) return fmt::format("{:.0f} B", bytes);
  if (a < 1024.0 * 1024) return fmt::format("{:.3g} KiB", bytes / 1024);
  if (a < 1024.0 * 1024 * 1024) return fmt::format("{:.3g} MiB", bytes / (1024.0 * 1024));
  return fmt::format("{:.3g} GiB", bytes / (1024.0 * 1024 * 1024));
}

std::string FormatCount(double value) {
  if (std::isnan(value)) return "-";
  if (std::fabs(value) >= 1e12) return fmt::format("{:.4g}", value);
  if (value != std::floor(value) && std::fabs(value) < 1000) return fmt::format("{:.4g}", value);
  value = std::round(value);
  // Integers get thousands separators: 128,070 reads faster than 128070.
  std::string digits = fmt::format("{}", static_cast<long long>(std::fabs(value)));
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

std::string FormatValue(double value, std::string_view unit) {
  if (unit == "ns") return FormatDurationNs(value);
  if (unit == "bytes") return FormatBytes(value);
  if (unit == "count" || unit.empty()) return FormatCount(value);
  if (unit == "bytes/s") return FormatBytes(value) + "/s";
  if (unit == "/s") return FormatCount(value) + "/s";
  if (unit == "percent") return fmt::format("{:.2f}%", value);
  if (unit == "ratio") return fmt::format("{:.4g}", value);
  return fmt::format("{:.4g} {}", value, unit);
}

}  // namespace tare
