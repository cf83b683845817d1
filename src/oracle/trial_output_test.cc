#include "oracle/trial_output.h"

#include <gtest/gtest.h>

namespace tare::oracle {
namespace {

TEST(NormalizeLine, TrimsAndCollapsesWhitespace) {
  EXPECT_EQ(NormalizeLine("  Bench.RefLoop.lua:32 \t  JFUNCF \r"), "Bench.RefLoop.lua:32 JFUNCF");
  EXPECT_EQ(NormalizeLine("\t\t"), "");
  EXPECT_EQ(NormalizeLine("a"), "a");
}

TEST(ParseTrialOutput, SplitsHeaderNotesAndItems) {
  TrialOutput t = ParseTrialOutput(
      "# trace-report v2 artifact=RefLoop.lua\r\n"
      "## took 182 ms\n"
      "\n"
      "Bench.RefLoop.lua:12   JLOOP\n"
      "   # reps=8\n"
      "Bench.RefLoop.lua:32 JFUNCF");  // no final newline
  EXPECT_EQ(t.header, (std::vector<std::string>{"# trace-report v2 artifact=RefLoop.lua", "# reps=8"}));
  EXPECT_EQ(t.items, (std::set<std::string>{"Bench.RefLoop.lua:12 JLOOP", "Bench.RefLoop.lua:32 JFUNCF"}));
  EXPECT_EQ(t.duplicate_lines, 0);
  EXPECT_FALSE(t.empty());
}

TEST(ParseTrialOutput, ItemsAreASetAndOrderDoesNotMatter) {
  TrialOutput a = ParseTrialOutput("x 1\ny 2\nx  1\n");
  TrialOutput b = ParseTrialOutput("y 2\nx 1\n");
  EXPECT_EQ(a.items, b.items);
  EXPECT_EQ(a.duplicate_lines, 1);
}

TEST(ParseTrialOutput, NotesOnlyIsEmpty) {
  EXPECT_TRUE(ParseTrialOutput("## only a note\n\n").empty());
  EXPECT_TRUE(ParseTrialOutput("").empty());
  EXPECT_FALSE(ParseTrialOutput("# header only\n").empty());
}

TEST(ParseTrialOutput, HeaderOrderIsKept) {
  TrialOutput t = ParseTrialOutput("# b\n# a\n");
  EXPECT_EQ(t.header, (std::vector<std::string>{"# b", "# a"}));
}

}  // namespace
}  // namespace tare::oracle
