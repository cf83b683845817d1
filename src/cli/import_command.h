// `tare import FILE`: loads a `tare export` document (tare.run/2 or tare.run/1) or an evidence
// bundle into a store. Idempotent: a run the store already holds (the same uid) is not added again.
// The work is in src/bundle (reading) and src/store/transfer.h (writing).
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddImportCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
