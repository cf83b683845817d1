#include "base/terminal_text.h"

#include <gtest/gtest.h>

namespace tare {
namespace {

TEST(TerminalText, ARetitlingSequenceIsShownNotObeyed) {
  EXPECT_EQ(TerminalText("BM_\x1b]0;pwned\x07x"), "BM_\\x1b]0;pwned\\x07x");
  EXPECT_EQ(TerminalText("a\x1b[2Jb"), "a\\x1b[2Jb");
  EXPECT_EQ(TerminalText("over\rwrite"), "over\\rwrite");
  EXPECT_EQ(TerminalText(std::string("nul\0byte", 8)), "nul\\x00byte");
  EXPECT_EQ(TerminalText("del\x7f"), "del\\x7f");
}

TEST(TerminalText, KeepsLinesTabsAndUtf8) {
  EXPECT_EQ(TerminalText("line 1\n\tline 2\n"), "line 1\n\tline 2\n");
  EXPECT_EQ(TerminalText("δ 0.61% → 12.5 ms ✓ 😀"), "δ 0.61% → 12.5 ms ✓ 😀");
  EXPECT_EQ(TerminalText("C:\\path"), "C:\\path");
}

TEST(TerminalText, C1ControlsAndBytesThatAreNotUtf8AreEscaped) {
  EXPECT_EQ(TerminalText("a\xc2\x9b"
                         "31mred"),
            "a\\u009b31mred");                      // U+009B, CSI
  EXPECT_EQ(TerminalText("\xc2\xa0"), "\xc2\xa0");  // U+00A0 is printable
  EXPECT_EQ(TerminalText("raw \x9b"
                         "31m"),
            "raw \\x9b31m");  // a lone C1 byte
  EXPECT_EQ(TerminalText("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(TerminalText("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(TerminalText("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(TerminalText("cut \xe2\x86"), "cut \\xe2\\x86");   // truncated at the end
}

// Issue 27, item 16: bidirectional controls reorder what follows ("Trojan Source"): a name
// "BM_\u202Egnp.exe" displays as "BM_exe.png". Every one of them is shown as its escape; other
// non-ASCII text (U+2028 is not one, nor the arrows at U+2190) is left alone.
TEST(TerminalText, BidiControlsAreShownNotObeyed) {
  EXPECT_EQ(TerminalText("BM_\xe2\x80\xaegnp.exe"), "BM_\\u202egnp.exe");
  EXPECT_EQ(SingleLineText("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad"), "\\u202a\\u202b\\u202c\\u202d");
  EXPECT_EQ(SingleLineText("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9"), "\\u2066\\u2067\\u2068\\u2069");
  EXPECT_EQ(SingleLineText("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c"), "\\u200e\\u200f\\u061c");
  EXPECT_EQ(SingleLineText("\xe2\x80\x94 \xe2\x86\x92 \xe2\x81\xa5 \xe2\x80\xaf"),
            "\xe2\x80\x94 \xe2\x86\x92 \xe2\x81\xa5 \xe2\x80\xaf");
}

// Issue 48, item 8: zero-width characters made two names that look alike differ (BM_Sort and
// BM_\u200bSort), or hid text; they are shown, as the bidirectional controls are.
TEST(TerminalText, ZeroWidthCharactersAreShown) {
  EXPECT_EQ(SingleLineText("BM_\xe2\x80\x8bSort"), "BM_\\u200bSort");
  EXPECT_EQ(SingleLineText("\xe2\x80\x8c\xe2\x80\x8d\xe2\x81\xa0\xe2\x81\xa4"), "\\u200c\\u200d\\u2060\\u2064");
  EXPECT_EQ(TerminalText("\xef\xbb\xbf"
                         "BM_Sort"),
            "\\ufeffBM_Sort");
  EXPECT_EQ(SingleLineText("caf\xc3\xa9 \xe2\x80\x8a"), "caf\xc3\xa9 \xe2\x80\x8a") << "other characters stay";
}

TEST(SingleLineText, EscapesNewlinesAndTabsToo) { EXPECT_EQ(SingleLineText("a\nb\tc\x1b"), "a\\nb\\tc\\x1b"); }

TEST(LastLines, KeepsTheEndWithoutTrailingBlankLines) {
  EXPECT_EQ(LastLines("a\nb\nc\nd\n\n \n", 2), (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(LastLines("", 5), std::vector<std::string>{});
  EXPECT_EQ(LastLines("only", 5), std::vector<std::string>{"only"});
  // Of the last max_bytes bytes only: a line cut at its start is kept as its end.
  EXPECT_EQ(LastLines("0123456789\nxy", 5, 5), (std::vector<std::string>{"89", "xy"}));
}

}  // namespace
}  // namespace tare
