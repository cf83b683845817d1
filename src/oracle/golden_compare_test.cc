#include "oracle/golden_compare.h"

#include <gtest/gtest.h>

namespace tare::oracle {
namespace {

Tally Vote(const std::vector<std::string>& reports) {
  std::vector<TrialOutput> out;
  for (const std::string& r : reports) out.push_back(ParseTrialOutput(r));
  return TallyTrials(out);
}

TEST(Compare, MatchesWhenTheVoteEqualsTheGolden) {
  Golden g{{"# h"}, {"a", "m"}};
  Comparison c = Compare(g, Vote({"# h\na\nm\n", "# h\na\n", "# h\na\nm\n"}), nullptr);
  EXPECT_TRUE(c.match());
  EXPECT_EQ(FormatDifferences(c, "  "), "");
}

TEST(Compare, ListsBothDirectionsWithVoteCounts) {
  Golden g{{"# h"}, {"a", "m"}};
  Comparison c = Compare(g, Vote({"# h\na\nn\n", "# h\na\nm\nn\n", "# h\na\n"}), nullptr);
  EXPECT_FALSE(c.match());
  ASSERT_EQ(c.differences.size(), 2u);
  EXPECT_EQ(c.differences[0].item, "m");
  EXPECT_TRUE(c.differences[0].in_golden);
  EXPECT_EQ(c.differences[0].count, 1);
  EXPECT_EQ(c.differences[1].item, "n");
  EXPECT_FALSE(c.differences[1].in_golden);
  EXPECT_EQ(FormatDifferences(c, ""),
            "- m  golden: present  vote: absent (1/3 trials)\n"
            "+ n  golden: absent   vote: present (2/3 trials)\n");
}

TEST(Compare, QuarantinedItemsAreSetAsideOnBothSides) {
  auto q = Quarantine::Parse(
      "tare-oracle-quarantine v1\nitem: m\nreason: marginal\nclass: x.*\nreason: dropped class\n", "q");
  ASSERT_TRUE(q.ok());
  Golden g{{"# h"}, {"a", "m", "x1"}};
  Comparison c = Compare(g, Vote({"# h\na\nx2\n", "# h\na\nx2\n", "# h\na\n"}), &*q);
  EXPECT_TRUE(c.match()) << FormatDifferences(c, "");
  ASSERT_EQ(c.quarantined.size(), 3u);
  EXPECT_EQ(c.quarantined[0].item, "m");
  EXPECT_EQ(c.quarantined[0].entry->reason, "marginal");
  EXPECT_EQ(c.quarantined[2].item, "x2");
  EXPECT_EQ(c.quarantined[2].count, 2);
}

TEST(Compare, AHeaderChangeIsAMismatchAndShowsTheLines) {
  Golden g{{"# artifact=v1", "# reps=8"}, {"a"}};
  Comparison c = Compare(g, Vote({"# artifact=v2\n# reps=8\na\n"}), nullptr);
  EXPECT_TRUE(c.header_differs);
  EXPECT_FALSE(c.match());
  std::string text = FormatDifferences(c, "");
  EXPECT_NE(text.find("  - # artifact=v1\n  + # artifact=v2\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("reps"), std::string::npos) << text;
}

}  // namespace
}  // namespace tare::oracle
