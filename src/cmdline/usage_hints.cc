#include "cmdline/usage_hints.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <string_view>

#include "base/shell_quote.h"
#include "cmdline/argv.h"
#include "cmdline/foreign_flags.h"

namespace tare::cmdline {
namespace {

// The shells hyperfine users name with --shell (by the basename of the first word: "bash",
// "/usr/bin/zsh", "bash --norc"), and hyperfine's two special values.
bool NamesAShell(const std::string& word) {
  static constexpr std::array<std::string_view, 18> kShells = {"sh",  "bash",   "zsh",   "dash",    "ksh",  "mksh",
                                                               "ash", "yash",   "fish",  "tcsh",    "csh",  "pwsh",
                                                               "nu",  "elvish", "xonsh", "busybox", "none", "default"};
  const std::string first = word.substr(0, word.find_first_of(" \t"));
  const std::string base = std::filesystem::path(first).filename().string();
  return std::find(kShells.begin(), kShells.end(), base) != kShells.end();
}

bool HasSpace(const std::string& word) { return word.find_first_of(" \t") != std::string::npos; }

std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + ShellQuote(w);
  return out;
}

bool IsHelp(const std::string& a) { return a == "-h" || a == "--help"; }

}  // namespace

StatusOr<std::vector<std::string>> ResolveRunShellWord(const std::vector<std::string>& args,
                                                       const std::map<std::string, int>& value_options) {
  const SplitArgs split = SplitAtTarget(args, 2, value_options);
  if (split.after_dashes || split.target.empty() || split.tare.size() <= 2 || split.tare.back() != "--shell") {
    return args;
  }
  const std::string& word = split.target[0];
  const std::vector<std::string> rest(split.target.begin() + 1, split.target.end());
  if (NamesAShell(word)) {
    std::vector<std::string> out(split.tare.begin(), split.tare.end() - 1);
    out.push_back("--shell-program");
    out.push_back(word);
    out.insert(out.end(), rest.begin(), rest.end());
    // Only options after the shell (`--shell bash --runs 3`): no command to run through it.
    if (SplitAtTarget(out, 2, value_options).target.empty()) {
      return Status::InvalidArgument(
          fmt::format("`--shell {0}`: is '{0}' the shell or the command? To run commands through {0} (hyperfine's "
                      "--shell SHELL), give them after it: tare run --shell={0} 'COMMAND'. To measure '{0}' itself "
                      "through /bin/sh: tare run --shell -- {1}",
                      word, ShellQuote(word)));
    }
    return out;
  }
  if (!HasSpace(word) && !rest.empty()) {
    return Status::InvalidArgument(fmt::format(
        "`--shell {0} {1}` is ambiguous: tare's --shell is a flag (run the command line through /bin/sh -c), "
        "hyperfine's takes the shell. To use {0} as the shell: tare run --shell={0} {1}. To run `{0} {1}` "
        "through /bin/sh: tare run --shell -- {2} {1}",
        word, Joined(rest), ShellQuote(word)));
  }
  return args;
}

Status CheckInstrumentShortFlag(const std::vector<std::string>& tare_args) {
  for (size_t i = 2; i < tare_args.size(); ++i) {
    if (tare_args[i] != "-i") continue;
    const std::string value = i + 1 < tare_args.size() ? tare_args[i + 1] : "";
    if (value == "wall" || value == "sim" || value == "mem") continue;
    return Status::InvalidArgument(fmt::format(
        "{}; use wall, sim or mem. -i is --instrument in tare; hyperfine's -i (--ignore-failure) "
        "has no flag here: tare stores and counts a failed sample, its table says FAILED and the run "
        "exits 1; to measure a command whose non-zero exit is expected, run it as --shell 'COMMAND || true' "
        "(docs/coming-from.md)",
        value.empty() ? std::string("-i needs an instrument") : "unknown instrument '" + value + "'"));
  }
  return Status::Ok();
}

StatusOr<Style> ResolveStyle(const std::string& style, const std::string& color, bool color_given) {
  Style out{color, false};
  if (style.empty()) return out;
  std::string wanted;
  if (style == "auto") {
    wanted = "auto";
  } else if (style == "basic" || style == "nocolor") {
    wanted = "never";
  } else if (style == "full" || style == "color") {
    wanted = "always";
  } else if (style == "none") {
    wanted = color;
    out.quiet = true;
  } else {
    return Status::InvalidArgument(
        fmt::format("--style '{}': use auto, basic, full, nocolor, color or none (hyperfine's values; tare's own are "
                    "--color auto|always|never and --quiet)",
                    style));
  }
  if (color_given && wanted != color) {
    return Status::InvalidArgument(
        fmt::format("--style {} and --color {} contradict each other; give one", style, color));
  }
  out.color = wanted;
  return out;
}

Status CheckAbArguments(const std::vector<std::string>& args, const std::map<std::string, int>& value_options,
                        const std::vector<std::string>& option_names) {
  if (std::any_of(args.begin(), args.end(), IsHelp)) return Status::Ok();
  std::vector<std::string> options;  // tare's options with their values, in order
  std::vector<std::string> words;    // everything else
  std::vector<std::string> after;    // the arms' arguments, after `--`
  std::vector<std::string> strays;   // the words and the flags `tare ab` has not, in order
  bool arms_named = false;
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      after.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      words.push_back(a);
      strays.push_back(a);
      continue;
    }
    const std::string name = a.substr(0, a.find('='));
    if (name.rfind("--benchmark_", 0) == 0) {
      return Status::InvalidArgument(
          fmt::format("'{}' is a Google Benchmark flag, not one of tare's: use {}or pass it to every arm after `--`: "
                      "tare ab ... -- {}",
                      a, GbenchFlagOwnEquivalent(a), ShellQuote(a)));
    }
    // A flag `tare ab` does not have, among words that are not campaign files (`--head gzip -c
    // data.txt`): the arms' too, so it goes after `--` with them.
    if (std::find(option_names.begin(), option_names.end(), name) == option_names.end()) {
      strays.push_back(a);
      continue;
    }
    arms_named = arms_named || name == "--base" || name == "--head";
    options.push_back(a);
    auto it = value_options.find(name);
    int values = it == value_options.end() ? 0 : it->second - (a.find('=') == std::string::npos ? 0 : 1);
    for (; values > 0 && i + 1 < args.size(); --values) options.push_back(args[++i]);
  }
  if (!arms_named && words.size() >= 2) {
    std::string flags = "--base " + ShellQuote(words[0]);
    for (size_t i = 1; i < words.size(); ++i) flags += " --head " + ShellQuote(words[i]);
    return Status::InvalidArgument(
        fmt::format("tare ab takes one campaign file, or the builds as flags: tare ab {}{}{}{}", flags,
                    options.empty() ? "" : " ", Joined(options), after.empty() ? "" : " -- " + Joined(after)));
  }
  if (arms_named && !words.empty()) {
    const bool campaign_file =
        words.size() == 1 && words[0].size() > 5 && words[0].compare(words[0].size() - 5, 5, ".toml") == 0;
    if (!campaign_file) {
      return Status::InvalidArgument(fmt::format(
          "{} after --base/--head: arguments for the benchmark go after `--`, and reach every arm: "
          "tare ab {} -- {}",
          words.size() == 1 ? "'" + words[0] + "' is not a campaign file" : Joined(words) + ": not a campaign file",
          Joined(options), Joined(strays) + (after.empty() ? "" : " " + Joined(after))));
    }
  }
  return Status::Ok();
}

}  // namespace tare::cmdline
