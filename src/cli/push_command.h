// `tare push --to postgresql://...`: the runs of the local store copied to a shared store
// (docs/scale-out.md), in bulk (PostgreSQL's COPY) and idempotently (runs are identified by uid).
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddPushCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
