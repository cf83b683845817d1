// RunCheck and RunCounters with a scripted fake runner: the control flow (attempts, retries, what
// stops early) pinned deterministically. The same cases against real processes are in
// oracle_selftest_test.cc.
#include "oracle/check.h"

#include <gtest/gtest.h>

#include <functional>

#include "base/files.h"
#include "oracle/counters.h"

namespace tare::oracle {
namespace {

// Writes a scripted report as the trial's stdout. Call k (1-based) gets script(k).
class FakeRunner : public TrialRunner {
 public:
  struct Reply {
    bool ok = true;
    std::string stdout_text;
  };
  explicit FakeRunner(std::function<Reply(int)> script) : script_(std::move(script)) {}
  StatusOr<TrialOutcome> Run(const TrialSpec& spec) override {
    Reply reply = script_(++calls_);
    TARE_RETURN_IF_ERROR(WriteFileAtomic(spec.stdout_path, reply.stdout_text));
    TARE_RETURN_IF_ERROR(WriteFileAtomic(spec.stderr_path, reply.ok ? "" : "boom\n"));
    TrialOutcome o;
    o.ok = reply.ok;
    if (!reply.ok) o.failure = "exit status 3";
    return o;
  }
  int calls() const { return calls_; }

 private:
  std::function<Reply(int)> script_;
  int calls_ = 0;
};

class CheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = MakeTempDir("oracle-check");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
    golden_ = dir_ + "/golden.txt";
    ASSERT_TRUE(WriteGolden(golden_, Golden{{"# h"}, {"a", "m"}}).ok());
  }
  void TearDown() override { RemoveTree(dir_); }

  StatusOr<CheckResult> Check(FakeRunner& runner, CheckOptions o) {
    if (o.golden_path.empty()) o.golden_path = golden_;
    auto session =
        TrialSession::Create(&runner, OracleCommand{{"/bin/true"}, "", 0}, dir_ + "/run" + std::to_string(++runs_));
    if (!session.ok()) return session.status();
    return RunCheck(*session, o);
  }

  std::string dir_, golden_;
  int runs_ = 0;
};

FakeRunner::Reply With(bool m) { return {true, m ? "# h\na\nm\n" : "# h\na\n"}; }

TEST_F(CheckTest, MatchOnTheFirstAttemptRunsOnlyThatAttempt) {
  FakeRunner runner([](int k) { return With(k != 2); });  // 8 of 9 show m
  auto r = Check(runner, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->verdict, CheckVerdict::kMatch);
  EXPECT_EQ(runner.calls(), 9);
  EXPECT_EQ(r->processes, 9);
  EXPECT_EQ(r->attempts.size(), 1u);
}

TEST_F(CheckTest, AFlipIsAbsorbedByTheRetry) {
  FakeRunner runner([](int k) { return With(k <= 4 || k >= 10); });  // attempt 1: 4/9, attempt 2: 9/9
  auto r = Check(runner, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->verdict, CheckVerdict::kMatch);
  EXPECT_EQ(runner.calls(), 18);
  ASSERT_EQ(r->attempts.size(), 2u);
  EXPECT_FALSE(r->attempts[0].comparison->match());
  std::string text = FormatCheckResult(*r);
  EXPECT_NE(text.find("attempt 1: MISMATCH"), std::string::npos) << text;
  EXPECT_NE(text.find("- m"), std::string::npos) << text;
  EXPECT_NE(text.find("result: MATCH on attempt 2 of 2 (18 processes)"), std::string::npos) << text;
}

TEST_F(CheckTest, ARealChangeFailsEveryAttempt) {
  FakeRunner runner([](int) { return FakeRunner::Reply{true, "# h\na\nm2\n"}; });
  CheckOptions o;
  o.retries = 2;
  auto r = Check(runner, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->verdict, CheckVerdict::kMismatch);
  EXPECT_EQ(runner.calls(), 27);
  std::string text = FormatCheckResult(*r);
  EXPECT_NE(text.find("result: MISMATCH on every attempt (3 of 3, 27 processes)"), std::string::npos) << text;
  EXPECT_NE(text.find("2 items differed every time: m, ..."), std::string::npos) << text;
}

TEST_F(CheckTest, AHeaderChangeAgainstTheGoldenSpendsNoRetry) {
  FakeRunner runner([](int) { return FakeRunner::Reply{true, "# h2\na\nm\n"}; });
  auto r = Check(runner, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->verdict, CheckVerdict::kMismatch);
  EXPECT_EQ(runner.calls(), 9);
  EXPECT_NE(FormatCheckResult(*r).find("no retry was spent"), std::string::npos);
}

TEST_F(CheckTest, HeadersDifferingBetweenTrialsStopTheCheck) {
  FakeRunner runner([](int k) { return FakeRunner::Reply{true, k == 5 ? "# h\n# jit=off\na\n" : "# h\na\nm\n"}; });
  auto r = Check(runner, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->verdict, CheckVerdict::kNondeterministicHeader);
  EXPECT_EQ(runner.calls(), 9);
  std::string text = FormatCheckResult(*r);
  EXPECT_NE(text.find("trials 1-4, 6-9:"), std::string::npos) << text;
  EXPECT_NE(text.find("trials 5:\n    # jit=off"), std::string::npos) << text;
}

TEST_F(CheckTest, AFailingTrialIsAnErrorNotASpentAttempt) {
  FakeRunner runner([](int k) { return k == 3 ? FakeRunner::Reply{false, ""} : With(true); });
  auto r = Check(runner, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(runner.calls(), 3);
  EXPECT_NE(r.status().message().find("exit status 3"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("boom"), std::string::npos) << r.status().message();
}

TEST_F(CheckTest, AnEmptyReportIsAnError) {
  FakeRunner runner([](int) { return FakeRunner::Reply{true, "## only a note\n"}; });
  auto r = Check(runner, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(runner.calls(), 1);
}

TEST_F(CheckTest, AMissingGoldenRunsNothing) {
  FakeRunner runner([](int) { return With(true); });
  CheckOptions o;
  o.golden_path = dir_ + "/absent.txt";
  auto r = Check(runner, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(runner.calls(), 0);
  EXPECT_NE(r.status().message().find("--accept"), std::string::npos);
}

TEST_F(CheckTest, EvenTrialCountsAreRefused) {
  FakeRunner runner([](int) { return With(true); });
  CheckOptions o;
  o.trials = 8;
  auto r = Check(runner, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(runner.calls(), 0);
}

TEST_F(CheckTest, AcceptWritesTheVoteAndKeepsTheVotes) {
  FakeRunner runner([](int k) { return FakeRunner::Reply{true, k % 3 ? "# h\na\nnew\n" : "# h\na\n"}; });
  CheckOptions o;
  o.golden_path = dir_ + "/fresh.txt";
  o.accept = true;
  auto r = Check(runner, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->verdict, CheckVerdict::kAccepted);
  EXPECT_EQ(runner.calls(), 9);
  auto g = ReadGolden(o.golden_path);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->items, (std::set<std::string>{"a", "new"}));
  auto votes = ReadFile(r->run_dir + "/attempt-1/votes.txt");
  ASSERT_TRUE(votes.ok());
  EXPECT_NE(votes->find("6/9 new\n"), std::string::npos) << *votes;
  EXPECT_NE(FormatCheckResult(*r).find("not unanimous"), std::string::npos);
}

TEST_F(CheckTest, QuarantineIsListedWithItsReasonAndUnusedEntriesAreNoted) {
  auto q = Quarantine::Parse("tare-oracle-quarantine v1\nitem: m\nreason: p ~ 0.6, see #346\nitem: gone\nreason: old\n",
                             "q.txt");
  ASSERT_TRUE(q.ok());
  FakeRunner runner([](int k) { return With(k <= 2); });  // m voted absent, golden has it
  CheckOptions o;
  o.quarantine = &*q;
  auto r = Check(runner, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->verdict, CheckVerdict::kMatch);
  std::string text = FormatCheckResult(*r);
  EXPECT_NE(text.find("m  golden: present  vote: absent (2/9 trials)\n      reason: p ~ 0.6, see #346"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("note: quarantine item 'gone'"), std::string::npos) << text;
}

TEST_F(CheckTest, CountersNeedByteStabilityThenAnExactMatch) {
  const std::string golden = dir_ + "/counters.txt";
  ASSERT_TRUE(WriteCountersGolden(golden, "instructions 5\n").ok());
  auto run = [&](std::function<FakeRunner::Reply(int)> script) {
    FakeRunner runner(std::move(script));
    auto session =
        TrialSession::Create(&runner, OracleCommand{{"/bin/true"}, "", 0}, dir_ + "/c" + std::to_string(++runs_));
    EXPECT_TRUE(session.ok());
    auto r = RunCounters(*session, CountersOptions{golden, false});
    EXPECT_EQ(runner.calls(), 2);
    return r;
  };
  auto same = run([](int) { return FakeRunner::Reply{true, "instructions 5\n"}; });
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->verdict, CountersVerdict::kMatch);
  auto changed = run([](int) { return FakeRunner::Reply{true, "instructions 6\n"}; });
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(changed->verdict, CountersVerdict::kMismatch);
  EXPECT_NE(changed->diff.find("+     1| instructions 6"), std::string::npos) << changed->diff;
  auto unstable = run([](int k) { return FakeRunner::Reply{true, "instructions " + std::to_string(k) + "\n"}; });
  ASSERT_TRUE(unstable.ok());
  EXPECT_EQ(unstable->verdict, CountersVerdict::kNotByteStable);
}

TEST(FormatTrialList, CompressesRuns) {
  EXPECT_EQ(FormatTrialList({1, 2, 3, 5, 7, 8}), "1-3, 5, 7-8");
  EXPECT_EQ(FormatTrialList({4}), "4");
}

}  // namespace
}  // namespace tare::oracle
