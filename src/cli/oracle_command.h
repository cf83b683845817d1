// `tare oracle`: golden checks for discrete signals that may be nondeterministic (docs/oracle.md).
//
//   tare oracle check --golden FILE [--trials 9] [--retries 1] [--quarantine FILE] [--accept] -- CMD
//   tare oracle stability [--trials 100] [--vote-trials 9] [--retries 1] [--golden FILE] -- CMD
//   tare oracle counters --golden FILE [--accept] -- CMD
//
// Exit status (also in each subcommand's --help):
//   0  match (check, counters), nothing flagged (stability), or --accept wrote the golden
//   1  mismatch: every attempt differed from the golden, a real change (stability: some item
//      cannot be pinned)
//   2  usage error or a broken command (non-zero exit, crash, timeout, missing or empty report):
//      no verdict; a broken command never spends a retry
//   3  nondeterministic: header lines differ between trials (check, stability), or the two runs
//      differ (counters)
//   70 tare itself broke; 130 interrupted
// Every trial's raw stdout, stderr and report is kept in the run directory the report names
// (default .tare/oracle/<UTC timestamp>/, or --run-dir).
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

// Registers `oracle` with its `check`, `stability` and `counters` subcommands on `app`. When one
// runs, it sets *exit_code.
void AddOracleCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
