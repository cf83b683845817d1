#include "cmdline/subcommand_argv.h"

#include <fmt/format.h>

#include <algorithm>

#include "cmdline/foreign_flags.h"
#include "cmdline/usage_hints.h"

namespace tare::cmdline {

StatusOr<SplitArgs> ReadRunArgv(std::vector<std::string> args, const OptionTable& options) {
  const bool help_asked =
      std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "-h" || a == "--help"; });
  // hyperfine's `--shell SHELL` and `-i` (usage_hints.h): what was meant, or an error saying how to
  // write it; never `/bin/sh -c SHELL`.
  if (!help_asked) {
    TARE_ASSIGN_OR_RETURN(args, ResolveRunShellWord(args, options.value_options));
  }
  SplitArgs split = SplitAtTarget(args, 2, options.value_options);
  if (!help_asked) {
    TARE_RETURN_IF_ERROR(CheckInstrumentShortFlag(split.tare));
    // hyperfine's and Google Benchmark's flags tare has not (foreign_flags.h): tare's own flag, or
    // that there is none; an unknown flag otherwise (a typo) is CLI11's, with "did you mean".
    const std::string foreign = ForeignRunFlag(split.tare, options.names, split.target.empty() ? "" : split.target[0]);
    if (!foreign.empty()) return Status::InvalidArgument(foreign);
  }
  const bool all_known = std::all_of(
      split.tare.begin() + std::min<size_t>(2, split.tare.size()), split.tare.end(), [&](const std::string& t) {
        return t.size() < 2 || t[0] != '-' || t == "-h" || t == "--help" ||
               std::find(options.names.begin(), options.names.end(), t.substr(0, t.find('='))) != options.names.end();
      });
  if (const std::string a = all_known ? AmbiguousTargetArgument(split, options.names) : ""; !a.empty()) {
    return Status::InvalidArgument(fmt::format(
        "'{}' after the target '{}' is also an option of `tare run`; it is not clear whose it is. Put it before "
        "the target for tare, or put `--` before the target to pass everything after it to the target: tare run "
        "[OPTIONS] -- {} ...",
        a, split.target[0], split.target[0]));
  }
  // hyperfine's --shell=SHELL picks the shell; tare's --shell alone is a flag (/bin/sh).
  for (size_t i = 2; i < split.tare.size(); ++i) {
    if (split.tare[i].rfind("--shell=", 0) == 0) split.tare[i] = "--shell-program=" + split.tare[i].substr(8);
  }
  return split;
}

StatusOr<SplitArgs> ReadAbArgv(const std::vector<std::string>& args, const OptionTable& options) {
  // A forgotten `--`, a Google Benchmark flag, two builds as words: the error says what to type.
  TARE_RETURN_IF_ERROR(CheckAbArguments(args, options.value_options, options.names));
  // `tare ab ... -- ARGS`: everything after "--" is passed to every arm.
  SplitArgs split;
  auto dashes = std::find(args.begin() + std::min<size_t>(2, args.size()), args.end(), std::string("--"));
  split.tare.assign(args.begin(), dashes);
  if (dashes != args.end()) {
    split.target.assign(dashes + 1, args.end());
    split.after_dashes = true;
  }
  return split;
}

}  // namespace tare::cmdline
