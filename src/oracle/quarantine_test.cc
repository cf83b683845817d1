#include "oracle/quarantine.h"

#include <gtest/gtest.h>

namespace tare::oracle {
namespace {

TEST(Quarantine, ParsesItemsAndClassesWithReasons) {
  auto q = Quarantine::Parse(
      "tare-oracle-quarantine v1\n"
      "# reviewed 2024-05 by the bench owners\n"
      "item:   Bench.RefLoop.lua:32    JFUNCF\n"
      "reason: p ~ 0.6-0.85 since #251 shifted lines\n"
      "\n"
      "class: .* J[A-Z]*FUNCF\n"
      "reason: function entries race their own loop's counter\n",
      "q.txt");
  ASSERT_TRUE(q.ok()) << q.status().message();
  ASSERT_EQ(q->entries().size(), 2u);
  EXPECT_EQ(q->entries()[0].pattern, "Bench.RefLoop.lua:32 JFUNCF");  // normalized
  EXPECT_EQ(q->entries()[0].reason, "p ~ 0.6-0.85 since #251 shifted lines");
  EXPECT_EQ(q->entries()[0].line, 3);
  EXPECT_EQ(q->Match("Bench.RefLoop.lua:32 JFUNCF"), &q->entries()[0]);
  EXPECT_EQ(q->Match("Bench.Other.lua:5 JFUNCF"), &q->entries()[1]);
  // A class matches whole items only.
  EXPECT_EQ(q->Match("Bench.Other.lua:5 JFUNCF extra"), nullptr);
  EXPECT_EQ(q->Match("Bench.Other.lua:5 JLOOP"), nullptr);
}

TEST(Quarantine, RejectsAnEntryWithoutAReason) {
  auto at_end = Quarantine::Parse("tare-oracle-quarantine v1\nitem: a 1\n", "q.txt");
  ASSERT_FALSE(at_end.ok());
  EXPECT_NE(at_end.status().message().find("q.txt:2: item 'a 1' has no reason"), std::string::npos)
      << at_end.status().message();

  auto followed = Quarantine::Parse("tare-oracle-quarantine v1\nitem: a\nitem: b\nreason: x\n", "q.txt");
  ASSERT_FALSE(followed.ok());
  EXPECT_NE(followed.status().message().find("item 'a' has no reason"), std::string::npos);

  auto blank = Quarantine::Parse("tare-oracle-quarantine v1\nclass: a.*\nreason:   \n", "q.txt");
  ASSERT_FALSE(blank.ok());
  EXPECT_NE(blank.status().message().find("class /a.*/ has no reason"), std::string::npos);
}

TEST(Quarantine, RejectsMalformedFiles) {
  EXPECT_FALSE(Quarantine::Parse("item: a\nreason: b\n", "q.txt").ok());  // no version line
  EXPECT_FALSE(Quarantine::Parse("", "q.txt").ok());
  EXPECT_FALSE(Quarantine::Parse("tare-oracle-quarantine v1\nreason: orphan\n", "q.txt").ok());
  EXPECT_FALSE(Quarantine::Parse("tare-oracle-quarantine v1\nskip: a\n", "q.txt").ok());
  auto dup = Quarantine::Parse("tare-oracle-quarantine v1\nitem: a\nreason: x\nitem: a\nreason: y\n", "q.txt");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("twice"), std::string::npos);
  auto regex = Quarantine::Parse("tare-oracle-quarantine v1\nclass: (\nreason: x\n", "q.txt");
  ASSERT_FALSE(regex.ok());
  EXPECT_NE(regex.status().message().find("not a valid regular expression"), std::string::npos);
}

TEST(Quarantine, SuggestedEntriesParseBack) {
  std::string text = std::string(kQuarantineVersionLine) + "\n" +
                     FormatQuarantineEntry("m.lua:32 JFUNCF", "p = 0.62 over 100 processes");
  auto q = Quarantine::Parse(text, "q.txt");
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_NE(q->Match("m.lua:32 JFUNCF"), nullptr);
}

}  // namespace
}  // namespace tare::oracle
