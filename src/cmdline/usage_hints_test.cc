// What a hyperfine habit or a common `tare ab` mistake becomes: the argv rewritten to what was
// meant, or the error that names the command line to type. The same paths run end to end in
// tests/e2e/run/commands_e2e_test.cc and tests/e2e/ab/ab_e2e_test.cc.
#include "cmdline/usage_hints.h"

#include <gtest/gtest.h>

namespace tare::cmdline {
namespace {

using Args = std::vector<std::string>;
const std::map<std::string, int> kRunValues = {{"--runs", 1}, {"-r", 1}, {"--shell-program", 1}, {"-i", 1}};

TEST(ResolveRunShellWord, AShellBeforeTheCommandsIsHyperfinesShell) {
  auto r = ResolveRunShellWord({"tare", "run", "--runs", "3", "--shell", "bash", "sleep 0.01"}, kRunValues);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, (Args{"tare", "run", "--runs", "3", "--shell-program", "bash", "sleep 0.01"}));
  // A path, a command line of a shell, none; options after the commands stay tare's.
  r = ResolveRunShellWord({"tare", "run", "--shell", "/usr/bin/zsh", "true", "-r", "2"}, kRunValues);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (Args{"tare", "run", "--shell-program", "/usr/bin/zsh", "true", "-r", "2"}));
  r = ResolveRunShellWord({"tare", "run", "--shell", "bash --norc", "sleep 0.01"}, kRunValues);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[3], "bash --norc");
  r = ResolveRunShellWord({"tare", "run", "--shell", "none", "sleep 0.01"}, kRunValues);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[2], "--shell-program");
}

TEST(ResolveRunShellWord, TaresFlagIsUnchanged) {
  for (const Args& a :
       {Args{"tare", "run", "--shell", "grep -c x big.txt | wc -l"},
        Args{"tare", "run", "--shell", "sleep 0.1", "sleep 0.2"}, Args{"tare", "run", "--shell", "./script.sh"},
        Args{"tare", "run", "--shell", "--", "bash", "x"}, Args{"tare", "run", "--shell=bash", "true"},
        Args{"tare", "run", "sleep 0.1"}}) {
    auto r = ResolveRunShellWord(a, kRunValues);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(*r, a);
  }
}

TEST(ResolveRunShellWord, WhatCouldMeanEitherIsRefusedWithBothSpellings) {
  auto r = ResolveRunShellWord({"tare", "run", "--shell", "bash"}, kRunValues);
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(ResolveRunShellWord({"tare", "run", "--shell", "bash", "--runs", "3"}, kRunValues).ok())
      << "options after the shell are no command";
  EXPECT_NE(r.status().message().find("tare run --shell=bash 'COMMAND'"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("tare run --shell -- bash"), std::string::npos) << r.status().message();
  r = ResolveRunShellWord({"tare", "run", "--shell", "./prog", "arg"}, kRunValues);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("tare run --shell=./prog arg"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("tare run --shell -- ./prog arg"), std::string::npos) << r.status().message();
}

TEST(CheckInstrumentShortFlag, NamesHyperfinesMeaningForAnythingButAnInstrument) {
  EXPECT_TRUE(CheckInstrumentShortFlag({"tare", "run", "-i", "sim"}).ok());
  EXPECT_TRUE(CheckInstrumentShortFlag({"tare", "run", "--instrument", "bogus"}).ok()) << "its own error, later";
  for (const Args& a : {Args{"tare", "run", "-i", "false"}, Args{"tare", "run", "-i"}}) {
    const Status s = CheckInstrumentShortFlag(a);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("-i is --instrument"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("--ignore-failure"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("|| true"), std::string::npos) << s.message();
  }
}

TEST(ResolveStyle, HyperfinesValuesAsColorAndQuiet) {
  EXPECT_EQ(ResolveStyle("", "auto", false)->color, "auto");
  EXPECT_EQ(ResolveStyle("basic", "auto", false)->color, "never");
  EXPECT_EQ(ResolveStyle("nocolor", "auto", false)->color, "never");
  EXPECT_EQ(ResolveStyle("full", "auto", false)->color, "always");
  EXPECT_EQ(ResolveStyle("color", "auto", false)->color, "always");
  EXPECT_TRUE(ResolveStyle("none", "auto", false)->quiet);
  EXPECT_FALSE(ResolveStyle("basic", "auto", false)->quiet);
  EXPECT_TRUE(ResolveStyle("basic", "never", true).ok());
  EXPECT_FALSE(ResolveStyle("basic", "always", true).ok()) << "--style basic --color always contradict";
  EXPECT_FALSE(ResolveStyle("fancy", "auto", false).ok());
}

const std::map<std::string, int> kAbValues = {{"--base", 1}, {"--head", 1}, {"--samples", 1}, {"-n", 1}};
const std::vector<std::string> kAbNames = {"--base", "--head", "--samples", "-n", "--null", "--help", "-h"};

TEST(CheckAbArguments, AForgottenDashDashSaysWhereTheArgumentsGo) {
  const Status s =
      CheckAbArguments({"tare", "ab", "--base", "/bin/sleep", "--head", "/bin/sleep", "0.01"}, kAbValues, kAbNames);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'0.01' is not a campaign file"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("tare ab --base /bin/sleep --head /bin/sleep -- 0.01"), std::string::npos) << s.message();
  // A campaign file next to flags is the campaign's own error (it names the flags to move).
  EXPECT_TRUE(CheckAbArguments({"tare", "ab", "--base", "a", "c.toml"}, kAbValues, kAbNames).ok());
  EXPECT_TRUE(CheckAbArguments({"tare", "ab", "--base", "a", "--head", "b", "--", "0.01"}, kAbValues, kAbNames).ok());
  // A flag tare ab has not, among the arms' words, goes after `--` with them (issue 44).
  const Status c =
      CheckAbArguments({"tare", "ab", "--base", "gzip", "--head", "gzip", "-c", "data.txt"}, kAbValues, kAbNames);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.message().find("tare ab --base gzip --head gzip -- -c data.txt"), std::string::npos) << c.message();
}

TEST(CheckAbArguments, AGoogleBenchmarkFlagNamesTaresOwnOrTheDashDash) {
  Status s =
      CheckAbArguments({"tare", "ab", "--base", "a", "--head", "b", "--benchmark_min_time=0.05"}, kAbValues, kAbNames);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--gbench-min-time 0.05s"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("-- --benchmark_min_time=0.05"), std::string::npos) << s.message();
  s = CheckAbArguments({"tare", "ab", "--benchmark_filter=BM_Sort", "--base", "a", "--head", "b"}, kAbValues, kAbNames);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--filter BM_Sort"), std::string::npos) << s.message();
  s = CheckAbArguments({"tare", "ab", "--base", "a", "--head", "b", "--benchmark_repetitions=3"}, kAbValues, kAbNames);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("after `--`"), std::string::npos) << s.message();
  // After `--` it is the arms'.
  EXPECT_TRUE(CheckAbArguments({"tare", "ab", "--base", "a", "--head", "b", "--", "--benchmark_min_time=0.05"},
                               kAbValues, kAbNames)
                  .ok());
}

TEST(CheckAbArguments, TwoBuildsAsWordsAreBaseAndHead) {
  Status s = CheckAbArguments({"tare", "ab", "./base", "./head"}, kAbValues, kAbNames);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("tare ab --base ./base --head ./head"), std::string::npos) << s.message();
  s = CheckAbArguments({"tare", "ab", "-n", "10", "./base", "./h1", "./h2", "--", "x"}, kAbValues, kAbNames);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("tare ab --base ./base --head ./h1 --head ./h2 -n 10 -- x"), std::string::npos)
      << s.message();
  EXPECT_TRUE(CheckAbArguments({"tare", "ab", "campaign.toml"}, kAbValues, kAbNames).ok());
  EXPECT_TRUE(CheckAbArguments({"tare", "ab", "./base", "./head", "--help"}, kAbValues, kAbNames).ok())
      << "help is CLI11's";
}

}  // namespace
}  // namespace tare::cmdline
