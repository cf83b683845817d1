// The ledger: a `tare ab` cohort as Markdown, ready to paste into a pull request. It opens with the
// verdict and the facts a reviewer needs to trust it — the lock's sha256, the host, the arms and
// their hashes, the arm order, the sampling plan and the confidence of every look — then one row
// per cell (and head): role, verdict, supported gain, and per metric
//     median change [lo, hi] / allowance VERDICT (a PASS: "≤ C", what it certifies; an
//     INCONCLUSIVE: its decisive reason)
//     base median → head median
// then the null arm's noise floor, the sanity gates and release bounds, every cohort of the
// campaign (interrupted and stopped ones too), and a legend that says INCONCLUSIVE is not a pass.
// A host too noisy for its verdicts is announced at the top, in bold. Pure; the exact text is the
// contract (src/report/testdata/ledger_*.md are its golden files).
#pragma once

#include <string>

#include "report/ab_report.h"

namespace tare::report {

std::string RenderLedger(const AbReport& report);

// What `tare ab` prints on a terminal instead of the whole ledger: the outcome, one line per cell,
// head and metric (verdict with what a PASS certifies, the change and its interval, the
// allowance), gates and bounds that failed, and where the full ledger went (`ledger_where`).
// Names are made safe for a terminal.
std::string RenderAbSummary(const AbReport& report, const std::string& ledger_where);

// What `tare ab` says on stderr even with --quiet, because it makes the verdicts untrustworthy or
// the cohort unfinished: HOST TOO NOISY, each broken benchmark once with what it said and its fix,
// and (`with_bounds`: the cohort ran to its end) every violated release bound. Terminal-safe.
std::string RenderAbWarnings(const AbReport& report, bool with_bounds);

// A Google Benchmark cohort under wall whose samples were slow (at least kGbenchSlowSampleNs each on
// average), whose widest null-arm floor exceeded kGbenchWideFloor, or that left a comparison
// INCONCLUSIVE gets a ledger section showing the route that fixes all three: the same sources
// compiled against tare/gbench_compat.hpp (what to change, what to link). "" otherwise.
inline constexpr double kGbenchSlowSampleNs = 250e6;
inline constexpr double kGbenchWideFloor = 0.02;   // the default --noise-cap
std::string GbenchRouteNote(const AbReport& r);

// An arm as people know it: "hd02 (bench_v3)", the arm name and the file name of the executable
// the user gave for it; the bare arm name when none is known. Unescaped.
std::string ArmLabel(const AbReport& r, const std::string& arm);

// The cohort's outcome in one word, ranked as `tare ab`'s exit status ranks them: FAIL, then BROKEN
// (a cell cannot be measured: AbReport::UnmeasurableCells), then INCONCLUSIVE, then PASS.
std::string OutcomeWord(const AbReport& r);

// "+3.02%": a fraction as a signed percentage with two decimals ("n/a" for NaN).
std::string SignedPercent(double fraction);

// What a PASS certifies, in the metric's worse direction: "≤ +1.06%" for a time (head at most 1.06%
// slower; "≤ −1.25%": at least 1.25% faster), "≥ −1.06%" for a throughput. `ascii` writes <= / >=.
std::string CertifiedBound(const AbMetricResult& m, bool ascii);

}  // namespace tare::report
