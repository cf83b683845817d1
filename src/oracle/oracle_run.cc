#include "oracle/oracle_run.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "base/files.h"
#include "base/terminal_text.h"
#include "base/units.h"
#include "oracle/golden.h"
#include "oracle/quarantine.h"
#include "oracle/spawner_trial_runner.h"
#include "oracle/trial_session.h"

namespace tare::oracle {
namespace {

// Progress quotes golden, quarantine and report lines: what the command under test wrote, printed
// with its control bytes made visible (base/terminal_text.h).
void PrintProgress(const std::string& line) { fmt::print(stderr, "{}\n", TerminalText(line)); }

StatusOr<std::unique_ptr<SpawnedSession>> Start(const OracleInvocation& o) {
  OracleCommand command;
  command.argv = o.argv;
  command.report_path = o.report_path;
  if (!o.timeout.empty()) {
    auto timeout_ns = ParseTimeoutNs(o.timeout);
    if (!timeout_ns.ok()) return timeout_ns.status().WithContext("--timeout");
    command.timeout_ns = *timeout_ns;
  }
  return StartSpawnedSession(std::move(command), o.run_dir, PrintProgress);
}

// An error after the session exists: it says where the raw output so far is, and the run
// directory is dropped when nothing ran (a usage error leaves no litter).
Status Fail(const Status& status, const TrialSession& session) {
  if (session.processes() == 0) {
    std::error_code ec;
    std::filesystem::remove(session.run_dir(), ec);
    return status;
  }
  return status.WithMore(fmt::format("raw output of the {} {} that ran: {}/", session.processes(),
                                     session.processes() == 1 ? "process" : "processes", session.run_dir()));
}

// The report, with a copy kept next to the raw output.
OracleResult Finish(OracleOutcome outcome, std::string report, const std::string& run_dir) {
  OracleResult result{outcome, std::move(report), {}};
  if (Status kept = WriteFileAtomic(run_dir + "/report.txt", result.report); !kept.ok()) {
    result.warnings.push_back("the report was not kept: " + kept.message());
  }
  return result;
}

// --accept writes the golden: checked before the first trial, and never onto an input or the
// --report file.
Status CheckGoldenOutput(const std::string& golden, const OracleInvocation& o, const std::string& quarantine,
                         std::vector<KeptFile> kept) {
  kept.push_back({quarantine, "the quarantine file"});
  kept.push_back({o.report_path, "the --report file"});
  return CheckOutputPath("--golden", golden, kept);
}

StatusOr<std::optional<Quarantine>> LoadQuarantine(const std::string& path) {
  if (path.empty()) return std::optional<Quarantine>();
  TARE_ASSIGN_OR_RETURN(Quarantine q, Quarantine::Read(path));
  return std::optional<Quarantine>(std::move(q));
}

// A golden that is missing is fine only when --accept is about to write it.
template <typename Read>
Status CheckGoldenReadable(const std::string& path, bool accept, Read read) {
  auto golden = read(path);
  if (golden.ok() || (accept && golden.status().code() == StatusCode::kNotFound)) return Status::Ok();
  return golden.status();
}

}  // namespace

StatusOr<OracleResult> RunCheckMode(const OracleInvocation& o, CheckOptions options, const std::string& quarantine_path,
                                    std::vector<KeptFile> kept) {
  TARE_ASSIGN_OR_RETURN(const std::optional<Quarantine> quarantine, LoadQuarantine(quarantine_path));
  options.quarantine = quarantine ? &*quarantine : nullptr;
  // Refuse bad counts and a golden that cannot be written before creating anything.
  TARE_RETURN_IF_ERROR(ValidateVoteTrials(options.trials, "--trials"));
  if (options.accept) TARE_RETURN_IF_ERROR(CheckGoldenOutput(options.golden_path, o, quarantine_path, std::move(kept)));
  // RunCheck reads the golden again; read here, a missing or malformed one leaves no run directory.
  TARE_RETURN_IF_ERROR(CheckGoldenReadable(options.golden_path, options.accept, ReadGolden));
  TARE_ASSIGN_OR_RETURN(auto started, Start(o));
  TrialSession& session = *started->session;
  auto result = RunCheck(session, options);
  if (!result.ok()) return Fail(result.status(), session);
  OracleOutcome outcome = OracleOutcome::kPass;
  switch (result->verdict) {
    case CheckVerdict::kMatch:
    case CheckVerdict::kAccepted:
      break;
    case CheckVerdict::kMismatch:
      outcome = OracleOutcome::kMismatch;
      break;
    case CheckVerdict::kNondeterministicHeader:
      outcome = OracleOutcome::kNondeterministic;
      break;
  }
  return Finish(outcome, FormatCheckResult(*result), session.run_dir());
}

StatusOr<OracleResult> RunStabilityMode(const OracleInvocation& o, StabilityOptions options,
                                        const std::string& quarantine_path) {
  TARE_ASSIGN_OR_RETURN(const std::optional<Quarantine> quarantine, LoadQuarantine(quarantine_path));
  options.quarantine = quarantine ? &*quarantine : nullptr;
  TARE_RETURN_IF_ERROR(ValidateStabilityOptions(options));
  TARE_ASSIGN_OR_RETURN(auto started, Start(o));
  TrialSession& session = *started->session;
  auto result = RunStability(session, options);
  if (!result.ok()) return Fail(result.status(), session);
  std::vector<std::string> warnings;
  if (const std::string suggestion = SuggestedQuarantine(*result); !suggestion.empty()) {
    Status s = WriteFileAtomic(session.run_dir() + "/suggested-quarantine.txt", suggestion);
    if (!s.ok()) warnings.push_back(s.message());
  }
  const OracleOutcome outcome = !result->header_agrees() ? OracleOutcome::kNondeterministic
                                : result->flagged() > 0  ? OracleOutcome::kMismatch
                                                         : OracleOutcome::kPass;
  OracleResult done = Finish(outcome, FormatStabilityResult(*result), session.run_dir());
  done.warnings.insert(done.warnings.begin(), warnings.begin(), warnings.end());
  return done;
}

StatusOr<OracleResult> RunCountersMode(const OracleInvocation& o, const CountersOptions& options,
                                       std::vector<KeptFile> kept) {
  if (options.accept) TARE_RETURN_IF_ERROR(CheckGoldenOutput(options.golden_path, o, "", std::move(kept)));
  TARE_RETURN_IF_ERROR(CheckGoldenReadable(options.golden_path, options.accept, ReadCountersGolden));
  TARE_ASSIGN_OR_RETURN(auto started, Start(o));
  TrialSession& session = *started->session;
  auto result = RunCounters(session, options);
  if (!result.ok()) return Fail(result.status(), session);
  OracleOutcome outcome = OracleOutcome::kPass;
  switch (result->verdict) {
    case CountersVerdict::kMatch:
    case CountersVerdict::kAccepted:
      break;
    case CountersVerdict::kMismatch:
      outcome = OracleOutcome::kMismatch;
      break;
    case CountersVerdict::kNotByteStable:
      outcome = OracleOutcome::kNondeterministic;
      break;
  }
  return Finish(outcome, FormatCountersResult(*result), session.run_dir());
}

}  // namespace tare::oracle
