// The latest look of each cell (stored_look.h).
#include <map>

#include "store/stored_look.h"

namespace tare::store {

std::vector<StoredLook> LatestLookOfEachCell(const std::vector<StoredLook>& looks) {
  std::map<int64_t, const StoredLook*> latest;
  for (const auto& l : looks) {
    const StoredLook*& slot = latest[l.cell];
    if (slot == nullptr || l.look >= slot->look) slot = &l;
  }
  std::vector<StoredLook> out;
  out.reserve(latest.size());
  for (const auto& [cell, look] : latest) out.push_back(*look);
  return out;
}

}  // namespace tare::store
