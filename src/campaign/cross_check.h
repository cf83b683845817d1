// The cross-check: a time verdict read against instruction counts. When a campaign that judges
// time (CPU time by default, or wall time) FAILs a cell or finds a supported gain, the cohort
// measures that cell once more under valgrind (the sim instrument: base, the head, and base again,
// from the null arm's copy when there is one, so the counts are checked to repeat) and says
// whether the instructions agree, in words that agree with the signs of both figures:
//   "time +8.6%, instructions +8.10%: more work -- the head executes more instructions"
//   "time +50.3%, instructions -3.80%: fewer instructions, yet slower -- memory, branch or layout effects"
//   "time -8.0%, instructions -1.14%: less work, but far less than the time -- the instructions
//    account for at most a quarter of it; memory, branch or layout effects do the rest"
//   "time +2.3%, instructions +0.01%: the same work -- likely a layout effect"
//   "time +908%, instructions +0.00%: the same user-space work, but kernel time moved: system calls
//    12 → 200,012 (...), their CPU time 40 µs → 900 ms -- valgrind counts no instruction of the kernel"
// with the simulated cache figures beside it (L1 and last-level misses, estimated cycles: what
// the instruction count does not see). The reading is campaign::ReadWork's (analysis.h), the rule
// LayoutHint applies when both metrics are in one campaign. It points; it changes no verdict.
//
// Cost: 3 valgrind processes per cell (one per extra head), at most kMaxCrossCheckCells cells; a
// cell's samples are not stored (they are not the campaign's metric). Off with --no-cross-check,
// and skipped, with a note, when valgrind is missing. Pure, but for Measure below (cohort).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "campaign/analysis.h"
#include "model/verdict.h"

namespace tare::campaign {

inline constexpr int64_t kMaxCrossCheckCells = 8;

// The time metric a comparison's cross-check reads: the first non-deterministic time metric
// (MetricKind::kTime) that FAILed or has a supported gain; nullptr when there is none.
const AbMetricResult* CrossCheckedMetric(const AbComparison& c);

// The reading of a time change against an instruction change (ReadWork's), as a row carries it:
//   kExplained           "more work" (time up) / "less work" (time down)
//   kSameInstructions    "same work"
//   kNotTheInstructions  "more work, but far less than the time" / "less work, but far less than
//                        the time" (the instructions moved with the time, by under a quarter of it),
//                        "fewer instructions, yet slower" / "more instructions, yet faster"
// Issue 42: "instructions -1.14%: not less work" for a time gain whose instructions fell.
std::string WorkPhrase(WorkReading reading, double time_change, double instructions_change);

// The cross-check from the figures valgrind read for base and the head (sim.* values of one
// process each; sim.Ir must be there and positive, else the result carries an error).
// `layouts`: the run-time layouts the campaign ran (--layouts K); with more than one, a same-work
// reading says the stack and environment layouts did not move it, so what is left is code placement.
AbCrossCheck ReadCrossCheck(const AbMetricResult& time, const std::map<std::string, double>& base,
                            const std::map<std::string, double>& head, int64_t layouts = 1);

// Issue 48, item 5: whether the kernel's time moved between base and the head, from the system
// call figures valgrind reads beside the instructions (sim.syscalls, exact; sim.syscall_cpu_ns,
// real CPU time so noisy), which the instruction count never includes. "" when they did not move
// (calls within a tenth or 10 of each other, and their CPU time within half or 1 ms) or are
// missing; else "system calls 12 → 200,012 (+1666666.67%), their CPU time 40 µs → 900 ms".
std::string KernelTimeMove(const std::map<std::string, double>& base, const std::map<std::string, double>& head);

}  // namespace tare::campaign
