// tare's own command line: recorded with every run, and split at the target for `tare run`.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tare::cli {

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

}  // namespace tare::cli
