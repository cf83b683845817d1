// Comparison of one attempt's vote with the golden, with quarantined items set aside, and the
// readable diff a reviewer sees:
//
//   header differs from the golden (the workload changed; no retry can absorb this):
//     - # artifact=RefLoop.lua sha256=3f1c...
//     + # artifact=RefLoop.lua sha256=9a07...
//   - Bench.RefLoop.lua:32 JFUNCF    golden: present   vote: absent (4/9 trials)
//   + Bench.RefLoop.lua:33 JFUNCF    golden: absent    vote: present (9/9 trials)
#pragma once

#include <string>
#include <vector>

#include "oracle/golden.h"
#include "oracle/quarantine.h"
#include "oracle/vote.h"

namespace tare::oracle {

// An item on which the vote and the golden disagree.
struct ItemDifference {
  std::string item;
  bool in_golden = false;  // golden says present (so the vote said absent), or the reverse
  int count = 0;           // trials that showed the item
  int trials = 0;
};

// A quarantined item that appeared in the golden or in at least one trial.
struct QuarantinedItem {
  std::string item;
  const QuarantineEntry* entry = nullptr;  // points into the Quarantine passed to Compare
  bool in_golden = false;
  int count = 0;
  int trials = 0;
};

struct Comparison {
  bool header_differs = false;
  std::vector<std::string> golden_header;
  std::vector<std::string> vote_header;
  std::vector<ItemDifference> differences;   // sorted by item
  std::vector<QuarantinedItem> quarantined;  // sorted by item

  bool match() const { return !header_differs && differences.empty(); }
};

// `quarantine` may be null. The tally's header must agree (Tally::header_agrees()).
Comparison Compare(const Golden& golden, const Tally& tally, const Quarantine* quarantine);

// The diff lines, each indented by `indent`; "" when they match.
std::string FormatDifferences(const Comparison& comparison, const std::string& indent);

// "present (9/9 trials)" / "absent (4/9 trials)".
std::string DescribeVote(int count, int trials);

}  // namespace tare::oracle
