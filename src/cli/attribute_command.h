// `tare attribute`: where a change in instructions (or another callgrind event) went, per
// function, between two callgrind profiles: two files, the base and head arms of one cell of a
// `tare ab --instrument sim` cohort, or one benchmark in two `tare run --instrument sim` runs.
// The work is in src/attribute; this file parses flags, loads the inputs and prints.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddAttributeCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
