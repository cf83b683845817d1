#include "proc/perf_counters.h"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>

namespace tare::proc {
namespace {

struct EventSpec {
  const char* name;
  uint32_t type;
  uint64_t config;
};

constexpr EventSpec kEvents[] = {
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
};

const EventSpec* FindEvent(const std::string& name) {
  for (const auto& e : kEvents) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

int OpenCounter(pid_t pid, const EventSpec& spec, bool user_only) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = spec.type;
  attr.config = spec.config;
  attr.disabled = 1;
  attr.enable_on_exec = 1;
  attr.inherit = 1;
  attr.exclude_kernel = user_only ? 1 : 0;
  attr.exclude_hv = user_only ? 1 : 0;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

// Keeps the kernel's per-event switch for a software event turned on for the life of this process.
// Opening the first software event of a kind (page-faults, context-switches, cpu-migrations...)
// flips a static key (perf_swevent_init -> static_key_slow_inc(&perf_swevent_enabled[id])), and
// closing the last one flips it back (sw_perf_event_destroy): each flip rewrites kernel text on
// every CPU. Opened and closed per sample, that cost ~90 us of the helper's system time per event
// per sample on this project's 2-vCPU VM (bench/README.md); one disabled event of each kind held
// open on the helper itself (never enabled, never inherited, so it counts nothing) keeps the key on,
// and the per-sample counters only move its reference count.
void KeepSoftwareEventEnabled(const EventSpec& spec) {
  if (spec.type != PERF_TYPE_SOFTWARE) return;
  static std::map<uint64_t, int> kept;  // config -> fd, held until the helper exits
  if (kept.count(spec.config)) return;
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = spec.type;
  attr.config = spec.config;
  attr.disabled = 1;
  attr.exclude_kernel = 1;  // allowed at every perf_event_paranoid level that allows any event
  attr.exclude_hv = 1;
  int saved = errno;
  kept[spec.config] = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
  errno = saved;
}

std::string Paranoid() {
  std::string v;
  int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char buf[32];
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    for (ssize_t i = 0; i < n && (buf[i] == '-' || (buf[i] >= '0' && buf[i] <= '9')); ++i) v += buf[i];
  }
  return v.empty() ? "unknown" : v;
}

std::string Explain(const std::string& event, const EventSpec& spec, int err) {
  bool hardware = spec.type == PERF_TYPE_HARDWARE;
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      if (hardware) {
        return event + ": hardware counters are not supported on this host (perf_event_open: " +
               (strerrorname_np(err) ? strerrorname_np(err) : std::strerror(err)) +
               "; common on VMs); use --instrument sim for exact instruction counts";
      }
      return event + ": not supported by this kernel (perf_event_open: " + std::strerror(err) + ")";
    case EACCES:
    case EPERM:
      return event + ": not permitted (perf_event_paranoid=" + Paranoid() +
             "); allow it with 'sudo sysctl kernel.perf_event_paranoid=1' or grant CAP_PERFMON";
    case ENOSYS:
      return event + ": perf_event_open is not available in this kernel or sandbox";
    default:
      return event + ": perf_event_open failed: " + std::strerror(err);
  }
}

}  // namespace

bool IsKnownPerfEvent(const std::string& name) { return FindEvent(name) != nullptr; }

PerfCounters::PerfCounters(pid_t pid, const std::vector<std::string>& events) {
  // What the first attempt at each event taught us, for the life of this process: an event the
  // host does not support is not re-probed on every sample, and one that needs user-space-only
  // counting goes straight there (each failed perf_event_open costs a syscall per sample).
  struct Probe {
    bool known = false;
    bool user_only = false;
    std::string unavailable;  // set: never opens here
  };
  static std::map<std::string, Probe> probes;
  for (const auto& name : events) {
    Counter c;
    c.event = name;
    const EventSpec* spec = FindEvent(name);
    if (spec == nullptr) {
      c.unavailable = name + ": unknown perf event";
      counters_.push_back(c);
      continue;
    }
    Probe& probe = probes[name];
    if (probe.known && !probe.unavailable.empty()) {
      c.unavailable = probe.unavailable;
      counters_.push_back(c);
      continue;
    }
    // Try all privilege levels first; with perf_event_paranoid >= 2 only user-space counting is
    // allowed, so retry with exclude_kernel (what `perf stat` does with its ":u" fallback).
    int fd = OpenCounter(pid, *spec, probe.user_only);
    if (fd < 0 && !probe.user_only && (errno == EACCES || errno == EPERM)) {
      fd = OpenCounter(pid, *spec, /*user_only=*/true);
      if (fd >= 0) probe.user_only = true;
    }
    if (fd < 0) {
      c.unavailable = Explain(name, *spec, errno);
      // Only "the host cannot do this" is remembered; transient errors (EMFILE...) are retried.
      if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV || errno == EACCES || errno == EPERM ||
          errno == ENOSYS) {
        probe.unavailable = c.unavailable;
      }
    } else {
      c.fd = fd;
      KeepSoftwareEventEnabled(*spec);
    }
    probe.known = true;
    counters_.push_back(c);
  }
}

PerfCounters::~PerfCounters() {
  for (auto& c : counters_) {
    if (c.fd >= 0) close(c.fd);
  }
}

std::vector<PerfReading> PerfCounters::ReadAndClose() {
  std::vector<PerfReading> out;
  for (auto& c : counters_) {
    PerfReading r;
    r.event = c.event;
    r.unavailable = c.unavailable;
    if (c.fd >= 0) {
      uint64_t buf[3] = {0, 0, 0};  // value, time_enabled, time_running
      ssize_t n = read(c.fd, buf, sizeof(buf));
      if (n == static_cast<ssize_t>(sizeof(buf))) {
        double value = static_cast<double>(buf[0]);
        if (buf[2] > 0 && buf[2] < buf[1]) {
          // Multiplexed: scale by enabled/running, as perf stat does.
          r.running_fraction = static_cast<double>(buf[2]) / static_cast<double>(buf[1]);
          value = value / r.running_fraction;
        } else if (buf[1] > 0 && buf[2] == 0) {
          r.running_fraction = 0;
          r.unavailable = c.event + ": counter never got scheduled on the PMU (0% running)";
          value = -1;
        }
        if (value >= 0) r.value = value;
      } else {
        r.unavailable = c.event + ": reading the counter failed: " + std::strerror(errno);
      }
      close(c.fd);
      c.fd = -1;
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace tare::proc
