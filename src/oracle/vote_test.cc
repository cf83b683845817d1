#include "oracle/vote.h"

#include <gtest/gtest.h>

namespace tare::oracle {
namespace {

std::vector<TrialOutput> Trials(const std::vector<std::string>& reports) {
  std::vector<TrialOutput> out;
  for (const std::string& r : reports) out.push_back(ParseTrialOutput(r));
  return out;
}

TEST(TallyTrials, KeepsItemsPresentInMoreThanHalf) {
  // m appears in 3 of 5 (kept), n in 2 of 5 (dropped).
  Tally t = TallyTrials(Trials({"# h\na\nm\n", "# h\na\nm\nn\n", "# h\na\nm\n", "# h\na\nn\n", "# h\na\n"}));
  EXPECT_EQ(t.trials, 5);
  EXPECT_TRUE(t.header_agrees());
  EXPECT_EQ(t.header(), std::vector<std::string>{"# h"});
  EXPECT_EQ(t.Count("a"), 5);
  EXPECT_EQ(t.Count("m"), 3);
  EXPECT_EQ(t.Count("n"), 2);
  EXPECT_EQ(t.Count("zzz"), 0);
  EXPECT_EQ(t.VotedItems(), (std::set<std::string>{"a", "m"}));
  EXPECT_EQ(t.SplitItems(), (std::vector<std::string>{"m", "n"}));
}

TEST(TallyTrials, ExactlyHalfIsNotAMajority) {
  Tally t = TallyTrials(Trials({"a\n", "a\n", "b\n", "b\n"}));
  EXPECT_FALSE(t.Present("a"));
  EXPECT_TRUE(t.VotedItems().empty());
}

TEST(TallyTrials, RecordsEachHeaderVariantWithItsTrials) {
  Tally t = TallyTrials(Trials({"# reps=8\na\n", "# reps=16\na\n", "# reps=8\na\n"}));
  EXPECT_FALSE(t.header_agrees());
  ASSERT_EQ(t.headers.size(), 2u);
  EXPECT_EQ(t.headers[0].trials, (std::vector<int>{1, 3}));
  EXPECT_EQ(t.headers[1].trials, (std::vector<int>{2}));
  EXPECT_EQ(t.headers[1].header, std::vector<std::string>{"# reps=16"});
}

}  // namespace
}  // namespace tare::oracle
