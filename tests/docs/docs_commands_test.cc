// Every command line shown in README.md and docs/*.md must parse: its subcommand and flags exist
// and take the values shown. Each is run through the real tare with TARE_PARSE_ONLY=1, which stops
// after the command line is parsed and before any work (src/cli/app.cc; docs/testing.md). So a
// renamed flag or subcommand fails here until the docs follow.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "doc_commands.h"

namespace tare::docs {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Outcome {
  int exit_code = -1;
  std::string err;
};

// `argv` with argv[0] replaced by the tare under test, TARE_PARSE_ONLY=1, in `dir`.
Outcome ParseOnly(std::vector<std::string> argv, const fs::path& dir) {
  argv[0] = TARE_BIN;
  const fs::path err = dir / "err";
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout) || !freopen(err.c_str(), "w", stderr)) _exit(97);
    if (chdir(dir.c_str()) != 0) _exit(99);
    setenv("TARE_PARSE_ONLY", "1", 1);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(98);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), Slurp(err)};
}

// One line per command that does not parse: "file:line: `command` -> exit N: tare's message".
std::vector<std::string> CommandsThatDoNotParse(const std::vector<DocCommand>& commands, const fs::path& dir) {
  std::vector<std::string> failures;
  for (const auto& c : commands) {
    const auto argv = SplitCommand(c.text);
    const Outcome o = ParseOnly(argv, dir);
    if (o.exit_code != 0) {
      failures.push_back(c.file + ":" + std::to_string(c.line) + ": `" + c.text + "` -> exit " +
                         std::to_string(o.exit_code) + ": " + o.err);
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
    auto found = ExtractCommands(fs::relative(f, root).string(), Slurp(f));
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
                                << " documented command lines do not parse:\n" << report;
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
  EXPECT_EQ(SplitCommand("tare oracle check [--trials 9] [--accept] -- CMD"),
            (V{"tare", "oracle", "check", "--trials", "9", "--accept", "--", "CMD"}));
  EXPECT_EQ(SplitCommand("tare run --name '' x"), (V{"tare", "run", "--name", "", "x"}));
  EXPECT_EQ(SplitCommand(R"(tare run a\ b)"), (V{"tare", "run", "a b"}));
}

}  // namespace
}  // namespace tare::docs
