// The merged view of one group of sharded runs (`tare shards`, and the line `tare merge` prints):
// plain data, loaded from a store by session/shard_view_reader.h and rendered as text and tare.shards/1
// JSON by report/shards_view.h. Cells are never averaged or pooled across shards or hosts: each
// row is one shard's host's verdict.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/cohort.h"
#include "model/run.h"
#include "model/verdict.h"

namespace tare {

// One group's completeness: which shards are there and whether their assignments agree.
struct ShardGroupState {
  std::string group;
  RunKind kind = RunKind::kRun;
  int64_t count = 0;                 // N
  std::vector<int64_t> present;      // K values with at least one run, ascending
  std::vector<int64_t> missing;      // K values without a run, ascending
  std::vector<std::string> digests;  // distinct assignment digests, in first-seen order
};

// What the view says about a host: its CPU model ("" when the fingerprint does not say) and the
// fingerprint's hard digest (the host type results are never pooled across).
struct ShardHost {
  std::string cpu;
  std::string digest;
};

// One row of the per-cell table: one metric of one head in one cell, as one shard's host judged it.
struct ShardCellRow {
  std::string cell, head, metric, unit;
  int64_t shard = 0;
  std::string run_uid;
  ShardHost host;
  std::string verdict;  // "PASS", "FAIL (not final)"...
  int64_t pairs = 0;
  double estimate = kNaN, lo = kNaN, hi = kNaN, base_median = kNaN, head_median = kNaN;
};

struct ShardGroupView {
  ShardGroupState state;
  std::vector<RunRecord> runs;                            // by shard, then run id
  std::vector<ShardHost> hosts;                           // of runs[i]
  std::map<int64_t, std::optional<CohortRecord>> cohort;  // run id -> cohort (ab)
  std::vector<ShardCellRow> cells;                        // ab: by cell, head, metric, shard
};

}  // namespace tare
