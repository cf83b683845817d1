// `tare replay FILE`: verify a bundle, then measure its run again on this host from the bundled
// executables, as a new run tagged replay-of=..., and show both hosts' results side by side.
// The work is in src/bundle/replay.h; docs/bundle.md.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddReplayCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
