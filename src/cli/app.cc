// The tare command line: the table of contents, one subcommand per question a user asks.
#include "cli/app.h"

#include <filesystem>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/terminal_text.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/help_format.h"
#include "cli/option_names.h"
#include "cmdline/argv.h"
#include "cmdline/subcommand_argv.h"

namespace tare::cli {
namespace {

// Where the Markdown docs are: installed next to the executable (<prefix>/bin/tare and
// <prefix>/share/doc/tare, cmake/TarePackage.cmake), else the source tree's docs/.
std::string DocsLocation() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed = self.parent_path().parent_path() / "share" / "doc" / "tare";
    if (std::filesystem::exists(installed / "cli.md", ec)) return installed.string() + "/";
  }
  return "docs/ in the source tree";
}

}  // namespace
namespace {

// Thrown by the parse-complete callback under TARE_PARSE_ONLY (below); never leaves Main.
struct ParsedOnly {};

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// "unknown flag '--sampels' for `tare run`; did you mean --samples?" for the first flag among
// `args` that `sub` does not have; "" when every flag is known.
std::string UnknownFlagHint(const CLI::App& sub, const std::vector<std::string>& args) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : sub.get_options()) {
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
  for (const auto& arg : args) {
    if (arg.size() < 2 || arg[0] != '-' || arg == "--") continue;
    const std::string flag = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), flag) != names.end()) continue;
    std::string best;
    size_t best_distance = 3;  // further than two edits is not a typo
    for (const auto& n : names) {
      const size_t d = EditDistance(flag, n);
      if (d < best_distance) {
        best_distance = d;
        best = n;
      }
    }
    return fmt::format("unknown flag '{}' for `tare {}`{}", flag, sub.get_name(),
                       best.empty() ? "; see `tare " + sub.get_name() + " --help`" : "; did you mean " + best + "?");
  }
  return "";
}

}  // namespace

int Main(int argc, char** argv) {
  cmdline::SetInvocation(argc, argv);
  CLI::App app{"tare " TARE_VERSION " - measure native benchmarks and gate merges on performance", "tare"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tare " TARE_VERSION);
  InstallHelpFormatter(app);

  std::vector<std::string> args(argv, argv + argc);
  std::vector<std::string> target_argv;
  int exit_code = kExitOk;
  // Every subcommand, in `tare --help`'s order. Building one costs ~0.1-0.3 ms and a dozen page
  // faults (CLI11 allocates each option's names, validators and callbacks), ~2.5 ms for all of them
  // on the VM of bench/README.md: a command line that names one (`tare run ...`) builds only that
  // one; anything else (`tare --help`, a typo, `--version`) builds them all.
  const std::vector<std::pair<std::string_view, std::function<void()>>> subcommands = {
      {"run", [&] { AddRunCommand(app, &exit_code, &target_argv); }},
      {"export", [&] { AddExportCommand(app, &exit_code); }},
      {"runs", [&] { AddRunsCommand(app, &exit_code); }},
      {"compare", [&] { AddCompareCommand(app, &exit_code); }},
      {"history", [&] { AddHistoryCommand(app, &exit_code); }},
      {"site", [&] { AddSiteCommand(app, &exit_code); }},
      {"variance", [&] { AddVarianceCommand(app, &exit_code); }},
      {"env", [&] { AddEnvCommand(app, &exit_code); }},
      {"oracle", [&] { AddOracleCommand(app, &exit_code); }},
      {"ab", [&] { AddAbCommand(app, &exit_code, &target_argv); }},
      {"attribute", [&] { AddAttributeCommand(app, &exit_code); }},
      {"bisect", [&] { AddBisectCommand(app, &exit_code); }},
      {"report", [&] { AddReportCommand(app, &exit_code); }},
      {"import", [&] { AddImportCommand(app, &exit_code); }},
      {"bundle", [&] { AddBundleCommand(app, &exit_code); }},
      {"replay", [&] { AddReplayCommand(app, &exit_code); }},
      {"spread", [&] { AddSpreadCommand(app, &exit_code); }},
      {"merge", [&] { AddMergeCommand(app, &exit_code); }},
      {"push", [&] { AddPushCommand(app, &exit_code); }},
      {"shards", [&] { AddShardsCommand(app, &exit_code); }},
  };
  const auto named = std::find_if(subcommands.begin(), subcommands.end(),
                                  [&](const auto& s) { return args.size() > 1 && args[1] == s.first; });
  if (named != subcommands.end()) {
    if (named->first == "run") StartGitEarly(args);
    named->second();
  } else {
    for (const auto& s : subcommands) s.second();
  }
  // After the subcommands: CLI11 copies a parent's footer into subcommands made after it, and
  // `tare env --help` would end with this one.
  app.footer(std::string(R"(
Start here:
  tare run ./build/my_bench                  measure every benchmark in fresh processes, store the samples
  tare run 'sleep 0.1' 'sleep 0.2'           which command is faster, and by how much (hyperfine style)
  tare run --instrument sim ./build/my_bench instruction counts that repeat exactly (valgrind)
  tare ab --base old/bench --head new/bench --null
                                             did my change regress? PASS / INCONCLUSIVE / FAIL
  tare oracle check --golden G -- ./report   golden outputs of nondeterministic signals, voted
  tare env                                   what this host is, and what makes its timings unstable
  tare export --run latest                   everything stored for a run, as JSON

Exit status: 0 success; 1 failed samples / FAIL verdict / golden mismatch; 2 bad input (nothing
was measured); 3 INCONCLUSIVE / nondeterministic output; 4 sanity gate or release bound violated;
5 a benchmark that cannot be measured (ab: it fails in base too); 70 internal error; 130 interrupted
(completed samples are kept).
Each subcommand's --help has examples. Docs: )") +
             DocsLocation());
  // The target's own argv (and the arms' after `ab ... --`) is cut off before CLI11 parses tare's
  // options, and other tools' habits answered (cmdline/subcommand_argv.h); which options take a
  // value is read from the options themselves, so a new one cannot be missed.
  if (args.size() > 1 && (args[1] == "run" || args[1] == "ab")) {
    const cmdline::OptionTable options = OptionTableOf(*app.get_subcommand(args[1]));
    auto split = args[1] == "run" ? cmdline::ReadRunArgv(args, options) : cmdline::ReadAbArgv(args, options);
    if (!split.ok()) return ReportError(split.status());
    args = split->tare;
    target_argv = split->target;
  }

  // CLI11 reads an unknown first word as a stray positional and says only "A subcommand is
  // required"; name the word and the choices instead.
  if (args.size() > 1 && !args[1].empty() && args[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      known = known || sub->check_name(args[1]);
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      fmt::print(stderr,
                 "tare: error: unknown subcommand '{}'; the subcommands are: {}\n"
                 "Run `tare --help` for usage.\n",
                 TerminalText(args[1]), names);
      return kExitUsage;
    }
  }
  // The same one level down (`tare oracle bogus`, `tare bundle bogus`), for a subcommand that has
  // subcommands and no positional arguments of its own.
  if (args.size() > 2 && !args[2].empty() && args[2][0] != '-') {
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      if (!sub->check_name(args[1])) continue;
      auto nested = sub->get_subcommands([](CLI::App*) { return true; });
      if (nested.empty() || !sub->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty()) break;
      std::string names;
      bool known = false;
      for (const CLI::App* n : nested) {
        known = known || n->check_name(args[2]);
        names += (names.empty() ? "" : ", ") + n->get_name();
      }
      if (!known) {
        fmt::print(stderr,
                   "tare: error: unknown subcommand '{}' of `tare {}`; its subcommands are: {}\n"
                   "Run `tare {} --help` for usage.\n",
                   TerminalText(args[2]), sub->get_name(), names, sub->get_name());
        return kExitUsage;
      }
      break;
    }
  }

  // TARE_PARSE_ONLY=1: stop once the command line has parsed — every subcommand and flag known,
  // every value accepted by its option — before any subcommand does its work, and exit 0. How
  // tests/e2e/docs checks each command line shown in README.md and docs/ (docs/testing.md). CLI11
  // runs the top-level parse-complete callback after its own checks and before any subcommand's.
  if (const char* p = std::getenv("TARE_PARSE_ONLY"); p && std::string(p) == "1") {
    app.parse_complete_callback([] { throw ParsedOnly{}; });
  }

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);  // CLI11 wants it reversed, without argv[0]
    app.parse(reversed);
  } catch (const ParsedOnly&) {
    return kExitOk;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string hint;
    // Unknown arguments of a subcommand without subcommands of its own: name the nearest flag.
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && args.size() > 1) {
      for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
        if (sub->check_name(args[1]) && sub->get_subcommands({}).empty()) {
          hint = UnknownFlagHint(*sub, {args.begin() + 2, args.end()});
        }
      }
    }
    // CLI11 says "Could not convert: --trials = abc" for a value its option's type cannot hold.
    static constexpr std::string_view kConvert = "Could not convert: ";
    const std::string what = e.what();
    if (hint.empty() && dynamic_cast<const CLI::ConversionError*>(&e) != nullptr && what.rfind(kConvert, 0) == 0 &&
        what.find(" = ") != std::string::npos) {
      const size_t eq = what.find(" = ");
      hint = fmt::format("{}: '{}' is not a value this option takes (its --help says what it takes)",
                         what.substr(kConvert.size(), eq - kConvert.size()), what.substr(eq + 3));
    }
    fmt::print(stderr, "tare: error: {}\nRun `tare --help` (or `tare SUBCOMMAND --help`) for usage.\n",
               TerminalText(hint.empty() ? what : hint));
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace tare::cli
