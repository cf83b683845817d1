// The two stored runs `tare compare` and `tare report --compare` judge, read from a store.
#pragma once

#include <string>

#include "base/status.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::compare {

struct RunPair {
  RunData base;
  RunData head;
};

// BASE and HEAD, each a run selector (store::Store::ResolveRun: latest, an id, commit:HEX,
// branch:NAME, tag:K=V, or a bare branch, tag value or commit prefix), resolved and loaded. An error
// says which side it is about; InvalidArgument when both name the same run.
StatusOr<RunPair> LoadRunPair(store::Store& store, const std::string& base, const std::string& head);

}  // namespace tare::compare
