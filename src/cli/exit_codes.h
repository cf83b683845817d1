// Process exit statuses: the contract scripts and CI rely on. cli/ is the only code that maps a
// Status or an outcome to one of these, and Finish the only place a command's error is printed. Documented in `tare
// --help` and docs/cli.md.
#pragma once

#include "base/status.h"

namespace tare::cli {

inline constexpr int kExitOk = 0;             // success (ab: every cell PASS)
inline constexpr int kExitFailed = 1;         // run: some samples failed; ab: a FAIL verdict
inline constexpr int kExitUsage = 2;          // bad flags or input; nothing was measured
inline constexpr int kExitInconclusive = 3;   // ab: some cell INCONCLUSIVE (no FAIL)
inline constexpr int kExitGate = 4;           // ab: a sanity gate or release bound was violated
inline constexpr int kExitBroken = 5;         // ab: a cell cannot be measured (broken in base; no FAIL)
inline constexpr int kExitInternal = 70;      // tare itself broke (EX_SOFTWARE)
inline constexpr int kExitInterrupted = 130;  // Ctrl-C: completed samples are stored

// Usage-type errors -> 2, cancellation -> 130, tare's own failures -> 70.
int ExitCodeFor(const Status& status);

// Prints "tare: error: <message>" to stderr and returns ExitCodeFor(status).
int ReportError(const Status& status);

// The one place a command's outcome becomes tare's exit status: each command returns
// StatusOr<int>, its exit status, or the error that ended it, reported here (ReportError).
int Finish(const StatusOr<int>& outcome);

}  // namespace tare::cli
