// `tare bisect` end to end: a git repository made here, a dozen commits of a tare-library
// benchmark (one .cc file, g++ -O1), built by the recipe in its tare.toml and measured by the
// real tare binary under real valgrind.
//
// The history (index: commit):
//   0 good: hot and cold benchmarks      6 fix the build
//   1 README                             7 hot does 3% more work        <- hot's culprit
//   2 a comment in bm.cc                 8 README again
//   3 an unrelated helper function       9 cold does 10% less work      <- cold's culprit
//   4 docs                              10 bad: an unrelated comment
//   5 break the build (#error)
// The search asks commit 5 first (the middle), which does not build: it is skipped and its
// neighbour asked instead.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../tare_process.h"
#include "bisect_repo.h"

namespace {

using tare::e2e::Result;
using tare::e2e::Slurp;

using tare::e2e::Sh;

std::string Bench(long hot, long cold, const std::string& extra = "") {
  return tare::e2e::TwoBenchmarks("hot", hot, "cold", cold, extra);
}

class BisectE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = ::testing::TempDir() + "tare_bisect_e2e_" + std::to_string(getpid());
    std::filesystem::remove_all(dir_);
    repo_ = dir_ + "/repo";
    std::filesystem::create_directories(repo_);
    // Every build appends a line to builds.log, outside the cache: the test counts real builds.
    const std::string recipe = "[bisect]\nbuild = \"echo built >> " + dir_ +
                               "/builds.log && mkdir -p {build} && g++ -O1 -std=c++20 -I" + TARE_INCLUDE_DIR +
                               " -o {build}/bm {src}/bm.cc " + TARE_BENCH_LIB + " -ldl -lpthread\"\n" +
                               "executable = \"{build}/bm\"\n";
    Write("tare.toml", recipe);
    ASSERT_EQ(Sh("cd " + repo_ +
                 " && git init -q -b main . && git config user.email t@example.com && "
                 "git config user.name Tester"),
              0);
    Commit("bm.cc", Bench(100000, 50000), "Add the hot and cold benchmarks");  // + tare.toml
    Commit("README", "bm\n", "Add a README");
    Commit("bm.cc", "// The benchmarks of the bisect test.\n" + Bench(100000, 50000), "Say what bm.cc is");
    Commit("bm.cc",
           "// The benchmarks of the bisect test.\n" + Bench(100000, 50000, "static int Unused() { return 3; }\n"),
           "Add an unrelated helper");
    Commit("DOCS", "docs\n", "Write docs");
    Commit("bm.cc", Bench(100000, 50000) + "#error tare-bisect-test-broken-build\n", "Break the build");
    Commit("bm.cc", "// The benchmarks of the bisect test.\n" + Bench(100000, 50000), "Fix the build");
    Commit("bm.cc", "// The benchmarks of the bisect test.\n" + Bench(103000, 50000), "Make hot do 3% more work");
    Commit("README", "bm, the benchmark\n", "Reword the README");
    Commit("bm.cc", "// The benchmarks of the bisect test.\n" + Bench(103000, 45000), "Make cold do less work");
    Commit("bm.cc", "// The benchmarks.\n" + Bench(103000, 45000), "Shorten a comment");
    commits_ = Lines("cd " + repo_ + " && git rev-list --reverse HEAD > " + dir_ + "/ids", dir_ + "/ids");
    ASSERT_EQ(commits_.size(), 11u);
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }

  static void Write(const std::string& name, const std::string& text) { std::ofstream(repo_ + "/" + name) << text; }
  static void Commit(const std::string& name, const std::string& text, const std::string& subject) {
    Write(name, text);
    ASSERT_EQ(Sh("cd " + repo_ + " && git add -A && git commit -q -m '" + subject + "'"), 0);
  }
  static std::vector<std::string> Lines(const std::string& command, const std::string& file) {
    std::vector<std::string> out;
    if (Sh(command) != 0) return out;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) out.push_back(line);
    }
    return out;
  }
  static size_t BuildsRun() {
    std::ifstream in(dir_ + "/builds.log");
    size_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }

  Result Tare(std::vector<std::string> args) { return tare::e2e::RunTare(TARE_BIN, repo_, std::move(args)); }

  static std::string dir_, repo_;
  static std::vector<std::string> commits_;
};
std::string BisectE2E::dir_, BisectE2E::repo_;
std::vector<std::string> BisectE2E::commits_;

// The headline, then the second bisect over the same range: nothing is built again.
TEST_F(BisectE2E, NamesEachCulpritSkipsTheBrokenCommitAndReusesBuilds) {
  const size_t before = BuildsRun();
  Result r = Tare({"bisect", "--good", commits_[0], "--bad", "HEAD", "--instrument", "sim", "--cache-dir",
                   dir_ + "/cache", "--json", dir_ + "/a.json", "--markdown", dir_ + "/a.md", "hot", "cold"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string hot7 = commits_[7].substr(0, 12), cold9 = commits_[9].substr(0, 12);
  EXPECT_NE(r.out.find("hot: first changed at " + hot7 + " Make hot do 3% more work"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cold: first changed at " + cold9 + " Make cold do less work"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(commits_[5].substr(0, 12) + " Break the build: the build command failed"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("#error tare-bisect-test-broken-build"), std::string::npos)
      << "the broken build's log tail: " << r.out;
  EXPECT_NE(r.err.find("bisect: hot: step 1, at most"), std::string::npos) << r.err;

  nlohmann::json j = nlohmann::json::parse(Slurp(dir_ + "/a.json"));
  EXPECT_EQ(j["format"], "tare.bisect/1");
  EXPECT_EQ(j["commits"], 10);
  ASSERT_EQ(j["benchmarks"].size(), 2u);
  const auto& hot = j["benchmarks"][0];
  EXPECT_EQ(hot["name"], "hot");
  EXPECT_TRUE(hot["exact"].get<bool>());
  EXPECT_EQ(hot["culprit"]["commit"], commits_[7]);
  EXPECT_EQ(hot["last_same"]["commit"], commits_[6]);
  // 3% more iterations of the loop: the count grows by close to 3%, and the parent's is the good end's.
  EXPECT_GT(hot["change_fraction"].get<double>(), 0.025);
  EXPECT_LT(hot["change_fraction"].get<double>(), 0.035);
  EXPECT_EQ(hot["last_same_count"].get<double>(), hot["good_count"].get<double>());
  EXPECT_FALSE(hot["culprit"]["author_date"].get<std::string>().empty());
  // tare attribute's table between the parent and the culprit: the whole change in Ir, the loop's
  // function first, carrying nearly all of it.
  EXPECT_NE(r.out.find("hot: where the change went, " + commits_[6].substr(0, 12) + " (parent) -> " + hot7),
            std::string::npos)
      << r.out;
  ASSERT_TRUE(hot.contains("attribution")) << hot.dump(2);
  const auto& attribution = hot["attribution"];
  // sim.Ir is per iteration; the profiles cover the sample's whole window of kSimIterations = 10
  // iterations (target/measure.h).
  EXPECT_EQ(attribution["total_delta"].get<double>(),
            10 * (hot["culprit_count"].get<double>() - hot["last_same_count"].get<double>()));
  ASSERT_FALSE(attribution["rows"].empty());
  EXPECT_GT(attribution["rows"][0]["self_delta"].get<double>(), 0.9 * attribution["total_delta"].get<double>())
      << attribution.dump(2);
  const auto& cold = j["benchmarks"][1];
  EXPECT_EQ(cold["culprit"]["commit"], commits_[9]);
  EXPECT_LT(cold["change_fraction"].get<double>(), -0.08);
  ASSERT_EQ(j["skipped"].size(), 1u);
  EXPECT_EQ(j["skipped"][0]["commit"], commits_[5]);
  // O(log n): of 11 commits, both ends and at most 6 more were built (5 is asked once, for both).
  const size_t built = j["builds"];
  EXPECT_EQ(built, BuildsRun() - before);
  EXPECT_LE(built, 8u);
  EXPECT_EQ(j["cache_hits"], 0);
  EXPECT_EQ(j["measured_from_cache"], 0);
  const std::string md = Slurp(dir_ + "/a.md");
  EXPECT_NE(md.find("| hot | `" + hot7 + "` | Make hot do 3% more work |"), std::string::npos) << md;
  EXPECT_NE(md.find("#### hot: where the change went"), std::string::npos) << md;

  // Again, over an overlapping range (4..10: its ends and the commits it asks were all built
  // above, 5 as a failure): every build from the cache, none run, the same answer.
  Result again = Tare({"bisect", "--good", commits_[4], "--bad", "HEAD", "--cache-dir", dir_ + "/cache", "--json",
                       dir_ + "/b.json", "hot"});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  nlohmann::json k = nlohmann::json::parse(Slurp(dir_ + "/b.json"));
  EXPECT_EQ(k["builds"], 0) << again.out;
  EXPECT_GT(k["cache_hits"].get<int>(), 0);
  EXPECT_EQ(BuildsRun(), before + built) << "a cache hit ran the build command";
  EXPECT_EQ(k["benchmarks"][0]["culprit"]["commit"], commits_[7]);
  // ... and every count too: valgrind ran on nothing, the attribution read the kept profiles.
  EXPECT_EQ(k["measured"], 0) << again.out;
  EXPECT_GT(k["measured_from_cache"].get<int>(), 0);
  EXPECT_EQ(k["benchmarks"][0]["attribution"]["total_delta"], hot["attribution"]["total_delta"]);
  EXPECT_NE(again.out.find("0 built now"), std::string::npos) << again.out;
}

// A culprit that does not build cannot be isolated: the answer is the range the change lies in,
// never a guess inside it. A recipe that also fails where hot's +3% meets the first README (commit
// 7, the culprit, alone) leaves (6, 8].
TEST_F(BisectE2E, ACulpritHiddenBySkipsIsARange) {
  const std::string recipe_build =
      "if grep -q 103000 {src}/bm.cc && grep -qx bm {src}/README; then exit 1; fi; g++ -O1 "
      "-std=c++20 -I" +
      std::string(TARE_INCLUDE_DIR) + " -o {build}/bm {src}/bm.cc " + TARE_BENCH_LIB + " -ldl -lpthread";
  Result r =
      Tare({"bisect", "--good", commits_[0], "--bad", "HEAD", "--build", recipe_build, "--executable", "{build}/bm",
            "--cache-dir", dir_ + "/range-cache", "--attribute", "0", "--json", dir_ + "/range.json", "hot"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("hot: changed in one of 2 commits, which skipped commits hide"), std::string::npos) << r.out;
  nlohmann::json j = nlohmann::json::parse(Slurp(dir_ + "/range.json"));
  const auto& hot = j["benchmarks"][0];
  EXPECT_FALSE(hot["exact"].get<bool>());
  EXPECT_EQ(hot["last_same"]["commit"], commits_[6]);
  EXPECT_EQ(hot["culprit"]["commit"], commits_[8]);
  ASSERT_EQ(hot["range"].size(), 2u);
  EXPECT_EQ(hot["range"][0]["commit"], commits_[7]);
  EXPECT_EQ(hot["range"][1]["commit"], commits_[8]);
  std::vector<std::string> skipped;
  for (const auto& s : j["skipped"]) skipped.push_back(s["commit"]);
  EXPECT_EQ(skipped, (std::vector<std::string>{commits_[5], commits_[7]}));
}

// A plain command (no benchmark library): one benchmark, named by the recipe as typed, bisected on
// the whole process's count; a benchmark name given for it is exit 2 saying to leave it out.
TEST_F(BisectE2E, APlainCommandIsOneBenchmarkNamedByTheRecipe) {
  const std::string repo = dir_ + "/plain";
  std::filesystem::create_directories(repo);
  auto program = [&](int n) {
    std::ofstream(repo + "/p.c") << "int main(void) { volatile long s = 0; for (long i = 0; i < " << n
                                 << "; ++i) s += i; return 0; }\n";
  };
  ASSERT_EQ(Sh("cd " + repo +
               " && git init -q -b main . && git config user.email t@example.com && "
               "git config user.name Tester"),
            0);
  const std::vector<std::pair<int, std::string>> history = {
      {100000, "start"}, {100000, "same"}, {110000, "ten percent more"}, {110000, "same again"}};
  for (const auto& [n, subject] : history) {
    program(n);
    std::ofstream(repo + "/log", std::ios::app) << subject << "\n";
    ASSERT_EQ(Sh("cd " + repo + " && git add -A && git commit -q -m '" + subject + "'"), 0);
  }
  const std::vector<std::string> recipe = {"--build",      "gcc -O1 -o {build}/p {src}/p.c",
                                           "--executable", "{build}/p",
                                           "--cache-dir",  dir_ + "/plain-cache",
                                           "--attribute",  "0"};
  std::vector<std::string> args = {"bisect", "--good", "HEAD~3", "--bad", "HEAD", "--json", dir_ + "/p.json"};
  args.insert(args.end(), recipe.begin(), recipe.end());
  Result r = tare::e2e::RunTare(TARE_BIN, repo, args);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json j = nlohmann::json::parse(Slurp(dir_ + "/p.json"));
  ASSERT_EQ(j["benchmarks"].size(), 1u);
  EXPECT_EQ(j["benchmarks"][0]["name"], "{build}/p");
  EXPECT_EQ(j["benchmarks"][0]["culprit"]["subject"], "ten percent more");
  EXPECT_FALSE(j["benchmarks"][0].contains("attribution")) << "--attribute 0 asks for no table";

  args.push_back("BM_x");
  Result named = tare::e2e::RunTare(TARE_BIN, repo, args);
  EXPECT_EQ(named.exit_code, 2) << named.out << named.err;
  EXPECT_NE(named.err.find("leave the benchmark names out"), std::string::npos) << named.err;
}

// `tare run --commits A..B`: every built commit's run stored with its commit, oldest first, so that
// `tare history` finds the change point at hot's culprit (commit 7, +3% instructions); the broken
// commit 5 is said and has no run. Again with the same command: nothing built or measured twice.
TEST_F(BisectE2E, RunCommitsFillsHistoryWithTheChangeAtTheCulprit) {
  const std::string store = dir_ + "/commits.db";
  const std::vector<std::string> args = {"run",
                                         "--commits",
                                         commits_[0] + "..HEAD",
                                         "--instrument",
                                         "sim",
                                         "--samples",
                                         "1",
                                         "--filter",
                                         "^hot$",
                                         "--branch",
                                         "main",
                                         "--store",
                                         store};
  Result r = Tare(args);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(commits_[5].substr(0, 12) + " Break the build: not built: the build command failed"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("10 runs in"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("tare: commit 11 of 11: "), std::string::npos) << r.err;

  // 6 runs before the change and 4 after: --min-segment 3 lets a change point sit there (the default
  // 5 on each side would put it at the nearest split it allows, 5 + 5).
  Result h = Tare({"history", "hot", "--metric", "sim.Ir", "--min-segment", "3", "--branch", "main", "--format", "json",
                   "--store", store});
  ASSERT_EQ(h.exit_code, 0) << h.out << h.err;
  nlohmann::json j = nlohmann::json::parse(h.out);
  ASSERT_EQ(j["runs"].size(), 10u) << h.out;
  // Oldest first, each with its commit: 0..4, 6..10 (5 did not build).
  std::vector<std::string> stored_commits;
  for (const auto& run : j["runs"]) stored_commits.push_back(run["commit"]);
  std::vector<std::string> expected;
  for (size_t i = 0; i < commits_.size(); ++i) {
    if (i != 5) expected.push_back(commits_[i]);
  }
  EXPECT_EQ(stored_commits, expected);
  ASSERT_EQ(j["change_points"].size(), 1u) << h.out;
  const auto& step = j["change_points"][0];
  EXPECT_EQ(step["before"]["commit"], commits_[6]);
  EXPECT_EQ(step["after"]["commit"], commits_[7]);
  EXPECT_NEAR(step["change"].get<double>(), 0.03, 0.005) << step.dump(2);

  // The same command again: every commit is in the store already, every build in the cache.
  Result again = Tare(args);
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("(stored before)"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("0 built now, 11 from the cache"), std::string::npos) << again.out;
  Result h2 = Tare({"history", "hot", "--metric", "sim.Ir", "--format", "json", "--store", store});
  EXPECT_EQ(nlohmann::json::parse(h2.out)["runs"].size(), 10u) << "a rerun adds no duplicate points";

  // A range written otherwise is exit 2 saying how to write it.
  Result bad = Tare({"run", "--commits", commits_[0], "--store", store});
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("give a range OLD..NEW"), std::string::npos) << bad.err;
  // Each run records the commit it built: --commit beside it is refused, not silently overridden.
  Result both = Tare({"run", "--commits", commits_[0] + "..HEAD", "--commit", "abcd1234", "--store", store});
  EXPECT_EQ(both.exit_code, 2) << both.out << both.err;
  EXPECT_NE(both.err.find("leave out --commit"), std::string::npos) << both.err;
}

// Bad input: exit 2, a message naming what to do, nothing measured.
TEST_F(BisectE2E, BadInputExitsTwoSayingWhatToDo) {
  const std::string cache = dir_ + "/bad-cache";
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--good", "no-such-commit", "--bad", "HEAD"}, "'no-such-commit' is not a commit"},
      {{"--good", "HEAD", "--bad", commits_[0]}, "is not an ancestor of the bad commit"},
      {{"--good", commits_[0], "--bad", "HEAD", "--config", dir_ + "/empty.toml"}, "no build recipe"},
      {{"--good", commits_[0], "--bad", "HEAD", "--executable", "{build}/not-there"}, "did not produce the executable"},
      {{"--good", commits_[0], "--bad", "HEAD", "no_such_bench"}, "benchmark 'no_such_bench' is not in"},
      {{"--good", commits_[0], "--bad", "HEAD", "--instrument", "mem"}, "an exact count (sim) or on a time campaign"},
      {{"--good", commits_[0], "--bad", "HEAD", "--instrument", "wall", "--step-budget", "0s"},
       "--step-budget must be a positive time"},
  };
  std::ofstream(dir_ + "/empty.toml") << "# nothing\n";
  for (const auto& c : cases) {
    std::vector<std::string> args = {"bisect", "--cache-dir", cache};
    args.insert(args.end(), c.args.begin(), c.args.end());
    Result r = Tare(args);
    EXPECT_EQ(r.exit_code, 2) << c.says << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << c.says;
  }
}

}  // namespace
