// Turning what the user typed into a runnable target, shared by `tare run` and `tare ab`:
// resolve the program, decide its kind without running it, build the child's environment, and
// describe the executable for the store (sha256, build id, compiler).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "target/measure.h"

namespace tare::cli {

struct TargetArgs {
  std::vector<std::string> argv;       // as typed: program then its arguments
  std::string kind = "auto";           // auto | command | gbench | tare
  bool shell = false;                  // run argv joined through /bin/sh -c
  std::string cwd;
  std::vector<std::string> env;        // --env KEY=VALUE overrides
};

StatusOr<target::TargetSpec> ResolveTarget(const TargetArgs& args);

// tare's environment with KEY=VALUE overrides applied (validated: KEY must be non-empty).
StatusOr<std::vector<std::string>> ChildEnvironment(const std::vector<std::string>& overrides);

// The executable's record for the store (sha256 and ELF facts as JSON).
StatusOr<ExecutableRecord> DescribeForStore(const std::string& role, const std::string& path);

// tare's own argv, recorded with every run (set once by main).
void SetInvocation(int argc, char** argv);
const std::vector<std::string>& Invocation();

// Splits `tare <sub> [OPTIONS] TARGET [ARGS...]` at the target: the first token that is neither
// one of the subcommand's options nor an option's value, or whatever follows a "--". Everything
// from the target on belongs to the target, even tokens that look like tare's flags
// (`tare run ./bench --benchmark_min_time=0.1 -n 3` passes -n 3 to ./bench). `first` is the index
// of the first token after the subcommand name; `value_options` lists options that take a value.
struct SplitArgs {
  std::vector<std::string> tare;    // argv for CLI11 (program, subcommand, tare's options)
  std::vector<std::string> target;  // TARGET [ARGS...]
};
SplitArgs SplitAtTarget(const std::vector<std::string>& argv, size_t first,
                        const std::vector<std::string>& value_options);

// Current time since the epoch, in ns.
int64_t UnixNowNs();

}  // namespace tare::cli
