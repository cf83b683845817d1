// Spawner: runs one child process at a time and measures it — wall time, rusage from wait4 of that
// child alone, and perf_event counters opened on it — through a small helper process.
//
// Why a helper: Linux copies the parent's RSS high-water mark into a child at exec (exec_mmap ->
// setmax_mm_hiwater_rss), so /bin/true spawned with posix_spawn, fork or vfork from a process
// holding 200 MB reports ru_maxrss ~ 205 MB. The helper (`tare-spawn-helper`, a separate small
// executable) forks the target from its own small address space, so ru_maxrss is the child's own
// even after tare has loaded a large store. The helper also opens the perf counters (inherit,
// enable-on-exec: the child's copies switch on at its exec), enforces timeouts by killing the
// child's process group, and forwards Ctrl-C to the child. spawn_helper_main.cc walks through one
// sample step by step.
//
// The helper beside tare: where tare may use two or more CPUs, Start pins the helper to the CPU tare
// is running on (tare itself stays free, and the scheduler keeps waking it there), and the helper
// gives each child tare's whole CPU set back before it execs. A sample's hand-offs between tare
// and the helper are then mostly wake-ups on one CPU instead of across two (~0.1-0.25 ms each on
// the VM of bench/README.md); both sleep while the child runs. TARE_SPAWN_COLOCATE=0 leaves the
// helper unpinned.
//
// Ownership: a Spawner owns its helper process; destroying it closes the pipe and the helper exits.
// Thread-safety: not thread-safe; one Run() at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"

namespace tare::proc {

struct SpawnRequest {
  std::vector<std::string> argv;  // argv[0] must be an absolute or relative path (no PATH search)
  std::vector<std::string> env;   // the child's whole environment, "KEY=VALUE"
  std::string cwd;                // "" = inherit
  std::string stdin_path = "/dev/null";
  // Files to capture stdout and stderr into ("" = /dev/null). Each is emptied (or created) when the
  // request starts; the helper keeps it open for the next request naming the same file.
  std::string stdout_path;
  std::string stderr_path;
  int result_fd = -1;  // when >= 0: this fd is opened on result_path for writing
  std::string result_path;
  int64_t timeout_ns = 0;     // 0 = no timeout
  bool disable_aslr = false;  // personality(ADDR_NO_RANDOMIZE) before exec (sim instrument)
  // perf_event names to open on the child: "task-clock", "page-faults", "context-switches",
  // "cpu-migrations", "instructions", "cycles", "branches", "branch-misses".
  std::vector<std::string> perf_events;
};

struct PerfReading {
  std::string event;
  std::optional<double> value;  // scaled for multiplexing; nullopt when unavailable
  double running_fraction = 1;  // time_running / time_enabled (1 = never multiplexed)
  std::string unavailable;      // one line: why there is no value ("not supported on this host...")
};

struct SpawnResult {
  bool started = false;     // false: exec failed; see spawn_error
  int pid = 0;              // the child's pid (e.g. to pick its line from a shared log)
  std::string spawn_error;  // "cannot execute './x': No such file or directory"
  bool exited = false;      // exited normally; exit_code valid
  int exit_code = 0;
  int term_signal = 0;        // killed by this signal (includes the timeout's SIGKILL)
  bool timed_out = false;     // exceeded timeout_ns; the process group was killed
  bool interrupted = false;   // Ctrl-C reached the helper while the child ran
  int64_t wall_ns = 0;        // CLOCK_MONOTONIC from the child's execve call to wait4's return
  int64_t start_unix_ns = 0;  // end_unix_ns - wall_ns
  int64_t end_unix_ns = 0;
  int64_t user_ns = 0;  // wait4 rusage of this child (and its waited-for descendants)
  int64_t sys_ns = 0;
  int64_t peak_rss_bytes = 0;  // ru_maxrss * 1024
  // > 0: peak_rss_bytes is not known; the child stayed at or below this figure, the spawn helper's
  // own pages it could not tell apart from the child's (spawn_helper_main.cc, step 3).
  int64_t peak_rss_floor_bytes = 0;
  int64_t minor_faults = 0;
  int64_t major_faults = 0;
  int64_t voluntary_ctx_switches = 0;
  int64_t involuntary_ctx_switches = 0;
  std::vector<PerfReading> perf;
  // Bytes the child left in stdout_path / stderr_path (0 for /dev/null; -1 = unknown), so that a
  // caller reads a tail only when there is one.
  int64_t stdout_bytes = -1;
  int64_t stderr_bytes = -1;

  bool ok() const { return started && exited && exit_code == 0 && !timed_out && !interrupted; }
  // "exit status 3", "killed by signal 11 (Segmentation fault)", "timed out after 2 s"...
  std::string Describe() const;
};

class Spawner {
 public:
  // Starts the helper. `helper_path` "" = locate it: $TARE_SPAWN_HELPER, then next to the running
  // executable, then in <its directory>/../lib/tare/ (an install), then the build tree.
  static StatusOr<std::unique_ptr<Spawner>> Start(const std::string& helper_path = "");
  ~Spawner();
  Spawner(const Spawner&) = delete;
  Spawner& operator=(const Spawner&) = delete;

  // Runs the request to completion. A child that fails is a result, not an error; an error means
  // the helper itself broke (and is restarted on the next call).
  StatusOr<SpawnResult> Run(const SpawnRequest& request);
  // Tells the helper to exit (closes its request pipe) without waiting for it, so that it exits
  // while tare finishes other work (closing the store); the destructor reaps it. Run fails after.
  void Finish();

  int helper_pid() const { return helper_pid_; }

 private:
  Spawner(int pid, int to_helper, int from_helper)
      : helper_pid_(pid), to_helper_(to_helper), from_helper_(from_helper) {}
  int helper_pid_;
  int to_helper_;
  int from_helper_;
};

// Ctrl-C handling: installs SIGINT/SIGTERM handlers that set a flag and forward SIGINT to the
// running helper (which stops its child). Long loops check Interrupted() between samples.
void InstallInterruptHandler();
bool Interrupted();
void ClearInterruptForTest();

// The perf events tare opens by default on every child, software first.
const std::vector<std::string>& DefaultPerfEvents();

}  // namespace tare::proc
