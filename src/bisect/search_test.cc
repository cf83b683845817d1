// FindFirstChange against a scripted history: the culprit found exactly, in about log2(n) asks,
// around skipped commits, and a range when skips hide the boundary.
#include "bisect/search.h"

#include <gtest/gtest.h>

#include <set>

namespace tare::bisect {
namespace {

// Commits 0..n; changed from `culprit` on; `broken` are skipped.
SearchOutcome Search(size_t n, size_t culprit, std::set<size_t> broken, std::vector<size_t>* asked = nullptr) {
  auto r = FindFirstChange(n, [&](size_t i, size_t) -> StatusOr<Step> {
    EXPECT_GT(i, 0u);
    EXPECT_LT(i, n);
    if (asked) asked->push_back(i);
    if (broken.count(i)) return Step::kSkip;
    return i >= culprit ? Step::kChanged : Step::kSame;
  });
  EXPECT_TRUE(r.ok());
  return *r;
}

TEST(FindFirstChange, FindsEveryCulpritExactlyInLogSteps) {
  for (size_t n : {1u, 2u, 3u, 10u, 33u, 100u}) {
    for (size_t culprit = 1; culprit <= n; ++culprit) {
      SearchOutcome o = Search(n, culprit, {});
      EXPECT_TRUE(o.exact) << n << " " << culprit;
      EXPECT_EQ(o.first_changed, culprit) << n;
      EXPECT_EQ(o.last_same, culprit - 1) << n;
      size_t bound = 0;
      while ((size_t{1} << bound) < n) ++bound;
      EXPECT_LE(o.asked, bound) << "n=" << n << " culprit=" << culprit;
    }
  }
}

TEST(FindFirstChange, StepsAroundABrokenCommit) {
  // 10 commits; 5 is broken, the culprit is 7: 5 is asked first and skipped, its neighbour next.
  std::vector<size_t> asked;
  SearchOutcome o = Search(10, 7, {5}, &asked);
  EXPECT_TRUE(o.exact);
  EXPECT_EQ(o.first_changed, 7u);
  ASSERT_FALSE(asked.empty());
  EXPECT_EQ(asked[0], 5u);
  EXPECT_EQ(asked[1], 4u);  // the lower of the two nearest the middle
  EXPECT_EQ(o.skipped, std::vector<size_t>{5});
}

TEST(FindFirstChange, ABrokenCulpritGivesTheRange) {
  // The culprit 6 does not build, nor 5: the answer is (4, 7], not a guess.
  SearchOutcome o = Search(10, 6, {5, 6});
  EXPECT_FALSE(o.exact);
  EXPECT_EQ(o.last_same, 4u);
  EXPECT_EQ(o.first_changed, 7u);
}

TEST(FindFirstChange, AnInconclusiveStepStopsWithTheUndecidedRange) {
  // 16 commits, culprit 11: 8 is same, then 12 is changed, then 10 cannot be decided. The search
  // stops there and says (8, 12] is undecided; it does not guess either way and asks nothing more.
  std::vector<size_t> asked;
  auto r = FindFirstChange(16, [&](size_t i, size_t) -> StatusOr<Step> {
    asked.push_back(i);
    if (i == 10) return Step::kInconclusive;
    return i >= 11 ? Step::kChanged : Step::kSame;
  });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(asked, (std::vector<size_t>{8, 12, 10}));
  EXPECT_TRUE(r->inconclusive);
  EXPECT_EQ(r->inconclusive_at, 10u);
  EXPECT_FALSE(r->exact);
  EXPECT_EQ(r->last_same, 8u);
  EXPECT_EQ(r->first_changed, 12u);
  EXPECT_EQ(r->asked, 3u);
}

TEST(FindFirstChange, StopsOnAnError) {
  auto r = FindFirstChange(8, [](size_t, size_t) -> StatusOr<Step> { return Status::Cancelled("stop"); });
  EXPECT_FALSE(r.ok());
}

TEST(FindFirstChange, StepsLeftCountsDown) {
  std::vector<size_t> left;
  auto r = FindFirstChange(16, [&](size_t i, size_t steps_left) -> StatusOr<Step> {
    left.push_back(steps_left);
    return i >= 3 ? Step::kChanged : Step::kSame;
  });
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(left.empty());
  EXPECT_EQ(left.front(), 4u);  // 15 unknown candidates: 4 asks
  EXPECT_EQ(left.back(), 1u);
}

}  // namespace
}  // namespace tare::bisect
