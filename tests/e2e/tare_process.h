// Running the real `tare` binary from an end-to-end test: argv without a shell, the working
// directory set, stdout and stderr captured to files in that directory. Shared by tests/e2e/*.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tare::e2e {

struct Result {
  int exit_code = -1;  // 128 + signal when killed
  std::string out;
  std::string err;
};

inline std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Starts `tare_bin args...` in `dir`, with stdout and stderr going to dir/out and dir/err.
inline pid_t StartTare(const std::string& tare_bin, const std::string& dir, std::vector<std::string> args) {
  args.insert(args.begin(), tare_bin);
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen((dir + "/out").c_str(), "w", stdout) || !freopen((dir + "/err").c_str(), "w", stderr)) _exit(97);
    if (chdir(dir.c_str()) != 0) _exit(99);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(98);
  }
  return pid;
}

// The outcome of a process started by StartTare, from its wait status.
inline Result CollectTare(const std::string& dir, int status) {
  Result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = Slurp(dir + "/out");
  r.err = Slurp(dir + "/err");
  return r;
}

inline Result RunTare(const std::string& tare_bin, const std::string& dir, std::vector<std::string> args) {
  pid_t pid = StartTare(tare_bin, dir, std::move(args));
  int status = 0;
  waitpid(pid, &status, 0);
  return CollectTare(dir, status);
}

}  // namespace tare::e2e
