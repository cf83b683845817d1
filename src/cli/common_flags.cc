#include "cli/common_flags.h"

#include <cstdlib>

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

}  // namespace tare::cli
