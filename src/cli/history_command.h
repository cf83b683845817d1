// `tare history BENCH`: one benchmark's metric over stored runs of one host type, with change
// points and the commits they fall between (docs/compare.md, "History"). The work is in
// compare/stored_history.h.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddHistoryCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
