// The ledger: a `tare ab` cohort as Markdown, ready to paste into a pull request. It opens with the
// verdict and the facts a reviewer needs to trust it — the lock's sha256, the host, the arms and
// their hashes, the arm order, the sampling plan and the confidence of every look — then one row
// per cell (and head): role, verdict, supported gain, and per metric
//     median change [lo, hi] / allowance VERDICT
//     base median → head median
// then the null arm's noise floor, the sanity gates and release bounds, every cohort of the
// campaign (interrupted and stopped ones too), and a legend that says INCONCLUSIVE is not a pass.
// A host too noisy for its verdicts is announced at the top, in bold. Pure; the exact text is the
// contract (src/report/testdata/ledger_*.md are its golden files).
#pragma once

#include <string>

#include "report/ab_report.h"

namespace tare::report {

// A PASS whose noise floor is wider than this is called out at the top of the ledger.
inline constexpr double kWideNoiseFloor = 0.05;

std::string RenderLedger(const AbReport& report);

// What `tare ab` prints on a terminal instead of the whole ledger: the outcome, one line per cell,
// head and metric (verdict with what a PASS certifies, the change and its interval, the
// allowance), gates and bounds that failed, and where the full ledger went (`ledger_where`).
// Names are made safe for a terminal.
std::string RenderAbSummary(const AbReport& report, const std::string& ledger_where);

// "+3.02%": a fraction as a signed percentage with two decimals ("n/a" for NaN).
std::string SignedPercent(double fraction);

}  // namespace tare::report
