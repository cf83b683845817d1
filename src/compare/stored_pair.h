// The two stored runs `tare compare` and `tare report --compare` judge, read from a store, and the
// store's evidence of the host's drift that the judgement needs (compare.h).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "compare/compare.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::compare {

struct RunPair {
  RunData base;  // without its samples unless LoadRunPair was asked for them
  RunData head;
  std::vector<BenchSamples> base_benchmarks;  // what compare judges (run_set.h, CollectStoredBenchmarks)
  std::vector<BenchSamples> head_benchmarks;
};

// BASE and HEAD, each a run selector (store::Store::ResolveRun: latest, an id, commit:HEX,
// branch:NAME, tag:K=V, or a bare branch, tag value or commit prefix), resolved and loaded — a
// sharded run whole (run_set.h) — with each side's benchmarks collected a page of samples at a time;
// the samples themselves are kept in base and head only `with_samples` (a page that plots them).
// An error says which side it is about; InvalidArgument when both name the same run, or shards of
// the same sharded run.
StatusOr<RunPair> LoadRunPair(store::Store& store, const std::string& base, const std::string& head,
                              bool with_samples = false);

// The runs of a benchmark on its host type read for the history evidence of the drift: the newest.
inline constexpr int kDriftHistoryRuns = 30;

// The host's drift for a benchmark's metric, from the store (compare.h): for each side of `pair`, the
// stored runs of `tare run` of that benchmark on that side's host (fingerprint digest) give one
// median each (store::Store::History), and
//   reruns   those that measured exactly what that side measured (MeasuredIdentity: the same sha256
//            set, invoked with the same arguments, --env, --cwd and shell) — the run itself among
//            them —, two or more: the highest median over the lowest, minus 1;
//   history  the newest kDriftHistoryRuns invoked alike whatever their executables (earlier commits'
//            builds), the two runs compared left out, in the order stored: stats::RunToRunDrift's
//            bound, with kMinDriftPairs consecutive pairs at least.
// The widest estimate of either side and source, named by its source; nullopt when there is none.
// `store` must outlive the source.
HostDriftSource StoredHostDrift(store::Store& store, const RunPair& pair);
// CompareRuns with StoredHostDrift as the evidence of the host's drift.
StatusOr<SuiteComparison> CompareStoredRuns(store::Store& store, const RunPair& pair, CompareOptions options);

}  // namespace tare::compare
