// `tare merge OUT IN...`: whole runs from several stores into one (docs/scale-out.md). Runs are
// identified by their global uid, so merging twice adds nothing; each run keeps its host
// fingerprint, so nothing is pooled across hosts by merging.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddMergeCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
