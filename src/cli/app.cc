// The tare command line: the table of contents, one subcommand per question a user asks.
#include "cli/app.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

#include "cli/ab_command.h"
#include "cli/env_command.h"
#include "cli/exit_codes.h"
#include "cli/export_command.h"
#include "cli/invocation.h"
#include "cli/oracle_command.h"
#include "cli/run_command.h"

namespace tare::cli {

int Main(int argc, char** argv) {
  SetInvocation(argc, argv);
  CLI::App app{"tare " TARE_VERSION " - measure native benchmarks and gate merges on performance", "tare"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tare " TARE_VERSION);
  app.footer(R"(
Start here:
  tare run ./build/my_bench                  measure every benchmark in fresh processes, store the samples
  tare run --instrument sim ./build/my_bench instruction counts that repeat exactly (valgrind)
  tare ab --base old/bench --head new/bench --null
                                             did my change regress? PASS / INCONCLUSIVE / FAIL
  tare oracle check --golden G -- ./report   golden outputs of nondeterministic signals, voted
  tare env                                   what this host is, and what makes its timings unstable
  tare export --run latest                   everything stored for a run, as JSON

Exit status: 0 success; 1 failed samples / FAIL verdict / golden mismatch; 2 bad input (nothing
was measured); 3 INCONCLUSIVE / nondeterministic output; 4 sanity gate or release bound violated;
70 internal error; 130 interrupted (completed samples are kept).
Each subcommand's --help has examples. Docs: docs/ in the source tree.)");

  // The target's own argv is cut off before CLI11 parses tare's options (see SplitAtTarget).
  std::vector<std::string> args(argv, argv + argc);
  std::vector<std::string> target_argv;
  if (args.size() > 1 && args[1] == "run") {
    SplitArgs split = SplitAtTarget(args, 2, RunValueOptions());
    args = split.tare;
    target_argv = split.target;
  } else if (args.size() > 1 && args[1] == "ab") {
    // `tare ab ... -- ARGS`: everything after "--" is passed to every arm.
    auto dashes = std::find(args.begin() + 2, args.end(), std::string("--"));
    if (dashes != args.end()) {
      target_argv.assign(dashes + 1, args.end());
      args.erase(dashes, args.end());
    }
  }

  int exit_code = kExitOk;
  AddRunCommand(app, &exit_code, &target_argv);
  AddExportCommand(app, &exit_code);
  AddRunsCommand(app, &exit_code);
  AddEnvCommand(app, &exit_code);
  AddOracleCommand(app, &exit_code);
  AddAbCommand(app, &exit_code, &target_argv);

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
      fmt::print(stderr, "tare: error: unknown subcommand '{}'; the subcommands are: {}\n"
                         "Run `tare --help` for usage.\n", args[1], names);
      return kExitUsage;
    }
  }

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);  // CLI11 wants it reversed, without argv[0]
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "tare: error: {}\nRun `tare --help` (or `tare SUBCOMMAND --help`) for usage.\n", e.what());
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace tare::cli
