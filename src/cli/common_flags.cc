#include "cli/common_flags.h"

#include <cstdlib>
#include <filesystem>

#include <fmt/core.h>

#include "base/files.h"
#include "store/store.h"

namespace tare::cli {

std::string DefaultStorePath() {
  const char* v = std::getenv("TARE_STORE");
  if (v != nullptr && *v != '\0') return v;
  return ".tare/tare.db";
}

void AddProvenanceFlags(CLI::App* sub, env::DeclaredProvenance* d) {
  sub->add_option("--commit", d->commit,
                  "Record this commit (hex) instead of the git checkout's HEAD; select the run later with commit:HEX");
  sub->add_option("--branch", d->branch,
                  "Record this branch instead of git's (CI checks out detached heads); select with branch:NAME");
  sub->add_option("--tag", d->tags, "Record KEY=VALUE with the run (repeatable); select with tag:KEY=VALUE");
  sub->add_flag("--no-git", d->no_git, "Do not ask git for the commit, branch and dirty state");
}

Status RequireStore(const std::string& path) {
  if (!store::IsStoreUrl(path) && !std::filesystem::exists(path)) {
    return Status::NotFound(fmt::format(
        "no store at '{}'; run `tare run` first, or point to one with --store PATH (or $TARE_STORE)", path));
  }
  return Status::Ok();
}

StatusOr<compare::CompareConfig> LoadCompareConfig(const std::string& config_path, bool no_config) {
  if (!config_path.empty() && no_config) {
    return Status::InvalidArgument("--config and --no-config contradict each other; give one");
  }
  std::string path = config_path;
  if (path.empty() && !no_config) path = compare::FindConfigFile(".");
  if (path.empty()) return compare::CompareConfig{};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::NotFound(fmt::format("--config '{}' is not a file", path));
  }
  TARE_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return compare::ParseCompareConfig(text, path);
}

std::string ThresholdsFile(const JudgingFlags& f) {
  return !f.config.empty() ? f.config : f.no_config ? "" : compare::FindConfigFile(".");
}

StatusOr<compare::CompareOptions> JudgingOptions(const JudgingFlags& f) {
  compare::CompareOptions options;
  TARE_ASSIGN_OR_RETURN(options.config, LoadCompareConfig(f.config, f.no_config));
  TARE_RETURN_IF_ERROR(compare::ApplyFlags(&options.config, f.thresholds, f.ignore, f.confidence));
  options.metrics = f.metrics;
  options.allow_different_hosts = f.allow_different_hosts;
  return options;
}

}  // namespace tare::cli
