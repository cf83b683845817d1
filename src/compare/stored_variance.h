// The runs `tare variance` reads from a store (docs/compare.md, "Variance").
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::compare {

// Runs that measured one thing (compare.h MeasuredIdentity: the same executables, invoked alike):
// reruns, whose medians' variation is the host's, never a change of the code.
struct VarianceGroup {
  std::vector<RunData> runs;  // as given (oldest first when none were named)
  std::string measured;       // "sha256 3f2a9c1b0d4e, invoked as {...}": what they measured
};

struct VarianceRuns {
  std::vector<VarianceGroup> groups;  // one per thing measured, in the order first given
  std::vector<std::string> warnings;  // "RUNS lack shard K of N in this store: ..." per sharded run read short
};

// `selectors` given: those runs (store::Store::ResolveRun), each a sharded run read whole
// (run_set.h), all of `tare run` and of one host type (InvalidArgument / FailedPrecondition
// otherwise), grouped by what they measured (issue 45, item 4: 3 runs of base and 3 of head given
// together were pooled, and a real speed-up read as noise): each group's variation across runs is
// its own. None given: the newest run of `tare run` and the runs before it that measured the same
// thing on its host type, at most `last` in all — one group (NotFound in an empty store).
StatusOr<VarianceRuns> LoadVarianceRuns(store::Store& store, const std::vector<std::string>& selectors, int last);

// "sha256 3f2a9c1b0d4e" (and more executables, and the invocation when it says anything).
std::string DescribeMeasured(const RunData& run);

}  // namespace tare::compare
