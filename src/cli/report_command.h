// `tare report`: a stored run, or two compared, as one self-contained HTML page with plots
// (docs/report.md). Reads the store, never writes it.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddReportCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
