// A test aid: does every line of a `tare ab` cohort's outputs agree with itself and its neighbours
// (issue 42, item 5)? Given the ledger (Markdown), its tare.ab/1 JSON and, where a test has them,
// the terminal summary, the HTML page and the exit status, it checks
//   - every metric's verdict against its interval, floors and allowance by docs/methodology.md §5,
//     computed here afresh from the JSON's numbers (FAIL iff w_lo > δ; a supported gain iff
//     w_hi < −F, certifying w_hi + F; otherwise PASS iff w_hi + P ≤ B, certifying it), and each
//     comparison's verdict against its metrics' (no PASS carries an INCONCLUSIVE reason);
//   - every row of the ledger's cell tables against its comparison: the verdict word, the change and
//     its interval, δ, what a PASS certifies, an INCONCLUSIVE's reason, the supported gain, the
//     cross-check's words, and the note on medians that disagree with the change;
//   - the counts line against the rows and the JSON, and the title's word against the outcome
//     computed from the comparisons, the release bounds, the gates and the suite, ranked as the exit
//     status ranks them — and the same word in the JSON's gate_outcome, the summary, the HTML title,
//     the current cohort's outcome and the exit status;
//   - the cross-check's words against the signs of the time and instruction changes.
// It reads the outputs as a reviewer or a script would, so it knows the formats, not the renderer's
// code: a disagreement between two outputs is found whichever one is wrong. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tare::report {

struct AbOutputs {
  std::string ledger;              // the whole ledger (Markdown)
  std::string json;                // tare.ab/1
  std::string summary;             // what a terminal gets instead of the ledger; "" when not captured
  std::string html;                // --html; "" when not written
  std::optional<int> exit_status;  // of `tare ab`, when known
  bool inconclusive_ok = false;    // --inconclusive-ok: INCONCLUSIVE exits 0
};

// Every disagreement, one line each naming where it is; empty when everything agrees.
std::vector<std::string> CheckAbOutputs(const AbOutputs& outputs);

// All of them on one line each, for a test's failure message: "" when there are none.
std::string DescribeProblems(const std::vector<std::string>& problems);

}  // namespace tare::report
