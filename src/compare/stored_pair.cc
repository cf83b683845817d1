#include "compare/stored_pair.h"

#include <fmt/format.h>

namespace tare::compare {

StatusOr<RunPair> LoadRunPair(store::Store& store, const std::string& base, const std::string& head) {
  auto base_id = store.ResolveRun(base);
  if (!base_id.ok()) return base_id.status().WithContext("BASE");
  auto head_id = store.ResolveRun(head);
  if (!head_id.ok()) return head_id.status().WithContext("HEAD");
  if (*base_id == *head_id) {
    return Status::InvalidArgument(fmt::format(
        "BASE '{}' and HEAD '{}' are the same run ({}); name two runs (see `tare runs`)", base, head, *base_id));
  }
  RunPair pair;
  TARE_ASSIGN_OR_RETURN(pair.base, store.LoadRun(*base_id));
  TARE_ASSIGN_OR_RETURN(pair.head, store.LoadRun(*head_id));
  return pair;
}

}  // namespace tare::compare
