#include "campaign/work_tier.h"

#include <gtest/gtest.h>

#include <random>

#include "campaign/analysis.h"

namespace tare::campaign {
namespace {

std::map<std::string, double> Counts(double ir, double cycles, double syscalls) {
  return {{"sim.Ir", ir}, {"sim.est_cycles", cycles}, {"sim.syscalls", syscalls}};
}

TEST(WorkTier, IdenticalCountsAreTheSameWork) {
  WorkChange w = CompareWork(Counts(1e6, 2e6, 3), Counts(1e6, 2e6, 3));
  EXPECT_TRUE(w.read);
  EXPECT_TRUE(w.same);
  EXPECT_DOUBLE_EQ(w.instructions, 0.0);
  EXPECT_NE(w.line.find("the same work"), std::string::npos) << w.line;
}

TEST(WorkTier, AFewHundredthsOfAPercentAreTheSameWorkATenthMoreIsNot) {
  // 1,000,000 -> 1,000,500 is +0.05%: an untouched function whose string moved (docs/sim.md).
  EXPECT_TRUE(CompareWork(Counts(1e6, 2e6, 0), Counts(1'000'500, 2'001'000, 0)).same);
  // +0.2% instructions: changed, whatever the cycles.
  WorkChange more = CompareWork(Counts(1e6, 2e6, 0), Counts(1'002'000, 2e6, 0));
  EXPECT_FALSE(more.same);
  EXPECT_NEAR(more.instructions, 0.002, 1e-12);
  EXPECT_NE(more.line.find("changed work"), std::string::npos) << more.line;
  // The same instructions with 1% more estimated cycles (the simulated caches missed more): changed.
  WorkChange cycles = CompareWork(Counts(1e6, 2e6, 0), Counts(1e6, 2'020'000, 0));
  EXPECT_FALSE(cycles.same);
  EXPECT_NEAR(cycles.cycles, 0.01, 1e-12);
  // One more system call: changed; none on either side: the same.
  EXPECT_FALSE(CompareWork(Counts(1e6, 2e6, 3), Counts(1e6, 2e6, 4)).same);
  EXPECT_FALSE(CompareWork(Counts(1e6, 2e6, 0), Counts(1e6, 2e6, 1)).same);
}

TEST(WorkTier, NoInstructionsIsNotARead) {
  WorkChange w = CompareWork({}, Counts(1e6, 2e6, 0));
  EXPECT_FALSE(w.read);
  EXPECT_FALSE(w.same);
}

TEST(WorkTier, ABaseThatDoesNotRepeatIsNotRead) {
  CellWork work;
  work.base = Counts(1e6, 2e6, 0);
  work.heads["head"] = Counts(1e6, 2e6, 0);
  ReadCellWork(Counts(1'000'001, 2e6, 0), &work);
  EXPECT_TRUE(work.measured);
  EXPECT_NE(work.error.find("not deterministic"), std::string::npos) << work.error;
  EXPECT_FALSE(work.Same());
}

TEST(WorkTier, EveryHeadMustDoTheSameWork) {
  CellWork work;
  work.base = Counts(1e6, 2e6, 0);
  work.heads["head"] = Counts(1e6, 2e6, 0);
  work.heads["head2"] = Counts(1.05e6, 2.1e6, 0);
  ReadCellWork(work.base, &work);
  EXPECT_TRUE(work.error.empty()) << work.error;
  ASSERT_EQ(work.changes.size(), 2u);
  EXPECT_TRUE(work.changes.at("head").same);
  EXPECT_FALSE(work.changes.at("head2").same);
  EXPECT_FALSE(work.Same());
  work.heads.erase("head2");
  work.changes.clear();
  ReadCellWork(work.base, &work);
  EXPECT_TRUE(work.Same());
}

TEST(WorkTier, TheAllowanceParsesAsAPercentageOrOff) {
  EXPECT_DOUBLE_EQ(*ParseSameWorkAllowance("10%"), 0.10);
  EXPECT_DOUBLE_EQ(*ParseSameWorkAllowance("2.5%"), 0.025);
  EXPECT_DOUBLE_EQ(*ParseSameWorkAllowance("off"), 0.0);
  EXPECT_FALSE(ParseSameWorkAllowance("noise").ok());
  EXPECT_FALSE(ParseSameWorkAllowance("10").ok());
  EXPECT_FALSE(ParseSameWorkAllowance("150%").ok());
  EXPECT_EQ(SameWorkAllowanceText(0.10), "10%");
  EXPECT_EQ(SameWorkAllowanceText(0), "off");
}

TEST(WorkTier, ASameWorkCellsTimeMetricIsJudgedAgainstTheAllowance) {
  AnalysisSettings s;
  s.heads = {"head"};
  s.null_arm = true;
  s.metrics = {{"wall_ns", Allowance::Noise(), std::nullopt}, {"sim.Ir", Allowance::Noise(), std::nullopt}};
  s.same_work["BM_Same"] = "the same work: instructions 1 → 1";
  s.same_work_allowance = 0.10;
  std::string note;
  Allowance a = EffectiveAllowance(s.metrics[0], "BM_Same", s, &note);
  EXPECT_FALSE(a.noise);
  EXPECT_DOUBLE_EQ(a.fraction, 0.10);
  EXPECT_EQ(note, "the same work: instructions 1 → 1");
  // Another cell, and a deterministic metric, keep their allowances.
  EXPECT_TRUE(EffectiveAllowance(s.metrics[0], "BM_Other", s, nullptr).noise);
  EXPECT_DOUBLE_EQ(EffectiveAllowance(s.metrics[1], "BM_Same", s, nullptr).fraction, kDeterministicAllowance);
  // A declared allowance larger than the same-work one stands.
  s.cell_allowances["BM_Same"]["wall_ns"] = Allowance::Fraction(0.20);
  EXPECT_DOUBLE_EQ(EffectiveAllowance(s.metrics[0], "BM_Same", s, nullptr).fraction, 0.20);
}

// A head 4% slower with the same work: FAIL at the campaign's allowance ("noise"), PASS within the
// same-work allowance, with the reading on the metric and the bound it certifies.
TEST(WorkTier, APlacementSlowdownFailsAtNoiseAndPassesWithTheSameWork) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 0.005);
  CellSamples samples;
  for (int64_t b = 0; b < 40; ++b) {
    for (const auto& [arm, change] : std::map<std::string, double>{{"base", 0.0}, {"head", 0.04}, {"null", 0.0}}) {
      Sample x;
      x.values["wall_ns"] = 1e7 * (1 + change) * (1 + noise(rng));
      samples[arm][b] = x;
    }
  }
  AnalysisSettings s;
  s.heads = {"head"};
  s.null_arm = true;
  s.metrics = {{"wall_ns", Allowance::Noise(), std::nullopt}};
  auto plain = JudgeCell(samples, "BM_Copy", CellRole::kTarget, 40, 1, 0.95, s);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].verdict, Verdict::kFail);

  s.same_work["BM_Copy"] = "the same work: instructions 1 → 1";
  s.same_work_allowance = 0.10;
  auto same = JudgeCell(samples, "BM_Copy", CellRole::kTarget, 40, 1, 0.95, s);
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0].verdict, Verdict::kPass);
  const AbMetricResult& m = same[0].metrics[0];
  EXPECT_EQ(m.allowance, "10%");
  EXPECT_GT(m.pass_bound, m.hi);  // the bound adds the null floor to the worse end
  EXPECT_LE(m.pass_bound, 0.10);
  EXPECT_GT(m.lo, 0.0);  // the slowdown is still shown, not hidden
  bool noted = false;
  for (const auto& r : m.reasons) noted = noted || r.find("the same work") != std::string::npos;
  EXPECT_TRUE(noted);

  // 15% slower with the same work is more than placement: it still FAILs.
  for (auto& [b, x] : samples["head"]) x.values["wall_ns"] *= 1.15 / 1.04;
  auto far = JudgeCell(samples, "BM_Copy", CellRole::kTarget, 40, 1, 0.95, s);
  EXPECT_EQ(far[0].verdict, Verdict::kFail);
}

}  // namespace
}  // namespace tare::campaign
