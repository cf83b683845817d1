#include "campaign/resume.h"

#include <algorithm>
#include <set>

namespace tare::campaign {

ResumePoint FindResumePoint(const std::vector<StoredCampaignSample>& samples, int64_t cells,
                            const std::vector<std::string>& arms) {
  ResumePoint point;
  // cell -> block -> arm -> sample ids
  std::map<int64_t, std::map<int64_t, std::map<std::string, std::vector<const StoredCampaignSample*>>>> grid;
  for (const auto& s : samples) {
    grid[s.cell][s.block][s.arm].push_back(&s);
    point.next_seq = std::max(point.next_seq, s.seq + 1);
  }
  std::set<int64_t> discard;
  for (int64_t cell = 0; cell < cells; ++cell) {
    int64_t complete = 0;
    auto& blocks = grid[cell];
    // Leading complete blocks: every arm has a sample that ran to its end (ok or failed), and no
    // arm has two of them.
    for (;; ++complete) {
      auto it = blocks.find(complete);
      if (it == blocks.end()) break;
      bool whole = true;
      for (const auto& arm : arms) {
        auto a = it->second.find(arm);
        if (a == it->second.end() || a->second.size() != 1 ||
            a->second.front()->outcome == SampleOutcome::kInterrupted) {
          whole = false;
        }
      }
      if (it->second.size() != arms.size()) whole = false;  // an arm not in this campaign
      if (!whole) break;
    }
    point.complete_blocks[cell] = complete;
    for (const auto& [block, by_arm] : blocks) {
      if (block < complete) continue;
      for (const auto& [arm, list] : by_arm) {
        for (const auto* s : list) discard.insert(s->id);
      }
    }
  }
  // Samples of cells the cohort does not have are not used either.
  for (const auto& s : samples) {
    if (s.cell < 0 || s.cell >= cells) discard.insert(s.id);
  }
  point.discard.assign(discard.begin(), discard.end());
  return point;
}

}  // namespace tare::campaign
