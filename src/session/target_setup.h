// Turning what the user named into a runnable target, for `tare run` and `tare ab` alike: resolve
// the program, decide its kind without running it, build the child's environment, and describe
// the executable for the store (sha256, build id, compiler).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "target/measure.h"

namespace tare::session {

struct TargetArgs {
  std::vector<std::string> argv;                      // as typed: program then its arguments
  std::string kind = "auto";                          // auto | command | gbench | tare
  bool shell = false;                                 // run argv joined through the shell: SHELL... -c LINE
  std::vector<std::string> shell_argv = {"/bin/sh"};  // the shell and its own arguments (--shell=SHELL)
  std::string cwd;
  std::vector<std::string> env;  // --env KEY=VALUE overrides
};

// The program resolved (a relative path as WhereTypedElseUnderCwd finds it; a bare name on PATH),
// its kind detected (scanned, never run), and its environment: tare's with the overrides applied.
StatusOr<target::TargetSpec> ResolveTarget(const TargetArgs& args);

// Where a relative executable path is found, one rule for `tare run` and `tare ab` (issue 44,
// item 5): where it was typed — `typed_dir` ("" for tare's working directory; a campaign file's own
// directory for the paths in it) — else, when nothing is there but something is under `cwd` (--cwd,
// where the target runs), that one. An absolute path, or one found nowhere, is `typed_dir`'s.
std::string WhereTypedElseUnderCwd(const std::string& program, const std::string& typed_dir, const std::string& cwd);

// The executable's record for the store (sha256 and ELF facts as JSON).
StatusOr<ExecutableRecord> DescribeForStore(const std::string& role, const std::string& path);

}  // namespace tare::session
