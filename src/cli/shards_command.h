// `tare shards [SELECTOR] [--group HEX]`: the merged view of sharded runs (`--shard K/N`), loaded
// by session/shard_view_reader.h and printed by report/shards_view.h (console or --json tare.shards/1).
// docs/scale-out.md.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddShardsCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
