// tare: a benchmark harness and performance-regression gate for native code.
#include <fmt/format.h>

#include <exception>

#include "cli/app.h"
#include "cli/exit_codes.h"

int main(int argc, char** argv) {
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
