// The three outputs of `tare attribute` on a hand-made result: what the reader sees, and that a
// hostile function name (escape sequences, Markdown and HTML, bytes that are not UTF-8) reaches
// each format escaped.
#include "attribute/render.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tare::attribute {
namespace {

using instrument::ParseCallgrindProfile;

// The attribution of two callgrind profiles given as text, labelled base.out and head.out.
AttributionReport ReportOf(const std::string& base, const std::string& head) {
  auto b = ParseCallgrindProfile(base, "base.out");
  auto h = ParseCallgrindProfile(head, "head.out");
  EXPECT_TRUE(b.ok() && h.ok());
  auto r = Attribute(*b, *h);
  EXPECT_TRUE(r.ok());
  AttributionReport report;
  report.result = *r;
  report.base_label = "base.out";
  report.head_label = "head.out";
  return report;
}

AttributionReport MakeReport(const std::string& hostile) {
  return ReportOf(
      "events: Ir\nob=app\nfn=main\n1 100\ncfn=f\ncalls=10 0\n1 500\nfn=f\n2 500\nfn=" + hostile + "\n3 7\n",
      "events: Ir\nob=app\nfn=main\n1 590\nfn=" + hostile + "\n3 9\n");
}

const std::string kHostile = "evil\x1b]0;pwned\x07|<img src=x>`x`\xff";

TEST(RenderConsole, TableInliningAndEscapes) {
  std::string out = RenderConsole(MakeReport(kHostile));
  EXPECT_NE(out.find("Ir: base 607 -> head 599, change -8 (-1.3%)"), std::string::npos) << out;
  EXPECT_NE(out.find("f (gone)  <- inlined into main"), std::string::npos) << out;
  EXPECT_NE(out.find("    -500  "), std::string::npos) << out;  // f's self change, right-aligned
  EXPECT_NE(out.find("10 -> -"), std::string::npos) << out;     // f's calls
  EXPECT_NE(out.find("f was inlined into main: the caller's self cost changed by +490, against +500 expected"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << "escape sequence reached the terminal";
  EXPECT_NE(out.find("evil\\x1b]0;pwned\\x07"), std::string::npos) << out;
  // 3 rows, all shown: they sum to the total.
  EXPECT_NE(
      out.find(
          "All 3 functions that changed (of 3): self changes sum to -8 of the total -8; the rows not shown 0 (0.0% "
          "of the total change)"),
      std::string::npos)
      << out;
}

// One changed function is named as one ("All 1 functions" until 2026-12-06).
TEST(RenderConsole, OneChangedFunctionIsSingular) {
  const std::string out = RenderConsole(
      ReportOf("events: Ir\nob=app\nfn=main\n1 100\nfn=g\n2 5\n", "events: Ir\nob=app\nfn=main\n1 90\nfn=g\n2 5\n"));
  EXPECT_NE(out.find("The one function that changed (of 2): self changes sum to -10 of the total -10"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("All 1 functions"), std::string::npos) << out;
}

TEST(RenderMarkdown, EscapedTable) {
  std::string md = RenderMarkdown(MakeReport(kHostile));
  EXPECT_NE(md.find("### tare attribute: Ir: base 607 → head 599, change -8 (-1.3%)"), std::string::npos) << md;
  EXPECT_EQ(md.find("<img"), std::string::npos) << md;
  EXPECT_EQ(md.find('\x1b'), std::string::npos) << md;
  // Every table row has exactly the 10 separators of its 9 columns: the name's '|' is escaped.
  size_t rows = 0;
  for (size_t pos = md.find("\n| "); pos != std::string::npos; pos = md.find("\n| ", pos + 1)) {
    size_t end = md.find('\n', pos + 1);
    std::string line = md.substr(pos + 1, end - pos - 1);
    EXPECT_EQ(std::count(line.begin(), line.end(), '|'), 10) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 4u);  // header + 3 rows
  EXPECT_NE(md.find("| `f` (gone) — inlined into `main` |"), std::string::npos) << md;
}

TEST(RenderJson, ValidJsonWithEveryRow) {
  auto j = nlohmann::json::parse(RenderJson(MakeReport(kHostile)));
  EXPECT_EQ(j["schema"], "tare.attribute/1");
  EXPECT_EQ(j["total_delta"], -8);
  ASSERT_EQ(j["rows"].size(), 3u);
  EXPECT_EQ(j["rows"][0]["name"], "f");
  EXPECT_EQ(j["rows"][0]["presence"], "gone");
  EXPECT_EQ(j["rows"][0]["calls_part"], -500);
  EXPECT_EQ(j["rows"][0]["inlining"]["kind"], "inlined_into");
  EXPECT_EQ(j["rows"][0]["inlining"]["symbol_check"], "not_checked");
  EXPECT_EQ(j["inlining"].size(), 1u);
  // The invalid byte became U+FFFD; the rest of the name is kept.
  std::string name = j["rows"][2]["name"];
  EXPECT_EQ(name.rfind("evil\x1b]0;pwned", 0), 0u);
  EXPECT_NE(name.find("\xef\xbf\xbd"), std::string::npos);
}

TEST(RenderMarkdown, AsmFenceOutlastsBackticks) {
  AttributionReport report = MakeReport("g");
  AsmComparison a;
  a.function = "g";
  a.diff = {{'-', "call <```evil>"}, {'+', "nop"}};
  report.asm_comparison = a;
  std::string md = RenderMarkdown(report);
  EXPECT_NE(md.find("````diff\n- call <```evil>\n+ nop\n````\n"), std::string::npos) << md;
}

}  // namespace
}  // namespace tare::attribute
