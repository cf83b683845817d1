// `tare variance [RUN...]`: how much each benchmark varies within a run and across reruns of the
// same executable; which are too noisy to gate (docs/compare.md, "Variance").
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddVarianceCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
