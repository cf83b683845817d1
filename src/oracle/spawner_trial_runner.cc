#include "oracle/spawner_trial_runner.h"

#include <unistd.h>

#include <string_view>

extern char** environ;

namespace tare::oracle {

StatusOr<std::unique_ptr<SpawnerTrialRunner>> SpawnerTrialRunner::Create(
    const std::string& helper_path) {
  TARE_ASSIGN_OR_RETURN(auto spawner, proc::Spawner::Start(helper_path));
  return std::unique_ptr<SpawnerTrialRunner>(new SpawnerTrialRunner(std::move(spawner)));
}

StatusOr<TrialOutcome> SpawnerTrialRunner::Run(const TrialSpec& spec) {
  if (proc::Interrupted()) return Status::Cancelled("interrupted before the next trial");
  proc::SpawnRequest request;
  request.argv = spec.argv;
  // Inherited variables first, minus those the trial sets (getenv would see the first copy).
  for (char** e = environ; *e != nullptr; ++e) {
    std::string_view kv(*e);
    std::string_view key = kv.substr(0, kv.find('=') + 1);
    bool overridden = false;
    for (const std::string& extra : spec.extra_env) {
      if (std::string_view(extra).substr(0, key.size()) == key) overridden = true;
    }
    if (!overridden) request.env.emplace_back(kv);
  }
  for (const std::string& kv : spec.extra_env) request.env.push_back(kv);
  request.stdout_path = spec.stdout_path;
  request.stderr_path = spec.stderr_path;
  request.timeout_ns = spec.timeout_ns;
  // Oracles compare outputs, not costs: no perf counters to open.
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult result, spawner_->Run(request));
  if (result.interrupted || proc::Interrupted()) {
    return Status::Cancelled("interrupted (Ctrl-C) while a trial was running");
  }
  TrialOutcome outcome;
  outcome.ok = result.ok();
  if (!outcome.ok) outcome.failure = result.started ? result.Describe() : result.spawn_error;
  outcome.wall_ns = result.wall_ns;
  return outcome;
}

}  // namespace tare::oracle
