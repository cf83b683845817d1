// Flags several subcommands share: where the store is, and where the measured code came from.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/status.h"
#include "compare/compare.h"
#include "compare/thresholds.h"
#include "env/provenance.h"

namespace tare::cli {

// $TARE_STORE when set and not empty (a SQLite path or a postgresql:// URL), else ".tare/tare.db".
std::string DefaultStorePath();
// The --store help text, naming the default.
inline constexpr char kStoreHelp[] =
    "SQLite file (created in a directory that exists) or postgresql:// URL (default: $TARE_STORE, else "
    ".tare/tare.db)";

// --commit, --branch, --tag KEY=VALUE (repeatable), --no-git: what a run records about the code
// it measured (env/provenance.h). Checked with env::ValidateDeclaredProvenance before measuring.
void AddProvenanceFlags(CLI::App* sub, env::DeclaredProvenance* declared);

// Reading commands must not create a store where there is none: NotFound naming the path and
// what to do, when nothing is at `path`.
Status RequireStore(const std::string& path);

// The thresholds of `tare compare` (and report, variance, run's warnings): `config_path` when
// given (it must be a file), else the nearest tare.toml upwards unless `no_config`, else none.
StatusOr<compare::CompareConfig> LoadCompareConfig(const std::string& config_path, bool no_config);

// How two stored runs are judged: the flags `tare compare` and `tare report --compare` share
// (--metric, --threshold, --ignore, --confidence, --config, --no-config, --allow-different-hosts;
// each command words their help for itself).
struct JudgingFlags {
  std::vector<std::string> metrics;
  std::vector<std::string> thresholds;
  std::vector<std::string> ignore;
  std::optional<double> confidence;
  std::string config;
  bool no_config = false;
  bool allow_different_hosts = false;
};
// The thresholds file they name: --config, else the nearest tare.toml upwards unless --no-config;
// "" for none. An output may not replace it.
std::string ThresholdsFile(const JudgingFlags& f);
// compare::CompareRuns's options: the thresholds file read, then the flags applied over it.
StatusOr<compare::CompareOptions> JudgingOptions(const JudgingFlags& f);

}  // namespace tare::cli
