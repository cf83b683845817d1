// The command that continues an interrupted `tare ab` cohort, printed after Ctrl-C for the user
// to paste into a shell.
#pragma once

#include <string>
#include <vector>

namespace tare::cli {

// `argv` is tare's own command line (argv[0] "tare", argv[1] "ab", ...). `--resume` goes right
// after "ab" — never after `--`, where it would reach the benchmark and start a new cohort — and
// only when it is not already among tare's options. Every argument is quoted for a POSIX shell.
std::string ResumeCommand(const std::vector<std::string>& argv);

// One argument as a POSIX shell reads it back unchanged: as it is when it holds only characters
// no shell treats specially, otherwise in single quotes, with ' written as '\''.
std::string ShellQuote(const std::string& arg);

}  // namespace tare::cli
