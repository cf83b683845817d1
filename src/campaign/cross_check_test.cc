#include "campaign/cross_check.h"

#include <gtest/gtest.h>

namespace tare::campaign {
namespace {

AbMetricResult Time(double estimate, Verdict verdict, bool gain = false) {
  AbMetricResult m;
  m.metric = "perf.task_clock_ns";
  m.direction = Direction::kLowerIsBetter;
  m.estimate = estimate;
  m.verdict = verdict;
  m.supported_gain = gain;
  return m;
}

std::map<std::string, double> Sim(double ir, double d1mr, double dlmr, double cycles) {
  return {{"sim.Ir", ir},     {"sim.I1mr", 10}, {"sim.D1mr", d1mr},       {"sim.D1mw", 0},
          {"sim.ILmr", 10},   {"sim.DLmr", dlmr}, {"sim.DLmw", 0},        {"sim.est_cycles", cycles}};
}

TEST(CrossCheck, OnlyTimeVerdictsThatFailedOrGainedAreChecked) {
  AbComparison c;
  c.metrics = {Time(0.01, Verdict::kPass)};
  EXPECT_EQ(CrossCheckedMetric(c), nullptr);
  c.metrics.push_back(Time(0.08, Verdict::kFail));
  ASSERT_NE(CrossCheckedMetric(c), nullptr);
  EXPECT_EQ(CrossCheckedMetric(c)->estimate, 0.08);
  AbComparison gain;
  gain.metrics = {Time(-0.05, Verdict::kPass, true)};
  EXPECT_NE(CrossCheckedMetric(gain), nullptr);
  AbComparison counts;
  AbMetricResult allocs = Time(0.5, Verdict::kFail);
  allocs.metric = "mem.allocs";
  counts.metrics = {allocs};
  EXPECT_EQ(CrossCheckedMetric(counts), nullptr) << "not a time metric";
}

// The memory-bound case: the same loop with scattered reads takes half as long again while
// executing fewer instructions.
TEST(CrossCheck, FewerInstructionsForMoreTimeIsNotMoreWork) {
  AbCrossCheck x = ReadCrossCheck(Time(0.50, Verdict::kFail), Sim(1000000, 1000, 10, 1100000),
                                  Sim(950000, 60000, 50000, 3000000));
  EXPECT_EQ(x.reading, "not more work");
  EXPECT_NEAR(x.instructions_change, -0.05, 1e-12);
  EXPECT_EQ(x.line,
            "perf.task_clock_ns +50.00%, instructions -5.00%: not more work — memory, branch or layout effects "
            "(sim: I1 misses 10 → 10 (+0.00%), D1 misses 1,000 → 60,000 (+5900.00%), LL misses 20 → 50,010 "
            "(+249950.00%), est. cycles 1,100,000 → 3,000,000 (+172.73%))");
  EXPECT_TRUE(x.error.empty());
}

TEST(CrossCheck, InstructionsThatMoveWithTheTimeAreMoreWork) {
  AbCrossCheck more = ReadCrossCheck(Time(0.086, Verdict::kFail), Sim(1000, 1, 1, 1100), Sim(1081, 1, 1, 1190));
  EXPECT_EQ(more.reading, "more work");
  EXPECT_NE(more.line.find("more work — the head executes more instructions"), std::string::npos) << more.line;
  AbCrossCheck less = ReadCrossCheck(Time(-0.10, Verdict::kPass, true), Sim(1000, 1, 1, 1100), Sim(920, 1, 1, 1010));
  EXPECT_EQ(less.reading, "less work");
  AbCrossCheck same = ReadCrossCheck(Time(0.03, Verdict::kFail), Sim(100000, 1, 1, 1100), Sim(100001, 1, 1, 1100));
  EXPECT_EQ(same.reading, "same work");
  EXPECT_NE(same.line.find("likely a layout effect (check with --layouts 4)"), std::string::npos) << same.line;
  // Once --layouts ran, the advice names what they could not move (issue 42).
  AbCrossCheck after_layouts =
      ReadCrossCheck(Time(0.03, Verdict::kFail), Sim(100000, 1, 1, 1100), Sim(100001, 1, 1, 1100), 4);
  EXPECT_EQ(after_layouts.reading, "same work");
  EXPECT_EQ(after_layouts.line.find("--layouts 4"), std::string::npos) << after_layouts.line;
  EXPECT_NE(after_layouts.line.find("the 4 layouts that ran (the stack and the environment) did not remove; code "
                                    "placement moves only with a rebuild"),
            std::string::npos) << after_layouts.line;
  AbCrossCheck none = ReadCrossCheck(Time(0.03, Verdict::kFail), {}, Sim(1, 1, 1, 1));
  EXPECT_EQ(none.reading, "");
  EXPECT_FALSE(none.error.empty());
}

}  // namespace
}  // namespace tare::campaign
