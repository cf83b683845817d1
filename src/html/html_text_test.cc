#include "html/html_text.h"

#include <gtest/gtest.h>

namespace tare::html {
namespace {

TEST(HtmlText, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(HtmlText("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(HtmlText("a & b"), "a &amp; b");
  EXPECT_EQ(HtmlText("say \"hi\" it's"), "say &quot;hi&quot; it&#39;s");
  EXPECT_EQ(HtmlText("&lt;"), "&amp;lt;") << "an entity in a name is shown, not decoded";
  EXPECT_EQ(HtmlText("BM_Sort<int>/1024"), "BM_Sort&lt;int&gt;/1024");
}

TEST(HtmlText, AnAttributeValueCannotBeEnded) {
  EXPECT_EQ(HtmlAttr("x\" onmouseover=\"alert(1)"), "x&quot; onmouseover=&quot;alert(1)");
  EXPECT_EQ(HtmlAttr("x' onload='y"), "x&#39; onload=&#39;y");
  EXPECT_EQ(HtmlAttr("a<b>&"), "a&lt;b&gt;&amp;");
}

TEST(HtmlText, ControlsAreShownNotPassedThrough) {
  EXPECT_EQ(HtmlText("a\x1b]0;pwned\x07"), "a\\x1b]0;pwned\\x07");
  EXPECT_EQ(HtmlText(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(HtmlText("two\nlines\tand\rcr"), "two\\nlines\\tand\\rcr") << "a name stays on one line";
  EXPECT_EQ(HtmlText("c1 \xc2\x9b"), "c1 \\u009b");
  EXPECT_EQ(HtmlText("bad \xff\xfe utf8"), "bad \\xff\\xfe utf8") << "the page stays valid UTF-8";
  EXPECT_EQ(HtmlAttr("a\nb"), "a\\nb");
}

// Issue 27, item 16: U+202E in a benchmark name reordered the report's text.
TEST(HtmlText, BidiControlsAreShown) {
  EXPECT_EQ(HtmlText("BM_\xe2\x80\xaegnp.exe"), "BM_\\u202egnp.exe");
  EXPECT_EQ(HtmlBlock("a\xe2\x81\xa7"
                      "b\n"),
            "a\\u2067b\n");
}

TEST(HtmlText, Utf8AndPlainTextAreUnchanged) {
  EXPECT_EQ(HtmlText("δ 0.61% → 12.5 ms ✓"), "δ 0.61% → 12.5 ms ✓");
  EXPECT_EQ(HtmlText("BM_StringCopy/64"), "BM_StringCopy/64");
  EXPECT_EQ(HtmlText(""), "");
}

TEST(HtmlBlock, KeepsLinesAndEscapesTheRest) {
  EXPECT_EQ(HtmlBlock("line <1>\n\tline 2\x1b[2J"), "line &lt;1&gt;\n\tline 2\\x1b[2J");
}

}  // namespace
}  // namespace tare::html
