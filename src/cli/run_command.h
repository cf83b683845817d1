// `tare run`: measure a command, a Google Benchmark binary or a tare benchmark binary in fresh
// processes, store every sample as it completes, print a table.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace tare::cli {

// `target_argv` is TARGET [ARGS...], cut from argv before CLI11 sees it (SplitAtTarget).
void AddRunCommand(CLI::App& app, int* exit_code, const std::vector<std::string>* target_argv);

// Starts asking git about the working directory (env::DetectGitProvenance) on a thread of its own
// before the command line is parsed: in a checkout git is the longest part of a run's start, and
// this starts it ~2 ms sooner (bench/README.md). Not when --no-git comes before the target's "--".
// `tare run` takes the answer; a command line that turns out to be wrong waits for it at exit.
void StartGitEarly(const std::vector<std::string>& args);

}  // namespace tare::cli
