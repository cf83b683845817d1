#include "campaign/analysis.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <random>

namespace tare::campaign {
namespace {

Sample Ok(double wall_ns) {
  Sample s;
  s.values["wall_ns"] = wall_ns;
  return s;
}

// `blocks` blocks: base ~ 10 ms with 1% noise, head = base-like * (1 + change), null like base.
CellSamples Synthetic(int64_t blocks, double change, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.01);
  CellSamples s;
  for (int64_t b = 0; b < blocks; ++b) {
    s["base"][b] = Ok(10e6 * (1 + noise(rng)));
    s["head"][b] = Ok(10e6 * (1 + change) * (1 + noise(rng)));
    s["null"][b] = Ok(10e6 * (1 + noise(rng)));
  }
  return s;
}

AnalysisSettings Settings(const std::string& allowance, bool null_arm = true) {
  AnalysisSettings a;
  a.heads = {"head"};
  a.null_arm = null_arm;
  a.metrics = {{"wall_ns", *ParseAllowance(allowance), std::nullopt}};
  return a;
}

TEST(Analysis, AClearRegressionFails) {
  auto c = JudgeCell(Synthetic(40, 0.05), "cell", CellRole::kTarget, 40, 4, 0.9875, Settings("noise"));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].verdict, Verdict::kFail);
  ASSERT_EQ(c[0].metrics.size(), 1u);
  const auto& m = c[0].metrics[0];
  EXPECT_EQ(m.pairs, 40);
  EXPECT_NEAR(m.estimate, 0.05, 0.01);
  EXPECT_LT(m.lo, m.estimate);
  EXPECT_GT(m.hi, m.estimate);
  EXPECT_GT(m.noise_floor, 0.0);
  EXPECT_DOUBLE_EQ(m.delta, m.noise_floor);
  EXPECT_NEAR(m.base_median, 10e6, 0.2e6);
  EXPECT_FALSE(c[0].supported_gain);
}

TEST(Analysis, AClearGainIsSupportedAndPasses) {
  auto c = JudgeCell(Synthetic(40, -0.05), "cell", CellRole::kTarget, 40, 4, 0.9875, Settings("noise"));
  EXPECT_EQ(c[0].verdict, Verdict::kPass);
  EXPECT_TRUE(c[0].supported_gain);
  EXPECT_TRUE(c[0].metrics[0].supported_gain);
}

TEST(Analysis, AnUndecidedGainAsksForMorePairs) {
  AbMetricResult m;
  m.direction = Direction::kLowerIsBetter;
  m.noise_floor = 0.015;
  m.estimate = -0.025;
  m.lo = -0.04;
  m.hi = -0.01;  // reaches back across -1.5%
  AbComparison c;
  c.verdict = Verdict::kPass;
  c.metrics = {m};
  EXPECT_TRUE(GainUndecided(m));
  EXPECT_TRUE(NeedsMorePairs({c}));
  c.metrics[0].hi = -0.02;  // all beyond the floor: JudgeMetric would call it supported
  c.metrics[0].supported_gain = true;
  EXPECT_FALSE(NeedsMorePairs({c}));
  c.metrics[0] = m;
  c.metrics[0].estimate = -0.01;  // the estimate itself is within the noise: no gain to chase
  EXPECT_FALSE(NeedsMorePairs({c}));
  c.metrics[0] = m;
  c.verdict = Verdict::kFail;  // final whatever the gains
  EXPECT_FALSE(NeedsMorePairs({c}));
  // With a null arm: an estimate within what two copies of base differ by is not chased (issue 42),
  // one beyond it is.
  c.verdict = Verdict::kPass;
  c.metrics[0] = m;
  c.metrics[0].has_null = true;
  c.metrics[0].null_lo = -0.03;
  c.metrics[0].null_hi = 0.01;
  EXPECT_FALSE(GainUndecided(c.metrics[0]));
  EXPECT_FALSE(NeedsMorePairs({c}));
  c.metrics[0].null_lo = -0.02;
  EXPECT_TRUE(GainUndecided(c.metrics[0]));
  m.direction = Direction::kHigherIsBetter;  // throughput: +2.5% better
  m.estimate = 0.025;
  m.lo = 0.01;
  m.hi = 0.04;
  EXPECT_TRUE(GainUndecided(m));
}

TEST(Analysis, OnlyTheFirstBlocksAreJudged) {
  CellSamples s = Synthetic(40, 0.05);
  auto c = JudgeCell(s, "cell", CellRole::kTarget, 10, 1, 0.9875, Settings("noise"));
  EXPECT_EQ(c[0].metrics[0].pairs, 10);
  EXPECT_EQ(c[0].blocks, 10);
  EXPECT_EQ(c[0].looks, 1);
}

TEST(Analysis, TooFewPairsIsInconclusiveWithTheReason) {
  auto c = JudgeCell(Synthetic(5, 0.5), "cell", CellRole::kTarget, 5, 1, 0.95, Settings("2%"));
  EXPECT_EQ(c[0].verdict, Verdict::kInconclusive);
  EXPECT_TRUE(std::isnan(c[0].metrics[0].lo));
  EXPECT_NE(c[0].metrics[0].reasons[0].find("n=5 pairs cannot give a 95% sign-test interval"), std::string::npos)
      << c[0].metrics[0].reasons[0];
  EXPECT_TRUE(NeedsMorePairs(c));
}

TEST(Analysis, AHeadThatFailsWhereBaseRunsIsAFail) {
  CellSamples s = Synthetic(20, 0.0);
  s["head"][3].outcome = SampleOutcome::kFailed;
  s["head"][3].error = "exit status 3";
  auto c = JudgeCell(s, "cell", CellRole::kTarget, 20, 2, 0.9875, Settings("5%"));
  EXPECT_EQ(c[0].verdict, Verdict::kFail);
  ASSERT_EQ(c[0].reasons.size(), 1u);
  EXPECT_EQ(c[0].reasons[0],
            "FAIL: head failed 1 of 20 samples where base failed none (first: head block 3: exit status 3)");
  EXPECT_EQ(c[0].metrics[0].pairs, 19) << "the block with the failure is left out";
  EXPECT_FALSE(NeedsMorePairs(c));
}

// Every arm fails the first block: the cell cannot be measured, and says so once, with the error.
TEST(Analysis, ABenchmarkBrokenInEveryArmCannotBeMeasured) {
  CellSamples s;
  for (const char* arm : {"base", "head", "null"}) {
    s[arm][0].outcome = SampleOutcome::kFailed;
    s[arm][0].error = "benchmark 'BM_X' reported an error: cannot open data.txt";
    s[arm][0].stderr_tail = "Running ./base\n";
  }
  auto c = JudgeCell(s, "BM_X", CellRole::kTarget, 1, 0, 0.9875, Settings("noise"));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].verdict, Verdict::kInconclusive);
  EXPECT_TRUE(c[0].broken.cannot_be_measured());
  EXPECT_EQ(c[0].broken.arms, (std::vector<std::string>{"base", "head", "null"}));
  EXPECT_EQ(c[0].broken.samples, 1);
  EXPECT_EQ(c[0].broken.stderr_tail, "Running ./base\n");
  ASSERT_EQ(c[0].reasons.size(), 1u);
  EXPECT_EQ(c[0].reasons[0],
            "BROKEN, cannot be measured: base, head and null failed every sample (1 of 1); base fails too, so "
            "it is broken without the change: benchmark 'BM_X' reported an error: cannot open data.txt");
  EXPECT_EQ(c[0].failed_samples, 3);
  EXPECT_FALSE(c[0].metrics[0].host_too_noisy) << "no null interval for want of pairs says nothing of the host";
}

TEST(Analysis, BaseBrokenWhileTheHeadRunsCannotBeMeasuredEither) {
  CellSamples s = Synthetic(3, 0.0);
  for (int64_t b = 0; b < 3; ++b) {
    for (const char* arm : {"base", "null"}) {
      s[arm][b].outcome = SampleOutcome::kSignaled;
      s[arm][b].error = "killed by signal 6 (SIGABRT)";
    }
  }
  auto c = JudgeCell(s, "cell", CellRole::kTarget, 3, 0, 0.9875, Settings("noise"));
  EXPECT_EQ(c[0].verdict, Verdict::kInconclusive);
  EXPECT_TRUE(c[0].broken.cannot_be_measured());
  EXPECT_NE(c[0].reasons[0].find("base and null failed every sample (3 of 3) while head ran, so there is no base"),
            std::string::npos)
      << c[0].reasons[0];
}

// Base runs, the head fails every sample: a regression in the most basic sense.
TEST(Analysis, AHeadBrokenWhereBaseRunsIsAFail) {
  CellSamples s = Synthetic(3, 0.0);
  for (int64_t b = 0; b < 3; ++b) {
    s["head"][b].outcome = SampleOutcome::kSignaled;
    s["head"][b].error = "killed by signal 11 (SIGSEGV)";
  }
  auto c = JudgeCell(s, "cell", CellRole::kTarget, 3, 0, 0.9875, Settings("noise"));
  EXPECT_EQ(c[0].verdict, Verdict::kFail);
  EXPECT_TRUE(c[0].broken.any());
  EXPECT_FALSE(c[0].broken.cannot_be_measured());
  EXPECT_EQ(
      c[0].reasons[0],
      "BROKEN in the head, a FAIL: head failed every sample (3 of 3) where base ran: killed by signal 11 (SIGSEGV)");
}

// A head that crashes in some samples is not broken: its failures are counted, and it FAILs.
TEST(Analysis, AHeadThatCrashesSometimesShowsItsFailedSamples) {
  CellSamples s = Synthetic(20, 0.0);
  for (int64_t b : {0, 4, 7, 12}) {
    s["head"][b].outcome = SampleOutcome::kSignaled;
    s["head"][b].error = "killed by signal 11 (SIGSEGV)";
  }
  auto c = JudgeCell(s, "cell", CellRole::kTarget, 20, 1, 0.9875, Settings("5%"));
  EXPECT_FALSE(c[0].broken.any());
  EXPECT_EQ(c[0].verdict, Verdict::kFail);
  EXPECT_EQ(c[0].failed_samples, 4);
  EXPECT_EQ(c[0].reasons[0],
            "FAIL: head failed 4 of 20 samples where base failed none (first: head block 0: "
            "killed by signal 11 (SIGSEGV))");
}

TEST(Analysis, OtherFailuresKeepAPassFromBeingCertified) {
  CellSamples s = Synthetic(20, 0.0);
  s["null"][0].outcome = SampleOutcome::kSignaled;
  s["null"][0].error = "killed by signal 9";
  auto c = JudgeCell(s, "cell", CellRole::kTarget, 20, 2, 0.9875, Settings("5%"));
  EXPECT_EQ(c[0].metrics[0].verdict, Verdict::kPass);
  EXPECT_EQ(c[0].verdict, Verdict::kInconclusive);
  EXPECT_EQ(c[0].failed_samples, 1);
}

TEST(Analysis, WithoutANullArmTheAllowanceAloneCounts) {
  auto c = JudgeCell(Synthetic(40, 0.0), "cell", CellRole::kTarget, 40, 4, 0.9875, Settings("3%", false));
  EXPECT_EQ(c[0].verdict, Verdict::kPass);
  EXPECT_FALSE(c[0].metrics[0].has_null);
  EXPECT_DOUBLE_EQ(c[0].metrics[0].delta, 0.03);
  EXPECT_TRUE(std::isnan(c[0].metrics[0].null_lo));
}

TEST(Analysis, EveryHeadIsJudgedOnItsOwn) {
  CellSamples s = Synthetic(30, 0.05);
  std::mt19937_64 rng(9);
  std::normal_distribution<double> noise(0.0, 0.01);
  for (int64_t b = 0; b < 30; ++b) s["hd02"][b] = Ok(10e6 * (1 + noise(rng)));
  AnalysisSettings a = Settings("2%");
  a.heads = {"head", "hd02"};
  auto c = JudgeCell(s, "cell", CellRole::kTarget, 30, 3, 0.9875, a);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].head, "head");
  EXPECT_EQ(c[0].verdict, Verdict::kFail);
  EXPECT_EQ(c[1].head, "hd02");
  EXPECT_EQ(c[1].verdict, Verdict::kPass);
}

TEST(Analysis, DirectionOverridesAreHonoured) {
  CellSamples s;
  for (int64_t b = 0; b < 20; ++b) {
    s["base"][b].values["gb.counter.items_per_second"] = 1000 + b;
    s["head"][b].values["gb.counter.items_per_second"] = (1000 + b) * 0.9;  // 10% fewer items/s
  }
  AnalysisSettings a;
  a.heads = {"head"};
  a.metrics = {{"gb.counter.items_per_second", Allowance::Fraction(0.02), Direction::kHigherIsBetter}};
  auto c = JudgeCell(s, "cell", CellRole::kTarget, 20, 1, 0.95, a);
  EXPECT_EQ(c[0].verdict, Verdict::kFail);
  a.metrics[0].direction = Direction::kLowerIsBetter;
  c = JudgeCell(s, "cell", CellRole::kTarget, 20, 1, 0.95, a);
  EXPECT_EQ(c[0].verdict, Verdict::kPass);
  EXPECT_TRUE(c[0].supported_gain);
}

// Issue 10 §5: under --instrument sim the null arm is exactly 0, so "noise" would FAIL any change
// at all. A deterministic metric's "noise" is kDeterministicAllowance (0.1%); changes within it are
// reported as changed, not failed, and a cell may set its own.
CellSamples Exact(int64_t blocks, double change) {
  CellSamples s;
  for (int64_t b = 0; b < blocks; ++b) {
    for (const char* arm : {"base", "null"}) s[arm][b].values["sim.Ir"] = 1e9;
    s["head"][b].values["sim.Ir"] = 1e9 * (1 + change);
  }
  return s;
}

AnalysisSettings SimSettings() {
  AnalysisSettings a;
  a.heads = {"head"};
  a.null_arm = true;
  a.metrics = {{"sim.Ir", Allowance::Noise(), std::nullopt}};
  return a;
}

TEST(Analysis, DeterministicMetricsGetASmallDefaultAllowance) {
  // +0.03%: an untouched cell whose code moved. Changed, within 0.1%: a PASS that says so.
  auto small = JudgeCell(Exact(8, 0.0003), "decompress", CellRole::kTarget, 8, 1, 0.95, SimSettings());
  const auto& m = small[0].metrics[0];
  EXPECT_EQ(m.verdict, Verdict::kPass);
  EXPECT_TRUE(m.changed);
  EXPECT_EQ(m.allowance, "0.1%");
  // A PASS certifies what the data support: exactly +0.03% (issue 21), within the 0.1% allowance.
  EXPECT_NEAR(m.pass_bound, 0.0003, 1e-9);
  ASSERT_EQ(m.reasons.size(), 3u);
  EXPECT_EQ(m.reasons[0],
            "no regression beyond +0.03%: the whole interval [+0.03%, +0.03%] is within the declared "
            "allowance +0.10%");
  EXPECT_EQ(m.reasons[1], "changed: the whole interval [+0.03%, +0.03%] is off 0");
  EXPECT_NE(m.reasons[2].find("sim.Ir is deterministic"), std::string::npos) << m.reasons[2];
  // +0.5% is a real change: FAIL.
  EXPECT_EQ(JudgeCell(Exact(8, 0.005), "compress", CellRole::kTarget, 8, 1, 0.95, SimSettings())[0].verdict,
            Verdict::kFail);
  // Identical counts: a PASS, not changed.
  auto same = JudgeCell(Exact(8, 0.0), "x", CellRole::kTarget, 8, 1, 0.95, SimSettings());
  EXPECT_EQ(same[0].verdict, Verdict::kPass);
  EXPECT_FALSE(same[0].metrics[0].changed);
  // Timing metrics keep "noise" as it is.
  std::string note;
  EXPECT_TRUE(EffectiveAllowance({"wall_ns", Allowance::Noise(), std::nullopt}, "x", SimSettings(), &note).noise);
  EXPECT_TRUE(note.empty());
}

TEST(Analysis, ACellsOwnAllowanceWins) {
  AnalysisSettings s = SimSettings();
  s.cell_allowances["compress"]["sim.Ir"] = Allowance::Fraction(0.01);
  EXPECT_EQ(JudgeCell(Exact(8, 0.005), "compress", CellRole::kTarget, 8, 1, 0.95, s)[0].verdict, Verdict::kPass);
  EXPECT_EQ(JudgeCell(Exact(8, 0.005), "other", CellRole::kTarget, 8, 1, 0.95, s)[0].verdict, Verdict::kFail);
  // A declared allowance on the metric replaces the deterministic default.
  s.metrics[0].allowance = Allowance::Fraction(0.0);
  EXPECT_EQ(JudgeCell(Exact(8, 0.0003), "other", CellRole::kTarget, 8, 1, 0.95, s)[0].verdict, Verdict::kFail);
}

}  // namespace
}  // namespace tare::campaign

namespace tare::campaign {
namespace {

// wall_ns and perf.instructions measured together, as on a host with hardware counters: the time
// changes by `time_change`, the instructions by `instr_change`, each with its own small noise.
CellSamples TimeAndInstructions(double time_change, double instr_change) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 0.002), count_noise(0.0, 0.0001);
  CellSamples s;
  for (int64_t b = 0; b < 30; ++b) {
    for (const char* arm : {"base", "head"}) {
      const bool head = std::string(arm) == "head";
      Sample x;
      x.values["wall_ns"] = 20e6 * (head ? 1 + time_change : 1.0) * (1 + noise(rng));
      x.values["perf.instructions"] = 5e7 * (head ? 1 + instr_change : 1.0) * (1 + count_noise(rng));
      s[arm][b] = x;
    }
  }
  return s;
}

AnalysisSettings TimeAndInstructionSettings() {
  AnalysisSettings a;
  a.heads = {"head"};
  a.metrics = {{"wall_ns", Allowance::Fraction(0.01), std::nullopt},
               {"perf.instructions", Allowance::Fraction(0.01), std::nullopt}};
  return a;
}

TEST(AnalysisTest, LayoutHintNamesATimeChangeWithoutAnInstructionChange) {
  auto c =
      JudgeCell(TimeAndInstructions(0.03, 0.0), "parse", CellRole::kTarget, 30, 1, 0.95, TimeAndInstructionSettings());
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].metrics[0].verdict, Verdict::kFail);
  EXPECT_NEAR(c[0].metrics[0].estimate, 0.03, 0.002);
  EXPECT_NE(c[0].layout_hint.find(
                fmt::format("likely a layout effect: wall_ns changed {:+.2f}%", c[0].metrics[0].estimate * 100)),
            std::string::npos)
      << c[0].layout_hint;
  EXPECT_NE(c[0].layout_hint.find("while perf.instructions changed +0.0"), std::string::npos) << c[0].layout_hint;
  EXPECT_NE(c[0].layout_hint.find("took longer"), std::string::npos) << c[0].layout_hint;
  EXPECT_NE(c[0].layout_hint.find("--layouts 4"), std::string::npos);
  // A gain the same way: "less time".
  auto gain =
      JudgeCell(TimeAndInstructions(-0.03, 0.0), "parse", CellRole::kTarget, 30, 1, 0.95, TimeAndInstructionSettings());
  EXPECT_TRUE(gain[0].supported_gain);
  EXPECT_NE(gain[0].layout_hint.find("took less time"), std::string::npos) << gain[0].layout_hint;
}

TEST(AnalysisTest, LayoutHintStaysSilentWhenTheInstructionsExplainTheTime) {
  // Time and instructions both +3%: the code does more work.
  auto more_work =
      JudgeCell(TimeAndInstructions(0.03, 0.03), "p", CellRole::kTarget, 30, 1, 0.95, TimeAndInstructionSettings());
  EXPECT_EQ(more_work[0].verdict, Verdict::kFail);
  EXPECT_EQ(more_work[0].layout_hint, "");
  // Instructions +1% (outside ±0.5%) under a time change of +3%: not "no instruction change".
  auto some =
      JudgeCell(TimeAndInstructions(0.03, 0.01), "p", CellRole::kTarget, 30, 1, 0.95, TimeAndInstructionSettings());
  EXPECT_EQ(some[0].layout_hint, "");
  // No time verdict to explain: nothing to say.
  auto same =
      JudgeCell(TimeAndInstructions(0.0, 0.0), "p", CellRole::kTarget, 30, 1, 0.95, TimeAndInstructionSettings());
  EXPECT_EQ(same[0].verdict, Verdict::kPass);
  EXPECT_EQ(same[0].layout_hint, "");
  // Without an instruction metric there is no hint, whatever the time does.
  AnalysisSettings time_only = TimeAndInstructionSettings();
  time_only.metrics.pop_back();
  EXPECT_EQ(JudgeCell(TimeAndInstructions(0.03, 0.0), "p", CellRole::kTarget, 30, 1, 0.95, time_only)[0].layout_hint,
            "");
}

}  // namespace
}  // namespace tare::campaign
