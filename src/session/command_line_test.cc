#include "session/command_line.h"

#include <gtest/gtest.h>

namespace tare::session {
namespace {

using Words = std::vector<std::string>;

TEST(SplitCommandString, WordsQuotesAndEscapesAsAShellSplitsThem) {
  EXPECT_EQ(*SplitCommandString("sleep 0.1", ""), (Words{"sleep", "0.1"}));
  EXPECT_EQ(*SplitCommandString("  grep  -c\t'a b' \"c \\\"d\\\"\" e\\ f  ", ""),
            (Words{"grep", "-c", "a b", "c \"d\"", "e f"}));
  EXPECT_EQ(*SplitCommandString("echo '' x", ""), (Words{"echo", "", "x"})) << "an empty quoted word is a word";
  EXPECT_EQ(*SplitCommandString("echo 'a|b' \"$HOME\" \\*", ""), (Words{"echo", "a|b", "$HOME", "*"}))
      << "quoted, shell syntax is plain text";
  EXPECT_EQ(*SplitCommandString("ls a~b {n}", ""), (Words{"ls", "a~b", "{n}"}));
}

TEST(SplitCommandString, ShellSyntaxIsRefusedWithTheFix) {
  for (const char* line :
       {"grep x f | wc -l", "a && b", "a; b", "cat < f", "echo $HOME", "ls *.txt", "ls ~/x", "echo `date`", "(cd x)"}) {
    auto r = SplitCommandString(line, "--command");
    ASSERT_FALSE(r.ok()) << line;
    EXPECT_NE(r.status().message().find("add --shell"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("--command: '"), std::string::npos) << r.status().message();
  }
  EXPECT_NE(SplitCommandString("echo 'x", "").status().message().find("unterminated single quote"), std::string::npos);
  EXPECT_FALSE(SplitCommandString("   ", "").ok());
}

TEST(LooksLikeCommandString, AFirstWordWithASpace) {
  EXPECT_TRUE(LooksLikeCommandString("sleep 0.1"));
  EXPECT_TRUE(LooksLikeCommandString("a\tb"));
  EXPECT_FALSE(LooksLikeCommandString("./bench"));
}

TEST(Parameters, ScanWholeAndDecimalSteps) {
  EXPECT_EQ(ScanParameter({"n", "1", "4"}, "")->values, (Words{"1", "2", "3", "4"}));
  EXPECT_EQ(ScanParameter(
                {
                    "n",
                    "0",
                    "10",
                },
                "5")
                ->values,
            (Words{"0", "5", "10"}));
  // 0.1 steps accumulate binary error (0.30000000000000004): printed with %g and HI included.
  EXPECT_EQ(ScanParameter({"t", "0.1", "0.3"}, "0.1")->values, (Words{"0.1", "0.2", "0.3"}));
  EXPECT_EQ(ScanParameter({"n", "3", "3"}, "")->values, (Words{"3"}));
  EXPECT_FALSE(ScanParameter({"n", "5", "1"}, "").ok());
  EXPECT_FALSE(ScanParameter({"n", "1", "x"}, "").ok());
  EXPECT_FALSE(ScanParameter({"n", "1", "5"}, "0").ok());
  EXPECT_FALSE(ScanParameter({"n", "1", "100000"}, "").ok()) << "at most 1000 values";
}

TEST(Parameters, ListAndSubstitution) {
  EXPECT_EQ(ListParameter({"cc", "gcc,clang"})->values, (Words{"gcc", "clang"}));
  EXPECT_FALSE(ListParameter({"cc", "gcc,gcc"}).ok());
  EXPECT_EQ(*Substitute("sleep 0.{n} # {n}", "n", "5"), "sleep 0.5 # 5");
  auto missing = Substitute("sleep 1", "n", "5");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("has no {n}"), std::string::npos);
}

}  // namespace
}  // namespace tare::session
