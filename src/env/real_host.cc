// RealHost: the live machine. No process is spawned except `valgrind --version`, on request.
#include <dirent.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/hash_cache.h"
#include "base/redact.h"
#include "env/host.h"

extern char** environ;

namespace tare::env {
namespace {

bool IsAllocatorVariable(std::string_view name) { return name.rfind("MALLOC_", 0) == 0 || name == "GLIBC_TUNABLES"; }

std::string RealPath(const std::string& path) {
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf) == nullptr) return path;
  return buf;
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// libc.so.6 on every current glibc; libc-2.NN.so on glibc < 2.34, where libc.so.6 is a symlink.
bool LooksLikeLibc(const std::string& path) {
  std::string base = BaseName(path);
  return base.rfind("libc.so", 0) == 0 || (base.rfind("libc-", 0) == 0 && base.find(".so") != std::string::npos);
}

struct PhdrSearch {
  ElfW(Addr) loader_base = 0;
  std::string libc;
  std::string loader;
};

int VisitObject(struct dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<PhdrSearch*>(data);
  std::string name = info->dlpi_name ? info->dlpi_name : "";
  if (name.empty()) return 0;  // the main program
  // The loader is the object mapped at AT_BASE (the kernel tells us where it put the interpreter),
  // which is more robust than guessing from names like ld-linux-x86-64.so.2 / ld-linux-aarch64.so.1.
  if (search->loader_base != 0 && info->dlpi_addr == search->loader_base) {
    search->loader = name;
  } else if (search->libc.empty() && LooksLikeLibc(name)) {
    search->libc = name;
  }
  return 0;
}

}  // namespace

std::optional<std::string> RealHost::ReadFile(const std::string& path) const {
  // /proc and /sys files report size 0, so read until EOF rather than by stat size.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buf[8192];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      close(fd);
      return std::nullopt;  // e.g. EACCES on a root-only sysfs attribute
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

std::vector<std::string> RealHost::ListDir(const std::string& path) const {
  std::vector<std::string> names;
  DIR* dir = opendir(path.c_str());
  if (dir == nullptr) return names;
  while (struct dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

// libc and the loader, at every run: remembered by their identity (base/hash_cache.h).
StatusOr<std::string> RealHost::FileSha256(const std::string& path) const { return Sha256FileRemembered(path); }

std::string RealHost::KernelRelease() const {
  struct utsname u;
  if (uname(&u) != 0) return "";
  return u.release;
}

std::string RealHost::GlibcVersion() const { return gnu_get_libc_version(); }

LoadedLibraries RealHost::Libraries() const {
  PhdrSearch search;
  search.loader_base = static_cast<ElfW(Addr)>(getauxval(AT_BASE));
  dl_iterate_phdr(VisitObject, &search);
  LoadedLibraries libs;
  if (!search.libc.empty()) libs.libc_path = RealPath(search.libc);
  if (!search.loader.empty()) libs.loader_path = RealPath(search.loader);
  return libs;
}

std::vector<std::pair<std::string, std::string>> RealHost::AllocatorEnv() const {
  std::vector<std::string> entries;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    // Filter before copying: other variables are never even copied out of environ.
    if (IsAllocatorVariable(entry.substr(0, entry.find('=')))) entries.emplace_back(entry);
  }
  return AllocatorEnvironment(entries);
}

std::optional<std::string> RealHost::ValgrindVersion() const {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  char arg0[] = "valgrind";
  char arg1[] = "--version";
  char* argv[] = {arg0, arg1, nullptr};
  pid_t pid = -1;
  std::vector<char*> envp = EnvironmentWithoutSecretsPointers();
  int rc = posix_spawnp(&pid, "valgrind", &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (rc != 0) {
    close(pipe_fds[0]);
    return std::nullopt;  // not on PATH
  }
  // `valgrind --version` prints one line and exits at once; 10 s guards against a broken wrapper.
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool timed_out = false;
  for (;;) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    struct pollfd pfd = {pipe_fds[0], POLLIN, 0};
    int ready = poll(&pfd, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buf[256];
    ssize_t n = read(pipe_fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (out.size() < 4096) out.append(buf, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  std::string line = out.substr(0, out.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (line.empty()) return std::nullopt;
  return line;
}

std::vector<std::pair<std::string, std::string>> AllocatorEnvironment(const std::vector<std::string>& entries) {
  std::vector<std::pair<std::string, std::string>> kept;
  for (const auto& entry : entries) {
    size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string name = entry.substr(0, eq);
    if (IsAllocatorVariable(name)) kept.emplace_back(name, entry.substr(eq + 1));
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

}  // namespace tare::env
