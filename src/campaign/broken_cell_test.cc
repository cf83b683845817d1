#include "campaign/broken_cell.h"

#include <gtest/gtest.h>

namespace tare::campaign {
namespace {

const std::vector<std::string> kCellArms = {"base", "head", "null"};
const std::vector<std::string> kHeads = {"head"};

Sample OkSample() {
  Sample s;
  s.values["wall_ns"] = 1e6;
  return s;
}

Sample Failed(const std::string& error = "benchmark 'BM_X' reported an error: no data") {
  Sample s;
  s.outcome = SampleOutcome::kFailed;
  s.error = error;
  return s;
}

// `blocks` blocks in which each arm named in `failing` fails and the others run.
CellSamples Blocks(int64_t blocks, const std::vector<std::string>& failing) {
  CellSamples s;
  for (int64_t b = 0; b < blocks; ++b) {
    for (const auto& arm : kCellArms) {
      s[arm][b] = std::find(failing.begin(), failing.end(), arm) != failing.end() ? Failed() : OkSample();
    }
  }
  return s;
}

TEST(BrokenCell, EveryArmFailingTheFirstBlockIsKnownAfterOneBlock) {
  CellSamples s = Blocks(1, {"base", "head", "null"});
  EXPECT_EQ(BrokenArms(s, kCellArms, 1), kCellArms);
  EXPECT_EQ(BreakageSettlesAt(s, kCellArms, kHeads, 1), 1);
}

TEST(BrokenCell, OneArmFailingIsKnownOnlyAfterThreeFailures) {
  // Base and its null copy fail, the head runs: not after one block (it could be a fluke)...
  CellSamples s = Blocks(3, {"base", "null"});
  EXPECT_TRUE(BrokenArms(s, kCellArms, 1).empty());
  EXPECT_TRUE(BrokenArms(s, kCellArms, 2).empty());
  EXPECT_EQ(BreakageSettlesAt(s, kCellArms, kHeads, 2), 0);
  // ...but after three in a row.
  EXPECT_EQ(BrokenArms(s, kCellArms, kBrokenAfterFailures), (std::vector<std::string>{"base", "null"}));
  EXPECT_EQ(BreakageSettlesAt(s, kCellArms, kHeads, 3), 3);
}

TEST(BrokenCell, AHeadThatFailsEverySampleSettlesTheCellAfterThree) {
  CellSamples s = Blocks(5, {"head"});
  EXPECT_EQ(BrokenArms(s, kCellArms, 3), (std::vector<std::string>{"head"}));
  EXPECT_EQ(BreakageSettlesAt(s, kCellArms, kHeads, 5), 3) << "the block it was known at, not the last";
}

TEST(BrokenCell, AnArmThatRanOnceIsNeverBroken) {
  // A head that crashes in some samples: failed samples (a FAIL), not a broken arm.
  CellSamples s = Blocks(6, {"head"});
  s["head"][1] = OkSample();
  EXPECT_TRUE(BrokenArms(s, kCellArms, 6).empty());
  EXPECT_EQ(BreakageSettlesAt(s, kCellArms, kHeads, 6), 0);
  // Base failing its first sample only, the others running: nothing is broken.
  CellSamples t = Blocks(3, {});
  t["base"][0] = Failed();
  EXPECT_TRUE(BrokenArms(t, kCellArms, 3).empty());
}

TEST(BrokenCell, InterruptedSamplesAreNeitherRunNorFailed) {
  CellSamples s = Blocks(3, {"base", "null"});
  s["base"][2].outcome = SampleOutcome::kInterrupted;
  EXPECT_EQ(BrokenArms(s, kCellArms, 3), (std::vector<std::string>{"null"}));
}

TEST(BrokenCell, OneBrokenHeadOfTwoLeavesTheCellRunningForTheOther) {
  const std::vector<std::string> arms = {"base", "head", "hd02", "null"};
  const std::vector<std::string> heads = {"head", "hd02"};
  CellSamples s;
  for (int64_t b = 0; b < 3; ++b) {
    for (const auto& arm : arms) s[arm][b] = arm == "hd02" ? Failed() : OkSample();
  }
  EXPECT_EQ(BrokenArms(s, arms, 3), (std::vector<std::string>{"hd02"}));
  EXPECT_FALSE(BreakageSettlesCell({"hd02"}, heads));
  EXPECT_EQ(BreakageSettlesAt(s, arms, heads, 3), 0);
  EXPECT_TRUE(BreakageSettlesCell({"head", "hd02"}, heads));
  EXPECT_TRUE(BreakageSettlesCell({"null"}, heads)) << "no floor, no pair";
}

TEST(BrokenCell, TheFixNamesWhatFitsTheTarget) {
  const std::string gb = BrokenCellFix(TargetKind::kGbench, "BM_Read<int>/8");
  EXPECT_NE(gb.find("--cwd DIR"), std::string::npos) << gb;
  EXPECT_NE(gb.find("--filter REGEX"), std::string::npos) << gb;
  EXPECT_NE(gb.find("-- '--benchmark_filter=-^BM_Read<int>/8$'"), std::string::npos) << gb;
  // A quote in the name cannot end the shell word early.
  EXPECT_NE(BrokenCellFix(TargetKind::kGbench, "BM_it's").find("'--benchmark_filter=-^BM_it'\\''s$'"),
            std::string::npos);
  const std::string cmd = BrokenCellFix(TargetKind::kCommand, "x");
  EXPECT_NE(cmd.find("arguments"), std::string::npos) << cmd;
  EXPECT_EQ(cmd.find("--filter"), std::string::npos) << "commands have no benchmarks to filter";
}

}  // namespace
}  // namespace tare::campaign
