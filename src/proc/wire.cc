#include "proc/wire.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tare::proc::wire {
namespace {

Status WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::Internal(fmt::format("spawn helper pipe write failed: {}", std::strerror(errno)));
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status::Ok();
}

// Returns bytes read (< size only at EOF).
StatusOr<size_t> ReadAll(int fd, char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::Internal(fmt::format("spawn helper pipe read failed: {}", std::strerror(errno)));
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return done;
}

}  // namespace

Status WriteMessage(int fd, const nlohmann::json& message) {
  std::string body = message.dump();
  uint32_t len = static_cast<uint32_t>(body.size());
  unsigned char header[4] = {static_cast<unsigned char>(len), static_cast<unsigned char>(len >> 8),
                             static_cast<unsigned char>(len >> 16), static_cast<unsigned char>(len >> 24)};
  TARE_RETURN_IF_ERROR(WriteAll(fd, reinterpret_cast<const char*>(header), 4));
  return WriteAll(fd, body.data(), body.size());
}

StatusOr<nlohmann::json> ReadMessage(int fd) {
  unsigned char header[4];
  TARE_ASSIGN_OR_RETURN(size_t got, ReadAll(fd, reinterpret_cast<char*>(header), 4));
  if (got == 0) return Status::NotFound("spawn helper pipe closed");
  if (got < 4) return Status::Internal("spawn helper pipe closed mid-message");
  uint32_t len = header[0] | (header[1] << 8) | (header[2] << 16) | (uint32_t{header[3]} << 24);
  std::string body(len, '\0');
  TARE_ASSIGN_OR_RETURN(size_t body_got, ReadAll(fd, body.data(), len));
  if (body_got < len) return Status::Internal("spawn helper pipe closed mid-message");
  auto j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::Internal("spawn helper sent malformed JSON");
  return j;
}

nlohmann::json ToJson(const SpawnRequest& r) {
  return {{"argv", r.argv}, {"env", r.env}, {"cwd", r.cwd}, {"stdin", r.stdin_path},
          {"stdout", r.stdout_path}, {"stderr", r.stderr_path}, {"result_fd", r.result_fd},
          {"result_path", r.result_path}, {"timeout_ns", r.timeout_ns},
          {"disable_aslr", r.disable_aslr}, {"perf_events", r.perf_events}};
}

SpawnRequest RequestFromJson(const nlohmann::json& j) {
  SpawnRequest r;
  r.argv = j.value("argv", std::vector<std::string>{});
  r.env = j.value("env", std::vector<std::string>{});
  r.cwd = j.value("cwd", "");
  r.stdin_path = j.value("stdin", "/dev/null");
  r.stdout_path = j.value("stdout", "");
  r.stderr_path = j.value("stderr", "");
  r.result_fd = j.value("result_fd", -1);
  r.result_path = j.value("result_path", "");
  r.timeout_ns = j.value("timeout_ns", int64_t{0});
  r.disable_aslr = j.value("disable_aslr", false);
  r.perf_events = j.value("perf_events", std::vector<std::string>{});
  return r;
}

nlohmann::json ToJson(const SpawnResult& r) {
  nlohmann::json perf = nlohmann::json::array();
  for (const auto& p : r.perf) {
    nlohmann::json e = {{"event", p.event}, {"running_fraction", p.running_fraction},
                        {"unavailable", p.unavailable}};
    if (p.value) e["value"] = *p.value;
    perf.push_back(e);
  }
  return {{"started", r.started}, {"pid", r.pid}, {"spawn_error", r.spawn_error}, {"exited", r.exited},
          {"exit_code", r.exit_code}, {"term_signal", r.term_signal}, {"timed_out", r.timed_out},
          {"interrupted", r.interrupted}, {"wall_ns", r.wall_ns},
          {"start_unix_ns", r.start_unix_ns}, {"end_unix_ns", r.end_unix_ns},
          {"user_ns", r.user_ns}, {"sys_ns", r.sys_ns}, {"peak_rss_bytes", r.peak_rss_bytes},
          {"minor_faults", r.minor_faults}, {"major_faults", r.major_faults},
          {"voluntary_ctx_switches", r.voluntary_ctx_switches},
          {"involuntary_ctx_switches", r.involuntary_ctx_switches}, {"perf", perf},
          {"stdout_bytes", r.stdout_bytes}, {"stderr_bytes", r.stderr_bytes}};
}

SpawnResult ResultFromJson(const nlohmann::json& j) {
  SpawnResult r;
  r.started = j.value("started", false);
  r.pid = j.value("pid", 0);
  r.spawn_error = j.value("spawn_error", "");
  r.exited = j.value("exited", false);
  r.exit_code = j.value("exit_code", 0);
  r.term_signal = j.value("term_signal", 0);
  r.timed_out = j.value("timed_out", false);
  r.interrupted = j.value("interrupted", false);
  r.wall_ns = j.value("wall_ns", int64_t{0});
  r.start_unix_ns = j.value("start_unix_ns", int64_t{0});
  r.end_unix_ns = j.value("end_unix_ns", int64_t{0});
  r.user_ns = j.value("user_ns", int64_t{0});
  r.sys_ns = j.value("sys_ns", int64_t{0});
  r.peak_rss_bytes = j.value("peak_rss_bytes", int64_t{0});
  r.minor_faults = j.value("minor_faults", int64_t{0});
  r.major_faults = j.value("major_faults", int64_t{0});
  r.voluntary_ctx_switches = j.value("voluntary_ctx_switches", int64_t{0});
  r.involuntary_ctx_switches = j.value("involuntary_ctx_switches", int64_t{0});
  r.stdout_bytes = j.value("stdout_bytes", int64_t{-1});
  r.stderr_bytes = j.value("stderr_bytes", int64_t{-1});
  for (const auto& e : j.value("perf", nlohmann::json::array())) {
    PerfReading p;
    p.event = e.value("event", "");
    p.running_fraction = e.value("running_fraction", 1.0);
    p.unavailable = e.value("unavailable", "");
    if (e.contains("value")) p.value = e["value"].get<double>();
    r.perf.push_back(p);
  }
  return r;
}

}  // namespace tare::proc::wire
