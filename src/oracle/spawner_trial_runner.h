// SpawnerTrialRunner: runs each trial as a fresh process through tare::proc::Spawner (the spawn
// helper), with the caller's environment plus the trial's extra variables. Ctrl-C stops the
// running child and makes Run() return kCancelled.
#pragma once

#include <memory>

#include "oracle/trial_runner.h"
#include "proc/spawner.h"

namespace tare::oracle {

class SpawnerTrialRunner : public TrialRunner {
 public:
  // Starts the spawn helper (see Spawner::Start for how it is found).
  static StatusOr<std::unique_ptr<SpawnerTrialRunner>> Create(const std::string& helper_path = "");

  StatusOr<TrialOutcome> Run(const TrialSpec& spec) override;

 private:
  explicit SpawnerTrialRunner(std::unique_ptr<proc::Spawner> spawner)
      : spawner_(std::move(spawner)) {}
  std::unique_ptr<proc::Spawner> spawner_;
};

}  // namespace tare::oracle
