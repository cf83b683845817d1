#include "oracle/counters.h"

#include <fmt/format.h>

#include <optional>

#include "oracle/golden.h"
#include "oracle/line_diff.h"

namespace tare::oracle {

StatusOr<CountersResult> RunCounters(TrialSession& session, const CountersOptions& options) {
  if (options.golden_path.empty()) {
    return Status::InvalidArgument("--golden FILE is required (use --accept to create it)");
  }
  CountersResult r;
  r.options = options;
  r.command = session.DescribeCommand();
  r.run_dir = session.run_dir();

  std::optional<std::string> golden;
  auto read = ReadCountersGolden(options.golden_path);
  if (read.ok()) {
    golden = std::move(read).value();
  } else if (!options.accept || read.status().code() != StatusCode::kNotFound) {
    return read.status();
  }
  r.had_golden = golden.has_value();

  session.Progress(
      fmt::format("tare oracle: counters: 2 runs of `{}` (raw output in {})", r.command, session.run_dir()));
  TARE_ASSIGN_OR_RETURN(std::string first, session.RunOne("", "run-1"));
  TARE_ASSIGN_OR_RETURN(std::string second, session.RunOne("", "run-2"));
  r.processes = session.processes();

  if (first != second) {
    r.verdict = CountersVerdict::kNotByteStable;
    r.diff = LineDiff(first, second, {.old_label = "run 1", .new_label = "run 2"});
    return r;
  }
  if (golden) r.diff = LineDiff(*golden, first, {.old_label = "golden", .new_label = "run"});
  if (options.accept) {
    TARE_RETURN_IF_ERROR(
        WriteCountersGolden(options.golden_path, first).WithContext("writing the accepted counters golden"));
    r.verdict = CountersVerdict::kAccepted;
    return r;
  }
  r.verdict = r.diff.empty() ? CountersVerdict::kMatch : CountersVerdict::kMismatch;
  return r;
}

std::string FormatCountersResult(const CountersResult& r) {
  std::string out = fmt::format("tare oracle counters: {}\n", r.command);
  out += fmt::format("  golden      {}\n", r.options.golden_path);
  out += fmt::format("  raw output  {}/run-1.*, run-2.*\n", r.run_dir);
  switch (r.verdict) {
    case CountersVerdict::kMatch:
      out += "byte-stable across 2 runs; equal to the golden\n";
      out += fmt::format("result: MATCH ({} processes)\n", r.processes);
      break;
    case CountersVerdict::kMismatch:
      out += "byte-stable across 2 runs; differs from the golden:\n";
      out += r.diff;
      out += fmt::format(
          "result: MISMATCH ({} processes): the output is deterministic, so this is a real change. "
          "If it is intended, rerun with --accept.\n",
          r.processes);
      break;
    case CountersVerdict::kNotByteStable:
      out += "the two runs differ:\n";
      out += r.diff;
      out += fmt::format(
          "result: NOT BYTE-STABLE ({} processes): this output is not a pure function of the "
          "artifact, so an exact golden would redden CI by luck. Pin it with a vote "
          "(`tare oracle check`) or measure it statistically instead, or stop the command printing "
          "the part that varies. Both runs' raw output is in the run directory.\n",
          r.processes);
      break;
    case CountersVerdict::kAccepted:
      if (r.had_golden) {
        out += r.diff.empty() ? "byte-stable across 2 runs; same as the previous golden\n"
                              : "byte-stable across 2 runs; changes from the previous golden:\n" + r.diff;
      } else {
        out += "byte-stable across 2 runs\n";
      }
      out += fmt::format("result: ACCEPTED: wrote the report to {}{} ({} processes)\n", r.options.golden_path,
                         r.had_golden ? "" : ", a new golden", r.processes);
      break;
  }
  return out;
}

}  // namespace tare::oracle
