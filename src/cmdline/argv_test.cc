#include "cmdline/argv.h"

#include <gtest/gtest.h>

namespace tare::cmdline {
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

// What a run records and what tare prints back mask a store URL's password; what the commands parse
// keeps it (libpq needs it).
TEST(RecordedInvocation, MasksStorePasswordsAndKeepsTheRest) {
  std::vector<std::string> words = {
      "tare", "ab",     "--store", "postgresql://ci:s3cret@db/tare", "--to=postgres://a:b@h/d", "c.toml",
      "--",   "--work", "8"};
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  SetInvocation(static_cast<int>(argv.size()), argv.data());
  EXPECT_EQ(Invocation(), words);
  EXPECT_EQ(RecordedInvocation(),
            (std::vector<std::string>{"tare", "ab", "--store", "postgresql://ci:***@db/tare",
                                      "--to=postgres://a:***@h/d", "c.toml", "--", "--work", "8"}));
  EXPECT_EQ(ResumeCommand(RecordedInvocation()),
            "tare ab --resume --store 'postgresql://ci:***@db/tare' '--to=postgres://a:***@h/d' c.toml -- --work 8");
}

}  // namespace
}  // namespace tare::cmdline
