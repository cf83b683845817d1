// tare-spawn-helper: the small process that forks, measures and reaps every child tare runs.
// See spawner.h for why it exists (the ru_maxrss inheritance trap). Protocol: framed JSON requests
// on stdin, framed JSON results on stdout (wire.h). It exits when tare closes the pipe, killing a
// running child's process group first, so a crashed tare leaves no orphaned benchmarks behind.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include "proc/perf_counters.h"
#include "proc/wire.h"

namespace tare::proc {
namespace {

int g_interrupt_pipe[2] = {-1, -1};

void OnInterrupt(int) {
  int saved = errno;
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
  char buf[64];
  while (read(g_interrupt_pipe[0], buf, sizeof(buf)) > 0) {
  }
}

// Runs in the forked child: set up stdio, wait for the go byte, exec. Only async-signal-safe calls.
[[noreturn]] void ChildMain(const SpawnRequest& req, char* const* argv, char* const* envp, int go_fd,
                            int err_fd) {
  setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  auto fail = [&](int err) {
    (void)!write(err_fd, &err, sizeof(err));
    _exit(127);
  };
  auto redirect = [&](const std::string& path, int target, int flags) {
    const char* p = path.empty() ? "/dev/null" : path.c_str();
    int fd = open(p, flags, 0644);
    if (fd < 0) fail(errno);
    if (fd != target) {
      if (dup2(fd, target) < 0) fail(errno);
      close(fd);
    }
  };
  redirect(req.stdin_path, 0, O_RDONLY);
  redirect(req.stdout_path, 1, O_WRONLY | O_CREAT | O_TRUNC);
  redirect(req.stderr_path, 2, O_WRONLY | O_CREAT | O_TRUNC);
  if (req.result_fd >= 0) redirect(req.result_path, req.result_fd, O_WRONLY | O_CREAT | O_TRUNC);
  if (!req.cwd.empty() && chdir(req.cwd.c_str()) != 0) fail(errno);
  if (req.disable_aslr) personality(ADDR_NO_RANDOMIZE);
  char go = 0;
  if (read(go_fd, &go, 1) != 1) _exit(127);  // helper died before releasing us
  execve(argv[0], argv, envp);
  fail(errno);
}

std::vector<char*> CStrings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (auto& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

void KillGroup(pid_t pgid, int sig) { kill(-pgid, sig); }

SpawnResult RunOne(SpawnRequest req, int request_fd, bool* parent_gone) {
  SpawnResult res;
  if (req.argv.empty()) {
    res.spawn_error = "empty argv";
    return res;
  }
  std::vector<char*> argv = CStrings(req.argv);
  std::vector<char*> envp = CStrings(req.env);
  int go_pipe[2], err_pipe[2];
  if (pipe2(go_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    res.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return res;
  }
  DrainInterrupts();
  pid_t pid = fork();
  if (pid < 0) {
    res.spawn_error = std::string("fork: ") + std::strerror(errno);
    return res;
  }
  if (pid == 0) {
    close(go_pipe[1]);
    close(err_pipe[0]);
    ChildMain(req, argv.data(), envp.data(), go_pipe[0], err_pipe[1]);
  }
  setpgid(pid, pid);  // also in the child: whichever runs first wins the race
  res.pid = pid;
  close(go_pipe[0]);
  close(err_pipe[1]);
  PerfCounters perf(pid, req.perf_events);
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));

  res.start_unix_ns = NowNs(CLOCK_REALTIME);
  int64_t start_ns = NowNs(CLOCK_MONOTONIC);
  char go = 'g';
  (void)!write(go_pipe[1], &go, 1);
  close(go_pipe[1]);
  int exec_errno = 0;
  ssize_t n;
  do {
    n = read(err_pipe[0], &exec_errno, sizeof(exec_errno));
  } while (n < 0 && errno == EINTR);
  close(err_pipe[0]);
  if (n == static_cast<ssize_t>(sizeof(exec_errno))) {
    rusage ru;
    int status;
    wait4(pid, &status, 0, &ru);
    if (pidfd >= 0) close(pidfd);
    perf.ReadAndClose();
    res.spawn_error = std::string("cannot execute '") + req.argv[0] + "': " + std::strerror(exec_errno);
    return res;
  }
  res.started = true;

  // Wait for exit, a timeout, Ctrl-C, or tare going away.
  bool child_done = false;
  int64_t interrupt_deadline = -1;
  while (!child_done) {
    int timeout_ms = -1;
    int64_t now = NowNs(CLOCK_MONOTONIC);
    if (req.timeout_ns > 0 && !res.timed_out) {
      int64_t left = start_ns + req.timeout_ns - now;
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
  res.wall_ns = NowNs(CLOCK_MONOTONIC) - start_ns;
  res.end_unix_ns = NowNs(CLOCK_REALTIME);
  if (pidfd >= 0) close(pidfd);
  // Leftover members of the child's process group (daemons it started) would disturb the next
  // sample: they go with their parent.
  KillGroup(pid, SIGKILL);
  res.perf = perf.ReadAndClose();
  if (WIFEXITED(status)) {
    res.exited = true;
    res.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res.term_signal = WTERMSIG(status);
  }
  res.user_ns = TimevalNs(ru.ru_utime);
  res.sys_ns = TimevalNs(ru.ru_stime);
  res.peak_rss_bytes = static_cast<int64_t>(ru.ru_maxrss) * 1024;
  res.minor_faults = ru.ru_minflt;
  res.major_faults = ru.ru_majflt;
  res.voluntary_ctx_switches = ru.ru_nvcsw;
  res.involuntary_ctx_switches = ru.ru_nivcsw;
  return res;
}

int HelperMain() {
  if (pipe2(g_interrupt_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return 1;
  struct sigaction sa {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
  const int in = 0, out = 1;
  bool parent_gone = false;
  while (!parent_gone) {
    auto msg = wire::ReadMessage(in);
    if (!msg.ok()) return 0;  // tare closed the pipe
    SpawnResult res = RunOne(wire::RequestFromJson(*msg), in, &parent_gone);
    if (parent_gone) return 0;
    if (!wire::WriteMessage(out, wire::ToJson(res)).ok()) return 0;
  }
  return 0;
}

}  // namespace
}  // namespace tare::proc

int main() { return tare::proc::HelperMain(); }
