// Shards: `tare run --shard K/N` and `tare ab --shard K/N` measure a deterministic part of the
// benchmarks (cells), so that N CI jobs together measure the whole list once.
//
//   TARE_ASSIGN_OR_RETURN(ShardSpec spec, ParseShard("2/4"));          // flags, before anything runs
//   spec.weights = ...;                         // ShardWeightsFromRun(store, "uid:..."), or none
//   ShardRecord rec = AssignShards(names, spec, group);               // the whole list, every job
//   keep only the names with ShardOf(rec, name) == spec.index
//
// The assignment is a pure function of the whole (filtered) name list, N and the weights: greedy
// longest-processing-time — heaviest first (ties by name), each to the least-loaded shard (ties to
// the lowest index). Every job of one sharded run must compute the same one, yet each job may see a
// different store (a fresh SQLite file per job; a shared PostgreSQL that shard 1 has written to
// before shard 3 starts). So weights never come from "whatever the store holds now": they are
// equal unless the user names one stored run (--shard-weights SELECTOR; give every job the same
// one), and each shard records the whole assignment and its digest, so jobs that disagreed anyway
// are found (`tare shards`). docs/scale-out.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::session {

struct ShardSpec {
  int64_t index = 0;  // K, 1-based
  int64_t count = 0;  // N
  // Benchmark (cell) name -> weight (ns measured in the weights run); empty: equal weights.
  std::map<std::string, int64_t> weights;
  std::string weights_source = "equal";  // "equal" or "uid:<the weights run's uid>"
};

// "K/N" with 1 <= K <= N; InvalidArgument naming --shard and the fix otherwise ("0/4", "5/4",
// "2/0", "x", "2/4/1").
StatusOr<ShardSpec> ParseShard(const std::string& text);

// The weight of each benchmark name in a stored run: the total time of its samples (started to
// ended, warm-ups and every arm included: what measuring it cost). NotFound/InvalidArgument from
// the selector as Store::ResolveRun says them.
StatusOr<ShardSpec> WithWeightsFromRun(ShardSpec spec, store::Store& store, const std::string& selector);

// The whole assignment of `names` (duplicates ignored) to spec.count shards, with spec.index as
// this job's shard and `group` as given (see ShardGroup). Names without a weight while others have
// one get the mean of the known weights.
ShardRecord AssignShards(std::vector<std::string> names, const ShardSpec& spec, const std::string& group);

// sha256 of the canonical JSON of the assignment: {"schema":"tare.shard/1","count":N,
// "assignment":[[name,shard],...]} (sorted by name).
std::string AssignmentSha256(int64_t count, const std::vector<std::pair<std::string, int64_t>>& assignment);

// What the N jobs of one sharded run share: sha256 of {kind, N, commit, what} — `what` names what
// is measured (the campaign identity for ab; the targets and filter for run). Neither K nor the
// weights are in it, so jobs that disagree land in one group and are reported.
std::string ShardGroup(RunKind kind, int64_t count, const std::string& commit, const std::string& what);

// The shard of `name` in the record (0 when it is not in the list).
int64_t ShardOf(const ShardRecord& shard, const std::string& name);

// "shard 2/4 has no benchmarks: ..." when this job's part of `names` is empty (N larger than the
// list): FailedPrecondition with the fix.
Status CheckShardNotEmpty(const ShardRecord& shard, const std::string& what);

}  // namespace tare::session
