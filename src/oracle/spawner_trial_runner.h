// SpawnerTrialRunner: runs each trial as a fresh process through tare::proc::Spawner (the spawn
// helper), with the caller's environment plus the trial's extra variables. Ctrl-C stops the
// running child and makes Run() return kCancelled.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "oracle/trial_runner.h"
#include "oracle/trial_session.h"
#include "proc/spawner.h"

namespace tare::oracle {

class SpawnerTrialRunner : public TrialRunner {
 public:
  // Starts the spawn helper (see Spawner::Start for how it is found).
  static StatusOr<std::unique_ptr<SpawnerTrialRunner>> Create(const std::string& helper_path = "");

  StatusOr<TrialOutcome> Run(const TrialSpec& spec) override;

 private:
  explicit SpawnerTrialRunner(std::unique_ptr<proc::Spawner> spawner) : spawner_(std::move(spawner)) {}
  std::unique_ptr<proc::Spawner> spawner_;
};

// What a `tare oracle` mode runs on: a session over spawned processes. `command.argv[0]` must
// resolve to an executable (checked before anything is created); the run directory is
// `run_dir`, or a fresh .tare/oracle/<UTC timestamp> when "" (run_directory.h), and is removed
// again when the session cannot start, so a usage error leaves no litter. Installs the interrupt
// handler: Ctrl-C stops the running trial.
struct SpawnedSession {
  std::unique_ptr<SpawnerTrialRunner> runner;
  std::optional<TrialSession> session;  // points at `runner`
};
StatusOr<std::unique_ptr<SpawnedSession>> StartSpawnedSession(OracleCommand command, const std::string& run_dir,
                                                              ProgressFn progress);

}  // namespace tare::oracle
