// A `tare ab` cohort's answer in one word — the word its ledger's title, the terminal summary, the
// JSON's `gate_outcome`, the HTML page's title and the store's cohort outcome all print — ranked as
// `tare ab`'s exit status ranks them (docs/campaign.md, "Exit status"), so no output reads PASS
// while the process exits 4 (issue 42: a violated release bound used to be told only far down the
// ledger, under a PASS title):
//
//   INTERRUPTED     130  the cohort was interrupted (Ctrl-C, a store that lost a write)
//   STOPPED         4    a sanity gate or an executable that changed stopped it
//   BOUND VIOLATED  4    a release bound was violated
//   SUITE CHANGED   4    --strict-suite, and a benchmark is new in a head or missing from one
//   FAIL            1    some comparison FAILs
//   BROKEN          5    some cell cannot be measured (base, or its null copy, fails every sample)
//   INCONCLUSIVE    3    some comparison is INCONCLUSIVE, or nothing was judged (0 with --inconclusive-ok)
//   PASS            0    every comparison PASSes
//
// The verdicts of the comparisons are unchanged by it: AbReport::outcome (tare.ab/1 `outcome`) stays
// the worst comparison's. cli/ maps the outcome to the exit status (ExitFor); this is the one ranking
// both use. Pure.
#pragma once

#include <string>
#include <string_view>

#include "report/ab_report.h"

namespace tare::report {

enum class AbOutcome { kInterrupted, kStopped, kBoundViolated, kSuiteChanged, kFail, kBroken, kInconclusive, kPass };

AbOutcome OutcomeOf(const AbReport& r);
std::string_view AbOutcomeName(AbOutcome o);  // "BOUND VIOLATED", "PASS", ...

// What ranks the outcome above the verdicts, in a few words for the counts line and the summary:
// "1 release bound violated", "the suite changed (--strict-suite)"; "" when nothing does.
std::string GateText(const AbReport& r);

}  // namespace tare::report
