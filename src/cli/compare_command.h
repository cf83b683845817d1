// `tare compare BASE HEAD`: what changed between two stored runs, benchmark by benchmark
// (docs/compare.md).
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddCompareCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
