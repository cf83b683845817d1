// Other tools' flags given to tare: what hyperfine's and Google Benchmark's habits mean in
// `tare run` and `tare ab` (docs/coming-from.md). A flag tare does not have, or has with another
// meaning, is answered with tare's own flag, or with the plain statement that tare has none and
// what it does instead; never "did you mean -h?" or a type error about a flag the user did not
// mean, and never a guess that measures something else than was written.
#pragma once

#include <string>
#include <vector>

namespace tare::cmdline {

// For a Google Benchmark flag given to tare ("--benchmark_min_time=0.05"): tare's own flag with
// the same effect, followed by ", " ("--gbench-min-time 0.05s (for every sample), "), or "" when
// tare has none (the flag can only be passed to the binary).
std::string GbenchFlagOwnEquivalent(const std::string& flag_and_value);

// The first of `tare_args` (tare's own arguments from index 2 on: the target and its arguments
// cut off) that is another tool's flag in `tare run`, as the error to print; "" when none is.
//   - a hyperfine flag tare has not (-c/--cleanup, --command-name, -u/--time-unit, -m/--min-runs,
//     -M/--max-runs, --ignore-failure, --export-asciidoc/--export-orgmode, --sort, --output,
//     --input): tare's flag for it, or that there is none and why;
//   - hyperfine's -n NAME (--command-name): -n is tare's --samples, so -n followed by a word that is
//     not a whole number;
//   - a Google Benchmark flag (--benchmark_...): tare's own flag, or the binary's after `target`.
// `known` are the subcommand's option names (OptionNames): a name tare has is tare's.
std::string ForeignRunFlag(const std::vector<std::string>& tare_args, const std::vector<std::string>& known,
                           const std::string& target);

}  // namespace tare::cmdline
