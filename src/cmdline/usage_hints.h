// Command lines that parse but do not say what the user meant, caught before CLI11 reads them:
// hyperfine's habits in `tare run` (docs/coming-from.md) and the common mistakes of `tare ab`.
// Each check reads tare's argv ("tare", "run"/"ab", ...) and either rewrites it to what the
// user meant, when that is certain, or returns the error to print, with the command line to type
// instead; never a guess that measures something else than was written.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"

namespace tare::cmdline {

// hyperfine's `--shell SHELL`, with a space: tare's `--shell` alone is a flag (run the command
// lines through /bin/sh -c), so `tare run --shell bash 'sleep 0.1'` used to run
// `/bin/sh -c 'bash sleep 0.1'`. When `--shell` is followed by a word (before the target, no `--`
// between them):
//   - a shell (sh, bash, zsh, dash, fish, ... by the basename of its first word; `none`,
//     `default`) followed by commands: hyperfine's meaning, rewritten to `--shell-program WORD`;
//   - a shell and nothing after it: InvalidArgument (is it the shell or the command?);
//   - one word that is not a shell, with more words after it (`--shell ./prog arg`): InvalidArgument,
//     naming both ways to write it (`--shell=./prog 'CMD'`, `--shell -- ./prog arg`);
//   - a command line (a word with a space: `--shell 'grep x f | wc -l'`), or a lone word that is
//     not a shell: tare's meaning, unchanged.
// `value_options` as for SplitAtTarget (ValueOptionNames of `tare run`).
StatusOr<std::vector<std::string>> ResolveRunShellWord(const std::vector<std::string>& args,
                                                       const std::map<std::string, int>& value_options);

// `-i` is tare's --instrument (wall, sim or mem), in `tare run` as in `tare ab`; hyperfine's `-i`
// is --ignore-failure. For `tare run`: InvalidArgument when a `-i` among tare's options is followed by
// anything but an instrument's name, saying which meaning tare has and what to do for the other.
Status CheckInstrumentShortFlag(const std::vector<std::string>& tare_args);

// hyperfine's --style: auto | basic | full | nocolor | color | none, as tare's --color (and none as
// --quiet). InvalidArgument for another value, or for a --color that contradicts it.
struct Style {
  std::string color;  // auto | always | never
  bool quiet = false;
};
StatusOr<Style> ResolveStyle(const std::string& style, const std::string& color, bool color_given);

// The mistakes of `tare ab` among tare's own arguments (`args` is the whole argv; what follows a
// `--` is the arms' and only quoted back):
//   - a Google Benchmark flag given to tare (`--benchmark_min_time=0.05`): use tare's own flag
//     (--gbench-min-time 0.05s, --filter RE) or pass it to every arm after `--`;
//   - two or more words that are not options, without --base/--head (`tare ab ./base ./head`):
//     --base ./base --head ./head;
//   - --base/--head with a word that is not a campaign file (`... --head ./b 0.01`): the arms'
//     arguments go after `--`, with any flag among tare's that `tare ab` does not have (`--head
//     gzip -c data.txt` is `--head gzip -- -c data.txt`).
// InvalidArgument with the command line to type, or Ok. A `-h`/`--help` anywhere is left to
// CLI11. `value_options` as for SplitAtTarget (ValueOptionNames of `tare ab`), `option_names` its
// OptionNames.
Status CheckAbArguments(const std::vector<std::string>& args, const std::map<std::string, int>& value_options,
                        const std::vector<std::string>& option_names);

}  // namespace tare::cmdline
