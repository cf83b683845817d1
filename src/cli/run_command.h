// `tare run`: measure a command, a Google Benchmark binary or a tare benchmark binary in fresh
// processes, store every sample as it completes, print a table.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

// `target_argv` is TARGET [ARGS...], cut from argv before CLI11 sees it (SplitAtTarget).
void AddRunCommand(CLI::App& app, int* exit_code, const std::vector<std::string>* target_argv);


}  // namespace tare::cli
