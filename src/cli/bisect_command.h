// `tare bisect`: the first commit between --good and --bad at which a benchmark's exact
// instruction count changed, each commit built by the repository's build recipe. The work is in
// src/bisect; this file parses flags, reads the recipe, and prints. docs/bisect.md.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddBisectCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
