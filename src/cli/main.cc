// tare: a benchmark harness and performance-regression gate for native code.
#include <fmt/format.h>

#include <csignal>
#include <exception>

#include "cli/app.h"
#include "cli/exit_codes.h"

int main(int argc, char** argv) {
  // A file size limit (RLIMIT_FSIZE, `ulimit -f`) kills a process that writes past it with
  // SIGXFSZ; ignored, the write fails with EFBIG instead, and tare handles that as it handles a
  // full disk: the run is finished as failed, with what was stored kept. The spawn helper puts the
  // default back for the programs it measures.
  std::signal(SIGXFSZ, SIG_IGN);
  // Last resort: nothing below is meant to throw (errors are Status values), but an exception that
  // escapes anyway must end in the documented internal-error status, not abort().
  try {
    return tare::cli::Main(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "tare: internal error: {}; please report it with the command line\n", e.what());
  } catch (...) {
    fmt::print(stderr, "tare: internal error (unknown exception); please report it with the command line\n");
  }
  return tare::cli::kExitInternal;
}
