// `tare spread --executable SHA | --lock ID`: how far the same executable's figures moved across
// reruns, replays and hosts (min, max, spread %). The work is in src/bundle/spread.h.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddSpreadCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
