// Every command line shown in README.md and docs/*.md must parse: its subcommand and flags exist
// and take the values shown. Each is run through the real tare with TARE_PARSE_ONLY=1, which stops
// after the command line is parsed and before any work (src/cli/app.cc; docs/testing.md). So a
// renamed flag or subcommand fails here until the docs follow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "doc_commands.h"
#include "tare_process.h"

namespace tare::docs {
namespace {

namespace fs = std::filesystem;

// One line per command that does not parse: "file:line: `command` -> exit N: tare's message".
std::vector<std::string> CommandsThatDoNotParse(const std::vector<DocCommand>& commands, const fs::path& dir) {
  std::vector<std::string> failures;
  for (const auto& c : commands) {
    auto argv = SplitCommand(c.text);
    argv.erase(argv.begin());  // tare or build/tare: the tare under test runs instead
    const e2e::Result r = e2e::RunTare(TARE_BIN, dir.string(), argv);
    if (r.exit_code != 0) {
      failures.push_back(c.file + ":" + std::to_string(c.line) + ": `" + c.text + "` -> exit " +
                         std::to_string(r.exit_code) + ": " + r.err);
    }
  }
  return failures;
}

std::vector<DocCommand> DocumentedCommands() {
  const fs::path root = TARE_SOURCE_ROOT;
  std::vector<fs::path> files = {root / "README.md"};
  for (const auto& e : fs::directory_iterator(root / "docs")) {
    if (e.path().extension() == ".md") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<DocCommand> all;
  for (const auto& f : files) {
    auto found = ExtractCommands(fs::relative(f, root).string(), e2e::Slurp(f.string()));
    all.insert(all.end(), found.begin(), found.end());
  }
  return all;
}

class DocsCommands : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tare-docs-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    setenv("TARE_PARSE_ONLY", "1", 1);  // inherited by every tare the test starts
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(DocsCommands, EveryDocumentedCommandLineParses) {
  const auto commands = DocumentedCommands();
  // The README alone shows 18; a broken extractor that finds nothing must not pass.
  ASSERT_GE(commands.size(), 40u);
  const auto failures = CommandsThatDoNotParse(commands, dir_);
  std::string report;
  for (const auto& f : failures) report += f + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " of " << commands.size()
                                << " documented command lines do not parse:\n"
                                << report;
  // Nothing ran: parsing alone creates no store.
  EXPECT_FALSE(fs::exists(dir_ / ".tare"));
}

// The check can fail: a renamed flag, a misspelt subcommand, a value an option refuses.
TEST_F(DocsCommands, AWrongCommandLineFails) {
  const std::string doc =
      "```sh\n"
      "tare run --samples 5 ./bench          # fine\n"
      "tare run --sampels 5 ./bench          # renamed flag\n"
      "tare histroy BM_Sort                  # no such subcommand\n"
      "tare runs --limit 0                   # refused value (at least 1)\n"
      "```\n";
  const auto commands = ExtractCommands("doc.md", doc);
  ASSERT_EQ(commands.size(), 4u);
  const auto failures = CommandsThatDoNotParse(commands, dir_);
  ASSERT_EQ(failures.size(), 3u);
  EXPECT_NE(failures[0].find("doc.md:3: `tare run --sampels 5 ./bench"), std::string::npos) << failures[0];
  EXPECT_NE(failures[0].find("--samples"), std::string::npos) << failures[0];  // did you mean
  EXPECT_NE(failures[1].find("doc.md:4:"), std::string::npos) << failures[1];
  EXPECT_NE(failures[2].find("doc.md:5:"), std::string::npos) << failures[2];
}

TEST(DocCommands, ExtractsCommandsFromFencedBlocksOnly) {
  const std::string doc =
      "Run `tare run x` inline: not a command.\n"
      "```sh\n"
      "tare env   # comment\n"
      "build/tare runs\n"
      "echo tare run\n"
      "tare oracle check --golden G \\\n"
      "    -- ./prog a\n"
      "```\n"
      "tare run outside a block\n"
      "```\n"
      "$ tare compare 1 2\n"
      "tare ab: 'x' cohort 1: FAIL\n"
      "benchmark  change\n"
      "```\n"
      "~~~\n"
      "tare ab: 'x' cohort 1 (run 7): FAIL\n"
      "~~~\n";
  const auto c = ExtractCommands("f.md", doc);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].text, "tare env   # comment");
  EXPECT_EQ(c[0].line, 3);
  EXPECT_EQ(c[1].text, "build/tare runs");
  EXPECT_EQ(c[2].text, "tare oracle check --golden G  -- ./prog a");
  EXPECT_EQ(c[2].line, 6);
  EXPECT_EQ(c[3].text, "tare compare 1 2");
  EXPECT_EQ(c[3].line, 11);
}

TEST(DocCommands, SplitsLikeAShell) {
  using V = std::vector<std::string>;
  EXPECT_EQ(SplitCommand("tare run --filter 'BM_Sort/.*' -n 2 ./b   # note"),
            (V{"tare", "run", "--filter", "BM_Sort/.*", "-n", "2", "./b"}));
  EXPECT_EQ(SplitCommand(R"(tare ab --name "a \"b\" c" --base x)"),
            (V{"tare", "ab", "--name", "a \"b\" c", "--base", "x"}));
  EXPECT_EQ(SplitCommand("tare export --run latest | jq .runs"), (V{"tare", "export", "--run", "latest"}));
  EXPECT_EQ(SplitCommand("tare env --json > env.json"), (V{"tare", "env", "--json"}));
  EXPECT_EQ(SplitCommand("tare env 2>/dev/null"), (V{"tare", "env"}));
  EXPECT_EQ(SplitCommand("tare bundle verify t.tar.gz; echo $?"), (V{"tare", "bundle", "verify", "t.tar.gz"}));
  EXPECT_EQ(SplitCommand("tare env --json>env.json && cat env.json"), (V{"tare", "env", "--json"}));
  EXPECT_EQ(SplitCommand("tare run x| head"), (V{"tare", "run", "x"}));
  EXPECT_EQ(SplitCommand("tare run --color never|auto|always x"),
            (V{"tare", "run", "--color", "never|auto|always", "x"}));
  EXPECT_EQ(SplitCommand("tare oracle check [--trials 9] [--accept] -- CMD"),
            (V{"tare", "oracle", "check", "--trials", "9", "--accept", "--", "CMD"}));
  EXPECT_EQ(SplitCommand("tare run --name '' x"), (V{"tare", "run", "--name", "", "x"}));
  EXPECT_EQ(SplitCommand(R"(tare run a\ b)"), (V{"tare", "run", "a b"}));
}

}  // namespace
}  // namespace tare::docs
