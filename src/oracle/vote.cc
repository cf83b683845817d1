#include "oracle/vote.h"

namespace tare::oracle {

const std::vector<std::string>& Tally::header() const {
  static const std::vector<std::string> kNone;
  return headers.empty() ? kNone : headers.front().header;
}

int Tally::Count(const std::string& item) const {
  auto it = counts.find(item);
  return it == counts.end() ? 0 : it->second;
}

std::set<std::string> Tally::VotedItems() const {
  std::set<std::string> out;
  for (const auto& [item, count] : counts) {
    if (2 * count > trials) out.insert(item);
  }
  return out;
}

std::vector<std::string> Tally::SplitItems() const {
  std::vector<std::string> out;
  for (const auto& [item, count] : counts) {
    if (count > 0 && count < trials) out.push_back(item);
  }
  return out;
}

Tally TallyTrials(const std::vector<TrialOutput>& trials) {
  Tally tally;
  tally.trials = static_cast<int>(trials.size());
  for (size_t i = 0; i < trials.size(); ++i) {
    const TrialOutput& t = trials[i];
    const int trial_number = static_cast<int>(i) + 1;
    bool found = false;
    for (HeaderVariant& v : tally.headers) {
      if (v.header == t.header) {
        v.trials.push_back(trial_number);
        found = true;
        break;
      }
    }
    if (!found) tally.headers.push_back({t.header, {trial_number}});
    for (const std::string& item : t.items) ++tally.counts[item];
  }
  return tally;
}

}  // namespace tare::oracle
