#include "lib/testing/child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace tare::testing {
namespace {

std::string Slurp(int fd) {
  std::string out;
  char buf[65536];
  while (true) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, size_t(n));
  }
  return out;
}

}  // namespace

ChildOutput RunChild(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                     int result_fd) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    if (kv.rfind("TARE_", 0) == 0 || kv.rfind("LD_PRELOAD=", 0) == 0) continue;
    std::string key = kv.substr(0, kv.find('='));
    if (env.count(key)) continue;
    env_strings.push_back(kv);
  }
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp, args;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto& s : argv_copy) args.push_back(s.data());
  args.push_back(nullptr);

  const std::string dir = MakeTempDir();
  const std::string out_path = dir + "/stdout", err_path = dir + "/stderr";
  int pipe_fds[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (result_fd >= 0) {
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], result_fd);
  }
  ChildOutput out;
  int rc = posix_spawn(&out.pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("posix_spawn " + argv[0] + ": " + std::strerror(rc));
  if (result_fd >= 0) {
    close(pipe_fds[1]);
    out.result = Slurp(pipe_fds[0]);
    close(pipe_fds[0]);
  }
  int status = 0;
  while (waitpid(out.pid, &status, 0) < 0 && errno == EINTR) {
  }
  out.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  out.out = ReadFile(out_path);
  out.err = ReadFile(err_path);
  std::filesystem::remove_all(dir);
  return out;
}

std::map<std::string, std::string> ProtocolEnv(const std::string& mode, const std::string& bench,
                                               const std::string& instrument) {
  std::map<std::string, std::string> env = {{"TARE_CHILD", "1"},
                                            {"TARE_PROTOCOL", "1"},
                                            {"TARE_MODE", mode},
                                            {"TARE_INSTRUMENT", instrument},
                                            {"TARE_RESULT_FD", "3"}};
  if (!bench.empty()) env["TARE_BENCH"] = bench;
  return env;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string MakeTempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/tare-lib-test.XXXXXX";
  if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
  return templ;
}

}  // namespace tare::testing
