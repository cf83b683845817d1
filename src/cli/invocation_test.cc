#include "cli/invocation.h"

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
}


}  // namespace
}  // namespace tare::cli
