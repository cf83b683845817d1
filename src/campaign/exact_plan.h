// The exact plan: how a campaign that judges only deterministic metrics (sim.* under valgrind,
// mem.* under the allocation shim: `deterministic` in the metric catalogue) decides with the
// minimum of processes.
//
// A deterministic metric reads the same value on every rerun of the same binary, so the paired
// statistics of the statistical plan (20 pairs and more, sampling.h) only confirm, at a cost of
// 60 valgrind processes per cell, what one pair already says. Under the exact plan every cell runs
//   with a null arm:    1 block  (base, head, null: one sample per arm); the check is null = base
//   without a null arm: 2 blocks (each arm twice); the check is base = base and head = head
// and the DETERMINISM CHECK asks that every judged metric repeat exactly (the null arm is base again
// at a same-length path, so base = null is a rerun of base). When it holds, each head and metric
// gets the exact verdict (verdict.h, JudgeExact) on head/base - 1 itself: no interval, no confidence
// level, no look scheme. When it does not (the program reads the time, a random seed, its PID...),
// the cell falls back to the statistical plan (the campaign's `sampling`, 20/20/60 by default),
// the blocks already run count towards it, and the ledger says why.
//
// The exact plan is the default: it applies when the campaign declared no sampling plan, its
// instrument is sim or mem, and every metric it judges is deterministic. A declared plan
// (--samples, --step, --cap, [sampling]) is run as declared.
//
// Its limit: one rerun is a small check. A metric that varies only now and then (an allocation
// made when a timer fires) can repeat by chance in the check and then be judged on one pair; the
// statistical plan would have seen the variation. docs/campaign.md, "Deterministic metrics".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "campaign/analysis.h"
#include "campaign/campaign_definition.h"

namespace tare::campaign {

// Recorded in the campaign's canonical JSON ("sampling_plan") when the plan applies.
inline constexpr std::string_view kExactPlanV1 = "exact-v1";

// Whether `spec` runs the exact plan: no declared sampling, instrument sim or mem, and every
// judged metric (declared, or the instrument's defaults) deterministic.
bool ExactPlanApplies(const CampaignSpec& spec);

// Blocks per cell before the check: 1 with a null arm, 2 without.
int64_t ExactPlanBlocks(bool null_arm);

// "" when every metric of `settings` repeats exactly over blocks [0, blocks) of the cell: with a
// null arm base = null in every block, without one every arm reads the same in every block. Else
// the first difference (or failed or missing sample) found, as a sentence for the ledger.
std::string DeterminismCheck(const CellSamples& samples, int64_t blocks, const AnalysisSettings& settings);

// The exact verdicts of a cell that passed the check: one comparison per head, each metric judged
// by JudgeExact on its block-0 values (all blocks are equal). `pairs` = blocks.
std::vector<AbComparison> JudgeCellExact(const CellSamples& samples, const std::string& cell, CellRole role,
                                         int64_t blocks, const AnalysisSettings& settings);

}  // namespace tare::campaign
