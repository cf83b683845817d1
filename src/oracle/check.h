// `tare oracle check`: the majority-vote golden check with retries and quarantine.
//
// One attempt = `trials` fresh processes, each report parsed (trial_output.h), the header checked
// for agreement, the items voted (vote.h) and compared with the golden minus quarantined items
// (compare.h). On a mismatch the check re-votes with fresh processes, up to `retries` more times,
// and passes if any attempt matches: a flip of a marginal item is luck and a fresh vote is
// independent of it, while a real change moves the items deterministically and fails every
// attempt. Two cases are never retried because no retry can change them: header lines that differ
// between trials (the workload is not fixed) and a header that differs from the golden's (the
// header is identical in every trial, so the next attempt would print it again).
//
// Raw files: <run_dir>/attempt-<a>/trial-<k>.{stdout,stderr,report}, and per attempt votes.txt
// (every item's count) and voted.golden (that attempt's vote in golden format, ready to review).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/golden_compare.h"
#include "oracle/golden.h"
#include "oracle/quarantine.h"
#include "oracle/trial_session.h"
#include "oracle/vote.h"

namespace tare::oracle {

inline constexpr int kDefaultTrials = 9;
inline constexpr int kDefaultRetries = 1;

struct CheckOptions {
  int trials = kDefaultTrials;    // per attempt; odd, so the vote never ties
  int retries = kDefaultRetries;  // extra attempts after a mismatch
  std::string golden_path;
  const Quarantine* quarantine = nullptr;  // may be null
  bool accept = false;                     // one attempt; write its vote as the golden
};

enum class CheckVerdict {
  kMatch,                   // some attempt matched the golden
  kMismatch,                // every attempt differed (or the header differs from the golden)
  kNondeterministicHeader,  // header lines differed between trials of one attempt
  kAccepted,                // --accept: the vote was written as the golden
};

struct CheckAttempt {
  int number = 0;  // 1-based
  std::string subdir;
  Tally tally;
  std::optional<Comparison> comparison;  // absent for --accept without a previous golden
};

struct CheckResult {
  CheckVerdict verdict = CheckVerdict::kMismatch;
  CheckOptions options;
  std::string command;
  std::string run_dir;
  int processes = 0;
  std::vector<CheckAttempt> attempts;
  bool had_golden = false;  // --accept: a previous golden existed (attempts[0].comparison is vs it)
  std::vector<const QuarantineEntry*> unused_quarantine;  // covered nothing in golden or trials
};

// Runs the check. Errors (exit 2 at the CLI): bad options, unreadable golden, a trial that failed
// or wrote no report. Cancelled on Ctrl-C.
StatusOr<CheckResult> RunCheck(TrialSession& session, const CheckOptions& options);

// The report printed on stdout (and kept as <run_dir>/report.txt).
std::string FormatCheckResult(const CheckResult& result);

// Shared by the check and stability reports: which lines of each header variant are not common
// to all variants, with the trials that printed that variant.
std::string FormatHeaderVariants(const Tally& tally, const std::string& indent);

// "1-3, 5, 7-9".
std::string FormatTrialList(const std::vector<int>& trials);

// Validates a trial count for a vote: >= 1 and odd.
// The most trials one vote or one stability measurement takes: every trial's output is held in
// memory until tallied, so an unbounded count ends in bad_alloc.
inline constexpr int kMaxTrials = 100000;

Status ValidateVoteTrials(int trials, const char* flag);

}  // namespace tare::oracle
