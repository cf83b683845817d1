// The three `tare oracle` modes as one call each, for the command line: the command started in its
// run directory (spawner_trial_runner.h), the mode run (check.h, stability.h, counters.h), its
// report kept in the run directory beside the raw output and returned for printing, and an error
// after the first trial saying where the raw output so far is. Nothing runs, and no run directory
// is left, for a usage error (bad counts, a golden that cannot be read or written, a quarantine
// file that cannot be read).
#pragma once

#include <string>
#include <vector>

#include "base/output_path.h"
#include "base/status.h"
#include "oracle/check.h"
#include "oracle/counters.h"
#include "oracle/stability.h"

namespace tare::oracle {

// How to run the command, whatever the mode.
struct OracleInvocation {
  std::vector<std::string> argv;  // the command and its arguments ({report} may name the report file)
  std::string run_dir;            // --run-dir ("" a fresh .tare/oracle/<UTC timestamp>)
  std::string report_path;        // --report: the command writes its report there, not to stdout
  std::string timeout;            // --timeout, e.g. "30s" ("" none)
};

enum class OracleOutcome {
  kPass,              // match, nothing flagged, or --accept wrote the golden
  kMismatch,          // a real change (stability: an item cannot be pinned)
  kNondeterministic,  // header lines differ between trials; counters: the two runs differ
};

struct OracleResult {
  OracleOutcome outcome = OracleOutcome::kPass;
  std::string report;                 // for stdout, as the command under test wrote it (escape it)
  std::vector<std::string> warnings;  // for stderr: a copy that could not be kept
};

// `check`: `quarantine_path` "" for none; with options.accept, `kept` are the files the golden must
// never replace besides the quarantine and --report files (base/output_path.h: the store).
StatusOr<OracleResult> RunCheckMode(const OracleInvocation& invocation, CheckOptions options,
                                    const std::string& quarantine_path, std::vector<KeptFile> kept);
// `stability`: flagged items' suggested quarantine entries are kept as suggested-quarantine.txt.
StatusOr<OracleResult> RunStabilityMode(const OracleInvocation& invocation, StabilityOptions options,
                                        const std::string& quarantine_path);
// `counters`: `kept` as for RunCheckMode.
StatusOr<OracleResult> RunCountersMode(const OracleInvocation& invocation, const CountersOptions& options,
                                       std::vector<KeptFile> kept);

}  // namespace tare::oracle
