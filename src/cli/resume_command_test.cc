#include "cli/resume_command.h"

#include <gtest/gtest.h>

namespace tare::cli {
namespace {

TEST(ResumeCommand, ResumeGoesAfterAbNotAfterTheDashes) {
  EXPECT_EQ(ResumeCommand({"tare", "ab", "--base", "old/b", "--head", "new/b", "--", "--work", "8"}),
            "tare ab --resume --base old/b --head new/b -- --work 8");
  EXPECT_EQ(ResumeCommand({"./build/tare", "ab", "campaign.toml"}), "./build/tare ab --resume campaign.toml");
}

TEST(ResumeCommand, AResumedCohortIsResumedTheSameWay) {
  EXPECT_EQ(ResumeCommand({"tare", "ab", "c.toml", "--resume"}), "tare ab c.toml --resume");
  // A --resume after -- belongs to the benchmark: tare's own is still added.
  EXPECT_EQ(ResumeCommand({"tare", "ab", "--base", "a", "--head", "b", "--", "--resume"}),
            "tare ab --resume --base a --head b -- --resume");
}

TEST(ResumeCommand, EveryArgumentIsQuotedForTheShell) {
  EXPECT_EQ(ResumeCommand({"tare", "ab", "--name", "it's $HOME `x` \"q\" \\ ;|&", "--gate", "", "c.toml"}),
            "tare ab --resume --name 'it'\\''s $HOME `x` \"q\" \\ ;|&' --gate '' c.toml");
  EXPECT_EQ(ShellQuote("p95(wall_ns, head) <= 25ms"), "'p95(wall_ns, head) <= 25ms'");
  EXPECT_EQ(ShellQuote("*.toml"), "'*.toml'");
  EXPECT_EQ(ShellQuote("~/x"), "'~/x'");
  EXPECT_EQ(ShellQuote("--metric=wall_ns=2%"), "--metric=wall_ns=2%");
  EXPECT_EQ(ShellQuote("=ls"), "'=ls'");
}

// What the shell reads back is the argv tare was given: each quoted argument through /bin/sh.
TEST(ResumeCommand, TheShellReadsBackTheSameArguments) {
  const std::vector<std::string> hostile = {"it's", "a b", "$(touch /tmp/x)", "'", "''", "\\", "\n", "\"", "`id`"};
  for (const auto& arg : hostile) {
    const std::string command = "printf '%s' " + ShellQuote(arg);
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buf[256];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) out.append(buf, n);
    EXPECT_EQ(pclose(pipe), 0);
    EXPECT_EQ(out, arg) << command;
  }
}

}  // namespace
}  // namespace tare::cli
