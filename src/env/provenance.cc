#include "env/provenance.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/core.h>

#include "base/redact.h"

namespace tare::env {
namespace {

constexpr int kGitTimeoutMs = 5000;
constexpr size_t kMaxOutput = 1 << 16;

int64_t NowMs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

// Runs `git -C dir ARGS...`; its stdout when it exits 0 within the limit, else nullopt.
std::optional<std::string> Git(const std::string& dir, std::vector<std::string> args) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return std::nullopt;
  std::vector<std::string> argv = {"git", "-C", dir};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::vector<std::string> env_store;
  for (std::string kv : EnvironmentWithoutSecrets()) {
    if (kv.rfind("GIT_OPTIONAL_LOCKS=", 0) == 0 || kv.rfind("LC_ALL=", 0) == 0) continue;
    env_store.push_back(std::move(kv));
  }
  env_store.push_back("GIT_OPTIONAL_LOCKS=0");
  env_store.push_back("LC_ALL=C");
  std::vector<char*> cenv;
  for (auto& e : env_store) cenv.push_back(e.data());
  cenv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "git", &fa, &attr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    return std::nullopt;
  }
  std::string text;
  bool timed_out = false;
  const int64_t deadline = NowMs() + kGitTimeoutMs;
  for (;;) {
    const int64_t left = deadline - NowMs();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      timed_out = n == 0;
      break;
    }
    char buf[4096];
    const ssize_t got = read(out[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (text.size() < kMaxOutput) text.append(buf, static_cast<size_t>(got));
  }
  close(out[0]);
  if (timed_out) kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return text;
}

std::string TrimmedCopy(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

bool IsHex(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

bool HasControl(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

std::string FromEnv(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : std::string(v);
}

}  // namespace

// One `git status --porcelain=v2 --branch` says all three (it was three git processes: ~5-10 ms of
// every run's start on the VM of bench/README.md): "# branch.oid <commit>" ("(initial)" before the
// first commit), "# branch.head <branch>" ("(detached)"), then one line per changed tracked file.
Provenance DetectGitProvenance(const std::string& dir) {
  Provenance p;
  // --no-ahead-behind: the upstream's distance is not used, and counting it walks the history.
  auto status = Git(dir, {"status", "--porcelain=v2", "--branch", "--no-ahead-behind", "--untracked-files=no"});
  if (!status) return p;  // not a checkout, or no git
  std::string commit, branch;
  bool dirty = false;
  std::istringstream lines(*status);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# branch.oid ", 0) == 0) {
      commit = TrimmedCopy(line.substr(13));
    } else if (line.rfind("# branch.head ", 0) == 0) {
      branch = TrimmedCopy(line.substr(14));
    } else if (!line.empty() && line[0] != '#') {
      dirty = true;
    }
  }
  if (!IsHex(commit) || commit.size() < 40 || commit.size() > 64) return p;  // no commits yet
  p.commit = commit;
  if (branch != "(detached)") p.branch = branch;
  if (p.branch.empty()) {
    for (const char* var : {"GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "BRANCH_NAME"}) {
      std::string b = TrimmedCopy(FromEnv(var));
      if (!b.empty() && !HasControl(b)) {
        p.branch = b;
        break;
      }
    }
  }
  if (HasControl(p.branch)) p.branch.clear();
  p.dirty = dirty;
  return p;
}

Status ValidateDeclaredProvenance(const DeclaredProvenance& d) {
  if (!d.commit.empty() && (!IsHex(d.commit) || d.commit.size() < 4 || d.commit.size() > 64)) {
    return Status::InvalidArgument(fmt::format(
        "--commit '{}' is not a commit id: give 4 to 64 hex digits (e.g. `--commit $(git rev-parse HEAD)`)", d.commit));
  }
  if (HasControl(d.branch)) return Status::InvalidArgument("--branch: the name contains control characters");
  std::set<std::string> keys;
  for (const auto& t : d.tags) {
    const auto eq = t.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument(fmt::format("--tag '{}' is not KEY=VALUE (e.g. --tag job=nightly)", t));
    }
    if (HasControl(t)) return Status::InvalidArgument("--tag: contains control characters");
    if (!keys.insert(t.substr(0, eq)).second) {
      return Status::InvalidArgument(fmt::format("--tag: the key '{}' is given twice", t.substr(0, eq)));
    }
  }
  return Status::Ok();
}

Provenance ResolveProvenance(const DeclaredProvenance& d, const std::string& dir) {
  return ResolveProvenance(d, d.no_git ? Provenance{} : DetectGitProvenance(dir));
}

Provenance ResolveProvenance(const DeclaredProvenance& d, Provenance detected) {
  Provenance p = d.no_git ? Provenance{} : std::move(detected);
  if (!d.commit.empty()) {
    std::string c = d.commit;
    for (char& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (c != p.commit) p.dirty.reset();  // git's dirty state was about another commit
    p.commit = c;
  }
  if (!d.branch.empty()) p.branch = d.branch;
  for (const auto& t : d.tags) {
    const auto eq = t.find('=');
    p.tags.emplace_back(t.substr(0, eq), t.substr(eq + 1));
  }
  std::sort(p.tags.begin(), p.tags.end());
  return p;
}

namespace {
std::shared_future<Provenance> g_started;  // StartGitProvenance's query, until PendingProvenance takes it
}  // namespace

void StartGitProvenance() {
  try {
    g_started = std::async(std::launch::async, [] { return DetectGitProvenance("."); }).share();
  } catch (const std::system_error&) {
    // No thread to be had: PendingProvenance asks git itself.
  }
}

std::shared_future<Provenance> PendingProvenance(const DeclaredProvenance& declared) {
  std::shared_future<Provenance> started = std::exchange(g_started, {});
  try {
    if (started.valid()) {
      return std::async(std::launch::deferred,
                        [declared, started] { return ResolveProvenance(declared, started.get()); })
          .share();
    }
    return std::async(std::launch::async, [declared] { return ResolveProvenance(declared, "."); }).share();
  } catch (const std::system_error&) {
    std::promise<Provenance> now;
    now.set_value(ResolveProvenance(declared, "."));
    return now.get_future().share();
  }
}

}  // namespace tare::env
