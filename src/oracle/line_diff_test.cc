#include "oracle/line_diff.h"

#include <gtest/gtest.h>

namespace tare::oracle {
namespace {

TEST(LineDiff, EmptyForEqualTexts) { EXPECT_EQ(LineDiff("a\nb\n", "a\nb\n"), ""); }

TEST(LineDiff, ShowsAChangedLineWithContextAndNumbers) {
  std::string old_text = "h\na 1\nb 2\nc 3\nd 4\ne 5\nf 6\n";
  std::string new_text = "h\na 1\nb 2\nc 30\nd 4\ne 5\nf 6\n";
  EXPECT_EQ(LineDiff(old_text, new_text, {.indent = ""}),
            "--- golden\n"
            "+++ run\n"
            "      2| a 1\n"
            "      3| b 2\n"
            "-     4| c 3\n"
            "+     4| c 30\n"
            "      5| d 4\n"
            "      6| e 5\n");
}

TEST(LineDiff, AlignsInsertionsAndDeletions) {
  std::string d = LineDiff("a\nb\nc\n", "a\nc\nd\n", {.context_lines = 0, .indent = ""});
  EXPECT_EQ(d, "--- golden\n+++ run\n-     2| b\n  ...\n+     3| d\n");
}

TEST(LineDiff, SaysWhenOnlyTheFinalNewlineDiffers) {
  EXPECT_NE(LineDiff("a\nb\n", "a\nb").find("final newline"), std::string::npos);
}

TEST(LineDiff, CapsLongDiffs) {
  std::string a, b;
  for (int i = 0; i < 100; ++i) {
    a += "x" + std::to_string(i) + "\n";
    b += "y" + std::to_string(i) + "\n";
  }
  std::string d = LineDiff(a, b, {.max_lines = 10});
  EXPECT_NE(d.find("... 190 more changed lines"), std::string::npos) << d;
}

}  // namespace
}  // namespace tare::oracle
