#include "report/escape.h"

#include <gtest/gtest.h>

namespace tare::report {
namespace {

TEST(MarkdownText, NoRawHtmlNoTableSplitNoNewLine) {
  EXPECT_EQ(MarkdownText("a|b"), "a&#124;b");
  EXPECT_EQ(MarkdownText("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(MarkdownText("<!-- hide"), "&lt;!-- hide");
  EXPECT_EQ(MarkdownText("x & y"), "x &amp; y");
  EXPECT_EQ(MarkdownText("a\n# H"), "a\\\\n\\# H");  // renders as a\n# H, on one line
  EXPECT_EQ(MarkdownText("t\x1b]0;pwned\x07"), "t\\\\x1b\\]0;pwned\\\\x07");
}

TEST(MarkdownText, MarkdownPunctuationCannotFormat) {
  EXPECT_EQ(MarkdownText("`code` *em* [l](u) ~s~ $m$ \\"), "\\`code\\` \\*em\\* \\[l\\](u) \\~s\\~ \\$m\\$ \\\\");
  EXPECT_EQ(MarkdownText("_em_ ab_knob BM_Sort"), "\\_em\\_ ab_knob BM_Sort");
  EXPECT_EQ(MarkdownText("- item"), "\\- item");
  EXPECT_EQ(MarkdownText("12. item"), "12\\. item");
  EXPECT_EQ(MarkdownText("ab_knob: +3% extra work"), "ab_knob: +3% extra work");
}

TEST(MarkdownCode, PlainTextIsACodeSpanAnythingElseEscapedCode) {
  EXPECT_EQ(MarkdownCode("--work 8"), "`--work 8`");
  EXPECT_EQ(MarkdownCode("BM_Sort/1024"), "`BM_Sort/1024`");
  EXPECT_EQ(MarkdownCode("BM_Sort<int>/8"), "<code>BM_Sort&lt;int&gt;/8</code>");
  EXPECT_EQ(MarkdownCode("a`<img src=x onerror=alert(1)>`"), "<code>a\\`&lt;img src=x onerror=alert(1)&gt;\\`</code>");
  EXPECT_EQ(MarkdownCode("a|b"), "<code>a&#124;b</code>");
  EXPECT_EQ(MarkdownCode("a\nb"), "<code>a\\\\nb</code>");
  EXPECT_EQ(MarkdownCode(""), "<code></code>");
  EXPECT_EQ(MarkdownCode("\xc2\x9b"), "<code>\\\\u009b</code>");
}

// Issue 27, item 16: "@user" in a name notified that user whenever the ledger was posted; U+202E
// reordered what followed it on the page (display spoofing).
TEST(MarkdownText, MentionsAreNeutralisedAndBidiControlsShown) {
  EXPECT_EQ(MarkdownText("@octocat"), "<code>@</code>octocat");
  EXPECT_EQ(MarkdownText("ping @octocat/team"), "ping <code>@</code>octocat/team");
  EXPECT_EQ(MarkdownText("(@a)"), "(<code>@</code>a)");
  // Not a mention, but an address GitHub links (issue 48, item 8).
  EXPECT_EQ(MarkdownText("ci@example.org"), "ci<code>@</code>example.org");
  EXPECT_EQ(MarkdownCode("@octocat"), "`@octocat`") << "code spans are never searched for mentions";
  EXPECT_EQ(MarkdownCode("@oct|cat"), "<code>@oct&#124;cat</code>");
  EXPECT_EQ(MarkdownText("BM\xe2\x80\xaetxt.exe"), "BM\\\\u202etxt.exe");
  EXPECT_EQ(MarkdownCode("a\xe2\x81\xa6"
                         "b"),
            "<code>a\\\\u2066b</code>");
  EXPECT_EQ(CsvField("x\xe2\x80\x8f"), "\"x\\u200f\"");
  // Issue 48, item 8: zero-width characters in a name are shown in the ledger, not hidden.
  EXPECT_EQ(MarkdownText("BM\xe2\x80\x8bSort"), "BM\\\\u200bSort");
  EXPECT_EQ(MarkdownCode("BM\xe2\x80\x8b"
                         "Sort"),
            "<code>BM\\\\u200bSort</code>");
}

// Issue 48, item 8: a bare URL in a name or an error became a link in the posted ledger (GitHub's
// extended autolinks: a scheme's "://", "www.", an address). In prose each is split by <code> and
// reads the same; in code it stays as it is (code is never linked).
TEST(MarkdownText, BareUrlsAreNoLinks) {
  EXPECT_EQ(MarkdownText("see https://evil.example/x?a=1"), "see https<code>://</code>evil.example/x?a=1");
  EXPECT_EQ(MarkdownText("http://a and ftp://b"), "http<code>://</code>a and ftp<code>://</code>b");
  EXPECT_EQ(MarkdownText("(HTTPS://A.example)"), "(HTTPS<code>://</code>A.example)");
  EXPECT_EQ(MarkdownText("www.evil.example"), "www<code>.</code>evil.example");
  EXPECT_EQ(MarkdownText("go to WWW.evil.example now"), "go to WWW<code>.</code>evil.example now");
  EXPECT_EQ(MarkdownText("BM_www.x"), "BM_www<code>.</code>x") << "GitHub links www. after an underscore";
  EXPECT_EQ(MarkdownText("BMwww.x"), "BMwww.x") << "www. inside a word is no link";
  EXPECT_EQ(MarkdownText("a: b ://c"), "a: b ://c") << "no scheme, no link";
  EXPECT_EQ(MarkdownText("BM_Parse/https://x"), "BM_Parse/https<code>://</code>x");
  EXPECT_EQ(MarkdownCode("https://evil.example"), "`https://evil.example`") << "code spans are never linked";
  EXPECT_EQ(MarkdownCode("https://e|x"), "<code>https://e&#124;x</code>");
}

// Issue 27, item 16: ESC and C1 were printed raw; a leading tab or CR slipped past the formula guard.
TEST(CsvField, QuotedFormulaGuardedAndNoTerminalControls) {
  EXPECT_EQ(CsvField("BM_Sort/8"), "\"BM_Sort/8\"");
  EXPECT_EQ(CsvField("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(CsvField("=1+1"), "\"'=1+1\"");
  EXPECT_EQ(CsvField("-2"), "\"'-2\"");
  EXPECT_EQ(CsvField("\t=1"), "\"'\t=1\"");
  EXPECT_EQ(CsvField("\r=1"), "\"\\r=1\"");
  EXPECT_EQ(CsvField("x\x1b]0;pwn\a"), "\"x\\x1b]0;pwn\\x07\"");
  EXPECT_EQ(CsvField("\xc2\x9b"
                     "2J"),
            "\"\\u009b2J\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"") << "a newline is legal in a quoted field";
}

}  // namespace
}  // namespace tare::report
