// `tare bisect --instrument wall` end to end: a git repository made here (ten commits of a
// tare-library benchmark, g++ -O1), each step a real paired campaign (the campaign engine of
// `tare ab`: fresh processes, the null arm, looks, a budget) of the candidate against the good end,
// stored in the bisection's own SQLite store.
//
// The history (index: commit):
//   0 good: fast and slow benchmarks      5 break the build (#error)
//   1 README                              6 fix the build
//   2 a comment in bm.cc                  7 slow does twice the work     <- slow's culprit
//   3 an unrelated helper function        8 README again
//   4 docs                                9 bad: an unrelated comment
//
// Time on this shared 2-core VM is noisy, so the change is large (+100% work) and the test takes
// only the two honest outcomes: the culprit named exactly (checked, with an interval above 0), or
// INCONCLUSIVE with the range still undecided — never another commit.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "../tare_process.h"
#include "bisect_repo.h"

namespace {

using tare::e2e::Result;
using tare::e2e::Slurp;

using tare::e2e::Sh;

std::string Bench(long fast, long slow, const std::string& extra = "") {
  return tare::e2e::TwoBenchmarks("fast", fast, "slow", slow, extra);
}

class BisectTimeE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = ::testing::TempDir() + "tare_bisect_time_e2e_" + std::to_string(getpid());
    std::filesystem::remove_all(dir_);
    repo_ = dir_ + "/repo";
    std::filesystem::create_directories(repo_);
    const std::string recipe = "[bisect]\nbuild = \"echo built >> " + dir_ + "/builds.log && g++ -O1 -std=c++20 -I" +
                               TARE_INCLUDE_DIR + " -o {build}/bm {src}/bm.cc " + TARE_BENCH_LIB +
                               " -ldl -lpthread\"\n" + "executable = \"{build}/bm\"\n";
    Write("tare.toml", recipe);
    ASSERT_EQ(Sh("cd " + repo_ +
                 " && git init -q -b main . && git config user.email t@example.com && "
                 "git config user.name Tester"),
              0);
    const std::string head = "// The benchmarks of the time bisect test.\n";
    Commit("bm.cc", Bench(200000, 200000), "Add the fast and slow benchmarks");
    Commit("README", "bm\n", "Add a README");
    Commit("bm.cc", head + Bench(200000, 200000), "Say what bm.cc is");
    Commit("bm.cc", head + Bench(200000, 200000, "static int Unused() { return 3; }\n"), "Add an unrelated helper");
    Commit("DOCS", "docs\n", "Write docs");
    Commit("bm.cc", head + Bench(200000, 200000) + "#error tare-bisect-test-broken-build\n", "Break the build");
    Commit("bm.cc", head + Bench(200000, 200000), "Fix the build");
    Commit("bm.cc", head + Bench(200000, 400000), "Make slow do twice the work");
    Commit("README", "bm, the benchmark\n", "Reword the README");
    Commit("bm.cc", "// The benchmarks.\n" + Bench(200000, 400000), "Shorten a comment");
    commits_ = Lines("cd " + repo_ + " && git rev-list --reverse HEAD > " + dir_ + "/ids", dir_ + "/ids");
    ASSERT_EQ(commits_.size(), 10u);
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
  std::vector<std::string> BisectArgs(const std::string& cache, const std::string& json) {
    return {"bisect",           "--good", commits_[0],       "--bad", "HEAD",
            "--instrument",     "wall",   "--step-budget",   "20s",   "--cache-dir",
            dir_ + "/" + cache, "--json", dir_ + "/" + json, "slow"};
  }

  // The two honest answers for slow: its culprit exactly (commit 7, slower by clearly more than the
  // allowance), or INCONCLUSIVE with a range that still holds commit 7. Returns whether exact.
  static bool CheckSlowAnswer(const nlohmann::json& j, const std::string& out) {
    EXPECT_EQ(j["instrument"], "wall");
    EXPECT_EQ(j["commits"], 9);
    const auto& slow = j["benchmarks"].at(0);
    EXPECT_EQ(slow["name"], "slow");
    if (slow["inconclusive"].get<bool>()) {
      EXPECT_NE(out.find("slow: INCONCLUSIVE at "), std::string::npos) << out;
      if (slow["range"].empty()) {
        EXPECT_EQ(slow["inconclusive_at"]["commit"], commits_[9]) << "the ends themselves undecided";
      } else {
        bool holds = false;
        for (const auto& c : slow["range"]) holds = holds || c["commit"] == commits_[7];
        EXPECT_TRUE(holds) << "the undecided range must hold the culprit: " << slow.dump(2);
      }
      EXPECT_EQ(out.find("slow: first changed at"), std::string::npos)
          << "an INCONCLUSIVE step is never guessed through";
      return false;
    }
    EXPECT_TRUE(slow["changed"].get<bool>()) << slow.dump(2);
    EXPECT_TRUE(slow["exact"].get<bool>()) << slow.dump(2);
    EXPECT_EQ(slow["culprit"]["commit"], commits_[7]) << out;
    EXPECT_EQ(slow["last_same"]["commit"], commits_[6]) << out;
    // Twice the loop: the paired change is large and its whole interval is above the allowance.
    const auto& change = slow["change"];
    EXPECT_EQ(change["verdict"], "FAIL");
    EXPECT_GT(change["lo"].get<double>(), 0.05) << change.dump(2);
    EXPECT_GT(change["estimate"].get<double>(), 0.3) << change.dump(2);
    EXPECT_GE(change["pairs"].get<int>(), 20);
    EXPECT_NE(out.find("slow: first changed at " + commits_[7].substr(0, 12) + " Make slow do twice the work"),
              std::string::npos)
        << out;
    return true;
  }

  Result Tare(std::vector<std::string> args) { return tare::e2e::RunTare(TARE_BIN, repo_, std::move(args)); }

  static std::string dir_, repo_;
  static std::vector<std::string> commits_;
};
std::string BisectTimeE2E::dir_, BisectTimeE2E::repo_;
std::vector<std::string> BisectTimeE2E::commits_;

// The headline: the culprit named (or INCONCLUSIVE said), each step a stored campaign, a progress
// line per step; then the same bisect again decides every step from the cache.
TEST_F(BisectTimeE2E, NamesTheCulpritOrSaysInconclusive) {
  Result r = Tare(BisectArgs("cache", "a.json"));
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.out << r.err;
  nlohmann::json j = nlohmann::json::parse(Slurp(dir_ + "/a.json"));
  const bool exact = CheckSlowAnswer(j, r.out);
  EXPECT_EQ(r.exit_code, exact ? 0 : 3) << "INCONCLUSIVE exits 3, as tare ab does";
  EXPECT_NE(r.err.find("bisect: slow: the bad end " + commits_[9].substr(0, 12) + " against the good end"),
            std::string::npos)
      << r.err;
  EXPECT_GE(j["campaigns"].get<int>(), 1);
  // Every campaign is a cohort in the bisection's own store: tare report reads it back.
  const std::string store = dir_ + "/cache/tare.db";
  ASSERT_TRUE(std::filesystem::exists(store));
  EXPECT_EQ(j["store"], store);
  if (!exact) return;
  EXPECT_NE(r.err.find("bisect: slow: step 1, at most"), std::string::npos) << r.err;
  // The search asked around the broken commit when it met it, and skipped it.
  for (const auto& s : j["skipped"]) EXPECT_EQ(s["commit"], commits_[5]);

  // Again: every build from the cache and every decided step too, no campaign run.
  const size_t builds = BuildsRun();
  Result again = Tare(BisectArgs("cache", "b.json"));
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  nlohmann::json k = nlohmann::json::parse(Slurp(dir_ + "/b.json"));
  EXPECT_EQ(k["builds"], 0);
  EXPECT_EQ(BuildsRun(), builds);
  EXPECT_EQ(k["campaigns"], 0) << again.err;
  EXPECT_EQ(k["campaigns_from_cache"], j["campaigns"]);
  EXPECT_EQ(k["benchmarks"][0]["culprit"]["commit"], commits_[7]);
  EXPECT_EQ(k["benchmarks"][0]["change"]["estimate"], j["benchmarks"][0]["change"]["estimate"]);
}

// Ctrl-C in the middle of a time bisect: exit 130; the same command again builds nothing it built
// before, continues the interrupted campaign from its stored samples, and answers.
TEST_F(BisectTimeE2E, CtrlCThenTheSameCommandResumes) {
  const size_t builds_before = BuildsRun();
  pid_t pid = tare::e2e::StartTare(TARE_BIN, repo_, BisectArgs("int-cache", "int.json"));
  // Wait for the ends' campaign to have run its first block (both ends built, the cohort stored
  // and sampling: 19 more blocks before its first look), then interrupt it.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  bool started = false;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string err = Slurp(repo_ + "/err");
    const size_t ends = err.find("bisect: slow: the bad end");
    if (ends != std::string::npos && err.find("first block:", ends) != std::string::npos) {
      started = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(started) << Slurp(repo_ + "/err");
  ASSERT_EQ(kill(pid, SIGINT), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  Result stopped = tare::e2e::CollectTare(repo_, status);
  ASSERT_EQ(stopped.exit_code, 130) << stopped.out << stopped.err;
  EXPECT_NE(stopped.err.find("interrupted"), std::string::npos) << stopped.err;
  const size_t built_then = BuildsRun() - builds_before;
  EXPECT_EQ(built_then, 2u) << "both ends, nothing more: " << stopped.err;

  Result resumed = Tare(BisectArgs("int-cache", "int.json"));
  ASSERT_TRUE(resumed.exit_code == 0 || resumed.exit_code == 3) << resumed.out << resumed.err;
  nlohmann::json j = nlohmann::json::parse(Slurp(dir_ + "/int.json"));
  EXPECT_GE(j["cache_hits"].get<int>(), 2) << "the ends come from the cache";
  EXPECT_EQ(j["builds"].get<size_t>(), BuildsRun() - builds_before - built_then) << "no build run twice";
  EXPECT_NE(resumed.err.find("continuing the interrupted campaign of " + commits_[9].substr(0, 12)), std::string::npos)
      << resumed.err;
  CheckSlowAnswer(j, resumed.out);
}

}  // namespace
