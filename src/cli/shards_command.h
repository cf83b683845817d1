// `tare shards [SELECTOR] [--group HEX]`: the merged view of sharded runs (`--shard K/N`). Groups
// the store's sharded runs by what their N jobs share (ShardRecord::group), and per group lists
// every shard's run, host, status and part, the shards that are missing, the shards whose
// assignments disagree (an error with the fix) and, for `tare ab`, every shard's per-cell verdicts
// in one table, each row labelled with its shard and host: cells are never averaged or pooled
// across hosts. Console (terminal-escaped) or --json (tare.shards/1). docs/scale-out.md.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::cli {

void AddShardsCommand(CLI::App& app, int* exit_code);

// One group's completeness: which shards are there and whether their assignments agree.
struct ShardGroupState {
  std::string group;
  std::string kind;                 // "run" | "ab"
  int64_t count = 0;                // N
  std::vector<int64_t> present;     // K values with at least one run, ascending
  std::vector<int64_t> missing;     // K values without a run, ascending
  std::vector<std::string> digests; // distinct assignment digests, in first-seen order
};
// `runs`: the sharded runs of one group (ShardedRuns(group)).
ShardGroupState GroupState(const std::string& group, const std::vector<RunRecord>& runs);

// One line for `tare merge`: the groups among `groups` (ids) as OUT now holds them, e.g.
// "shards: group 1a2b3c4d5e6f (ab, 4 shards): 3/4 present, missing: 3/4; see `tare shards`".
// "" when `groups` is empty.
StatusOr<std::string> ShardSummaryLine(store::Store& store, const std::vector<std::string>& groups);

}  // namespace tare::cli
