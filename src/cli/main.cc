// tare: a benchmark harness and performance-regression gate for native code.
#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <system_error>
#include <vector>

#include "base/redact.h"
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
  // What a command printed must have reached its reader (issue 27, item 10): `tare runs >
  // /dev/full` is an error with its cause (exit 2), not a success and not an internal error.
  // Everything tare prints goes through stdio: fmt::print throws when a write fails, fputs and the
  // last fflush leave stdout's error flag.
  auto output_failed = [](int status, int err) {
    fmt::print(stderr, "tare: error: cannot write to standard output{}{}; what was printed is incomplete\n",
               err != 0 ? ": " : "", err != 0 ? std::strerror(err) : "");
    return status != tare::cli::kExitOk ? status : tare::cli::kExitUsage;
  };
  try {
    // tare reads a copy of its arguments; the originals, which any user of the host can read in
    // /proc/PID/cmdline while tare runs, have each password masked (issue 48, item 1).
    std::vector<std::string> arg_copies(argv, argv + argc);
    std::vector<char*> args;
    for (std::string& a : arg_copies) args.push_back(a.data());
    args.push_back(nullptr);
    for (int i = 1; i < argc; ++i) tare::MaskSecretsInPlace(argv[i]);
    const int status = tare::cli::Main(argc, args.data());
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) return output_failed(status, errno);
    return status;
  } catch (const std::system_error& e) {
    if (std::ferror(stdout)) return output_failed(tare::cli::kExitOk, e.code().value());
    fmt::print(stderr, "tare: internal error: {}; please report it with the command line\n", e.what());
  } catch (const std::exception& e) {
    fmt::print(stderr, "tare: internal error: {}; please report it with the command line\n", e.what());
  } catch (...) {
    fmt::print(stderr, "tare: internal error (unknown exception); please report it with the command line\n");
  }
  return tare::cli::kExitInternal;
}
