#include "campaign/resume.h"

#include <gtest/gtest.h>

namespace tare::campaign {
namespace {

const std::vector<std::string> kResumeArms = {"base", "head", "null"};

// Samples of `blocks` whole blocks of one cell, ids and seqs from `first`.
void AddBlocks(std::vector<StoredCampaignSample>& out, int64_t cell, int64_t from, int64_t to, int64_t* id) {
  for (int64_t b = from; b < to; ++b) {
    for (const auto& arm : kResumeArms) {
      out.push_back({*id, cell, arm, b, *id, SampleOutcome::kOk});
      ++*id;
    }
  }
}

TEST(Resume, WholeBlocksAreKeptAndTheCutBlockIsRunAgain) {
  std::vector<StoredCampaignSample> s;
  int64_t id = 1;
  AddBlocks(s, 0, 0, 7, &id);
  // Block 7: base ran, head was killed by Ctrl-C, null never started.
  s.push_back({id, 0, "base", 7, id, SampleOutcome::kOk});
  ++id;
  s.push_back({id, 0, "head", 7, id, SampleOutcome::kInterrupted});
  ++id;
  ResumePoint p = FindResumePoint(s, 1, kResumeArms);
  EXPECT_EQ(p.complete_blocks.at(0), 7);
  EXPECT_EQ(p.discard, (std::vector<int64_t>{22, 23}));
  EXPECT_EQ(p.next_seq, 24);
}

TEST(Resume, FailedSamplesCountAsRunButInterruptedOnesDoNot) {
  std::vector<StoredCampaignSample> s;
  int64_t id = 1;
  AddBlocks(s, 0, 0, 2, &id);
  s[4].outcome = SampleOutcome::kFailed;  // block 1, head: it ran, and failed: that is data
  ResumePoint p = FindResumePoint(s, 1, kResumeArms);
  EXPECT_EQ(p.complete_blocks.at(0), 2);
  EXPECT_TRUE(p.discard.empty());
  s[4].outcome = SampleOutcome::kInterrupted;
  p = FindResumePoint(s, 1, kResumeArms);
  EXPECT_EQ(p.complete_blocks.at(0), 1);
  EXPECT_EQ(p.discard, (std::vector<int64_t>{4, 5, 6}));
}

TEST(Resume, CellsAreCountedSeparatelyAndLaterBlocksOfACutCellGoToo) {
  std::vector<StoredCampaignSample> s;
  int64_t id = 1;
  AddBlocks(s, 0, 0, 3, &id);
  AddBlocks(s, 1, 0, 2, &id);
  // Cell 1 block 2 lost its null sample (the store write never happened), and block 3 somehow ran:
  // both go, since a cell's blocks must be whole from 0.
  s.push_back({id, 1, "base", 2, id, SampleOutcome::kOk});
  ++id;
  s.push_back({id, 1, "head", 2, id, SampleOutcome::kOk});
  ++id;
  AddBlocks(s, 1, 3, 4, &id);
  ResumePoint p = FindResumePoint(s, 3, kResumeArms);
  EXPECT_EQ(p.complete_blocks.at(0), 3);
  EXPECT_EQ(p.complete_blocks.at(1), 2);
  EXPECT_EQ(p.complete_blocks.at(2), 0) << "a cell that never started";
  EXPECT_EQ(p.discard.size(), 5u);
  EXPECT_EQ(p.next_seq, id);
}

TEST(Resume, DuplicatesAndStrayArmsAreNeverUsed) {
  std::vector<StoredCampaignSample> s;
  int64_t id = 1;
  AddBlocks(s, 0, 0, 2, &id);
  s.push_back({id, 0, "head", 1, id, SampleOutcome::kOk});
  ++id;  // a second head sample in block 1
  s.push_back({id, 5, "base", 0, id, SampleOutcome::kOk});
  ++id;  // a cell the cohort does not have
  ResumePoint p = FindResumePoint(s, 1, kResumeArms);
  EXPECT_EQ(p.complete_blocks.at(0), 1);
  EXPECT_EQ(p.discard, (std::vector<int64_t>{4, 5, 6, 7, 8}));
}

TEST(Resume, NothingStoredStartsFromScratch) {
  ResumePoint p = FindResumePoint({}, 2, kResumeArms);
  EXPECT_EQ(p.complete_blocks.at(0), 0);
  EXPECT_EQ(p.complete_blocks.at(1), 0);
  EXPECT_TRUE(p.discard.empty());
  EXPECT_EQ(p.next_seq, 0);
}

}  // namespace
}  // namespace tare::campaign
