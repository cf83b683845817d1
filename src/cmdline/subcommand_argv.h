// What `tare run` and `tare ab` take from tare's argv before CLI11 reads it: the target's (or the
// arms') own arguments cut off, so no word of theirs is read as tare's option, and the habits of
// other tools (usage_hints.h, foreign_flags.h) answered with the command line to type instead.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "cmdline/argv.h"

namespace tare::cmdline {

// `args`: the whole argv ("tare", "run", ...); `options`: `tare run`'s. On success, `tare` is what
// CLI11 parses (hyperfine's `--shell SHELL` and `--shell=SHELL` rewritten to --shell-program) and
// `target` is TARGET [ARGS...] (or the command lines). InvalidArgument, with what to type, for
// `--shell` that could mean either, `-i` not followed by an instrument, another tool's flag, or a
// target argument that is also one of tare's options (put it before the target, or `--` before
// the target). With -h/--help anywhere only the split is done: the help is CLI11's.
StatusOr<SplitArgs> ReadRunArgv(std::vector<std::string> args, const OptionTable& options);

// The same for `tare ab`: the mistakes of CheckAbArguments refused, and what follows `--` (the
// arguments of every arm) cut off into `target`.
StatusOr<SplitArgs> ReadAbArgv(const std::vector<std::string>& args, const OptionTable& options);

}  // namespace tare::cmdline
