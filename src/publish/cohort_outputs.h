// What a finished `tare ab` cohort is delivered in besides the store: the ledger (on stdout, in a
// file fitted for a pull-request comment with the whole ledger beside it when cut, and in GitHub's
// job summary), JSON (tare.ab/1) and the HTML page — with, where asked, the attribution of each
// change (--attribute N: attribute/explain.h) and each change's differential flame graph on the
// page (sim cohorts). docs/campaign.md ("The ledger", "JSON") and docs/ci.md say the rules.
//
// Everything is read from the store the cohort was written to, so a rebuilt delivery sees what the
// live one saw. The caller (cli) checks the paths before the campaign runs (CheckCohortOutputs),
// prints what Deliver returns, and maps the outcome to an exit status.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/output_path.h"
#include "base/status.h"
#include "report/ab_report.h"
#include "store/store.h"

namespace tare::publish {

struct CohortOutputOptions {
  std::string store_path;    // where the cohort is stored; its ledgers/ gets a terminal's ledger
  std::string ledger_path;   // --ledger FILE: fitted under GitHub's comment limit ("" none)
  std::string json_path;     // --json FILE ("" none)
  std::string html_path;     // --html FILE ("" none)
  size_t attribute = 0;      // --attribute N: the top N functions behind each FAIL and supported gain
  bool terminal = false;     // stdout is a terminal: a short summary there, the whole ledger in a file
  bool quiet = false;        // nothing on stdout
  std::string step_summary;  // $GITHUB_STEP_SUMMARY ("" outside GitHub Actions)
};

// "ledger.md" → "ledger.full.md": where the whole ledger goes when --ledger FILE is cut to fit.
std::string WholeLedgerPath(const std::string& ledger_path);

// Before anything runs: --ledger (and the whole ledger beside it), --json and --html must be
// writable and must not replace the store or any of `inputs` (the campaign file, the executables).
Status CheckCohortOutputs(const CohortOutputOptions& options, std::vector<KeptFile> inputs);

struct Delivery {
  std::string stdout_text;            // the terminal summary, or the whole ledger ("" when quiet)
  std::vector<std::string> warnings;  // for stderr, each one line (unescaped: text from the benchmarks)
  std::vector<std::string> notices;   // for stderr (where a cut ledger's whole copy went)
};

// Writes every output of `report` (read back from `store` for the plots, profiles and flame graphs).
// A file that cannot be written is the error; a flame graph or plot that cannot be made is a warning
// and the page goes without it.
StatusOr<Delivery> DeliverCohort(store::Store& store, const report::AbReport& report,
                                 const CohortOutputOptions& options);

}  // namespace tare::publish
