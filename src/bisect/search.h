// The search of `tare bisect`, pure: over commits 0..n in order (0 the good end, n the bad end),
// find the first commit whose benchmark changed, asking `classify` about as few commits as a
// binary search needs — about log2(n) — and stepping around commits that cannot be measured (a
// broken build), as `git bisect skip` does: the candidate nearest the middle that was not skipped.
//
// It assumes what every bisection assumes: the change happened once, so every commit before the
// culprit is "same" and every commit from it on is "changed". When skips hide the boundary, the
// answer is the range (last same, first changed], never a guess inside it. A step that cannot be
// decided (a time campaign whose verdict is INCONCLUSIVE) ends the search there: the answer is the
// range still undecided, never a guess through it.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "base/status.h"

namespace tare::bisect {

enum class Step { kSame, kChanged, kSkip, kInconclusive };

struct SearchOutcome {
  size_t last_same = 0;         // the newest commit known to be the same as the good end
  size_t first_changed = 0;     // the oldest commit known changed: the culprit when exact
  bool exact = false;           // first_changed == last_same + 1
  std::vector<size_t> skipped;  // commits asked and skipped, in the order asked
  size_t asked = 0;             // calls of classify
  // A step answered kInconclusive: the search stopped at that commit, and (last_same,
  // first_changed] is what is left undecided (exact stays false).
  bool inconclusive = false;
  size_t inconclusive_at = 0;
};

// `classify(i, steps_left)` for 0 < i < n; `steps_left` is how many commits a binary search over
// what is still unknown needs at most, this one included (ceil(log2(candidates left + 1))). Its errors
// end the search and are returned. The caller has established that 0 is same and n changed.
StatusOr<SearchOutcome> FindFirstChange(size_t n,
                                        const std::function<StatusOr<Step>(size_t index, size_t steps_left)>& classify);

}  // namespace tare::bisect
