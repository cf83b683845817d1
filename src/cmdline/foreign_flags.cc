#include "cmdline/foreign_flags.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "base/shell_quote.h"

namespace tare::cmdline {
namespace {

struct ForeignFlag {
  std::string_view names;   // hyperfine's spellings, '|'-separated
  std::string_view answer;  // what tare has instead
};

// hyperfine 1.18's flags that `tare run` does not have (hyperfine --help). `-n` is the exception:
// tare has it, as --samples; only `-n WORD` is hyperfine's --command-name (ForeignRunFlag).
constexpr std::array<ForeignFlag, 9> kHyperfineFlags = {{
    {"-c|--cleanup", "tare's is --conclude CMD (once, after the last sample of the whole run); tare has no -c"},
    {"--command-name", "tare has none: each command is named by its command line (-n is --samples N here)"},
    {"-u|--time-unit",
     "tare has no --time-unit: it prints each figure in the unit that suits it, and --export-csv / "
     "--export-json hold base units (ns)"},
    {"-m|--min-runs",
     "tare run takes a fixed --runs N (default 10); sampling until the question is answered is what "
     "`tare ab` does (adaptive looks, docs/campaign.md)"},
    {"-M|--max-runs",
     "tare run takes a fixed --runs N (default 10); sampling until the question is answered is what "
     "`tare ab` does (adaptive looks, docs/campaign.md)"},
    {"--ignore-failure",
     "tare has none: a failed sample is stored and counted, the table says FAILED and the run exits 1; "
     "to measure a command whose non-zero exit is expected, run it as --shell 'COMMAND || true'"},
    {"--export-asciidoc|--export-orgmode",
     "tare writes --export-markdown FILE, --export-csv FILE and --export-json FILE"},
    {"--output",
     "tare has none: each sample's stdout and stderr are captured (never shown on the terminal while "
     "timed) and kept with the sample; --show-output prints their end after each sample"},
    {"--sort", "tare has none: commands are listed in the order given"},
}};

bool SpelledAs(std::string_view names, std::string_view flag) {
  while (!names.empty()) {
    const size_t bar = names.find('|');
    if (names.substr(0, bar) == flag) return true;
    if (bar == std::string_view::npos) break;
    names.remove_prefix(bar + 1);
  }
  return false;
}

bool IsCount(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::string GbenchFlagOwnEquivalent(const std::string& a) {
  const std::string name = a.substr(0, a.find('='));
  const std::string value = a.find('=') != std::string::npos ? a.substr(a.find('=') + 1) : "";
  if (name == "--benchmark_min_time" && !value.empty() && value.back() != 'x') {
    const bool bare = value.find_first_not_of("0123456789.") == std::string::npos;
    return fmt::format("--gbench-min-time {}{} (for every sample), ", value, bare ? "s" : "");
  }
  if (name == "--benchmark_filter" && !value.empty()) {
    return fmt::format("--filter {} (only those benchmarks are measured), ", ShellQuote(value));
  }
  return "";
}

std::string ForeignRunFlag(const std::vector<std::string>& args, const std::vector<std::string>& known,
                           const std::string& target) {
  auto is_known = [&](const std::string& n) { return std::find(known.begin(), known.end(), n) != known.end(); };
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-' || a == "--") continue;
    const std::string name = a.substr(0, a.find('='));
    if (name == "-n" && is_known(name)) {
      const std::string value = a.find('=') != std::string::npos ? a.substr(a.find('=') + 1)
                                : i + 1 < args.size()            ? args[i + 1]
                                                                 : "";
      if (!value.empty() && !IsCount(value)) {
        return fmt::format(
            "-n {}: -n is --samples N in tare (a count); hyperfine's -n (--command-name) has no flag here: "
            "each command is named by its command line",
            ShellQuote(value));
      }
      continue;
    }
    if (is_known(name)) continue;
    if (name.rfind("--benchmark_", 0) == 0) {
      return fmt::format(
          "'{}' is a Google Benchmark flag, not one of tare's: use {}or give it after the target, which "
          "passes it to the binary: tare run {} {}",
          a, GbenchFlagOwnEquivalent(a), target.empty() ? "./bench" : ShellQuote(target), ShellQuote(a));
    }
    for (const ForeignFlag& f : kHyperfineFlags) {
      if (SpelledAs(f.names, name))
        return fmt::format("hyperfine's {} is not a flag of `tare run`: {}", name, f.answer);
    }
  }
  return "";
}

}  // namespace tare::cmdline
