#include "oracle/golden_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace tare::oracle {

std::string DescribeVote(int count, int trials) {
  return fmt::format("{} ({}/{} trials)", 2 * count > trials ? "present" : "absent", count, trials);
}

Comparison Compare(const Golden& golden, const Tally& tally, const Quarantine* quarantine) {
  Comparison c;
  c.golden_header = golden.header;
  c.vote_header = tally.header();
  c.header_differs = c.golden_header != c.vote_header;

  std::set<std::string> universe(golden.items.begin(), golden.items.end());
  for (const auto& [item, count] : tally.counts) universe.insert(item);
  for (const std::string& item : universe) {
    const bool in_golden = golden.items.count(item) > 0;
    const int count = tally.Count(item);
    const QuarantineEntry* entry = quarantine ? quarantine->Match(item) : nullptr;
    if (entry != nullptr) {
      c.quarantined.push_back({item, entry, in_golden, count, tally.trials});
      continue;
    }
    if (in_golden != tally.Present(item)) {
      c.differences.push_back({item, in_golden, count, tally.trials});
    }
  }
  return c;
}

std::string FormatDifferences(const Comparison& c, const std::string& indent) {
  std::string out;
  if (c.header_differs) {
    out += fmt::format(
        "{}header differs from the golden (the workload or tool changed; deterministic, so no "
        "retry can absorb it):\n",
        indent);
    // Header lines are few and ordered; show the golden's then the trials' so order changes show.
    for (const std::string& line : c.golden_header) {
      if (std::find(c.vote_header.begin(), c.vote_header.end(), line) == c.vote_header.end()) {
        out += fmt::format("{}  - {}\n", indent, line);
      }
    }
    for (const std::string& line : c.vote_header) {
      if (std::find(c.golden_header.begin(), c.golden_header.end(), line) == c.golden_header.end()) {
        out += fmt::format("{}  + {}\n", indent, line);
      }
    }
    if (c.golden_header.size() == c.vote_header.size() &&
        std::is_permutation(c.golden_header.begin(), c.golden_header.end(), c.vote_header.begin())) {
      out += fmt::format("{}  (same lines in a different order)\n", indent);
    }
  }
  size_t width = 0;
  for (const ItemDifference& d : c.differences) width = std::max(width, d.item.size());
  width = std::min<size_t>(width, 60);
  for (const ItemDifference& d : c.differences) {
    out += fmt::format("{}{} {:<{}}  golden: {:<7}  vote: {}\n", indent, d.in_golden ? '-' : '+', d.item, width,
                       d.in_golden ? "present" : "absent", DescribeVote(d.count, d.trials));
  }
  return out;
}

}  // namespace tare::oracle
