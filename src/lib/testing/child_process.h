// Test helper: runs a real program (a benchmark child, valgrind, a shim test program) the way the
// runner will — posix_spawn, an environment built from scratch, the result fd on a pipe — and
// returns what it wrote. Test-only; the runner uses src/proc.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace tare::testing {

struct ChildOutput {
  int exit_status = -1;  // WEXITSTATUS, or 128 + signal
  pid_t pid = 0;
  std::string result;  // everything written to the result fd
  std::string out;     // stdout
  std::string err;     // stderr
};

// Runs argv with this process's environment minus TARE_* and LD_PRELOAD, plus `env`. When
// `result_fd` >= 0 the child gets a pipe's write end there (TARE_RESULT_FD is not set for you).
ChildOutput RunChild(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                     int result_fd = 3);

// The child-protocol environment for one request (TARE_CHILD, TARE_PROTOCOL, TARE_RESULT_FD=3).
std::map<std::string, std::string> ProtocolEnv(const std::string& mode, const std::string& bench = "",
                                               const std::string& instrument = "wall");

// Non-empty lines of `text`.
std::vector<std::string> Lines(const std::string& text);

std::string ReadFile(const std::string& path);
// A fresh empty directory under $TMPDIR (or /tmp).
std::string MakeTempDir();

}  // namespace tare::testing
