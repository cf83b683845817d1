// The answer's renderings for what the e2e test does not reach: a culprit hidden by skipped
// commits (the range, never a guess), an unchanged benchmark, and hostile text from commits.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bisect/bisect.h"

namespace tare::bisect {
namespace {

CommitInfo Commit(const std::string& id, const std::string& subject) {
  CommitInfo c;
  c.id = id;
  c.subject = subject;
  c.author_date = "2026-01-02T03:04:05+00:00";
  return c;
}

BisectReport RangeReport() {
  BisectReport r;
  r.good = Commit(std::string(40, 'a'), "good");
  r.bad = Commit(std::string(40, 'f'), "bad");
  r.commits = 10;
  BenchmarkAnswer a;
  a.benchmark = "BM_|Parse";
  a.good_count = 1000;
  a.bad_count = 1100;
  a.changed = true;
  a.exact = false;
  a.last_same = Commit(std::string(40, 'b'), "last same");
  a.culprit = Commit(std::string(40, 'd'), "newest of the range");
  a.culprit_count = 1100;
  a.range = {Commit(std::string(40, 'c'), "broken \x1b[31m build"), a.culprit};
  r.answers.push_back(a);
  BenchmarkAnswer same;
  same.benchmark = "BM_Same";
  same.good_count = same.bad_count = 500;
  r.answers.push_back(same);
  SkippedCommit s;
  s.commit = a.range[0];
  s.reason = "the build command failed: exit status 1";
  s.log_tail = {"x.cc:1:1: error: nope"};
  r.skipped.push_back(s);
  return r;
}

TEST(Render, ARangeIsSaidNotGuessed) {
  const std::string out = RenderConsole(RangeReport());
  EXPECT_NE(out.find("BM_|Parse: changed in one of 2 commits, which skipped commits hide (1000 -> 1100 instructions, "
                     "+10.00%)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  cccccccccccc broken"), std::string::npos) << out;
  EXPECT_NE(out.find("  dddddddddddd newest of the range"), std::string::npos) << out;
  EXPECT_EQ(out.find("first changed at"), std::string::npos) << out;
  EXPECT_NE(out.find("BM_Same: unchanged between the ends (500 -> 500 instructions, +0.00%)"), std::string::npos)
      << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << "a commit subject reached the terminal raw";
  EXPECT_NE(out.find("    | x.cc:1:1: error: nope"), std::string::npos) << out;
}

TEST(Render, MarkdownAndJsonSayTheRange) {
  const BisectReport r = RangeReport();
  const std::string md = RenderMarkdown(r);
  EXPECT_NE(md.find("one of 2 commits `bbbbbbbbbbbb`..`dddddddddddd`"), std::string::npos) << md;
  EXPECT_NE(md.find("| BM\\_&#124;Parse |"), std::string::npos)
      << "a | in a name must not split the table's row: " << md;
  nlohmann::json j = nlohmann::json::parse(RenderJson(r));
  EXPECT_EQ(j["format"], "tare.bisect/1");
  EXPECT_FALSE(j["benchmarks"][0]["exact"].get<bool>());
  EXPECT_EQ(j["benchmarks"][0]["range"].size(), 2u);
  EXPECT_FALSE(j["benchmarks"][1]["changed"].get<bool>());
  EXPECT_FALSE(j["benchmarks"][1].contains("culprit"));
  EXPECT_EQ(j["skipped"][0]["log_tail"][0], "x.cc:1:1: error: nope");
}

// Time (wall): an INCONCLUSIVE step is said with the range still undecided, its campaign's figures
// and reason shown, never a culprit; a culprit's change carries its interval; the JSON says which.
BisectReport TimeReport() {
  BisectReport r;
  r.instrument = Instrument::kWall;
  r.allowance = 0.05;
  r.step_budget_ns = 60'000'000'000;
  r.store_path = "/c/tare.db";
  r.good = Commit(std::string(40, 'a'), "good");
  r.bad = Commit(std::string(40, 'f'), "bad");
  r.commits = 8;
  TimeChange fail;
  fail.outcome = TimeOutcome::kChanged;
  fail.verdict = "FAIL";
  fail.metric = "m";
  fail.estimate = 0.412;
  fail.lo = 0.39;
  fail.hi = 0.431;
  fail.pairs = 20;
  fail.run_id = 7;
  BenchmarkAnswer undecided;
  undecided.benchmark = "BM_Noisy";
  undecided.changed = true;
  undecided.inconclusive = true;
  undecided.ends_change = fail;
  undecided.last_same = Commit(std::string(40, 'b'), "same");
  undecided.culprit = Commit(std::string(40, 'd'), "changed");
  undecided.inconclusive_at = Commit(std::string(40, 'c'), "unclear \x1b[31m");
  undecided.inconclusive_change.outcome = TimeOutcome::kInconclusive;
  undecided.inconclusive_change.verdict = "INCONCLUSIVE";
  undecided.inconclusive_change.reason = "the interval straddles the allowance";
  undecided.range = {undecided.inconclusive_at, undecided.culprit};
  r.answers.push_back(undecided);
  BenchmarkAnswer exact;
  exact.benchmark = "BM_Slow";
  exact.changed = exact.exact = true;
  exact.ends_change = exact.culprit_change = fail;
  exact.culprit = Commit(std::string(40, 'e'), "slower");
  exact.last_same = r.good;
  r.answers.push_back(exact);
  return r;
}

TEST(Render, AnInconclusiveTimeStepIsSaidWithTheUndecidedRange) {
  const BisectReport r = TimeReport();
  EXPECT_TRUE(AnyInconclusive(r));
  const std::string out = RenderConsole(r);
  EXPECT_NE(out.find("time: a paired campaign per step (null arm, budget 60s), allowance 5%"), std::string::npos)
      << out;
  EXPECT_NE(out.find("BM_Noisy: INCONCLUSIVE at cccccccccccc unclear"), std::string::npos) << out;
  EXPECT_NE(out.find("the change lies in one of 2 commits, still undecided"), std::string::npos) << out;
  EXPECT_NE(out.find("why          the interval straddles the allowance"), std::string::npos) << out;
  EXPECT_EQ(out.find("BM_Noisy: first changed"), std::string::npos) << "never a guess: " << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << "a commit subject reaches the terminal raw";
  EXPECT_NE(out.find("BM_Slow: first changed at eeeeeeeeeeee slower"), std::string::npos) << out;
  EXPECT_NE(out.find("change       +41.20% [+39.00%, +43.10%] m (FAIL, 20 pairs"), std::string::npos) << out;
  EXPECT_NE(out.find("its parent   aaaaaaaaaaaa good (the good end)"), std::string::npos) << out;

  const nlohmann::json j = nlohmann::json::parse(RenderJson(r));
  EXPECT_EQ(j["instrument"], "wall");
  EXPECT_EQ(j["benchmarks"][0]["inconclusive"], true);
  EXPECT_EQ(j["benchmarks"][0]["inconclusive_at"]["commit"], std::string(40, 'c'));
  EXPECT_EQ(j["benchmarks"][0]["range"].size(), 2u);
  EXPECT_EQ(j["benchmarks"][1]["inconclusive"], false);
  EXPECT_EQ(j["benchmarks"][1]["change"]["lo"], 0.39);
  EXPECT_EQ(j["benchmarks"][1]["change_fraction"], 0.412);
  const std::string md = RenderMarkdown(r);
  EXPECT_NE(md.find("| BM_Noisy | INCONCLUSIVE at `cccccccccccc` | 2 commits undecided |"), std::string::npos) << md;
}

}  // namespace
}  // namespace tare::bisect
