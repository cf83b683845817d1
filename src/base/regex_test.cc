#include "base/regex.h"

#include <gtest/gtest.h>

namespace tare {
namespace {

TEST(Regex, SearchAndMatchAsStdRegexDoes) {
  auto re = Regex::Compile("BM_Sort/[0-9]+", "--filter");
  ASSERT_TRUE(re.ok()) << re.status().message();
  EXPECT_TRUE(re->Search("BM_Sort/1024"));
  EXPECT_TRUE(re->Search("x BM_Sort/8 y"));
  EXPECT_FALSE(re->Search("BM_Sorted"));
  EXPECT_TRUE(re->Match("BM_Sort/1024"));
  EXPECT_FALSE(re->Match("x BM_Sort/8"));
  EXPECT_EQ(re->pattern(), "BM_Sort/[0-9]+");
}

TEST(Regex, ABadPatternNamesTheFlagAndGivesAnExample) {
  auto re = Regex::Compile("BM_(", "--filter");
  ASSERT_FALSE(re.ok());
  EXPECT_EQ(re.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(re.status().message().find("--filter 'BM_(' is not a valid regular expression ("), std::string::npos)
      << re.status().message();
  EXPECT_NE(re.status().message().find("e.g. 'BM_Sort/.*'"), std::string::npos);
}

// Issue 9 item 7: std::regex overflowed its stack on long subjects (SIGSEGV with '.*B' against a
// 120,000-character name; a quarantine class against a 100k-character report line).
TEST(Regex, LongSubjectsDoNotExhaustTheStack) {
  const std::string name(2'000'000, 'A');
  auto dot_star = Regex::Compile(".*B", "--filter");
  ASSERT_TRUE(dot_star.ok());
  EXPECT_FALSE(dot_star->Search(name));
  EXPECT_TRUE(dot_star->Search(name + "B"));
  auto cls = Regex::Compile(".* J[A-Z]*FUNCF", "quarantine class");
  ASSERT_TRUE(cls.ok());
  EXPECT_TRUE(cls->Match(std::string(100'000, 'x') + " JQFUNCF"));
  EXPECT_FALSE(cls->Match(std::string(100'000, 'x')));
}

TEST(Regex, BytesThatAreNotUtf8AreMatchedAsBytes) {
  auto re = Regex::Compile("^a.b$", "--filter");
  ASSERT_TRUE(re.ok());
  EXPECT_TRUE(
      re->Search("a\xff"
                 "b"));
}

}  // namespace
}  // namespace tare
