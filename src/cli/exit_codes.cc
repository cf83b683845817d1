#include "cli/exit_codes.h"

#include <fmt/format.h>

#include <cstdio>

#include "base/terminal_text.h"

namespace tare::cli {

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return kExitOk;
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kFailedPrecondition:
    case StatusCode::kUnavailable:
    case StatusCode::kDataLoss:
    case StatusCode::kDeadlineExceeded:
      return kExitUsage;
    case StatusCode::kCancelled:
      return kExitInterrupted;
    case StatusCode::kInternal:
      return kExitInternal;
  }
  return kExitInternal;
}

int ReportError(const Status& status) {
  // Messages quote what tare was given or read (paths, names, golden and report lines): shown with
  // their control bytes made visible, never sent to the terminal raw.
  fmt::print(stderr, "tare: error: {}\n", TerminalText(status.message()));
  return ExitCodeFor(status);
}

int Finish(const StatusOr<int>& outcome) { return outcome.ok() ? *outcome : ReportError(outcome.status()); }

}  // namespace tare::cli
