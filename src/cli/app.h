// The tare command line as a library: main() is one call to Main, so the whole command line can be
// driven in-process by tests. Only cli maps errors to exit statuses (cli/exit_codes.h).
#pragma once

namespace tare::cli {

// Parses argv, runs one subcommand and returns the process's exit status.
int Main(int argc, char** argv);

}  // namespace tare::cli
