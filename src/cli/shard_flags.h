// --shard K/N, --shard-weights SELECTOR and --shard-weights-store LOCATION, shared by `tare run`
// and `tare ab` (session/shard.h; docs/scale-out.md).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "base/status.h"
#include "session/shard.h"

namespace tare::cli {

struct ShardFlags {
  std::string shard;          // "K/N"; "" = not sharded
  std::string weights;        // a run selector; "" = equal weights
  std::string weights_store;  // where `weights` is resolved; "" = the run's --store
};

void AddShardFlags(CLI::App* sub, ShardFlags* flags);

// Parses --shard (InvalidArgument for a bad form, before anything runs) and reads the weights of
// the run --shard-weights names. nullopt when --shard is not given (then the weights flags are an
// error). Never creates a store: a weights store that does not exist is NotFound.
StatusOr<std::optional<session::ShardSpec>> ResolveShardFlags(const ShardFlags& flags, const std::string& store_path);

}  // namespace tare::cli
