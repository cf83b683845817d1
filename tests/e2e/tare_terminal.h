// Running the real `tare` binary with its stdout on a pseudo-terminal: what a person at a terminal
// sees, where that differs from a pipe (`tare ab` prints its short summary there instead of the
// ledger). Linux's posix_openpt; shared by tests/e2e/*.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tare_process.h"

namespace tare::e2e {

// Like RunTare, but with stdout on a pseudo-terminal, where `tare ab` prints its short summary
// instead of the ledger; stderr goes to dir/err. The terminal's "\r\n" are read back as "\n".
inline Result RunTareOnTerminal(const std::string& tare_bin, const std::string& dir, std::vector<std::string> args) {
  Result r;
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 || ptsname(master) == nullptr) return r;
  const std::string terminal = ptsname(master);
  // Held open here too, so that reading the master never fails for want of a reader on the other
  // side before the child has opened it.
  const int held = open(terminal.c_str(), O_RDWR | O_NOCTTY);
  args.insert(args.begin(), tare_bin);
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(terminal.c_str(), O_RDWR | O_NOCTTY);
    if (out < 0 || dup2(out, STDOUT_FILENO) < 0 || !freopen((dir + "/err").c_str(), "w", stderr)) _exit(97);
    if (chdir(dir.c_str()) != 0) _exit(99);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(98);
  }
  fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
  int status = 0;
  for (bool exited = false;;) {
    pollfd p{master, POLLIN, 0};
    poll(&p, 1, exited ? 0 : 100);
    char buffer[4096];
    ssize_t n = 0;
    while ((n = read(master, buffer, sizeof buffer)) > 0) r.out.append(buffer, static_cast<size_t>(n));
    if (exited) break;
    exited = waitpid(pid, &status, WNOHANG) == pid;  // one more read drains what it wrote last
  }
  close(held);
  close(master);
  for (size_t at; (at = r.out.find("\r\n")) != std::string::npos;) r.out.replace(at, 2, "\n");
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = Slurp(dir + "/err");
  return r;
}

}  // namespace tare::e2e
