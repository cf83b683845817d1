// The ledger: a `tare ab` cohort as Markdown, ready to paste into a pull request, in the order a
// reviewer reads it (issue 26): the title with the outcome, one line of counts ("1 FAIL · 7
// INCONCLUSIVE · 2 PASS (1 gain)"), the banners (STOPPED, BROKEN, HOST TOO NOISY), then the rows
// that need a look — FAIL, BROKEN, supported gains, INCONCLUSIVE — with per metric
//     median change [lo, hi] / allowance VERDICT (a PASS: "≤ C", what it certifies; an
//     INCONCLUSIVE: its decisive reason)
//     base median → head median
// and their reasons; broken cells and the valgrind cross-check; then, folded in <details>, the plain
// PASS rows, how it was measured (campaign, lock, host, arms and hashes, arm order, plan,
// confidence), the null arm's noise floor, gates and bounds ("all 8 ok"), layouts, every cohort of
// the campaign, notes and the legend (INCONCLUSIVE is not a pass). Under a size limit it is
// shortened from the least needed end (report/ledger_fit.h). Pure; the exact text is the contract
// (src/report/testdata/ledger_*.md are its golden files).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "report/ab_report.h"

namespace tare::report {

// The whole ledger.
std::string RenderLedger(const AbReport& report);

// GitHub refuses a pull-request comment over 65,536 characters: `tare ab --ledger` keeps under this.
inline constexpr size_t kLedgerCommentLimit = 60000;

struct LedgerOptions {
  size_t max_chars = 0;             // 0: no limit; else report/ledger_fit.h shortens it, counted in bytes
  std::string full_ledger_where{};  // where the whole ledger is, for what a shortened one leaves out
  std::string appendix{};           // Markdown printed after the cells (the attribution), left out early
  std::string appendix_name{};      // what the appendix is, for the line that replaces it
};
struct Ledger {
  std::string markdown;
  bool shortened = false;  // rows or sections were left out to stay under max_chars
};
// The ledger in its order of reading: the outcome and counts, the rows that need a look (FAIL,
// BROKEN, supported gains, INCONCLUSIVE) with their reasons, then, folded in <details>, the plain
// PASS rows, how it was measured, the null arm, gates, cohorts, notes and the legend.
Ledger RenderLedger(const AbReport& report, const LedgerOptions& options);

// Comparisons by verdict: BROKEN (cannot be measured) apart, a supported gain is a PASS too.
struct VerdictCounts {
  int64_t fail = 0, broken = 0, inconclusive = 0, pass = 0, gains = 0;
};
VerdictCounts CountVerdicts(const AbReport& report);
// "1 FAIL · 7 INCONCLUSIVE · 2 PASS (1 gain)"; `markdown` makes a FAIL or BROKEN count bold.
std::string CountsText(const VerdictCounts& counts, bool markdown);

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
// compiled against tare/gbench_compat.hpp (what to change, what to link): the section's body, "" when
// none is due. It names --gbench-min-time only when the cohort did not set the samples' length.
inline constexpr double kGbenchSlowSampleNs = 250e6;
inline constexpr double kGbenchWideFloor = 0.02;  // the default --noise-cap
std::string GbenchRouteNote(const AbReport& r);

// An arm as people know it: "hd02 (bench_v3)", the arm name and the file name of the executable
// the user gave for it; the bare arm name when none is known. Unescaped.
std::string ArmLabel(const AbReport& r, const std::string& arm);

// The cross-check's reading of a comparison's time verdict in words ("same work", "more work",
// "fewer instructions, yet slower"...: campaign/cross_check.h, WorkPhrase), for its verdict line;
// "" when it did not run.
std::string WorkClass(const AbComparison& c);
// The cohort's outcome in one word, ranked as `tare ab`'s exit status ranks them: INTERRUPTED,
// STOPPED, BOUND VIOLATED, SUITE CHANGED, FAIL, BROKEN, INCONCLUSIVE, PASS (report/ab_outcome.h).
std::string OutcomeWord(const AbReport& r);

// "+3.02%": a fraction as a signed percentage with two decimals ("n/a" for NaN).
std::string SignedPercent(double fraction);

// What a PASS certifies, in the metric's worse direction: "≤ +1.06%" for a time (head at most 1.06%
// slower; "≤ −1.25%": at least 1.25% faster), "≥ −1.06%" for a throughput. `ascii` writes <= / >=.
std::string CertifiedBound(const AbMetricResult& m, bool ascii);

}  // namespace tare::report
