#include "target/gbench.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

namespace tare::target {

std::string EscapeRegex(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::vector<std::string> GbenchSampleArgs(const std::string& benchmark, const std::string& json_out) {
  return {"--benchmark_filter=^" + EscapeRegex(benchmark) + "$",
          "--benchmark_out=" + json_out,
          "--benchmark_out_format=json",
          "--benchmark_repetitions=1",
          "--benchmark_format=console"};
}

std::vector<std::string> ParseGbenchList(const std::string& text) {
  std::vector<std::string> names;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) names.push_back(line);
  }
  return names;
}

namespace {

StatusOr<double> UnitToNs(const std::string& unit, const std::string& benchmark) {
  if (unit == "ns") return 1.0;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return Status::DataLoss(fmt::format(
      "benchmark '{}': Google Benchmark reported an unknown time_unit '{}'", benchmark, unit));
}

// Keys of a benchmark row that are Google Benchmark's own, not user counters.
const std::set<std::string>& ReservedKeys() {
  static const std::set<std::string> kKeys = {
      "name", "family_index", "per_family_instance_index", "run_name", "run_type",
      "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
      "time_unit", "error_occurred", "error_message", "skipped", "skip_message",
      "aggregate_name", "aggregate_unit", "label", "big_o", "rms"};
  return kKeys;
}

}  // namespace

StatusOr<GbenchReading> ParseGbenchJson(const std::string& json_text, const std::string& benchmark) {
  auto doc = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Status::DataLoss(fmt::format(
        "benchmark '{}': Google Benchmark's JSON output is malformed (truncated or not JSON)",
        benchmark));
  }
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array()) {
    return Status::DataLoss(fmt::format(
        "benchmark '{}': Google Benchmark's JSON output has no \"benchmarks\" array", benchmark));
  }
  for (const auto& row : doc["benchmarks"]) {
    if (!row.is_object()) continue;
    std::string run_name = row.value("run_name", row.value("name", ""));
    if (row.value("run_type", "iteration") != "iteration") continue;
    if (run_name != benchmark && row.value("name", "") != benchmark) continue;
    GbenchReading r;
    bool skipped = row.contains("skipped") && row["skipped"].is_boolean() && row["skipped"].get<bool>();
    if (row.value("error_occurred", false) || skipped) {
      r.error = true;
      r.error_message = row.value("error_message", row.value("skip_message", "(no message)"));
      return r;
    }
    for (const char* key : {"real_time", "cpu_time", "iterations"}) {
      if (!row.contains(key) || !row[key].is_number()) {
        return Status::DataLoss(fmt::format(
            "benchmark '{}': Google Benchmark's JSON row lacks a numeric \"{}\"", benchmark, key));
      }
    }
    TARE_ASSIGN_OR_RETURN(double scale, UnitToNs(row.value("time_unit", "ns"), benchmark));
    r.iterations = row["iterations"].get<double>();
    r.real_time_ns = row["real_time"].get<double>() * scale;
    r.cpu_time_ns = row["cpu_time"].get<double>() * scale;
    for (const auto& [key, value] : row.items()) {
      if (ReservedKeys().count(key) == 0 && value.is_number()) r.counters[key] = value.get<double>();
    }
    return r;
  }
  return Status::DataLoss(fmt::format(
      "benchmark '{}' produced no result row; it may have been filtered out or crashed before "
      "reporting", benchmark));
}

}  // namespace tare::target
