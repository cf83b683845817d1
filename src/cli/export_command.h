// `tare export` (everything stored for a run, as JSON) and `tare runs` (what the store holds).
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddExportCommand(CLI::App& app, int* exit_code);
void AddRunsCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
