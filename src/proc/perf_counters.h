// perf_event counters for one child: opened on the helper itself just before it forks the child
// (disabled, enable_on_exec, inherit), so the child's inherited copies switch on at its exec; read
// after it exits, when the kernel has folded the child's counts into them. Each event is probed on its own: on hosts
// without hardware counters (most cloud VMs, this project's CI) "instructions" fails with ENOENT while "task-clock"
// works, and the reading says why in one line instead of crashing or leaving a silent blank.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "proc/spawner.h"

namespace tare::proc {

class PerfCounters {
 public:
  // Opens every named event on `pid` (0 = this process; with inherit, children forked afterwards get
  // copies). Never fails: events that cannot be opened carry a reason.
  PerfCounters(pid_t pid, const std::vector<std::string>& events);
  ~PerfCounters();
  PerfCounters(const PerfCounters&) = delete;
  PerfCounters& operator=(const PerfCounters&) = delete;

  // Reads (and closes) every counter; call after the child has been reaped.
  std::vector<PerfReading> ReadAndClose();

 private:
  struct Counter {
    std::string event;
    int fd = -1;
    std::string unavailable;
  };
  std::vector<Counter> counters_;
};

// True when `name` is an event tare knows how to open.
bool IsKnownPerfEvent(const std::string& name);

}  // namespace tare::proc
