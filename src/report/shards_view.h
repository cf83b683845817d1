// The merged view of sharded runs (model/shard_view.h, loaded by session/shard_view_reader.h) as
// `tare shards` prints it: per group, every shard's run, host, status and part, the missing
// shards, the shards whose assignments disagree (an error with the fix) and, for `tare ab`, every
// shard's per-cell verdicts in one table, each row labelled with its shard and host. Console text
// (terminal-escaped) or tare.shards/1 JSON. docs/scale-out.md.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "model/shard_view.h"

namespace tare::report {

// One group as console text (several groups: separated by an empty line).
std::string RenderShardGroup(const ShardGroupView& view);

// One group of tare.shards/1's "groups".
nlohmann::json ShardGroupToJson(const ShardGroupView& view);

// The line `tare merge` prints about the groups OUT now holds (`states`, in order), e.g.
// "shards: group 1a2b3c4d5e6f (tare ab): 3/4 shards, missing 3/4; see `tare shards --store OUT`".
// "" when `states` is empty.
std::string ShardSummaryLine(const std::vector<ShardGroupState>& states, const std::string& store_path);

}  // namespace tare::report
