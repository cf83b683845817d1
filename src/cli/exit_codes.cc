#include "cli/exit_codes.h"

#include <fmt/format.h>

#include <cstdio>

namespace tare::cli {

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return kExitOk;
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kFailedPrecondition:
    case StatusCode::kUnavailable:
    case StatusCode::kDataLoss:
    case StatusCode::kDeadlineExceeded:
      return kExitUsage;
    case StatusCode::kCancelled: return kExitInterrupted;
    case StatusCode::kInternal: return kExitInternal;
  }
  return kExitInternal;
}

int ReportError(const Status& status) {
  fmt::print(stderr, "tare: error: {}\n", status.message());
  return ExitCodeFor(status);
}

}  // namespace tare::cli
