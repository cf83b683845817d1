#include "proc/spawner.h"

#include <fmt/format.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "base/redact.h"
#include "proc/wire.h"

namespace tare::proc {
namespace {

std::atomic<int> g_helper_pid{0};
volatile sig_atomic_t g_interrupted = 0;

void OnSignal(int) {
  g_interrupted = 1;
  int pid = g_helper_pid.load();
  if (pid > 0) kill(pid, SIGINT);
}

std::string LocateHelper(const std::string& explicit_path) {
  if (!explicit_path.empty()) return explicit_path;
  if (const char* env = std::getenv("TARE_SPAWN_HELPER"); env && *env) return env;
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
#ifdef TARE_SPAWN_HELPER_BUILD_PATH
    return TARE_SPAWN_HELPER_BUILD_PATH;
#else
    return "tare-spawn-helper";
#endif
  }
  // Beside the executable (a build tree), then where `cmake --install` and the Debian package
  // put it: <prefix>/bin/tare -> <prefix>/lib/tare/ (cmake/TarePackage.cmake).
  const auto installed = (self.parent_path() / "../lib/tare/tare-spawn-helper").lexically_normal();
  for (const auto& candidate : {self.parent_path() / "tare-spawn-helper", installed}) {
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
#ifdef TARE_SPAWN_HELPER_BUILD_PATH
  // The build tree's helper, for the build tree's own programs that do not sit beside it (tests).
  // Never for a tare outside its build tree: an installed tare whose helper is missing says so
  // (naming where it looked) instead of borrowing a build's, which may be another version.
  const std::filesystem::path build_helper = TARE_SPAWN_HELPER_BUILD_PATH;
  const std::string build_dir = build_helper.parent_path().string() + "/";
  if (self.string().compare(0, build_dir.size(), build_dir) == 0) return build_helper.string();
#endif
  return installed.string();
}

}  // namespace

std::string SpawnResult::Describe() const {
  if (!started) return spawn_error.empty() ? "could not be started" : spawn_error;
  if (interrupted) return "interrupted";
  if (timed_out) return fmt::format("timed out after {:.3g} s (process group killed)", wall_ns / 1e9);
  if (term_signal != 0) {
    const char* name = sigdescr_np(term_signal);
    return fmt::format("killed by signal {} ({})", term_signal, name ? name : "unknown");
  }
  if (exited && exit_code != 0) return fmt::format("exit status {}", exit_code);
  return "ok";
}

StatusOr<std::unique_ptr<Spawner>> Spawner::Start(const std::string& helper_path) {
  std::string path = LocateHelper(helper_path);
  const char* env = std::getenv("TARE_SPAWN_HELPER");
  const bool named_by_user = helper_path.empty() && env != nullptr && *env != '\0';
  if (access(path.c_str(), X_OK) != 0) {
    if (named_by_user) {
      return Status::InvalidArgument(
          fmt::format("TARE_SPAWN_HELPER '{}' is not an executable file; point it to tare-spawn-helper (built "
                      "next to the tare binary, installed in <prefix>/lib/tare/) or unset it",
                      path));
    }
    // tare's own installation is broken, not the user's input: the internal-error status (70).
    return Status::Internal(
        fmt::format("the spawn helper '{}' is missing; it is built next to the tare binary and installed in "
                    "<prefix>/lib/tare/ (tare-spawn-helper) — rebuild or reinstall tare, or set "
                    "TARE_SPAWN_HELPER to its path",
                    path));
  }
  // The helper runs on the CPU tare is on now, and gives each child tare's CPU set back (spawner.h).
  std::string helper_cpu_arg, child_cpus_arg;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const char* colocate = std::getenv("TARE_SPAWN_COLOCATE");
  if (!(colocate != nullptr && std::strcmp(colocate, "0") == 0) &&
      sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) >= 2) {
    const int cpu = sched_getcpu();
    if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed)) {
      std::string list;
      for (int c = 0; c < CPU_SETSIZE; ++c) {
        if (CPU_ISSET(c, &allowed)) list += (list.empty() ? "" : ",") + std::to_string(c);
      }
      helper_cpu_arg = "--cpu=" + std::to_string(cpu);
      child_cpus_arg = "--child-cpus=" + list;
    }
  }
  // tare's SIGPIPE would kill it if the helper died; Run reports the broken pipe instead. Once
  // here, not every sample (a system call each).
  signal(SIGPIPE, SIG_IGN);
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0) {
    return Status::Internal(fmt::format("pipe: {}", std::strerror(errno)));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
  std::vector<char*> argv = {const_cast<char*>("tare-spawn-helper")};
  if (!helper_cpu_arg.empty()) {
    argv.push_back(helper_cpu_arg.data());
    argv.push_back(child_cpus_arg.data());
  }
  argv.push_back(nullptr);
  pid_t pid = 0;
  // The helper passes each child the environment it is sent; its own holds none of tare's secrets
  // either (its /proc/PID/environ is the measured program's parent's).
  std::vector<char*> envp = EnvironmentWithoutSecretsPointers();
  int rc = posix_spawn(&pid, path.c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  close(to_child[0]);
  close(from_child[1]);
  if (rc != 0) {
    close(to_child[1]);
    close(from_child[0]);
    const std::string message = fmt::format("cannot start the spawn helper '{}': {}", path, std::strerror(rc));
    return named_by_user
               ? Status::InvalidArgument(message + "; point TARE_SPAWN_HELPER to tare-spawn-helper or unset it")
               : Status::Internal(message + "; rebuild or reinstall tare");
  }
  g_helper_pid.store(pid);
  return std::unique_ptr<Spawner>(new Spawner(pid, to_child[1], from_child[0]));
}

void Spawner::Finish() {
  if (to_helper_ >= 0) close(to_helper_);
  to_helper_ = -1;
}

Spawner::~Spawner() {
  Finish();
  close(from_helper_);
  int status;
  waitpid(helper_pid_, &status, 0);
  g_helper_pid.compare_exchange_strong(helper_pid_, 0);
}

StatusOr<SpawnResult> Spawner::Run(const SpawnRequest& request) {
  TARE_RETURN_IF_ERROR(wire::WriteMessage(to_helper_, wire::EncodeRequest(request))
                           .WithContext("sending a request to the spawn helper"));
  std::string reply;
  Status read = wire::ReadMessage(from_helper_, &reply);
  if (!read.ok()) {
    return Status::Internal(
        fmt::format("the spawn helper (pid {}) stopped answering: {}", helper_pid_, read.message()));
  }
  return wire::DecodeResult(reply);
}

void InstallInterruptHandler() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool Interrupted() { return g_interrupted != 0; }
void ClearInterruptForTest() { g_interrupted = 0; }

const std::vector<std::string>& DefaultPerfEvents() {
  static const std::vector<std::string> kEvents = {"task-clock",   "page-faults", "context-switches", "cpu-migrations",
                                                   "instructions", "cycles",      "branches",         "branch-misses"};
  return kEvents;
}

}  // namespace tare::proc
