#include "target/tare_protocol.h"

#include <cmath>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_read.h"
#include "base/json_text.h"
#include "model/metric_names.h"

namespace tare::protocol {
namespace {

using nlohmann::json;

std::string Quoted(std::string_view bench) { return fmt::format("benchmark '{}'", bench); }

// A line's JSON object; DataLoss if it is not one line of JSON with protocol 1.
StatusOr<json> ParseObject(std::string_view line, std::string_view what) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.find('\n') != std::string_view::npos) {
    return Status::DataLoss(fmt::format("{}: expected one result line, got several", what));
  }
  auto parsed = ParseJson(line, what);
  if (!parsed.ok() || !parsed->is_object()) {
    const std::string head(line.substr(0, 80));
    return Status::DataLoss(fmt::format("{}: the child's result is not a JSON object: '{}'", what, head));
  }
  json j = std::move(*parsed);
  if (!j.contains("protocol") || !j["protocol"].is_number_unsigned()) {
    return Status::DataLoss(fmt::format("{}: the result line has no \"protocol\" field", what));
  }
  if (j["protocol"].get<uint64_t>() != uint64_t(kVersion)) {
    return Status::FailedPrecondition(
        fmt::format("{}: the binary speaks tare child protocol {}, this tare speaks {}; rebuild the benchmark "
                    "against this tare's include/tare",
                    what, j["protocol"].get<uint64_t>(), kVersion));
  }
  return j;
}

// The child's own error report, if the line is one.
std::optional<Status> ChildError(const json& j, std::string_view what) {
  if (!j.contains("error")) return std::nullopt;
  const std::string message = j["error"].is_string() ? j["error"].get<std::string>() : DumpJson(j["error"]);
  return Status::FailedPrecondition(fmt::format("{} failed in the child: {}", what, message));
}

Status CheckBench(const json& j, std::string_view bench) {
  if (!j.contains("bench") || !j["bench"].is_string()) {
    return Status::DataLoss(fmt::format("{}: the result line has no \"bench\" field", Quoted(bench)));
  }
  if (j["bench"].get<std::string>() != bench) {
    return Status::DataLoss(
        fmt::format("{}: the result line is for benchmark '{}'", Quoted(bench), j["bench"].get<std::string>()));
  }
  return Status::Ok();
}

StatusOr<uint64_t> Unsigned(const json& obj, const char* key, std::string_view what) {
  if (!obj.contains(key)) {
    return Status::DataLoss(fmt::format("{}: the result has no \"{}\"", what, key));
  }
  const json& v = obj[key];
  if (!v.is_number_unsigned()) {
    return Status::DataLoss(fmt::format("{}: \"{}\" must be a non-negative integer, got {}", what, key, DumpJson(v)));
  }
  return v.get<uint64_t>();
}

StatusOr<std::map<std::string, double>> Numbers(const json& obj, const char* key, std::string_view what,
                                                bool required) {
  std::map<std::string, double> out;
  if (!obj.contains(key)) {
    if (required) return Status::DataLoss(fmt::format("{}: the result has no \"{}\"", what, key));
    return out;
  }
  if (!obj[key].is_object()) {
    return Status::DataLoss(fmt::format("{}: \"{}\" must be an object", what, key));
  }
  for (const auto& [name, v] : obj[key].items()) {
    if (!v.is_number() || !std::isfinite(v.get<double>())) {
      return Status::DataLoss(fmt::format("{}: {} '{}' must be a finite number, got {}", what, key, name, DumpJson(v)));
    }
    out[name] = v.get<double>();
  }
  return out;
}

bool ValidName(const std::string& name) { return !name.empty() && name.find('\n') == std::string::npos; }

}  // namespace

std::string ProtocolMarker() {
  std::string marker = "TARE_CHILD_";
  marker += "PROTOCOL_V";
  marker += std::to_string(kVersion);
  return marker;
}

bool HasProtocolMarker(std::string_view file_bytes) {
  return file_bytes.find(ProtocolMarker()) != std::string_view::npos;
}

const char* ModeName(Mode mode) {
  switch (mode) {
    case Mode::kList:
      return "list";
    case Mode::kCalibrate:
      return "calibrate";
    case Mode::kMeasure:
      return "measure";
  }
  return "?";
}

const char* InstrumentName(Instrument instrument) {
  switch (instrument) {
    case Instrument::kWall:
      return "wall";
    case Instrument::kSim:
      return "sim";
    case Instrument::kMem:
      return "mem";
  }
  return "?";
}

StatusOr<std::vector<std::string>> ChildEnv(const Request& r) {
  if (r.result_fd < 0) return Status::InvalidArgument("the result fd must be >= 0");
  std::vector<std::string> env = {
      "TARE_CHILD=1",
      fmt::format("TARE_PROTOCOL={}", kVersion),
      fmt::format("TARE_MODE={}", ModeName(r.mode)),
      fmt::format("TARE_INSTRUMENT={}", InstrumentName(r.instrument)),
      fmt::format("TARE_RESULT_FD={}", r.result_fd),
      "LD_BIND_NOW=1",
  };
  if (r.mode == Mode::kList) return env;
  if (r.benches.empty()) {
    return Status::InvalidArgument(fmt::format("a {} request needs at least one benchmark name", ModeName(r.mode)));
  }
  std::string joined;
  for (const auto& name : r.benches) {
    if (!ValidName(name)) {
      return Status::InvalidArgument(
          fmt::format("benchmark name '{}' cannot be sent to a child (empty or contains a newline)", name));
    }
    if (!joined.empty()) joined += '\n';
    joined += name;
  }
  env.push_back("TARE_BENCH=" + joined);
  if (r.mode == Mode::kCalibrate) {
    if (r.calibrate_ns == 0) {
      return Status::InvalidArgument(
          fmt::format("calibrating {} needs a target window time > 0 ns", Quoted(r.benches[0])));
    }
    env.push_back(fmt::format("TARE_CALIBRATE_NS={}", r.calibrate_ns));
  } else {
    if (r.iters == 0) {
      return Status::InvalidArgument(fmt::format("measuring {} needs an iteration count > 0", Quoted(r.benches[0])));
    }
    env.push_back(fmt::format("TARE_ITERS={}", r.iters));
  }
  return env;
}

std::vector<std::string_view> ResultLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) lines.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

StatusOr<std::vector<ListedBenchmark>> ParseList(std::string_view line) {
  const char* what = "listing the benchmarks";
  TARE_ASSIGN_OR_RETURN(json j, ParseObject(line, what));
  if (auto err = ChildError(j, what)) return *err;
  if (!j.contains("benchmarks") || !j["benchmarks"].is_array()) {
    return Status::DataLoss(fmt::format("{}: the result has no \"benchmarks\" array", what));
  }
  std::vector<ListedBenchmark> out;
  std::set<std::string> seen;
  for (const auto& b : j["benchmarks"]) {
    if (!b.is_object() || !b.contains("name") || !b["name"].is_string() || !ValidName(b["name"].get<std::string>())) {
      return Status::DataLoss(fmt::format("{}: an entry has no valid \"name\": {}", what, DumpJson(b)));
    }
    ListedBenchmark lb;
    lb.name = b["name"].get<std::string>();
    if (!seen.insert(lb.name).second) {
      return Status::DataLoss(fmt::format("{}: {} is listed twice", what, Quoted(lb.name)));
    }
    if (!b.contains("family") || !b["family"].is_string()) {
      return Status::DataLoss(fmt::format("{}: {} has no \"family\"", what, Quoted(lb.name)));
    }
    lb.family = b["family"].get<std::string>();
    if (!b.contains("args") || !b["args"].is_array()) {
      return Status::DataLoss(fmt::format("{}: {} has no \"args\" array", what, Quoted(lb.name)));
    }
    for (const auto& a : b["args"]) {
      if (!a.is_number_integer()) {
        return Status::DataLoss(
            fmt::format("{}: {} has a non-integer argument {}", what, Quoted(lb.name), DumpJson(a)));
      }
      lb.args.push_back(a.get<int64_t>());
    }
    lb.records_latency =
        b.contains("records_latency") && b["records_latency"].is_boolean() && b["records_latency"].get<bool>();
    out.push_back(std::move(lb));
  }
  return out;
}

StatusOr<Calibration> ParseCalibration(std::string_view line, std::string_view bench) {
  const std::string what = "calibrating " + Quoted(bench);
  TARE_ASSIGN_OR_RETURN(json j, ParseObject(line, what));
  if (auto err = ChildError(j, Quoted(bench))) return *err;
  TARE_RETURN_IF_ERROR(CheckBench(j, bench));
  Calibration c;
  c.bench = std::string(bench);
  TARE_ASSIGN_OR_RETURN(c.iters, Unsigned(j, "iters", what));
  if (c.iters == 0) return Status::DataLoss(what + ": \"iters\" is 0");
  TARE_ASSIGN_OR_RETURN(c.window_ns, Unsigned(j, "window_ns", what));
  c.capped = j.contains("capped") && j["capped"].is_boolean() && j["capped"].get<bool>();
  return c;
}

StatusOr<Measurement> ParseMeasurement(std::string_view line, std::string_view bench) {
  const std::string what = "measuring " + Quoted(bench);
  TARE_ASSIGN_OR_RETURN(json j, ParseObject(line, what));
  if (auto err = ChildError(j, Quoted(bench))) return *err;
  TARE_RETURN_IF_ERROR(CheckBench(j, bench));
  Measurement m;
  m.bench = std::string(bench);
  TARE_ASSIGN_OR_RETURN(m.iters, Unsigned(j, "iters", what));
  if (m.iters == 0) return Status::DataLoss(what + ": \"iters\" is 0");
  if (!j.contains("window") || !j["window"].is_object()) {
    return Status::DataLoss(what + ": the result has no \"window\" object");
  }
  TARE_ASSIGN_OR_RETURN(m.wall_ns, Unsigned(j["window"], "wall_ns", what));
  TARE_ASSIGN_OR_RETURN(m.cpu_ns, Unsigned(j["window"], "cpu_ns", what));
  TARE_ASSIGN_OR_RETURN(m.counters, Numbers(j, "counters", what, /*required=*/true));
  TARE_ASSIGN_OR_RETURN(m.gauges, Numbers(j, "gauges", what, /*required=*/false));
  for (const auto& [name, value] : m.gauges) {
    if (m.counters.count(name)) {
      return Status::DataLoss(fmt::format("{}: '{}' is both a counter and a gauge", what, name));
    }
  }
  if (j.contains("latency_ns")) {
    const json& l = j["latency_ns"];
    if (!l.is_object()) return Status::DataLoss(what + ": \"latency_ns\" must be an object");
    Latency lat;
    TARE_ASSIGN_OR_RETURN(lat.p50_ns, Unsigned(l, "p50", what));
    TARE_ASSIGN_OR_RETURN(lat.p95_ns, Unsigned(l, "p95", what));
    TARE_ASSIGN_OR_RETURN(lat.p99_ns, Unsigned(l, "p99", what));
    TARE_ASSIGN_OR_RETURN(lat.max_ns, Unsigned(l, "max", what));
    if (!(lat.p50_ns <= lat.p95_ns && lat.p95_ns <= lat.p99_ns && lat.p99_ns <= lat.max_ns)) {
      return Status::DataLoss(what + ": latency quantiles are not in order p50 <= p95 <= p99 <= max");
    }
    m.latency = lat;
  }
  if (j.contains("alloc")) {
    const json& a = j["alloc"];
    if (!a.is_object()) return Status::DataLoss(what + ": \"alloc\" must be an object");
    AllocFigures f;
    TARE_ASSIGN_OR_RETURN(f.allocs, Unsigned(a, "allocs", what));
    TARE_ASSIGN_OR_RETURN(f.frees, Unsigned(a, "frees", what));
    TARE_ASSIGN_OR_RETURN(f.bytes_allocated, Unsigned(a, "bytes_allocated", what));
    TARE_ASSIGN_OR_RETURN(f.peak_live_bytes, Unsigned(a, "peak_live_bytes", what));
    m.alloc = f;
  }
  return m;
}

std::vector<Metric> PerIterationMetrics(const Measurement& m) {
  std::vector<Metric> out;
  const double n = m.iters ? double(m.iters) : 1.0;
  out.push_back({metric_name::kBenchWallNs, double(m.wall_ns) / n, "ns"});
  out.push_back({metric_name::kBenchCpuNs, double(m.cpu_ns) / n, "ns"});
  if (m.latency) {
    out.push_back({metric_name::kBenchLatencyP50Ns, double(m.latency->p50_ns), "ns"});
    out.push_back({metric_name::kBenchLatencyP95Ns, double(m.latency->p95_ns), "ns"});
    out.push_back({metric_name::kBenchLatencyP99Ns, double(m.latency->p99_ns), "ns"});
    out.push_back({metric_name::kBenchLatencyMaxNs, double(m.latency->max_ns), "ns"});
  }
  static const std::set<std::string> kBuiltIn = {"wall_ns",        "cpu_ns",         "latency_p50_ns",
                                                 "latency_p95_ns", "latency_p99_ns", "latency_max_ns"};
  auto user_name = [](const std::string& name) {
    return kBuiltIn.count(name) || name.rfind("user.", 0) == 0 ? metric_name::kBenchUserPrefix + name
                                                               : metric_name::kBenchPrefix + name;
  };
  for (const auto& [name, total] : m.counters) {
    out.push_back({user_name(name), total / n, name == "bytes_processed" ? "bytes" : "count"});
  }
  for (const auto& [name, value] : m.gauges) out.push_back({user_name(name), value, "count"});
  if (m.alloc) {
    out.push_back({metric_name::kMemAllocs, double(m.alloc->allocs) / n, "count"});
    out.push_back({metric_name::kMemFrees, double(m.alloc->frees) / n, "count"});
    out.push_back({metric_name::kMemBytesAllocated, double(m.alloc->bytes_allocated) / n, "bytes"});
    out.push_back({metric_name::kMemPeakLiveBytes, double(m.alloc->peak_live_bytes), "bytes"});
  }
  return out;
}

StatusOr<AllocFigures> ParseAllocOut(std::string_view file_text, int64_t pid) {
  const std::string what = fmt::format("allocation report of process {}", pid);
  for (std::string_view line : ResultLines(file_text)) {
    const auto parsed = ParseJson(line, what);
    if (!parsed.ok() || !parsed->is_object()) {
      return Status::DataLoss(fmt::format("{}: not a JSON line: '{}'", what, line.substr(0, 80)));
    }
    const json& j = *parsed;
    if (!j.contains("pid") || !j["pid"].is_number_integer() || j["pid"].get<int64_t>() != pid) {
      continue;
    }
    AllocFigures f;
    TARE_ASSIGN_OR_RETURN(f.allocs, Unsigned(j, "allocs", what));
    TARE_ASSIGN_OR_RETURN(f.frees, Unsigned(j, "frees", what));
    TARE_ASSIGN_OR_RETURN(f.bytes_allocated, Unsigned(j, "bytes_allocated", what));
    TARE_ASSIGN_OR_RETURN(f.peak_live_bytes, Unsigned(j, "peak_live_bytes", what));
    return f;
  }
  return Status::DataLoss(
      fmt::format("{}: no line for that pid (the shim writes it at exit; a process that ends with _exit() or "
                  "a signal, or that never loaded the shim, leaves none)",
                  what));
}

std::vector<std::string> AllocShimCandidates(std::string_view env_value, std::string_view exe_dir) {
  std::vector<std::string> out;
  if (!env_value.empty()) out.emplace_back(env_value);
  const std::string dir = exe_dir.empty() ? "." : std::string(exe_dir);
  out.push_back(dir + "/../lib/tare/libtare_alloc.so");
  out.push_back(dir + "/src/lib/libtare_alloc.so");
  return out;
}

}  // namespace tare::protocol
