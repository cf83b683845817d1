// A broken benchmark: a cell that fails every sample in some arm — it reports an error (Google
// Benchmark's SkipWithError), crashes, exits non-zero or times out every time, because it needs a
// data file, a working directory or something else the arms do not have. It is one failed cell,
// never a stopped campaign: reported once with what to do, not run any more, while the other cells
// are measured and judged as usual (issue 21).
//
// When an arm of a cell is known broken, from the cell's first `blocks` blocks:
//   - every arm failed its sample in block 0: nothing of this cell runs at all, and another block
//     would cost as much again (a sample that times out costs --timeout per arm); known after one
//     block, as early as the first-sample gate that used to stop the whole campaign here;
//   - otherwise, an arm whose first kBrokenAfterFailures samples all failed while another arm ran.
// An arm that ran once is never broken: its failures are failed samples (analysis.h), each stored,
// counted in the ledger, and a head's make its comparison a FAIL.
//
// What a broken arm means for one head's comparison (JudgeCell, analysis.h):
//   base or the null arm (a copy of base) broken: no pair can exist, so the cell CANNOT BE MEASURED,
//       whatever the head does; verdict INCONCLUSIVE, reported as BROKEN (`tare ab` exits 5 for it
//       when no cell FAILs: docs/campaign.md, "Exit status");
//   only the head broken: the head breaks where base runs, a regression: FAIL.
// A cell is settled by its breakage when every comparison is (base or null broken, or every head):
// it gets no more blocks. A cell with one broken head of two keeps running for the other.
//
// Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "campaign/analysis.h"
#include "model/target.h"

namespace tare::campaign {

// Why three: failures that strike one sample in ten independently recur three times in a row once
// in a thousand cells; and a head that fails where base runs is a FAIL either way, broken or not.
inline constexpr int64_t kBrokenAfterFailures = 3;

// The arms of `arms` (in that order) known broken after the cell's first `blocks` blocks (above).
// A missing sample (a block not run) counts as neither failed nor run.
std::vector<std::string> BrokenArms(const CellSamples& samples, const std::vector<std::string>& arms, int64_t blocks);

// Whether `broken` settles every comparison of the cell: base or the null arm is among them, or
// every one of `heads`.
bool BreakageSettlesCell(const std::vector<std::string>& broken, const std::vector<std::string>& heads);

// The block count (1 or kBrokenAfterFailures, at most `blocks`) after which the cell's breakage
// settles it, the smaller if both; 0 when it does not. The campaign asks after every round and when
// it replays a resumed cohort's looks, so both stop the cell at the same block.
int64_t BreakageSettlesAt(const CellSamples& samples, const std::vector<std::string>& arms,
                          const std::vector<std::string>& heads, int64_t blocks);

// "base", "base and null", "base, head and null".
std::string ArmList(const std::vector<std::string>& arms);

// What to do about a broken cell, for its kind of target, naming `benchmark` (the benchmark as the
// target knows it; the cell's name may carry a layout): give every arm what it needs (--cwd DIR,
// --env), or leave the benchmark out (--filter REGEX; for Google Benchmark also its negative
// filter -- --benchmark_filter=-'^NAME$'). Plain text; every renderer escapes it.
std::string BrokenCellFix(TargetKind kind, const std::string& benchmark);

}  // namespace tare::campaign
