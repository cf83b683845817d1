// Analysis of one cell at one look: from the samples of its first `blocks` blocks to a verdict per
// head and metric (AbComparison). Pure: the runner calls it at every planned look, and a
// resumed cohort replays its looks from the stored samples with the same result.
//
// Pairs. Block b gives one pair (base_b, head_b) and, with a null arm, (base_b, null_b). A block is
// used only when every arm's sample in it succeeded and has the metric, so the head and the null
// comparison always have the same n (the noise floor is measured on exactly the blocks the
// verdict uses). Values must be > 0 (they are compared as ratios).
//
// Failed samples. A head that fails where base succeeds is a regression in the most basic sense:
// the comparison is FAIL, whatever the timings. Otherwise any failed sample in the cell keeps a
// PASS from being certified (it becomes INCONCLUSIVE, with the count and the first error).
// Broken arms (every sample failed: broken_cell.h) are named in AbComparison::broken: with base or
// the null arm broken the cell cannot be measured (INCONCLUSIVE, "BROKEN, cannot be measured"),
// with only the head broken it is a FAIL ("BROKEN in the head"). The campaign adds the fix.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "campaign/campaign_definition.h"
#include "model/sample.h"
#include "report/ab_report.h"

namespace tare::campaign {

// One cell's samples: arm name -> block -> sample (kept samples only: discarded ones are not here).
using CellSamples = std::map<std::string, std::map<int64_t, Sample>>;

struct AnalysisSettings {
  std::vector<std::string> heads;  // head arm names, in arm order
  bool null_arm = false;
  std::vector<MetricSpec> metrics;  // resolved: never empty
  NoiseFloorRule noise_floor = NoiseFloorRule::kSplit;
  PairedIntervalMethod interval = PairedIntervalMethod::kSignTest;
  double noise_cap = kDefaultNoiseCap;
  // cell name -> metric -> allowance: the cells' own allowances ([[cells]] allowances).
  std::map<std::string, std::map<std::string, Allowance>> cell_allowances;
  // cell name -> the metrics judged there, when not `metrics`: a Google Benchmark user counter is
  // judged only in the cells that report it (CampaignRunner::ProbeCounters).
  std::map<std::string, std::vector<MetricSpec>> cell_metrics;

  // The work tier (work_tier.h): cell name -> the note of a cell whose heads do the same work as base
  // under valgrind; its time metrics are judged against at least same_work_allowance.
  std::map<std::string, std::string> same_work;
  double same_work_allowance = 0;

  const std::vector<MetricSpec>& MetricsOf(const std::string& cell) const {
    auto it = cell_metrics.find(cell);
    return it == cell_metrics.end() ? metrics : it->second;
  }
};

// The allowance a metric is judged with in a cell: the cell's own, else the campaign's; "noise" of
// a deterministic metric is kDeterministicAllowance; a time metric of a same-work cell gets at least
// the same-work allowance. `note` says so when one of those applied.
Allowance EffectiveAllowance(const MetricSpec& metric, const std::string& cell, const AnalysisSettings& settings,
                             std::string* note);

// The metric's definition with the campaign's direction override applied.
MetricDef ResolvedMetric(const MetricSpec& m);

// A metric's result before it is judged: its name, unit, direction and the allowance in effect in
// `cell` (EffectiveAllowance), at `confidence`. `allowance` and `allowance_note` receive what the
// verdict needs.
AbMetricResult MetricResultFor(const MetricSpec& spec, const std::string& cell, const AnalysisSettings& settings,
                               double confidence, Allowance* allowance, std::string* allowance_note);

// Judges blocks [0, blocks) of a cell at `confidence` (the look's per-look confidence), one
// comparison per head. `looks` is recorded in the result.
std::vector<AbComparison> JudgeCell(const CellSamples& samples, const std::string& cell, CellRole role, int64_t blocks,
                                    int64_t looks, double confidence, const AnalysisSettings& settings);

// Instructions within this of zero (both ends of the interval) count as "no instruction change"
// for LayoutHint, and the time change must be at least kLayoutHintRatio times the instruction
// change: a +2% time change over +0.03% instructions is the same work taking longer.
inline constexpr double kLayoutHintQuietInstructions = 0.005;
inline constexpr double kLayoutHintRatio = 4.0;

// What an instruction change says about a time change measured with it (changes as fractions; the
// instructions' interval [lo, hi], lo = hi for exact counts):
//   kSameInstructions  the instructions stayed within +-kLayoutHintQuietInstructions and the time
//                      moved at least kLayoutHintRatio times as far: the same work took more (or
//                      less) time, likely a layout effect
//   kNotTheInstructions the instructions moved the other way, or not at all, or the time moved at
//                      least kLayoutHintRatio times as far: not more (or less) work -- memory,
//                      branch or layout effects
//   kExplained         the instructions moved the same way, by more than a quarter of the time
//                      change: more (or less) work
// Shared by LayoutHint (both in one campaign) and the cross-check (cross_check.h: instructions
// measured under valgrind after a time campaign).
enum class WorkReading { kExplained, kSameInstructions, kNotTheInstructions };
WorkReading ReadWork(double time_change, double instructions_estimate, double instructions_lo, double instructions_hi);

// When a comparison measured both a time metric and an instruction count (perf.instructions on
// hosts with hardware counters, sim.Ir), a time metric that FAILed or showed a supported gain
// while the instructions did not move is pointed out as a likely layout effect (code or stack
// placement: docs/campaign.md, "Layouts"), with the figures and what to run; one whose
// instructions moved the other way, or far less than the time, as not more (or less) work. ""
// otherwise (ReadWork: kExplained).
std::string LayoutHint(const AbComparison& c);

// Whether a metric's gain is undecided: its estimate is better than the noise floor, but its
// interval still reaches back across it, so more pairs may support the gain (or not). With a null
// arm the estimate must also lie beyond the null interval's far edge (what two copies of base
// differ by): an estimate within it is not chased (issue 42).
bool GainUndecided(const AbMetricResult& m);

// Whether a cell gets more pairs at its next planned look: some comparison is INCONCLUSIVE, or is
// not a FAIL and has a metric whose gain is undecided. Spending pairs on the gain question keeps
// the error rate: the look schemes bound the chance that ANY planned look's interval misses, so
// the rule deciding which looks happen does not matter (sampling.h).
// Without `chase_gains`, only an INCONCLUSIVE comparison asks for more (a same-work cell: work_tier.h).
bool NeedsMorePairs(const std::vector<AbComparison>& comparisons, bool chase_gains = true);

}  // namespace tare::campaign
