#include "oracle/golden.h"

#include <gtest/gtest.h>

#include "base/files.h"

namespace tare::oracle {
namespace {

TEST(Golden, FormatThenParseRoundTrips) {
  Golden g{{"# artifact=RefLoop.lua", "# reps=8"}, {"b 2", "a 1"}};
  std::string text = FormatGolden(g);
  EXPECT_EQ(text.substr(0, text.find('\n')), "tare-oracle-golden v1");
  // Items are written sorted, after the header.
  EXPECT_NE(text.find("# reps=8\na 1\nb 2\n"), std::string::npos) << text;
  auto back = ParseGolden(text, "g.txt");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->header, g.header);
  EXPECT_EQ(back->items, g.items);
}

TEST(Golden, RejectsFilesWithoutTheVersionLine) {
  auto r = ParseGolden("# artifact\na 1\n", "g.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a tare oracle golden"), std::string::npos);
  EXPECT_NE(r.status().message().find("--accept"), std::string::npos);
}

TEST(Golden, RejectsANewerVersionSayingSo) {
  auto r = ParseGolden("tare-oracle-golden v2\na\n", "g.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("does not read"), std::string::npos) << r.status().message();
}

TEST(Golden, TellsTheTwoKindsApart) {
  auto r = ParseGolden(FormatCountersGolden("instructions 5\n"), "c.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("tare oracle counters"), std::string::npos);
  auto c = ParseCountersGolden(FormatGolden({}), "g.txt");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("tare oracle check"), std::string::npos);
}

TEST(CountersGolden, KeepsTheReportByteForByte) {
  const std::string report = "instructions  5\r\n\n  trailing spaces   \nno final newline";
  auto back = ParseCountersGolden(FormatCountersGolden(report), "c.txt");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, report);
}

TEST(Golden, ReadReportsAMissingFileWithTheFix) {
  auto r = ReadGolden("/nonexistent/golden.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("--accept"), std::string::npos);
}

TEST(Golden, WriteThenReadFromDisk) {
  auto dir = MakeTempDir("oracle-golden");
  ASSERT_TRUE(dir.ok());
  const std::string path = *dir + "/g.txt";
  ASSERT_TRUE(WriteGolden(path, Golden{{"# h"}, {"x"}}).ok());
  auto g = ReadGolden(path);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->items, std::set<std::string>{"x"});
  RemoveTree(*dir);
}

}  // namespace
}  // namespace tare::oracle
