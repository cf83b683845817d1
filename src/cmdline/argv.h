// tare's own command line: recorded with every run (secrets masked), split at the target for
// `tare run`, and printed back as the command that resumes an interrupted cohort.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace tare::cmdline {

// The options of one subcommand as its CLI11 table declares them (cli/option_names.h reads them):
// every name, and those that take values with how many each occurrence takes.
struct OptionTable {
  std::vector<std::string> names;            // "--samples", "-n", ...
  std::map<std::string, int> value_options;  // "--samples" -> 1, "--parameter-scan" -> 3
};

// tare's own argv, as given (set once by main): what the commands parse.
void SetInvocation(int argc, char** argv);
const std::vector<std::string>& Invocation();
// The same with every secret masked (base/redact.h: a store URL's password): what a run records
// and what tare prints back (the resume command).
std::vector<std::string> RecordedInvocation();

// The command that continues an interrupted `tare ab` cohort, printed after Ctrl-C for the user to
// paste into a shell. `argv` is tare's own command line (argv[0] "tare", argv[1] "ab", ...).
// `--resume` goes right after "ab" — never after `--`, where it would reach the benchmark and start
// a new cohort — and only when it is not already among tare's options. Every argument is quoted for
// a POSIX shell (base/shell_quote.h).
std::string ResumeCommand(const std::vector<std::string>& argv);

// Splits `tare <sub> [OPTIONS] TARGET [ARGS...]` at the target: the first token that is neither
// one of the subcommand's options nor an option's value, or whatever follows a "--". Everything
// from the target on belongs to the target. `first` is the index of the first token after the
// subcommand name; `value_options` maps the options that take values to how many each takes
// (OptionTable::value_options: --samples 1, --parameter-scan 3).
struct SplitArgs {
  std::vector<std::string> tare;    // argv for CLI11 (program, subcommand, tare's options)
  std::vector<std::string> target;  // TARGET [ARGS...]
  bool after_dashes = false;        // the target followed an explicit "--"
};
// When the target is command lines (its first word has a space: `tare run 'sleep 0.1' -n 3 'sleep
// 0.2'`), options among them are tare's too.
SplitArgs SplitAtTarget(const std::vector<std::string>& argv, size_t first,
                        const std::map<std::string, int>& value_options);

// Without "--", `tare run sort f -n 2` is ambiguous: did the user mean tare's -n or sort's? The
// first of the target's arguments that is also one of `options` ("-n", "--samples",
// "--samples=3"), or "" when there is none (or the target followed "--").
std::string AmbiguousTargetArgument(const SplitArgs& split, const std::vector<std::string>& options);

}  // namespace tare::cmdline
