// The verdict vocabulary of `tare ab`, shared by the campaign that decides verdicts, the store
// that keeps them and the reports that print them. How a verdict is decided: campaign/verdict_rules.h.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/numbers.h"
#include "base/status.h"
#include "model/kinds.h"
#include "model/metric.h"

namespace tare {

enum class Verdict { kPass, kInconclusive, kFail };

std::string_view VerdictName(Verdict v);  // "PASS", "INCONCLUSIVE", "FAIL"
StatusOr<Verdict> ParseVerdict(std::string_view name);

// FAIL if any is FAIL, else INCONCLUSIVE if any is INCONCLUSIVE, else PASS (INCONCLUSIVE when
// empty: no verdict is not a pass).
Verdict WorstVerdict(std::span<const Verdict> verdicts);

// Adaptive sampling, as declared (pairs per cell): `initial` before the first look, then more
// for a cell that is still INCONCLUSIVE, at most `cap`. With growth 1 every look adds `step`
// (looks at 20, 40, 60, ...); with growth 2 the step doubles each look, so the looks double
// (20, 40, 80, 160, ...: few looks, each cheap in confidence, over a wide range of pair counts,
// for a plan that a time budget ends). campaign/sampling.h plans the looks and their per-look
// confidence.
struct SamplingPlan {
  int64_t initial = 0;  // pairs before the first look, >= 1
  int64_t step = 0;     // pairs the first INCONCLUSIVE look adds, >= 1 (unless cap == initial)
  int64_t cap = 0;      // most pairs a cell gets, >= initial
  int64_t growth = 1;   // 1: every look adds `step`; 2: each look adds twice what the last added
};

// One metric of one head against base in one cell, at one look.
struct AbMetricResult {
  std::string metric;
  std::string unit;  // for the medians: "ns", "bytes", "count"
  Direction direction = Direction::kLowerIsBetter;
  std::string allowance = "noise";               // as declared: "noise" or "2%"
  double declared = 0;                           // the declared allowance as a fraction (noise: 0)
  int64_t pairs = 0;                             // pairs the interval was taken over
  double confidence = 0;                         // the look's confidence the interval was taken at
  double estimate = kNaN, lo = kNaN, hi = kNaN;  // head vs base
  double base_median = kNaN, head_median = kNaN;
  bool has_null = false;
  double null_estimate = kNaN, null_lo = kNaN, null_hi = kNaN;  // null vs base
  double noise_floor = 0;                                       // 0 without a null arm
  double delta = 0;                                             // max(declared allowance, noise floor)
  // What a PASS certifies, C in the worse direction: head is not worse than base by more than this
  // (the interval's worse end plus the null arm's floor P; for a supported gain, plus F: negative).
  double pass_bound = kNaN;
  bool host_too_noisy = false;
  Verdict verdict = Verdict::kInconclusive;
  bool supported_gain = false;
  bool changed = false;  // a PASS whose interval excludes 0 (within the allowance)
  // An exact verdict (campaign/exact_plan.h): a deterministic metric whose values repeated exactly,
  // judged on head/base - 1 itself. estimate = lo = hi = that change; confidence 1 (tare.ab/1 writes
  // null: an exact verdict has no confidence level).
  bool exact = false;
  std::vector<std::string> reasons;
};

// A broken benchmark: arms whose every sample in the cell failed (campaign/broken_cell.h says when
// that is known), for one head's comparison. Empty `arms`: nothing broken.
struct AbBroken {
  std::vector<std::string> arms;  // among base, this head and null, in that order
  int64_t samples = 0;            // samples each broken arm ran in the judged blocks (all failed)
  std::string error;              // the first broken arm's first error (one line)
  std::string stderr_tail;        // the end of that sample's stderr (as the program wrote it)
  std::string fix;                // what to do, for this kind of target (set by the campaign)

  bool any() const { return !arms.empty(); }
  // Base or the null arm is broken: no pair exists, so the cell cannot be measured (its verdict is
  // INCONCLUSIVE, and `tare ab` counts it as BROKEN). Otherwise only the head is: head breaks where
  // base runs, a FAIL.
  bool cannot_be_measured() const;
};

// A time verdict checked against instruction counts (tare ab's cross-check, campaign/cross_check.h):
// a cell whose CPU or wall time FAILed or gained, measured once more under valgrind (the sim
// instrument: base, the head, base again). Do the instructions explain the time?
struct AbCrossCheck {
  std::string metric;                 // the time metric that FAILed or gained
  double time_change = kNaN;          // its estimate (fraction)
  double instructions_change = kNaN;  // sim.Ir, head/base - 1, exact (NaN when not measured)
  // "more work" (the instructions explain the time), "same work" (they did not move: likely a
  // layout effect), "not more work" (they moved the other way, or far less than the time), or ""
  // when the cross-check could not measure (error says why). tare.ab/1 keeps these values.
  std::string reading;
  // The reading in words that agree with both figures' signs, as the verdict's row carries it:
  // "less work, but far less than the time", "more instructions, yet faster" (campaign::WorkPhrase).
  std::string phrase;
  std::string line;  // the sentence the ledger prints
  std::string error;
  // The sim figures of base and head (sim.Ir, sim.I1mr, sim.D1mr, sim.est_cycles...), per process.
  std::vector<std::pair<std::string, double>> base, head;
};

// One head against base in one cell: its metrics' results and the worst of their verdicts.
struct AbComparison {
  std::string cell;  // the cell's name
  CellRole role = CellRole::kTarget;
  std::string head = "head";                 // arm name
  int64_t blocks = 0;                        // blocks run for this cell
  int64_t looks = 0;                         // looks taken
  Verdict verdict = Verdict::kInconclusive;  // worst metric's
  bool supported_gain = false;               // some metric has a supported gain
  int64_t failed_samples = 0;                // failed samples of any arm in this cell
  std::vector<std::string> reasons;          // cell-level: failed samples
  std::vector<AbMetricResult> metrics;
  // A time metric changed (FAIL or supported gain) while the instructions measured with it did not:
  // likely a layout effect, not the code change (campaign::LayoutHint). "" otherwise.
  std::string layout_hint;
  AbBroken broken;  // an arm that failed every sample (a broken benchmark)
  // Only when a time metric FAILed or gained and the cross-check ran (tare ab --no-cross-check: never).
  std::optional<AbCrossCheck> cross_check;
};

// A benchmark of a living suite that base and a head do not share (tare ab, campaign/suite_diff.h):
// it is no cell, since there is nothing to pair it with, but it is listed, never dropped. A new
// one is measured in each head that has it, its figures shown without a verdict.
struct AbSuiteFigure {
  std::string head;  // the arm it ran in
  std::string metric;
  std::string unit;
  int64_t samples = 0;  // samples that carried the metric
  double median = kNaN, min = kNaN, max = kNaN;
};
struct AbSuiteEntry {
  std::string benchmark;
  SuiteChange change = SuiteChange::kNew;
  std::vector<std::string> heads;      // new: the heads that have it; missing: the heads that lack it
  std::vector<AbSuiteFigure> figures;  // new only: per head that ran it and metric
  std::string error;                   // new only: why it could not be measured ("" when it was)
};

// One evaluation of a sanity gate (after the first block) or a release bound (at the end).
struct AbCheck {
  CheckKind kind = CheckKind::kGate;
  std::string rule;  // as declared
  std::string cell;
  std::string arm;
  double value = kNaN;
  double limit = kNaN;
  std::string unit;
  bool ok = true;
};

}  // namespace tare
