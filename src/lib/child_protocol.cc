#include "lib/child_protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "lib/calibration.h"
#include "lib/json_line.h"
#include "lib/registry.h"
#include "lib/run_context.h"

namespace tare::internal {
namespace {

std::optional<std::string> Env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return std::nullopt;
  return std::string(v);
}

std::vector<std::string> SplitLines(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    std::string part = s.substr(start, end - start);
    if (!part.empty() && part.back() == '\r') part.pop_back();
    if (!part.empty()) out.push_back(part);
    start = end + 1;
  }
  return out;
}

// A positive decimal integer, nothing else.
std::optional<uint64_t> ParsePositive(const std::string& s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + uint64_t(c - '0');
  }
  if (v == 0) return std::nullopt;
  return v;
}

bool WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

std::string ErrorLine(const std::string& bench, const std::string& message) {
  JsonLine j;
  j.BeginObject().Key("protocol").Uint(kProtocolVersion);
  if (!bench.empty()) j.Key("bench").String(bench);
  j.Key("error").String(message).EndObject();
  return j.Line();
}

std::string ListLine(const std::vector<Instance>& instances) {
  JsonLine j;
  j.BeginObject().Key("protocol").Uint(kProtocolVersion).Key("benchmarks").BeginArray();
  for (const auto& inst : instances) {
    j.BeginObject().Key("name").String(inst.name);
    j.Key("family").String(inst.family->family_name());
    j.Key("args").BeginArray();
    for (int64_t a : inst.args) j.Int(a);
    j.EndArray();
    if (inst.family->records_latency()) j.Key("records_latency").Bool(true);
    j.EndObject();
  }
  j.EndArray().EndObject();
  return j.Line();
}

std::string CalibrateLine(const std::string& bench, const Calibration& c) {
  JsonLine j;
  j.BeginObject().Key("protocol").Uint(kProtocolVersion).Key("bench").String(bench);
  j.Key("iters").Uint(c.iters).Key("window_ns").Uint(c.window_ns);
  if (c.capped) j.Key("capped").Bool(true);
  j.EndObject();
  return j.Line();
}

std::string MeasureLine(const std::string& bench, const SampleReadings& r) {
  JsonLine j;
  j.BeginObject().Key("protocol").Uint(kProtocolVersion).Key("bench").String(bench);
  j.Key("iters").Uint(r.iters);
  j.Key("window").BeginObject().Key("wall_ns").Uint(r.wall_ns).Key("cpu_ns").Uint(r.cpu_ns);
  j.EndObject();
  j.Key("counters").BeginObject();
  for (const auto& [name, value] : r.counters) j.Key(name).Double(value);
  j.EndObject();
  if (!r.gauges.empty()) {
    j.Key("gauges").BeginObject();
    for (const auto& [name, value] : r.gauges) j.Key(name).Double(value);
    j.EndObject();
  }
  if (r.latency) {
    j.Key("latency_ns").BeginObject();
    j.Key("p50").Uint(r.latency->p50_ns).Key("p95").Uint(r.latency->p95_ns);
    j.Key("p99").Uint(r.latency->p99_ns).Key("max").Uint(r.latency->max_ns);
    j.EndObject();
  }
  if (r.alloc) {
    j.Key("alloc").BeginObject();
    j.Key("allocs").Uint(r.alloc->allocs).Key("frees").Uint(r.alloc->frees);
    j.Key("bytes_allocated").Uint(r.alloc->bytes_allocated);
    j.Key("peak_live_bytes").Uint(r.alloc->peak_live_bytes);
    j.EndObject();
  }
  j.EndObject();
  return j.Line();
}

// The parsed request; `error` set when it cannot be served at all.
struct Request {
  std::string error;
  std::string mode;
  Instrument instrument = Instrument::kWall;
  std::vector<std::string> benches;
  std::vector<uint64_t> iters;  // one per bench (measure)
  uint64_t calibrate_ns = 0;
};

Request ReadRequest() {
  Request req;
  auto fail = [&req](std::string message) {
    req.error = std::move(message);
    return req;
  };
  const std::string protocol = Env("TARE_PROTOCOL").value_or("");
  if (protocol != std::to_string(kProtocolVersion)) {
    return fail("this binary speaks tare child protocol " + std::to_string(kProtocolVersion) + "; TARE_PROTOCOL is '" +
                protocol + "' (use a tare that speaks version " + std::to_string(kProtocolVersion) +
                ", or rebuild the benchmark)");
  }
  req.mode = Env("TARE_MODE").value_or("");
  if (req.mode != "list" && req.mode != "calibrate" && req.mode != "measure") {
    return fail("TARE_MODE is '" + req.mode + "'; expected list, calibrate or measure");
  }
  const std::string instrument = Env("TARE_INSTRUMENT").value_or("wall");
  if (instrument == "wall") {
    req.instrument = Instrument::kWall;
  } else if (instrument == "sim") {
    req.instrument = Instrument::kSim;
  } else if (instrument == "mem") {
    req.instrument = Instrument::kMem;
  } else {
    return fail("TARE_INSTRUMENT is '" + instrument + "'; expected wall, sim or mem");
  }
  if (req.mode == "list") return req;

  req.benches = SplitLines(Env("TARE_BENCH").value_or(""));
  if (req.benches.empty()) {
    return fail(
        "TARE_BENCH is empty; set it to a benchmark name as listed (several separated "
        "by newlines)");
  }
  if (req.mode == "calibrate") {
    auto ns = ParsePositive(Env("TARE_CALIBRATE_NS").value_or(""));
    if (!ns) return fail("TARE_CALIBRATE_NS must be a positive integer number of nanoseconds");
    req.calibrate_ns = *ns;
    return req;
  }
  const std::vector<std::string> iters = SplitLines(Env("TARE_ITERS").value_or(""));
  if (iters.size() != 1 && iters.size() != req.benches.size()) {
    return fail(
        "TARE_ITERS must be one positive integer, or one per benchmark in TARE_BENCH "
        "separated by newlines (" +
        std::to_string(req.benches.size()) + " benchmarks, " + std::to_string(iters.size()) + " counts)");
  }
  for (size_t i = 0; i < req.benches.size(); ++i) {
    auto n = ParsePositive(iters.size() == 1 ? iters[0] : iters[i]);
    if (!n) return fail("TARE_ITERS must be positive integers; got '" + iters[0] + "'");
    req.iters.push_back(*n);
  }
  return req;
}

const Instance* Find(const std::vector<Instance>& instances, const std::string& name) {
  for (const auto& inst : instances) {
    if (inst.name == name) return &inst;
  }
  return nullptr;
}

}  // namespace

bool ChildRequested() { return Env("TARE_CHILD").value_or("") == "1"; }

int RunChildProtocol() {
  const std::string fd_text = Env("TARE_RESULT_FD").value_or("");
  int fd = -1;
  if (auto parsed = ParsePositive(fd_text); parsed && *parsed < 1u << 20) fd = int(*parsed);
  if (fd_text == "0") fd = 0;
  if (fd < 0 || fcntl(fd, F_GETFD) < 0) {
    std::fprintf(stderr,
                 "tare: TARE_CHILD=1 but TARE_RESULT_FD ('%s') is not an open file descriptor; "
                 "this binary is meant to be started by tare (or run it without TARE_CHILD)\n",
                 fd_text.c_str());
    return kChildErrorExit;
  }
  auto emit = [fd](const std::string& line) {
    if (!WriteAll(fd, line)) {
      std::fprintf(stderr, "tare: cannot write the result to fd %d\n", fd);
      std::exit(kChildErrorExit);
    }
  };

  Request req = ReadRequest();
  if (!req.error.empty()) {
    emit(ErrorLine("", req.error));
    return kChildErrorExit;
  }
  std::vector<Instance> instances;
  std::string registry_error;
  if (!Registry::Global().Instances(&instances, &registry_error)) {
    emit(ErrorLine("", registry_error));
    return kChildErrorExit;
  }
  if (req.mode == "list") {
    emit(ListLine(instances));
    return 0;
  }
  const AllocShim* shim = nullptr;
  if (req.instrument == Instrument::kMem) {
    std::string shim_error;
    shim = FindAllocShim(&shim_error);
    if (!shim) {
      emit(ErrorLine(req.benches.size() == 1 ? req.benches[0] : "", shim_error));
      return kChildErrorExit;
    }
  }
  int status = 0;
  for (size_t i = 0; i < req.benches.size(); ++i) {
    const std::string& bench = req.benches[i];
    const Instance* inst = Find(instances, bench);
    if (!inst) {
      emit(ErrorLine(bench, "no benchmark named '" + bench + "' in this binary (" + std::to_string(instances.size()) +
                                " listed; names are matched exactly)"));
      status = kChildErrorExit;
      continue;
    }
    if (req.mode == "calibrate") {
      Calibration c = Calibrate(*inst, req.calibrate_ns, req.instrument, shim);
      if (!c.error.empty()) {
        emit(ErrorLine(bench, c.error));
        status = kChildErrorExit;
      } else {
        emit(CalibrateLine(bench, c));
      }
      continue;
    }
    SampleReadings r = RunSample(*inst, req.iters[i], req.instrument, shim);
    if (!r.error.empty()) {
      emit(ErrorLine(bench, r.error));
      status = kChildErrorExit;
    } else {
      emit(MeasureLine(bench, r));
    }
  }
  return status;
}

}  // namespace tare::internal
