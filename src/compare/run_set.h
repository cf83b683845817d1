// A run selector read as the suite it measured: a run of `tare run --shard K/N` is one part of a
// suite, and compare, variance and report judge the suite whole (issue 23, item 2: `tare merge` then
// `tare compare` used to judge one shard and leave the rest out without a word).
//
//   TARE_ASSIGN_OR_RETURN(RunData base, LoadRunSet(store, *store.ResolveRun("main")));
//   base.set_runs        // the shard runs merged, in shard order ({} for an unsharded run)
//   base.missing_shards  // the shards the store lacks: their benchmarks are named, never skipped
//
// Which runs make the set: the selected run's shard, and for every other shard of its group
// (ShardRecord::group: the same kind, N, commit and targets) that split the list the same way (the
// same assignment digest), the run nearest in start time to the selected one — the sibling job of
// the same pipeline when a commit was measured more than once. Benchmark and sample ids are the
// store's own, so merging is putting the runs' rows side by side; executables and metrics are
// their union, notes kept with the shard they came from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "compare/compare.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::compare {

// The run `run_id`, or its whole shard group merged (above). FailedPrecondition when the shards were
// measured on different host types (hard fingerprint digests): their figures are not one suite's.
// Without `with_samples`, everything but the samples (CollectStoredBenchmarks reads those).
StatusOr<RunData> LoadRunSet(store::Store& store, int64_t run_id, bool with_samples = true);

// The benchmarks of `set` (LoadRunSet's, with or without its samples) with their values, read from
// the store a page of samples at a time: memory for the values compare judges, never for the
// samples of a whole run (issue 48, item 7).
StatusOr<std::vector<BenchSamples>> CollectStoredBenchmarks(store::Store& store, const RunData& set);

// "run 7", or "runs 5, 6, 7 (3 of 4 shards)" for a set: how reports name a side.
std::string DescribeRunSet(const RunData& d);

// The shard of benchmark `name` by the set's assignment, 0 when unknown (unsharded, or a name the
// assignment does not list).
int64_t ShardOf(const RunData& d, const std::string& name);

}  // namespace tare::compare
