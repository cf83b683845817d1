#include "oracle/spawner_trial_runner.h"

#include <unistd.h>

#include <filesystem>
#include <string_view>
#include <system_error>

#include "base/files.h"
#include "base/redact.h"
#include "oracle/run_directory.h"

namespace tare::oracle {

StatusOr<std::unique_ptr<SpawnerTrialRunner>> SpawnerTrialRunner::Create(const std::string& helper_path) {
  TARE_ASSIGN_OR_RETURN(auto spawner, proc::Spawner::Start(helper_path));
  return std::unique_ptr<SpawnerTrialRunner>(new SpawnerTrialRunner(std::move(spawner)));
}

StatusOr<TrialOutcome> SpawnerTrialRunner::Run(const TrialSpec& spec) {
  if (proc::Interrupted()) return Status::Cancelled("interrupted before the next trial");
  proc::SpawnRequest request;
  request.argv = spec.argv;
  // Inherited variables first, minus those the trial sets (getenv would see the first copy).
  for (const std::string& inherited : EnvironmentWithoutSecrets()) {
    std::string_view kv(inherited);
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

StatusOr<std::unique_ptr<SpawnedSession>> StartSpawnedSession(OracleCommand command, const std::string& run_dir,
                                                              ProgressFn progress) {
  if (command.argv.empty()) {
    return Status::InvalidArgument(
        "no command given; put it after `--`, e.g. `tare oracle check --golden g.txt -- ./bench/trace`");
  }
  TARE_RETURN_IF_ERROR(ResolveExecutable(command.argv[0]).status());
  proc::InstallInterruptHandler();
  auto p = std::make_unique<SpawnedSession>();
  TARE_ASSIGN_OR_RETURN(p->runner, SpawnerTrialRunner::Create());
  TARE_ASSIGN_OR_RETURN(std::string dir, CreateRunDirectory(run_dir));
  auto session = TrialSession::Create(p->runner.get(), std::move(command), dir, std::move(progress));
  if (!session.ok()) {
    std::error_code ec;
    std::filesystem::remove(dir, ec);  // only if still empty
    return session.status();
  }
  p->session.emplace(std::move(session).value());
  return p;
}

}  // namespace tare::oracle
