// The runs `tare variance` reads from a store (docs/compare.md, "Variance").
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::compare {

struct VarianceRuns {
  std::vector<RunData> runs;          // oldest first
  std::vector<std::string> warnings;  // "RUNS lack shard K of N in this store: ..." per sharded run read short
};

// `selectors` given: those runs (store::Store::ResolveRun), each a sharded run read whole
// (run_set.h), all of `tare run` and of one host type (InvalidArgument / FailedPrecondition
// otherwise). None given: the newest run of `tare run` and the runs before it that measured the
// same thing (MeasuredIdentity: the same executables, invoked alike) on its host type, at most
// `last` in all (NotFound in an empty store).
StatusOr<VarianceRuns> LoadVarianceRuns(store::Store& store, const std::vector<std::string>& selectors, int last);

}  // namespace tare::compare
