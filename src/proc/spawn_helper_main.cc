// tare-spawn-helper: the small process that forks, measures and reaps every child tare runs.
// See spawner.h for why it exists (the ru_maxrss inheritance trap). Protocol: framed requests on
// stdin, framed results on stdout, in wire.h's binary encoding. It exits when tare closes the pipe,
// killing a running child's process group first, so a crashed tare leaves no orphaned benchmarks.
//
// One sample, and why each step is where it is (bench/README.md has the measured costs):
//   1. perf counters are opened on the helper itself: disabled, enable_on_exec, inherit — for the
//      next sample as soon as an answer is sent, off the critical path (SpareCounters). fork()
//      copies them into the child switched off; the kernel switches the child's copies on at its
//      execve, so they count the target from its first instruction and nothing of the helper or of
//      the child's set-up. No handshake with the child is needed (an earlier design stopped the
//      child on a pipe until counters opened on its pid were in place: two more wake-ups per sample).
//   2. Output files are opened here, not in the child, and kept open from one sample to the next:
//      emptied (only when something was written) instead of re-created with O_TRUNC.
//   3. vfork: the child shares the helper's address space until it execs, which on a VM costs far
//      less than copying it (fork of a small static process: ~400 us more per sample on the 2-core
//      VM of bench/README.md). The catch is the trap this process exists to avoid: at exec Linux
//      folds the old address space's RSS high-water mark into the child's ru_maxrss — with vfork,
//      the helper's own (~0.5-0.7 MB, mostly its text paged in 64 KB at a time). So just before it
//      execs, the child drops the helper's never-written file pages (text, read-only data: they
//      fault back in from the page cache), resets the high-water mark to what is left (~0.3-0.4 MB:
//      heap, stack, data) and records that figure; a ru_maxrss above it is the target's own, exactly
//      (internal/helper_rss.h, SharedRss). A sample that stays below it gets no peak RSS
//      (peak_rss_floor_bytes says below what). A program whose last peak was above the helper's
//      pages skips the dropping (ShouldShed) and is checked all the same. Where this cannot be set
//      up (sanitizers, /proc/self/clear_refs not writable, TARE_SPAWN_FORK=1) it forks. The child
//      sets its process group, signals and stdio with a handful of system calls, stamps the clock into a page shared
//      with the helper, and execs. wall_ns starts at that stamp.
//   4. The helper sleeps in poll() on a pidfd until the child exits (or a timeout, Ctrl-C, tare
//      going away), reaps it with wait4, reads the counters and answers.
//   5. It runs on the CPU tare was on (--cpu, spawner.h) and gives each child tare's CPU set back
//      (--child-cpus) before exec. Unpinned, it watches for the next request awake for up to 1 ms
//      (AwaitRequestAwake) before it sleeps: waking a process on another CPU costs more than that
//      on a VM.
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "proc/internal/helper_files.h"
#include "proc/internal/helper_rss.h"
#include "proc/perf_counters.h"
#include "proc/wire.h"

namespace tare::proc {
namespace {

int g_interrupt_pipe[2] = {-1, -1};
// Set with every byte written to the pipe, so that a sample reads the pipe only when there is
// something to drain (one system call less a sample).
volatile sig_atomic_t g_interrupt_pending = 0;

void OnInterrupt(int) {
  int saved = errno;
  g_interrupt_pending = 1;
  char c = 'i';
  (void)!write(g_interrupt_pipe[1], &c, 1);
  errno = saved;
}

int64_t NowNs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int64_t TimevalNs(const timeval& tv) {
  return static_cast<int64_t>(tv.tv_sec) * 1000000000 + static_cast<int64_t>(tv.tv_usec) * 1000;
}

void DrainInterrupts() {
  g_interrupt_pending = 0;
  char buf[64];
  while (read(g_interrupt_pipe[0], buf, sizeof(buf)) > 0) {
  }
}

// What the child tells the helper without a pipe: a page mapped MAP_SHARED before fork, so the
// child's stores are visible to the helper once wait4 has returned.
struct ExecReport {
  std::atomic<int64_t> exec_ns;           // CLOCK_MONOTONIC just before execve; 0 = never got there
  std::atomic<int32_t> exec_errno;        // execve (or the set-up before it) failed with this
  std::atomic<int64_t> shared_rss_pages;  // vfork: the helper's resident pages folded in at exec
};
ExecReport* g_report = nullptr;

// The CPU set each child gets back (main: --child-cpus); unset: the child keeps the helper's.
cpu_set_t g_child_cpus;
bool g_set_child_cpus = false;
using helper::DevNull;
using helper::kFirstHelperFd;
using helper::kSharedRssSlackKib;
using helper::MoveHigh;
using helper::OutputFile;

// Step 3's state: what the vfork child drops and reads before it execs (internal/helper_rss.h).
helper::SharedRss g_shared;
// The files children write, kept open from one sample to the next (internal/helper_files.h).
OutputFile g_stdout, g_stderr, g_result;

struct Redirect {
  int from;  // helper's fd (>= kFirstHelperFd)
  int to;    // the child's fd number
};

[[noreturn]] void ChildFailed(int err) {
  g_report->exec_errno.store(err != 0 ? err : EINVAL);
  _exit(127);
}

// Runs in the child (vfork: on the helper's memory, the helper suspended): process group, signals,
// stdio, exec. Only async-signal-safe calls, and nothing that writes the helper's memory but
// g_report. Every signal arrives blocked (RunOne): dispositions are reset before the unblock.
[[noreturn]] void ChildMain(const SpawnRequest& req, char* const* argv, char* const* envp, const Redirect* redirects,
                            int redirect_count, bool shared, bool shed) {
  setpgid(0, 0);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGXFSZ, SIG_DFL);  // tare ignores it (cli/main.cc); the measured program gets the default
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int i = 0; i < redirect_count; ++i) {
    // The copy is not close-on-exec; sources are all >= kFirstHelperFd, so none is overwritten.
    if (dup2(redirects[i].from, redirects[i].to) < 0) ChildFailed(errno);
  }
  if (!req.cwd.empty() && chdir(req.cwd.c_str()) != 0) ChildFailed(errno);
  if (g_set_child_cpus && sched_setaffinity(0, sizeof g_child_cpus, &g_child_cpus) != 0) ChildFailed(errno);
  if (req.disable_aslr) personality(ADDR_NO_RANDOMIZE);
  if (shared) g_report->shared_rss_pages.store(g_shared.PagesFoldedAtExec(shed));
  g_report->exec_ns.store(NowNs(CLOCK_MONOTONIC));
  execve(argv[0], argv, envp);
  ChildFailed(errno);
}

// vfork or fork, and the child's side. A function of its own, so that nothing of the caller's frame
// is live across vfork (the child runs on this stack until it execs).
__attribute__((noinline)) pid_t StartChild(const SpawnRequest& req, char* const* argv, char* const* envp,
                                           const Redirect* redirects, int redirect_count, bool shared, bool shed) {
  pid_t pid = shared ? vfork() : fork();
  if (pid == 0) ChildMain(req, argv, envp, redirects, redirect_count, shared, shed);
  return pid;
}

std::vector<char*> CStrings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (auto& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

void KillGroup(pid_t pgid, int sig) { kill(-pgid, sig); }

// The helper's children other than the sample it is running: descendants of earlier samples that
// outlived their parents (the helper is a child subreaper, so they are reparented here).
std::vector<pid_t> Children() {
  std::vector<pid_t> out;
  const std::string path = "/proc/self/task/" + std::to_string(getpid()) + "/children";
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[4096];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return out;
  buf[n] = '\0';
  for (char* p = buf; *p != '\0';) {
    char* end = nullptr;
    long pid = std::strtol(p, &end, 10);
    if (end == p) break;
    if (pid > 0) out.push_back(static_cast<pid_t>(pid));
    p = end;
  }
  return out;
}

// Ends every descendant a sample left behind: a grandchild that called setsid() is in no process
// group tare knows, but once its parent is gone it is the helper's child (PR_SET_CHILD_SUBREAPER).
// Killing one may orphan its own children to the helper, hence the rounds.
void EndLeftovers() {
  for (int round = 0; round < 64; ++round) {
    // Usually there are none, and one system call says so (ECHILD); /proc is read only when some
    // process is left (~0.1 ms a sample less on the VM of bench/README.md).
    siginfo_t si{};
    if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD) return;
    std::vector<pid_t> children = Children();
    if (children.empty()) return;
    for (pid_t c : children) kill(c, SIGKILL);
    for (pid_t c : children) {
      while (waitpid(c, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
}

std::string CannotOpen(const std::string& path, const char* what) {
  return std::string("cannot open '") + path + "' for the child's " + what + ": " + std::strerror(errno);
}

// The counters for the next sample, opened after an answer is sent, while tare stores the sample
// and sends the next request, for the events the last request that had any asked for. Opened
// disabled on the helper, they count nothing until a child forked with them execs.
std::unique_ptr<PerfCounters> g_spare;
std::vector<std::string> g_spare_events;

void SpareCounters() {
  if (!g_spare && !g_spare_events.empty()) g_spare = std::make_unique<PerfCounters>(0, g_spare_events);
}

// Spare counters this request does not use are closed before the fork: the child would inherit
// them and its exec would switch them on.
std::unique_ptr<PerfCounters> TakeCounters(const std::vector<std::string>& events) {
  if (g_spare && events == g_spare_events) return std::move(g_spare);
  g_spare.reset();
  if (!events.empty()) g_spare_events = events;
  return std::make_unique<PerfCounters>(0, events);
}

SpawnResult RunOne(SpawnRequest req, int request_fd, bool* parent_gone) {
  SpawnResult res;
  if (req.argv.empty()) {
    res.spawn_error = "empty argv";
    return res;
  }
  if (req.result_fd >= kFirstHelperFd) {
    res.spawn_error = "result_fd must be below " + std::to_string(kFirstHelperFd);
    return res;
  }
  std::vector<char*> argv = CStrings(req.argv);
  std::vector<char*> envp = CStrings(req.env);

  // stdio and the result file, opened (or reused) here.
  Redirect redirects[4];
  int redirect_count = 0;
  int stdin_fd = -1;  // opened for this sample only (a stdin other than /dev/null has an offset)
  if (req.stdin_path.empty() || req.stdin_path == "/dev/null") {
    int fd = DevNull(O_RDONLY);
    if (fd < 0) {
      res.spawn_error = CannotOpen("/dev/null", "stdin");
      return res;
    }
    redirects[redirect_count++] = {fd, 0};
  } else {
    stdin_fd = MoveHigh(open(req.stdin_path.c_str(), O_RDONLY | O_CLOEXEC));
    if (stdin_fd < 0) {
      res.spawn_error = CannotOpen(req.stdin_path, "stdin");
      return res;
    }
    redirects[redirect_count++] = {stdin_fd, 0};
  }
  struct Output {
    OutputFile* file;
    const std::string& path;
    int to;
    const char* what;
  };
  const Output outputs[] = {{&g_stdout, req.stdout_path, 1, "stdout"},
                            {&g_stderr, req.stderr_path, 2, "stderr"},
                            {&g_result, req.result_path, req.result_fd, "result file"}};
  for (const auto& o : outputs) {
    if (o.to < 0) continue;
    int fd = o.path.empty() ? DevNull(O_WRONLY) : o.file->Prepare(o.path);
    if (fd < 0) {
      res.spawn_error = CannotOpen(o.path.empty() ? "/dev/null" : o.path, o.what);
      if (stdin_fd >= 0) close(stdin_fd);
      return res;
    }
    redirects[redirect_count++] = {fd, o.to};
  }

  // Inherited by the child at fork, switched on at its exec (see the top of this file). Usually
  // opened already, while tare was busy with the sample before (SpareCounters).
  std::unique_ptr<PerfCounters> perf = TakeCounters(req.perf_events);
  g_report->exec_ns.store(0);
  g_report->exec_errno.store(0);
  g_report->shared_rss_pages.store(-1);
  if (g_interrupt_pending) DrainInterrupts();
  // No handler of the helper's may run in the child: signals stay blocked until it has reset them.
  sigset_t all, before;
  sigfillset(&all);
  sigprocmask(SIG_SETMASK, &all, &before);
  const bool shared = g_shared.on();
  const bool shed = shared && g_shared.ShouldShed(req.argv[0]);
  int64_t fork_ns = NowNs(CLOCK_MONOTONIC);
  pid_t pid = StartChild(req, argv.data(), envp.data(), redirects, redirect_count, shared, shed);
  const int fork_errno = errno;
  sigprocmask(SIG_SETMASK, &before, nullptr);
  if (pid < 0) {
    res.spawn_error = std::string(shared ? "vfork: " : "fork: ") + std::strerror(fork_errno);
    if (stdin_fd >= 0) close(stdin_fd);
    return res;
  }
  // Also in the child: whichever runs first wins the race. Not after vfork: the child has exec'd
  // by the time the helper runs again (the call could only fail, EACCES).
  if (!shared) setpgid(pid, pid);
  res.pid = pid;
  if (stdin_fd >= 0) close(stdin_fd);
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));

  // Wait for exit, a timeout, Ctrl-C, or tare going away. The timeout counts from fork.
  bool child_done = false;
  int64_t interrupt_deadline = -1;
  while (!child_done) {
    int timeout_ms = -1;
    int64_t now = NowNs(CLOCK_MONOTONIC);
    if (req.timeout_ns > 0 && !res.timed_out) {
      int64_t left = fork_ns + req.timeout_ns - now;
      if (left <= 0) {
        res.timed_out = true;
        KillGroup(pid, SIGKILL);
        continue;
      }
      timeout_ms = static_cast<int>(left / 1000000) + 1;
    }
    if (interrupt_deadline >= 0) {
      int64_t left = interrupt_deadline - now;
      if (left <= 0) {
        KillGroup(pid, SIGKILL);
        interrupt_deadline = -1;
        continue;
      }
      int ms = static_cast<int>(left / 1000000) + 1;
      timeout_ms = timeout_ms < 0 ? ms : std::min(timeout_ms, ms);
    }
    pollfd fds[3] = {{pidfd, POLLIN, 0}, {g_interrupt_pipe[0], POLLIN, 0}, {request_fd, POLLIN, 0}};
    int nfds = *parent_gone ? 2 : 3;
    if (pidfd < 0) {
      // No pidfd (kernel < 5.3): look at the child every 5 ms instead.
      siginfo_t si{};
      if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) {
        child_done = true;
        continue;
      }
      timeout_ms = timeout_ms < 0 ? 5 : std::min(timeout_ms, 5);
      fds[0].fd = -1;
    }
    int rc = poll(fds, nfds, timeout_ms);
    if (rc < 0 && errno == EINTR) continue;
    if (fds[0].revents & POLLIN) child_done = true;
    if (fds[1].revents & POLLIN) {
      DrainInterrupts();
      if (!res.interrupted) {
        res.interrupted = true;
        KillGroup(pid, SIGINT);
        interrupt_deadline = NowNs(CLOCK_MONOTONIC) + 1000000000;  // then SIGKILL after 1 s
      }
    }
    if (nfds == 3 && (fds[2].revents & (POLLHUP | POLLERR))) {
      *parent_gone = true;
      res.interrupted = true;
      KillGroup(pid, SIGKILL);
    }
  }
  rusage ru{};
  int status = 0;
  pid_t waited;
  do {
    waited = wait4(pid, &status, 0, &ru);
  } while (waited < 0 && errno == EINTR);
  int64_t end_ns = NowNs(CLOCK_MONOTONIC);
  res.end_unix_ns = NowNs(CLOCK_REALTIME);
  if (pidfd >= 0) close(pidfd);
  // Leftover members of the child's process group (daemons it started) would disturb the next
  // sample: they go with their parent, and so do descendants that left the group (setsid).
  KillGroup(pid, SIGKILL);
  EndLeftovers();
  res.stdout_bytes = req.stdout_path.empty() ? 0 : g_stdout.Size();
  res.stderr_bytes = req.stderr_path.empty() ? 0 : g_stderr.Size();
  if (int err = g_report->exec_errno.load(); err != 0) {
    res.spawn_error = std::string("cannot execute '") + req.argv[0] + "': " + std::strerror(err);
    res.interrupted = false;
    res.timed_out = false;
    return res;
  }
  res.started = true;
  int64_t exec_ns = g_report->exec_ns.load();
  res.wall_ns = end_ns - (exec_ns > 0 ? exec_ns : fork_ns);
  res.start_unix_ns = res.end_unix_ns - res.wall_ns;
  res.perf = perf->ReadAndClose();
  if (WIFEXITED(status)) {
    res.exited = true;
    res.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res.term_signal = WTERMSIG(status);
  }
  res.user_ns = TimevalNs(ru.ru_utime);
  res.sys_ns = TimevalNs(ru.ru_stime);
  res.peak_rss_bytes = static_cast<int64_t>(ru.ru_maxrss) * 1024;
  if (shared) {
    // Exact only above what the helper left at exec (plus slack for the pages the exec call itself
    // touched); at or below it, the figure may be the helper's: not given.
    const int64_t left_kib = g_report->shared_rss_pages.load() * g_shared.page_kib();
    if (left_kib <= 0 || ru.ru_maxrss <= left_kib + kSharedRssSlackKib) {
      res.peak_rss_bytes = 0;
      // In 64 KiB steps, so that one note covers a run's samples.
      res.peak_rss_floor_bytes = ((std::max<int64_t>(left_kib, 0) + kSharedRssSlackKib + 63) / 64) * 64 * 1024;
      g_shared.ForgetPeak(req.argv[0]);
    } else {
      g_shared.RememberPeak(req.argv[0], ru.ru_maxrss);
    }
  }
  res.minor_faults = ru.ru_minflt;
  res.major_faults = ru.ru_majflt;
  res.voluntary_ctx_switches = ru.ru_nvcsw;
  res.involuntary_ctx_switches = ru.ru_nivcsw;
  return res;
}

// After an answer, tare usually sends the next request within a few hundred microseconds. Waking a
// sleeping process on another CPU costs more than that on a VM (~0.5 ms a sample on the one in
// bench/README.md): the helper watches the pipe awake for up to kAwakeForRequestNs first, between
// samples only — never while a child runs — and only where it may use two CPUs or more, so that it
// takes none from tare (pinned beside tare, it may use one and sleeps).
constexpr int64_t kAwakeForRequestNs = 1'000'000;

void AwaitRequestAwake(int fd) {
  const int64_t until = NowNs(CLOCK_MONOTONIC) + kAwakeForRequestNs;
  do {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 0) != 0) return;  // a request, tare gone, or an error: ReadMessage says which
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  } while (NowNs(CLOCK_MONOTONIC) < until);
}

int HelperMain() {
  if (pipe2(g_interrupt_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return 1;
  void* page = mmap(nullptr, sizeof(ExecReport), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return 1;
  g_report = new (page) ExecReport{};
  struct sigaction sa {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
  // Orphaned descendants of a sample are reparented to the helper instead of init, so that none
  // escapes the timeout kill (EndLeftovers).
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  g_shared.SetUp();
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const bool spin = sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) >= 2;
  const int in = 0, out = 1;
  bool parent_gone = false;
  std::string message;
  bool answered = false;
  while (!parent_gone) {
    if (answered && spin) AwaitRequestAwake(in);
    if (!wire::ReadMessage(in, &message).ok()) return 0;  // tare closed the pipe
    auto request = wire::DecodeRequest(message);
    if (!request.ok()) return 1;  // not from this build's tare: it reports the pipe closing
    SpawnResult res = RunOne(std::move(*request), in, &parent_gone);
    if (parent_gone) return 0;
    if (!wire::WriteMessage(out, wire::EncodeResult(res)).ok()) return 0;
    answered = true;
    SpareCounters();
  }
  return 0;
}

// --child-cpus=0,1,...: every child gets tare's CPU set back before it execs; --cpu=N: the helper
// runs on CPU N, the one tare was on when it started it (spawner.h).
void SetChildCpus(const char* list) {
  CPU_ZERO(&g_child_cpus);
  int count = 0;
  for (const char* p = list; *p != '\0';) {
    char* end = nullptr;
    const long c = std::strtol(p, &end, 10);
    if (end == p) break;
    if (c >= 0 && c < CPU_SETSIZE) {
      CPU_SET(static_cast<int>(c), &g_child_cpus);
      ++count;
    }
    p = *end == ',' ? end + 1 : end;
  }
  g_set_child_cpus = count > 0;
}

void ParseArgs(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strncmp(a, "--child-cpus=", 13) == 0) SetChildCpus(a + 13);
    if (std::strncmp(a, "--cpu=", 6) == 0) {
      const long cpu = std::strtol(a + 6, nullptr, 10);
      cpu_set_t one;
      CPU_ZERO(&one);
      if (cpu >= 0 && cpu < CPU_SETSIZE) {
        CPU_SET(static_cast<int>(cpu), &one);
        sched_setaffinity(0, sizeof one, &one);  // a failure leaves it where it was: slower, not wrong
      }
    }
  }
}

}  // namespace
}  // namespace tare::proc

int main(int argc, char** argv) {
  tare::proc::ParseArgs(argc, argv);
  return tare::proc::HelperMain();
}
