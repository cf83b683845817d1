// TrialSession: runs the user's command as trials, keeps every trial's raw files in the run
// directory, and returns each trial's report. It owns the rules that make a trial count:
//
//   * where the report comes from: the command's stdout (default); a file the oracle chooses per
//     trial, substituted for the placeholder "{report}" in any argument; or a fixed file named by
//     --report, which must not exist before each trial (so a stale file can never pass as a
//     report; tare refuses rather than deletes what it did not create) and is moved into the run
//     directory after it;
//   * a trial that exits non-zero, crashes, times out, writes no report or an empty one is an
//     ERROR, not a vote: the check stops at once and no retry is spent, because retries exist to
//     absorb luck, and a broken command is not luck.
//
// Files per trial, under <run_dir>/<subdir>/: <name>.stdout, <name>.stderr and, when the report is
// a file, <name>.report. Each process sees TARE_ORACLE_TRIAL=<k> (1-based across the session).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "oracle/trial_output.h"
#include "oracle/trial_runner.h"

namespace tare::oracle {

inline constexpr const char* kReportPlaceholder = "{report}";

struct OracleCommand {
  std::vector<std::string> argv;  // as given; argv[0] is resolved on PATH by Create
  std::string report_path;        // --report FILE; "" = stdout (or the {report} placeholder)
  int64_t timeout_ns = 0;         // per trial; 0 = none
};

using ProgressFn = std::function<void(const std::string& line)>;

class TrialSession {
 public:
  // Validates the command: a non-empty argv whose program exists, not both --report and
  // "{report}". `runner` must outlive the session.
  static StatusOr<TrialSession> Create(TrialRunner* runner, OracleCommand command, std::string run_dir,
                                       ProgressFn progress = nullptr);

  // Runs one trial named `name` in <run_dir>/<subdir> and returns its report bytes.
  StatusOr<std::string> RunOne(const std::string& subdir, const std::string& name);
  // Runs `count` trials (trial-01, trial-02, ...) in <run_dir>/<subdir> and parses each report.
  StatusOr<std::vector<TrialOutput>> RunBatch(const std::string& subdir, int count);

  int processes() const { return processes_; }  // processes started so far
  const std::string& run_dir() const { return run_dir_; }
  // The command as a shell would read it, for reports: ./bench/trace --out '{report}'
  std::string DescribeCommand() const;
  void Progress(const std::string& line) const {
    if (progress_) progress_(line);
  }

 private:
  enum class ReportSource { kStdout, kPlaceholder, kFixedFile };
  TrialSession(TrialRunner* runner, OracleCommand command, std::string run_dir, ProgressFn progress,
               ReportSource source)
      : runner_(runner),
        command_(std::move(command)),
        run_dir_(std::move(run_dir)),
        progress_(std::move(progress)),
        source_(source) {}

  TrialRunner* runner_;
  OracleCommand command_;
  std::string run_dir_;
  ProgressFn progress_;
  ReportSource source_;
  int processes_ = 0;
};

}  // namespace tare::oracle
