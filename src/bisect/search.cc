#include "bisect/search.h"

#include <cstdlib>
#include <optional>

namespace tare::bisect {
namespace {

size_t CeilLog2(size_t x) {
  size_t bits = 0;
  while ((size_t{1} << bits) < x) ++bits;
  return bits;
}

}  // namespace

StatusOr<SearchOutcome> FindFirstChange(
    size_t n, const std::function<StatusOr<Step>(size_t index, size_t steps_left)>& classify) {
  SearchOutcome out;
  out.first_changed = n;
  std::vector<bool> skipped(n + 1, false);
  while (true) {
    const size_t lo = out.last_same, hi = out.first_changed;
    // Unknown candidates strictly between the known ends; the one nearest the middle (the lower
    // one of two as near), so a skip moves the probe to its neighbour rather than across the range.
    size_t unknown = 0;
    std::optional<size_t> pick;
    const size_t mid2 = lo + hi;  // twice the middle, to compare distances without rounding
    for (size_t i = lo + 1; i < hi; ++i) {
      if (skipped[i]) continue;
      ++unknown;
      if (!pick || std::llabs(static_cast<long long>(2 * i) - static_cast<long long>(mid2)) <
                       std::llabs(static_cast<long long>(2 * *pick) - static_cast<long long>(mid2))) {
        pick = i;
      }
    }
    if (!pick) break;
    ++out.asked;
    TARE_ASSIGN_OR_RETURN(Step s, classify(*pick, CeilLog2(unknown + 1)));
    switch (s) {
      case Step::kSame:
        out.last_same = *pick;
        break;
      case Step::kChanged:
        out.first_changed = *pick;
        break;
      case Step::kSkip:
        skipped[*pick] = true;
        out.skipped.push_back(*pick);
        break;
      case Step::kInconclusive:
        out.inconclusive = true;
        out.inconclusive_at = *pick;
        return out;  // exact stays false: the range is said, not guessed through
    }
  }
  out.exact = out.first_changed == out.last_same + 1;
  return out;
}

}  // namespace tare::bisect
