#include "oracle/trial_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "base/files.h"
#include "base/shell_quote.h"

namespace tare::oracle {
namespace fs = std::filesystem;
namespace {

bool HasPlaceholder(const std::vector<std::string>& argv) {
  for (const std::string& a : argv) {
    if (a.find(kReportPlaceholder) != std::string::npos) return true;
  }
  return false;
}

std::string Substitute(std::string arg, const std::string& report_path) {
  const std::string placeholder = kReportPlaceholder;
  for (size_t at = arg.find(placeholder); at != std::string::npos;
       at = arg.find(placeholder, at + report_path.size())) {
    arg.replace(at, placeholder.size(), report_path);
  }
  return arg;
}

// rename() when possible, copy + remove across filesystems.
Status MoveFile(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (!ec) return Status::Ok();
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    return Status::FailedPrecondition(
        fmt::format("cannot move the report '{}' into the run directory: {}", from, ec.message()));
  }
  fs::remove(from, ec);
  return Status::Ok();
}

bool Blank(const std::string& text) { return text.find_first_not_of(" \t\r\n") == std::string::npos; }

std::string Tail(const std::string& path) {
  std::string tail = ReadTail(path, 600);
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  if (tail.empty()) return "";
  std::string indented;
  size_t pos = 0;
  while (pos <= tail.size()) {
    size_t end = tail.find('\n', pos);
    if (end == std::string::npos) end = tail.size();
    indented += "\n    | " + tail.substr(pos, end - pos);
    pos = end + 1;
  }
  return "; its stderr ends:" + indented;
}

}  // namespace

StatusOr<TrialSession> TrialSession::Create(TrialRunner* runner, OracleCommand command, std::string run_dir,
                                            ProgressFn progress) {
  if (command.argv.empty()) {
    return Status::InvalidArgument(
        "no command given; put it after `--`, e.g. `tare oracle check --golden g.txt -- ./bench`");
  }
  const bool placeholder = HasPlaceholder(command.argv);
  if (placeholder && !command.report_path.empty()) {
    return Status::InvalidArgument(
        fmt::format("both --report and the {} placeholder were given; use one: {} lets each trial write its "
                    "own file, --report names the one file the command always writes",
                    kReportPlaceholder, kReportPlaceholder));
  }
  TARE_ASSIGN_OR_RETURN(command.argv[0], ResolveExecutable(command.argv[0]));
  ReportSource source = placeholder                    ? ReportSource::kPlaceholder
                        : !command.report_path.empty() ? ReportSource::kFixedFile
                                                       : ReportSource::kStdout;
  return TrialSession(runner, std::move(command), std::move(run_dir), std::move(progress), source);
}

std::string TrialSession::DescribeCommand() const {
  std::string out;
  for (const std::string& a : command_.argv) {
    if (!out.empty()) out += ' ';
    out += tare::ShellQuote(a);
  }
  return out;
}

StatusOr<std::string> TrialSession::RunOne(const std::string& subdir, const std::string& name) {
  const std::string dir = subdir.empty() ? run_dir_ : run_dir_ + "/" + subdir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return Status::FailedPrecondition(
        fmt::format("cannot create '{}' for the trials' raw output: {}", dir, ec.message()));
  }
  const std::string base = dir + "/" + name;
  TrialSpec spec;
  spec.stdout_path = base + ".stdout";
  spec.stderr_path = base + ".stderr";
  spec.timeout_ns = command_.timeout_ns;
  std::string report_path = spec.stdout_path;
  spec.argv = command_.argv;
  if (source_ == ReportSource::kPlaceholder) {
    report_path = base + ".report";
    for (std::string& a : spec.argv) a = Substitute(a, report_path);
  } else if (source_ == ReportSource::kFixedFile) {
    // Nothing may be at --report before a trial, so a stale file never passes as this trial's
    // report. tare moves each trial's report away itself; whatever is there now tare did not
    // create (the golden, the store, a directory, another run's report), so it is refused and
    // left alone, never deleted.
    if (fs::symlink_status(command_.report_path, ec).type() != fs::file_type::not_found) {
      return Status::FailedPrecondition(
          fmt::format("--report '{}' already exists{}; tare never deletes a file it did not create, and a "
                      "stale file must not pass as a trial's report. Remove it yourself, or name a path that "
                      "does not exist (the command's report is moved into the run directory after each trial)",
                      command_.report_path, fs::is_directory(command_.report_path, ec) ? " and is a directory" : ""));
    }
  }
  ++processes_;
  spec.extra_env.push_back(fmt::format("TARE_ORACLE_TRIAL={}", processes_));
  TARE_ASSIGN_OR_RETURN(TrialOutcome outcome, runner_->Run(spec));

  const std::string where = fmt::format("{} (`{}`)", base, DescribeCommand());
  if (!outcome.ok) {
    return Status::FailedPrecondition(
        fmt::format("trial {} failed: {}{}\nA failing command is an error, not a vote, so no retry was "
                    "spent; fix the command and rerun. Raw output: {}.stdout, {}.stderr",
                    where, outcome.failure, Tail(spec.stderr_path), base, base));
  }
  if (source_ == ReportSource::kFixedFile) {
    if (!fs::exists(command_.report_path, ec)) {
      return Status::FailedPrecondition(
          fmt::format("trial {} exited 0 but wrote no report at '{}' (--report){}\nCheck the path the command "
                      "writes to. Raw output: {}.stdout, {}.stderr",
                      where, command_.report_path, Tail(spec.stderr_path), base, base));
    }
    report_path = base + ".report";
    TARE_RETURN_IF_ERROR(MoveFile(command_.report_path, report_path));
  } else if (source_ == ReportSource::kPlaceholder && !fs::exists(report_path, ec)) {
    return Status::FailedPrecondition(
        fmt::format("trial {} exited 0 but wrote no report at '{}' (the {} argument){}\nRaw output: "
                    "{}.stdout, {}.stderr",
                    where, report_path, kReportPlaceholder, Tail(spec.stderr_path), base, base));
  }
  TARE_ASSIGN_OR_RETURN(std::string report, ReadFile(report_path));
  if (Blank(report)) {
    return Status::FailedPrecondition(
        fmt::format("trial {} exited 0 but its report {} is empty; an oracle needs at least a header line or "
                    "an item (docs/oracle.md, \"Report syntax\"){}",
                    where, report_path, Tail(spec.stderr_path)));
  }
  return report;
}

StatusOr<std::vector<TrialOutput>> TrialSession::RunBatch(const std::string& subdir, int count) {
  const int width = std::max<int>(2, static_cast<int>(std::to_string(count).size()));
  std::vector<TrialOutput> outputs;
  outputs.reserve(count);
  for (int i = 1; i <= count; ++i) {
    const std::string name = fmt::format("trial-{:0{}}", i, width);
    TARE_ASSIGN_OR_RETURN(std::string report, RunOne(subdir, name));
    outputs.push_back(ParseTrialOutput(report));
    if (outputs.back().empty()) {
      return Status::FailedPrecondition(
          fmt::format("trial {}/{}/{} (`{}`) printed only notes (## lines): no header line and no item, so "
                      "there is nothing to vote on (docs/oracle.md, \"Report syntax\")",
                      run_dir_, subdir, name, DescribeCommand()));
    }
  }
  return outputs;
}

}  // namespace tare::oracle
