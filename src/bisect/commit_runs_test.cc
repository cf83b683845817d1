// ChosenCommits: which commits `tare run --commits A..B --every N` runs.
#include "bisect/commit_runs.h"

#include <gtest/gtest.h>

namespace tare::bisect {
namespace {

TEST(ChosenCommits, EveryNthFromTheOldEndAndTheNewEndAlways) {
  // A path of 10 commits after A: indexes 0 (A) .. 10 (B).
  EXPECT_EQ(ChosenCommits(10, 1), (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(ChosenCommits(10, 3), (std::vector<size_t>{0, 3, 6, 9, 10}));
  EXPECT_EQ(ChosenCommits(10, 5), (std::vector<size_t>{0, 5, 10}));
  EXPECT_EQ(ChosenCommits(10, 20), (std::vector<size_t>{0, 10}));
  EXPECT_EQ(ChosenCommits(1, 1), (std::vector<size_t>{0, 1}));
}

}  // namespace
}  // namespace tare::bisect
