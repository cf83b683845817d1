// `tare oracle counters`: for signals that are pure functions of the artifact (instruction
// counts, opcode censuses, sizes). No vote: the command runs twice, the two reports must be byte
// for byte identical (else the signal is not what this mode assumes, and the right tool is a vote
// or a statistical comparison), and the report must equal the golden exactly.
//
// Raw files: <run_dir>/run-1.*, <run_dir>/run-2.*.
#pragma once

#include <string>

#include "oracle/trial_session.h"

namespace tare::oracle {

struct CountersOptions {
  std::string golden_path;
  bool accept = false;  // write the (byte-stable) report as the golden
};

enum class CountersVerdict { kMatch, kMismatch, kNotByteStable, kAccepted };

struct CountersResult {
  CountersVerdict verdict = CountersVerdict::kMismatch;
  CountersOptions options;
  std::string command;
  std::string run_dir;
  int processes = 0;
  bool had_golden = false;
  std::string diff;  // run 1 vs run 2 (not byte-stable), or golden vs run (mismatch / accept)
};

StatusOr<CountersResult> RunCounters(TrialSession& session, const CountersOptions& options);
std::string FormatCountersResult(const CountersResult& result);

}  // namespace tare::oracle
