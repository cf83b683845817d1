// TrialRunner: the one side effect of an oracle — running the command once in a fresh process.
// The oracle logic (trial_session.h and the modes) talks only to this interface, so its unit tests
// can use a scripted fake; SpawnerTrialRunner (spawner_trial_runner.h) is the real one, and the
// self-test suite (oracle_selftest_test.cc) runs real processes through it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace tare::oracle {

struct TrialSpec {
  std::vector<std::string> argv;       // argv[0] is a path (already resolved; no PATH search)
  std::vector<std::string> extra_env;  // "KEY=VALUE" added to the inherited environment
  std::string stdout_path;             // the trial's stdout goes here
  std::string stderr_path;             // and its stderr here
  int64_t timeout_ns = 0;              // 0 = none
};

struct TrialOutcome {
  bool ok = false;      // started, exited 0, not timed out
  std::string failure;  // when !ok: "exit status 3", "killed by signal 11 (...)", ...
  int64_t wall_ns = 0;
};

class TrialRunner {
 public:
  virtual ~TrialRunner() = default;
  // A command that fails is an outcome, not an error. Errors: the runner itself broke, or the user
  // interrupted (StatusCode::kCancelled).
  virtual StatusOr<TrialOutcome> Run(const TrialSpec& spec) = 0;
};

}  // namespace tare::oracle
