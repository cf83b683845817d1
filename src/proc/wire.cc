#include "proc/wire.h"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tare::proc::wire {
namespace {

class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) { out_->push_back(static_cast<char>(kFormat)); }
  void U64(uint64_t v) {
    char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(v >> (8 * i));
    out_->append(b, 8);
  }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void Bool(bool v) { out_->push_back(v ? 1 : 0); }
  void Double(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    U64(bits);
  }
  void Count(size_t n) {
    uint32_t v = static_cast<uint32_t>(n);
    char b[4] = {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
                 static_cast<char>(v >> 24)};
    out_->append(b, 4);
  }
  void Str(const std::string& s) {
    Count(s.size());
    out_->append(s);
  }
  void Strs(const std::vector<std::string>& v) {
    Count(v.size());
    for (const auto& s : v) Str(s);
  }

 private:
  std::string* out_;
};

// Reads what Writer wrote; any overrun or bad format marks the reader failed and yields zeros.
class Reader {
 public:
  explicit Reader(const std::string& in) : p_(in.data()), end_(in.data() + in.size()) {
    if (Take(1) && static_cast<unsigned char>(p_[-1]) != kFormat) ok_ = false;
  }
  bool good() const { return ok_; }                // nothing went wrong so far
  bool done() const { return ok_ && p_ == end_; }  // ... and every byte was read
  uint64_t U64() {
    if (!Take(8)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(p_[i - 8])) << (8 * i);
    return v;
  }
  int64_t I64() { return static_cast<int64_t>(U64()); }
  int Int() { return static_cast<int>(I64()); }
  bool Bool() { return Take(1) && p_[-1] != 0; }
  double Double() {
    uint64_t bits = U64();
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  }
  size_t Count() {
    if (!Take(4)) return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(p_[i - 4])) << (8 * i);
    return v;
  }
  std::string Str() {
    size_t n = Count();
    if (!Take(n)) return {};
    return std::string(p_ - n, n);
  }
  std::vector<std::string> Strs() {
    size_t n = Count();
    std::vector<std::string> v;
    if (n > static_cast<size_t>(end_ - p_) / 4) {  // each string takes at least its 4-byte count
      ok_ = false;
      return v;
    }
    v.reserve(n);
    for (size_t i = 0; i < n && ok_; ++i) v.push_back(Str());
    return v;
  }

 private:
  bool Take(size_t n) {
    if (!ok_ || n > static_cast<size_t>(end_ - p_)) {
      ok_ = false;
      return false;
    }
    p_ += n;
    return true;
  }
  const char* p_;
  const char* end_;
  bool ok_ = true;
};

Status Malformed(const char* what) {
  return Status::Internal(std::string("malformed ") + what + " on the spawn helper pipe (format " +
                          std::to_string(kFormat) +
                          " expected); tare and tare-spawn-helper must come from the same build: rebuild "
                          "tare, or unset TARE_SPAWN_HELPER");
}

// Returns bytes read (< size only at EOF).
StatusOr<size_t> ReadAll(int fd, char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::Internal(std::string("spawn helper pipe read failed: ") + std::strerror(errno));
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return done;
}

}  // namespace

std::string EncodeRequest(const SpawnRequest& r) {
  std::string out;
  Writer w(&out);
  w.Strs(r.argv);
  w.Strs(r.env);
  w.Str(r.cwd);
  w.Str(r.stdin_path);
  w.Str(r.stdout_path);
  w.Str(r.stderr_path);
  w.I64(r.result_fd);
  w.Str(r.result_path);
  w.I64(r.timeout_ns);
  w.Bool(r.disable_aslr);
  w.Strs(r.perf_events);
  return out;
}

StatusOr<SpawnRequest> DecodeRequest(const std::string& body) {
  Reader in(body);
  SpawnRequest r;
  r.argv = in.Strs();
  r.env = in.Strs();
  r.cwd = in.Str();
  r.stdin_path = in.Str();
  r.stdout_path = in.Str();
  r.stderr_path = in.Str();
  r.result_fd = in.Int();
  r.result_path = in.Str();
  r.timeout_ns = in.I64();
  r.disable_aslr = in.Bool();
  r.perf_events = in.Strs();
  if (!in.done()) return Malformed("request");
  return r;
}

std::string EncodeResult(const SpawnResult& r) {
  std::string out;
  Writer w(&out);
  w.Bool(r.started);
  w.I64(r.pid);
  w.Str(r.spawn_error);
  w.Bool(r.exited);
  w.I64(r.exit_code);
  w.I64(r.term_signal);
  w.Bool(r.timed_out);
  w.Bool(r.interrupted);
  for (int64_t v : {r.wall_ns, r.start_unix_ns, r.end_unix_ns, r.user_ns, r.sys_ns, r.peak_rss_bytes, r.minor_faults,
                    r.major_faults, r.voluntary_ctx_switches, r.involuntary_ctx_switches, r.stdout_bytes,
                    r.stderr_bytes, r.peak_rss_floor_bytes}) {
    w.I64(v);
  }
  w.Count(r.perf.size());
  for (const auto& p : r.perf) {
    w.Str(p.event);
    w.Bool(p.value.has_value());
    w.Double(p.value.value_or(0));
    w.Double(p.running_fraction);
    w.Str(p.unavailable);
  }
  return out;
}

StatusOr<SpawnResult> DecodeResult(const std::string& body) {
  Reader in(body);
  SpawnResult r;
  r.started = in.Bool();
  r.pid = in.Int();
  r.spawn_error = in.Str();
  r.exited = in.Bool();
  r.exit_code = in.Int();
  r.term_signal = in.Int();
  r.timed_out = in.Bool();
  r.interrupted = in.Bool();
  for (int64_t* v : {&r.wall_ns, &r.start_unix_ns, &r.end_unix_ns, &r.user_ns, &r.sys_ns, &r.peak_rss_bytes,
                     &r.minor_faults, &r.major_faults, &r.voluntary_ctx_switches, &r.involuntary_ctx_switches,
                     &r.stdout_bytes, &r.stderr_bytes, &r.peak_rss_floor_bytes}) {
    *v = in.I64();
  }
  size_t n = in.Count();
  for (size_t i = 0; i < n && in.good(); ++i) {
    PerfReading p;
    p.event = in.Str();
    bool has_value = in.Bool();
    double value = in.Double();
    if (has_value) p.value = value;
    p.running_fraction = in.Double();
    p.unavailable = in.Str();
    r.perf.push_back(std::move(p));
  }
  if (!in.done()) return Malformed("result");
  return r;
}

Status WriteMessage(int fd, const std::string& body) {
  uint32_t len = static_cast<uint32_t>(body.size());
  char header[4] = {static_cast<char>(len), static_cast<char>(len >> 8), static_cast<char>(len >> 16),
                    static_cast<char>(len >> 24)};
  // One system call for header and body (a pipe write of up to PIPE_BUF bytes is atomic, larger
  // ones may be split: the loop finishes them).
  iovec iov[2] = {{header, 4}, {const_cast<char*>(body.data()), body.size()}};
  size_t total = 4 + body.size(), done = 0;
  while (done < total) {
    ssize_t n = writev(fd, iov, 2);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::Internal(std::string("spawn helper pipe write failed: ") + std::strerror(errno));
    done += static_cast<size_t>(n);
    for (auto& v : iov) {  // skip what was written
      size_t skip = std::min(static_cast<size_t>(n), v.iov_len);
      v.iov_base = static_cast<char*>(v.iov_base) + skip;
      v.iov_len -= skip;
      n -= static_cast<ssize_t>(skip);
    }
  }
  return Status::Ok();
}

Status ReadMessage(int fd, std::string* body) {
  char header[4];
  TARE_ASSIGN_OR_RETURN(size_t got, ReadAll(fd, header, 4));
  if (got == 0) return Status::NotFound("spawn helper pipe closed");
  if (got < 4) return Status::Internal("spawn helper pipe closed mid-message");
  uint32_t len = 0;
  for (int i = 0; i < 4; ++i) len |= static_cast<uint32_t>(static_cast<unsigned char>(header[i])) << (8 * i);
  body->resize(len);
  TARE_ASSIGN_OR_RETURN(size_t body_got, ReadAll(fd, body->data(), len));
  if (body_got < len) return Status::Internal("spawn helper pipe closed mid-message");
  return Status::Ok();
}

}  // namespace tare::proc::wire
