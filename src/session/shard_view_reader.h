// Loading the merged view of sharded runs (model/shard_view.h) from a store: `tare shards` and the
// line `tare merge` prints about the groups it brought. Rendering is report/shards_view.h's.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "model/shard_view.h"
#include "store/store.h"

namespace tare::session {

// `runs`: the sharded runs of one group (Store::ShardedRuns(group)).
ShardGroupState GroupState(const std::string& group, const std::vector<RunRecord>& runs);

// The host of a run as the view labels it, from its stored fingerprint (env::FingerprintFromJson);
// a fingerprint that does not read leaves the CPU unknown.
ShardHost HostOf(const RunRecord& run);

// One group: its runs by shard, their cohorts and, for `tare ab`, the latest look of every cell of
// every shard (its final one when it finished).
StatusOr<ShardGroupView> LoadShardGroup(store::Store& store, const std::string& group);

// The groups to show, in the order their first run was made: all of them; the group of the run
// `selector` names (NotFound when it was not sharded); or those whose id, or (ab) campaign sha256,
// starts with `group_prefix` (NotFound when none does). Give at most one of the two.
StatusOr<std::vector<std::string>> ChooseShardGroups(store::Store& store, const std::string& selector,
                                                     const std::string& group_prefix);

}  // namespace tare::session
