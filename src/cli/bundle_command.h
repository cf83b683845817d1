// `tare bundle --run N -o FILE` (write an evidence bundle) and `tare bundle verify FILE` (check
// every member's sha256). The work is in src/bundle; docs/bundle.md.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddBundleCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
