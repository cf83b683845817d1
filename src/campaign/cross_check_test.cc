#include "campaign/cross_check.h"

#include <gtest/gtest.h>

#include <fmt/core.h>

#include "base/units.h"

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
  return {{"sim.Ir", ir},   {"sim.I1mr", 10},   {"sim.D1mr", d1mr}, {"sim.D1mw", 0},
          {"sim.ILmr", 10}, {"sim.DLmr", dlmr}, {"sim.DLmw", 0},    {"sim.est_cycles", cycles}};
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
  AbCrossCheck x =
      ReadCrossCheck(Time(0.50, Verdict::kFail), Sim(1000000, 1000, 10, 1100000), Sim(950000, 60000, 50000, 3000000));
  EXPECT_EQ(x.reading, "not more work");
  EXPECT_EQ(x.phrase, "fewer instructions, yet slower");
  EXPECT_NEAR(x.instructions_change, -0.05, 1e-12);
  EXPECT_EQ(x.line,
            "perf.task_clock_ns +50.00%, instructions -5.00%: fewer instructions, yet slower — memory, branch or "
            "layout effects "
            "(sim: I1 misses 10 → 10 (+0.00%), D1 misses 1,000 → 60,000 (+5900.00%), LL misses 20 → 50,010 "
            "(+249950.00%), est. cycles 1,100,000 → 3,000,000 (+172.73%))");
  EXPECT_TRUE(x.error.empty());
}

// Issue 42: every reading's words agree with the signs of both figures. One row per sign case of
// ReadWork (time up or down; instructions with it by more than a quarter, with it by less, the
// other way, or quiet), the reading tare.ab/1 keeps beside the words.
TEST(CrossCheck, EveryReadingAgreesWithTheSignsOfItsFigures) {
  struct Case {
    double time, instructions;
    const char* reading;  // tare.ab/1's value, unchanged
    const char* phrase;   // the words on the verdict's row
    const char* why;      // what follows the words on the cross-check's line
  };
  const Case cases[] = {
      {+0.086, +0.081, "more work", "more work", "the head executes more instructions"},
      {-0.100, -0.080, "less work", "less work", "the head executes fewer instructions"},
      {+0.200, +0.020, "not more work", "more work, but far less than the time",
       "the instructions account for at most a quarter of it; memory, branch or layout effects do the rest"},
      {-0.080, -0.0114, "not less work", "less work, but far less than the time",
       "the instructions account for at most a quarter of it; memory, branch or layout effects do the rest"},
      {+0.500, -0.050, "not more work", "fewer instructions, yet slower", "memory, branch or layout effects"},
      {-0.060, +0.030, "not less work", "more instructions, yet faster", "memory, branch or layout effects"},
      // Close to each other, but the other way: within a quarter, yet the signs disagree.
      {+0.010, -0.004, "not more work", "fewer instructions, yet slower", "memory, branch or layout effects"},
      {+0.030, +0.0001, "same work", "same work", "likely a layout effect (check with --layouts 4)"},
      {-0.030, -0.0001, "same work", "same work", "likely a layout effect (check with --layouts 4)"},
  };
  for (const Case& c : cases) {
    const int64_t base_ir = 1'000'000;
    const auto head_ir = static_cast<double>(base_ir) * (1 + c.instructions);
    const AbCrossCheck x = ReadCrossCheck(Time(c.time, c.time > 0 ? Verdict::kFail : Verdict::kPass, c.time < 0),
                                          Sim(base_ir, 1, 1, 1), Sim(head_ir, 1, 1, 1));
    const std::string what = fmt::format("time {:+.2f}%, instructions {:+.2f}%", c.time * 100, c.instructions * 100);
    EXPECT_EQ(x.reading, c.reading) << what;
    EXPECT_EQ(x.phrase, c.phrase) << what;
    const size_t words = x.line.find(c.phrase);
    EXPECT_NE(words, std::string::npos) << what << ": " << x.line;
    EXPECT_NE(x.line.find(" — " + std::string(c.why), words), std::string::npos) << what << ": " << x.line;
    // The words never deny what the figures say.
    const bool fewer = c.instructions<0, slower = c.time> 0;
    EXPECT_EQ(x.phrase.find(fewer ? "more work" : "less work"), std::string::npos) << what << ": " << x.phrase;
    EXPECT_EQ(x.phrase.find(fewer ? "more instructions" : "fewer instructions"), std::string::npos) << what;
    EXPECT_EQ(x.phrase.find(slower ? "faster" : "slower"), std::string::npos) << what;
    EXPECT_EQ(x.phrase.find("not "), std::string::npos) << what;
  }
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
  EXPECT_NE(after_layouts.line.find("the 4 layouts that ran (where the stack and the heap sit) did not remove; code "
                                    "placement moves only with a rebuild"),
            std::string::npos)
      << after_layouts.line;
  AbCrossCheck none = ReadCrossCheck(Time(0.03, Verdict::kFail), {}, Sim(1, 1, 1, 1));
  EXPECT_EQ(none.reading, "");
  EXPECT_FALSE(none.error.empty());
}

// Issue 48, item 5: valgrind counts no instruction of the kernel, so a CPU time FAIL made by
// system calls showed the same instructions and was called "likely a layout effect". The system
// call figures valgrind also reads (sim.syscalls, sim.syscall_cpu_ns) now say when kernel time moved.
std::map<std::string, double> WithSyscalls(std::map<std::string, double> sim, double calls, double cpu_ns) {
  sim["sim.syscalls"] = calls;
  sim["sim.syscall_cpu_ns"] = cpu_ns;
  return sim;
}

TEST(CrossCheck, SameInstructionsButMoreKernelTimeSaysTheKernelNotLayout) {
  const auto base = WithSyscalls(Sim(100000, 1, 1, 1100), 12, 40'000);
  const auto head = WithSyscalls(Sim(100000, 1, 1, 1100), 200'012, 900'000'000);
  for (int64_t layouts : {1, 4}) {
    const AbCrossCheck x = ReadCrossCheck(Time(9.08, Verdict::kFail), base, head, layouts);
    EXPECT_EQ(x.reading, "same work") << "tare.ab/1's value is about the instructions, unchanged";
    EXPECT_EQ(x.line.find("layout effect"), std::string::npos) << x.line;
    EXPECT_EQ(x.line.find("placement"), std::string::npos) << x.line;
    EXPECT_NE(x.line.find(fmt::format("the same user-space work, but kernel time moved: system calls 12 → 200,012 "
                                      "(+1666666.67%), their CPU time {} → {}",
                                      FormatDurationNs(40'000), FormatDurationNs(900'000'000))),
              std::string::npos)
        << x.line;
    EXPECT_NE(x.line.find("valgrind counts no instruction of the kernel"), std::string::npos) << x.line;
  }
  // Fewer instructions, yet slower, with the kernel's time up: both are said.
  const AbCrossCheck y =
      ReadCrossCheck(Time(0.50, Verdict::kFail), base, WithSyscalls(Sim(90000, 1, 1, 1100), 200'012, 900'000'000));
  EXPECT_NE(y.line.find("fewer instructions, yet slower — kernel time moved: system calls 12 → 200,012"),
            std::string::npos)
      << y.line;
  // Quiet system calls (a few more calls, microseconds of noise) change nothing.
  const AbCrossCheck quiet =
      ReadCrossCheck(Time(0.03, Verdict::kFail), base, WithSyscalls(Sim(100001, 1, 1, 1100), 13, 95'000));
  EXPECT_NE(quiet.line.find("likely a layout effect (check with --layouts 4)"), std::string::npos) << quiet.line;
  EXPECT_EQ(KernelTimeMove(base, WithSyscalls({}, 13, 95'000)), "");
  EXPECT_EQ(KernelTimeMove({}, head), "") << "without the figures nothing is claimed";
  EXPECT_NE(KernelTimeMove(head, base).find("system calls 200,012 → 12"), std::string::npos) << "less, too";
}

}  // namespace
}  // namespace tare::campaign
