// Resume bookkeeping: where an interrupted cohort stands, from the samples it stored.
//
// A block is the unit of pairing: all arms of a cell, back to back, in the block's arm order. A
// block cut by an interruption (some arms ran, or the sample in flight was killed) cannot be
// completed later — its arms would no longer run back to back — so on resume it is run again
// whole, and the samples of the cut block are marked discarded (kept in the store with the
// reason, never used). The completed cohort then has exactly one used sample per cell, arm and
// block.
//
// Blocks of a cell run in order, so the complete blocks of a cell are 0 .. n-1 for some n: the
// first block that misses an arm (or holds an interrupted sample) and everything after it is
// discarded. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/sample.h"

namespace tare::campaign {

struct StoredCampaignSample {
  int64_t id = 0;    // sample id in the store
  int64_t cell = 0;  // cell index
  std::string arm;
  int64_t block = 0;
  int64_t seq = 0;
  SampleOutcome outcome = SampleOutcome::kOk;
};

struct ResumePoint {
  std::map<int64_t, int64_t> complete_blocks;  // cell -> blocks 0..n-1 complete (every cell listed)
  std::vector<int64_t> discard;                // sample ids to mark discarded, ascending
  int64_t next_seq = 0;                        // the seq of the next sample
};

// `samples`: the cohort's samples not already discarded. `cells`: how many cells the cohort has.
ResumePoint FindResumePoint(const std::vector<StoredCampaignSample>& samples, int64_t cells,
                            const std::vector<std::string>& arms);

}  // namespace tare::campaign
