#include "campaign/exact_plan.h"

#include <gtest/gtest.h>

namespace tare::campaign {
namespace {

Sample Ir(double instructions) {
  Sample s;
  s.values["sim.Ir"] = instructions;
  return s;
}

AnalysisSettings ExactSimSettings(bool null_arm) {
  AnalysisSettings a;
  a.heads = {"head"};
  a.null_arm = null_arm;
  a.metrics = {{"sim.Ir", Allowance::Noise(), std::nullopt}};
  return a;
}

TEST(ExactPlan, AppliesToUndeclaredPlansOfDeterministicMetricsOnly) {
  CampaignSpec spec;
  spec.instrument = Instrument::kSim;
  EXPECT_TRUE(ExactPlanApplies(spec)) << "sim at defaults: sim.Ir";
  spec.instrument = Instrument::kMem;
  EXPECT_TRUE(ExactPlanApplies(spec)) << "mem at defaults: mem.allocs, mem.peak_live_bytes";
  spec.metrics = {{"mem.allocs", Allowance::Noise(), std::nullopt}, {"wall_ns", Allowance::Noise(), std::nullopt}};
  EXPECT_FALSE(ExactPlanApplies(spec)) << "wall_ns varies: the statistical plan";
  spec.metrics.clear();
  spec.instrument = Instrument::kWall;
  EXPECT_FALSE(ExactPlanApplies(spec));
  spec.instrument = Instrument::kSim;
  spec.sampling_declared = true;
  EXPECT_FALSE(ExactPlanApplies(spec)) << "--samples/--cap are honoured";
  EXPECT_EQ(ExactPlanBlocks(true), 1);
  EXPECT_EQ(ExactPlanBlocks(false), 2);
}

TEST(ExactPlan, TheIdentityMarksTheExactPlanAndRoundTrips) {
  CampaignSpec spec;
  spec.base = "/b";
  spec.heads = {"/h"};
  spec.instrument = Instrument::kSim;
  EXPECT_EQ(SpecToJson(spec)["sampling_plan"], "exact-v1");
  auto back = SpecFromJson(SpecToJson(spec));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_FALSE(back->sampling_declared);
  EXPECT_EQ(CampaignIdentity(*back), CampaignIdentity(spec));
  spec.sampling_declared = true;
  EXPECT_FALSE(SpecToJson(spec).contains("sampling_plan")) << "the identity of every other campaign is unchanged";
  back = SpecFromJson(SpecToJson(spec));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->sampling_declared) << "a stored spec without the mark ran the statistical plan";
}

TEST(ExactPlan, BaseAndNullMustReadTheSame) {
  CellSamples s;
  s["base"][0] = Ir(1000);
  s["head"][0] = Ir(1005);
  s["null"][0] = Ir(1000);
  EXPECT_EQ(DeterminismCheck(s, 1, ExactSimSettings(true)), "");
  s["null"][0] = Ir(1001);
  EXPECT_EQ(DeterminismCheck(s, 1, ExactSimSettings(true)),
            "sim.Ir differs between base and its rerun, the null arm, in block 0: 1000 against 1001 (+0.10%)");
  s["null"][0].outcome = SampleOutcome::kFailed;
  EXPECT_EQ(DeterminismCheck(s, 1, ExactSimSettings(true)), "null block 0 has no sim.Ir (a failed or missing sample)");
}

TEST(ExactPlan, WithoutANullArmEveryArmRunsTwice) {
  CellSamples s;
  s["base"][0] = Ir(1000);
  s["head"][0] = Ir(990);
  s["base"][1] = Ir(1000);
  s["head"][1] = Ir(990);
  EXPECT_EQ(DeterminismCheck(s, 2, ExactSimSettings(false)), "");
  s["head"][1] = Ir(991);
  EXPECT_EQ(DeterminismCheck(s, 2, ExactSimSettings(false)),
            "sim.Ir of head differs between blocks 0 and 1: 990 against 991 (+0.10%)");
}

TEST(ExactPlan, JudgesTheChangeItself) {
  CellSamples s;
  s["base"][0] = Ir(100000);
  s["head"][0] = Ir(100500);
  s["null"][0] = Ir(100000);
  auto c = JudgeCellExact(s, "cell", CellRole::kTarget, 1, ExactSimSettings(true));
  ASSERT_EQ(c.size(), 1u);
  const AbMetricResult& m = c[0].metrics[0];
  EXPECT_EQ(c[0].verdict, Verdict::kFail);
  EXPECT_TRUE(m.exact);
  EXPECT_EQ(m.pairs, 1);
  EXPECT_NEAR(m.estimate, 0.005, 1e-12);
  EXPECT_EQ(m.lo, m.estimate);
  EXPECT_EQ(m.hi, m.estimate);
  EXPECT_EQ(m.confidence, 1.0) << "an exact verdict has no confidence level (the JSON writes null)";
  EXPECT_EQ(m.allowance, "0.1%") << "noise of a deterministic metric";
  EXPECT_EQ(m.null_lo, 0.0);
  EXPECT_EQ(m.base_median, 100000);
  EXPECT_EQ(m.head_median, 100500);

  s["head"][0] = Ir(100000);
  c = JudgeCellExact(s, "cell", CellRole::kTarget, 1, ExactSimSettings(true));
  EXPECT_EQ(c[0].verdict, Verdict::kPass);
  EXPECT_EQ(c[0].metrics[0].pass_bound, 0.0);
}

}  // namespace
}  // namespace tare::campaign
