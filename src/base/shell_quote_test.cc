#include "base/shell_quote.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace tare {
namespace {

TEST(ShellQuote, QuotesOnlyWhatAShellWouldReadDifferently) {
  EXPECT_EQ(ShellQuote("p95(wall_ns, head) <= 25ms"), "'p95(wall_ns, head) <= 25ms'");
  EXPECT_EQ(ShellQuote("*.toml"), "'*.toml'");
  EXPECT_EQ(ShellQuote("~/x"), "'~/x'");
  EXPECT_EQ(ShellQuote("--metric=wall_ns=2%"), "--metric=wall_ns=2%");
  EXPECT_EQ(ShellQuote("=ls"), "'=ls'") << "zsh expands =cmd";
  EXPECT_EQ(ShellQuote(""), "''");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
}

// What the shell reads back is the argument: each quoted argument through /bin/sh.
TEST(ShellQuote, TheShellReadsBackTheSameArgument) {
  const std::vector<std::string> hostile = {"it's", "a b", "$(touch /tmp/x)", "'", "''", "\\", "\n", "\"",
                                            "`id`", "=ls"};
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
}  // namespace tare
