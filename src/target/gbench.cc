#include "target/gbench.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <sstream>

#include "base/json_read.h"
#include "base/json_text.h"
#include "base/regex.h"

namespace tare::target {

std::string EscapeRegex(const std::string& name) {
  // Google Benchmark 1.7 compiles the filter with std::regex in POSIX extended syntax, where "\]"
  // and "\}" are invalid escapes ("Could not compile benchmark re: Invalid escape"), so a name with
  // brackets or braces could never be measured (issue 27, item 12). A one-character bracket
  // expression ("[.]", "[[]") means the character itself in every regex dialect a Google Benchmark
  // may be built with (std::regex extended or ECMAScript, POSIX regcomp); ']' and '}' are plain
  // characters outside a bracket or an interval and stay as they are; '^' and '\' (special inside
  // a bracket too) take the backslash escapes every dialect accepts.
  std::string out;
  for (char c : name) {
    if (c == '\\' || c == '^') {
      out += '\\';
      out += c;
    } else if (std::string_view("$.|?*+()[{").find(c) != std::string_view::npos) {
      out += '[';
      out += c;
      out += ']';
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> GbenchSampleArgs(const std::string& benchmark, const std::string& json_out) {
  return {"--benchmark_filter=^" + EscapeRegex(benchmark) + "$", "--benchmark_out=" + json_out,
          "--benchmark_out_format=json", "--benchmark_repetitions=1", "--benchmark_format=console"};
}

std::string GbenchMinTimeArg(int64_t min_time_ns) {
  return fmt::format("--benchmark_min_time={:g}", static_cast<double>(min_time_ns) / 1e9);
}

std::string GbenchIterationsArg(uint64_t iterations) { return fmt::format("--benchmark_min_time={}x", iterations); }

bool GbenchMinTimeGiven(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  for (size_t i = 1; i < argv.size(); ++i) {
    if (argv[i].rfind("--benchmark_min_time=", 0) == 0) return true;
  }
  for (const auto& kv : env) {
    if (kv.rfind("BENCHMARK_MIN_TIME=", 0) == 0) return true;
  }
  return false;
}

std::string GbenchNewlineFilterArg() { return "--benchmark_filter=[\n]"; }

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
  return Status::DataLoss(
      fmt::format("benchmark '{}': Google Benchmark reported an unknown time_unit '{}'", benchmark, unit));
}

// Keys of a benchmark row that are Google Benchmark's own, not user counters.
const std::set<std::string>& ReservedKeys() {
  static const std::set<std::string> kKeys = {"name",
                                              "family_index",
                                              "per_family_instance_index",
                                              "run_name",
                                              "run_type",
                                              "repetitions",
                                              "repetition_index",
                                              "threads",
                                              "iterations",
                                              "real_time",
                                              "cpu_time",
                                              "time_unit",
                                              "error_occurred",
                                              "error_message",
                                              "skipped",
                                              "skip_message",
                                              "aggregate_name",
                                              "aggregate_unit",
                                              "label",
                                              "big_o",
                                              "rms"};
  return kKeys;
}

// Typed access to one row of --benchmark_out JSON. The file is written by the program under
// test, so any field may hold any JSON type: a field of the wrong type is DataLoss naming the
// benchmark and the field, never an exception (nlohmann's value()/get() throw type_error).
struct RowFields {
  const nlohmann::json& row;
  const std::string& benchmark;

  Status WrongType(const char* key, const char* expected) const {
    return Status::DataLoss(fmt::format("benchmark '{}': Google Benchmark's JSON field \"{}\" is {} ({}), expected {}",
                                        benchmark, key, row[key].type_name(), Shown(row[key]), expected));
  }
  static std::string Shown(const nlohmann::json& v) {
    std::string text = DumpJson(v);
    return text.size() > 60 ? text.substr(0, 60) + "..." : text;
  }
  StatusOr<std::string> String(const char* key, const std::string& fallback) const {
    if (!row.contains(key)) return fallback;
    if (!row[key].is_string()) return WrongType(key, "a string");
    return row[key].get<std::string>();
  }
  StatusOr<bool> Bool(const char* key, bool fallback) const {
    if (!row.contains(key)) return fallback;
    if (!row[key].is_boolean()) return WrongType(key, "true or false");
    return row[key].get<bool>();
  }
  // Required and finite.
  StatusOr<double> Number(const char* key) const {
    if (!row.contains(key)) {
      return Status::DataLoss(
          fmt::format("benchmark '{}': Google Benchmark's JSON row lacks a numeric \"{}\"", benchmark, key));
    }
    if (!row[key].is_number()) return WrongType(key, "a number");
    double v = row[key].get<double>();
    if (!std::isfinite(v)) return WrongType(key, "a finite number");
    return v;
  }
};

}  // namespace

StatusOr<GbenchReading> ParseGbenchJson(const std::string& json_text, const std::string& benchmark) {
  const auto parsed = ParseJson(json_text, "Google Benchmark's JSON output");
  if (!parsed.ok() || !parsed->is_object()) {
    return Status::DataLoss(
        fmt::format("benchmark '{}': Google Benchmark's JSON output is malformed (truncated or not JSON{})", benchmark,
                    parsed.ok() ? "" : ": " + parsed.status().message()));
  }
  const nlohmann::json& doc = *parsed;
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array()) {
    return Status::DataLoss(
        fmt::format("benchmark '{}': Google Benchmark's JSON output has no \"benchmarks\" array", benchmark));
  }
  for (const auto& row : doc["benchmarks"]) {
    if (!row.is_object()) continue;
    const RowFields f{row, benchmark};
    TARE_ASSIGN_OR_RETURN(std::string name, f.String("name", ""));
    TARE_ASSIGN_OR_RETURN(std::string run_name, f.String("run_name", name));
    TARE_ASSIGN_OR_RETURN(std::string run_type, f.String("run_type", "iteration"));
    if (run_type != "iteration") continue;
    if (run_name != benchmark && name != benchmark) continue;
    GbenchReading r;
    TARE_ASSIGN_OR_RETURN(bool error, f.Bool("error_occurred", false));
    TARE_ASSIGN_OR_RETURN(bool skipped, f.Bool("skipped", false));
    if (error || skipped) {
      TARE_ASSIGN_OR_RETURN(std::string skip_message, f.String("skip_message", "(no message)"));
      TARE_ASSIGN_OR_RETURN(r.error_message, f.String("error_message", skip_message));
      r.error = true;
      return r;
    }
    TARE_ASSIGN_OR_RETURN(r.iterations, f.Number("iterations"));
    TARE_ASSIGN_OR_RETURN(r.real_time_ns, f.Number("real_time"));
    TARE_ASSIGN_OR_RETURN(r.cpu_time_ns, f.Number("cpu_time"));
    TARE_ASSIGN_OR_RETURN(std::string unit, f.String("time_unit", "ns"));
    TARE_ASSIGN_OR_RETURN(double scale, UnitToNs(unit, benchmark));
    r.real_time_ns *= scale;
    r.cpu_time_ns *= scale;
    // Finite in the file, infinite in ns: 1e300 s is a value no sample can hold.
    if (!std::isfinite(r.real_time_ns) || !std::isfinite(r.cpu_time_ns)) {
      return Status::DataLoss(
          fmt::format("benchmark '{}': Google Benchmark's JSON times ({} / {} {}) overflow when converted to ns",
                      benchmark, row["real_time"].get<double>(), row["cpu_time"].get<double>(), unit));
    }
    if (row.contains("threads")) {
      TARE_ASSIGN_OR_RETURN(double threads, f.Number("threads"));
      if (threads < 1 || threads > 1e6 || threads != static_cast<double>(static_cast<int>(threads))) {
        return Status::DataLoss(fmt::format(
            "benchmark '{}': Google Benchmark's JSON field \"threads\" is {}, not a thread count", benchmark, threads));
      }
      r.threads = static_cast<int>(threads);
    }
    for (const auto& [key, value] : row.items()) {
      if (ReservedKeys().count(key) == 0 && value.is_number()) r.counters[key] = value.get<double>();
    }
    return r;
  }
  return Status::DataLoss(
      fmt::format("benchmark '{}' produced no result row; it may have been filtered out or crashed before "
                  "reporting",
                  benchmark));
}

std::vector<std::string> GbenchRateCounters(const std::string& console, const std::map<std::string, double>& counters) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < console.size()) {
    const size_t start = console.find_first_not_of(" \t\r\n", i);
    if (start == std::string::npos) break;
    size_t end = console.find_first_of(" \t\r\n", start);
    if (end == std::string::npos) end = console.size();
    const std::string token = console.substr(start, end - start);
    i = end;
    const size_t eq = token.find('=');
    if (eq == std::string::npos || token.size() < eq + 4 || token.compare(token.size() - 2, 2, "/s") != 0) continue;
    const std::string name = token.substr(0, eq);
    if (counters.count(name) && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

std::string WithoutGbenchContext(const std::string& stderr_text) {
  // RE2 (base/regex.h): the text is the program's.
  static const Regex kContext = *Regex::Compile(
      R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d([+-]\d\d:\d\d|Z)?|Running .*|Run on \(\d+ X [\d.]+ MHz CPUs?( s)?\)|CPU Caches:|)"
      R"(  L\d (Data|Instruction|Unified) \d+ [KMG]i?B \(x\d+\)|Load Average: .*|\*\*\*WARNING\*\*\* .*)",
      "Google Benchmark's context");
  size_t at = 0;
  while (at < stderr_text.size()) {
    const size_t end = stderr_text.find('\n', at);
    const std::string line = stderr_text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (!kContext.Match(line)) break;
    at = end == std::string::npos ? stderr_text.size() : end + 1;
  }
  return stderr_text.substr(at);
}

}  // namespace tare::target
