// Tally: the majority vote over one attempt's trials. An item is voted present when it appears in
// more than half of the trials (2 * count > trials), so with an odd trial count there are no ties.
// The tally also records whether the header lines agreed across trials: when they do not, the
// workload itself differed between processes and the vote must not be used.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "oracle/trial_output.h"

namespace tare::oracle {

// One distinct header seen in an attempt, and which trials (1-based within the attempt) printed it.
struct HeaderVariant {
  std::vector<std::string> header;
  std::vector<int> trials;
};

struct Tally {
  int trials = 0;
  std::vector<HeaderVariant> headers;  // in order of first appearance; exactly one when they agree
  std::map<std::string, int> counts;   // every item seen in any trial -> trials it appeared in

  bool header_agrees() const { return headers.size() <= 1; }
  // The agreed header (the first variant's when they disagree; empty when there were no trials).
  const std::vector<std::string>& header() const;
  int Count(const std::string& item) const;
  // More than half of the trials showed the item.
  bool Present(const std::string& item) const { return 2 * Count(item) > trials; }
  std::set<std::string> VotedItems() const;
  // Items neither unanimous present nor unanimous absent (0 < count < trials): their per-process
  // probability is somewhere in between, so the vote on them is a coin with some bias.
  std::vector<std::string> SplitItems() const;
};

Tally TallyTrials(const std::vector<TrialOutput>& trials);

}  // namespace tare::oracle
