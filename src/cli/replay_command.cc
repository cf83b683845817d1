#include "cli/commands.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "base/files.h"
#include "base/terminal_text.h"
#include "bundle/opened_bundle.h"
#include "bundle/replay.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cmdline/argv.h"
#include "cli/progress.h"
#include "proc/spawner.h"
#include "session/environment.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct ReplayOptions {
  std::string file;
  std::string store_path = DefaultStorePath();
  bool quiet = false;
  bool trust_env = false;
};

StatusOr<int> Replay(const ReplayOptions& o) {
  TARE_RETURN_IF_ERROR(CheckInputFile(o.file));  // a directory, FIFO or device is named, never opened
  bundle::VerifyResult verified;
  auto opened = bundle::OpenBundle(o.file, &verified);
  if (!opened.ok()) {
    fmt::print(stderr, "tare: bundle '{}' FAILED verification; nothing was run:\n", TerminalText(o.file));
    for (const auto& p : verified.problems) fmt::print(stderr, "  {}\n", TerminalText(p));
    if (verified.problems.empty()) fmt::print(stderr, "  {}\n", TerminalText(opened.status().message()));
    return kExitUsage;
  }
  if (!o.quiet) {
    fmt::print(stderr, "tare: bundle verified: {} members, every sha256 checked\n", verified.members);
  }
  proc::InstallInterruptHandler();
  auto spawner = proc::Spawner::Start();
  if (!spawner.ok()) return spawner.status();
  auto store = store::Store::Open(o.store_path);
  if (!store.ok()) return store.status();

  Progress progress(o.quiet);
  bundle::ReplayOptions ro;
  ro.store_path = o.store_path;
  ro.command_line = cmdline::RecordedInvocation();
  ro.tare_version = TARE_VERSION;
  ro.base_env = session::ProcessEnvironment();
  ro.trust_env = o.trust_env;
  ro.progress = progress.Line();
  ro.notice = progress.Notice(o.quiet);
  auto result = bundle::Replay(*opened, **store, **spawner, ro);
  progress.Clear();
  if (!result.ok()) return result.status();
  fmt::print("{}", bundle::RenderReplay(*result));
  if (result->interrupted) return kExitInterrupted;
  fmt::print(
      "\nspread across the two: tare spread --{} {}{}\n", result->kind == RunKind::kAb ? "lock" : "executable",
      result->kind == RunKind::kAb             ? result->replay_of.substr(0, 12)
      : opened->manifest().executables.empty() ? std::string("SHA")
                                               : opened->manifest().executables[0].sha256.substr(0, 12),
      o.store_path == DefaultStorePath() ? "" : " --store " + TerminalText(store::PrintableLocation(o.store_path)));
  return kExitOk;
}

}  // namespace

void AddReplayCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ReplayOptions>();
  CLI::App* sub = app.add_subcommand("replay", "Verify a bundle, then measure its run again on this host");
  sub->footer(R"(
The bundle is verified first (as `tare bundle verify`); a tampered bundle runs nothing (exit 2).
Its run is imported into the store (once), then measured again from the bundled executables:
  a tare ab cohort: the same campaign declaration (metrics, allowances, plan, looks, arm order,
    seed), each arm from the bundled build of the same sha256, as a new cohort;
  a tare run: the same options (samples, warm-ups, instrument, filter, arguments, environment).
Each executable runs under a path as long as the one it was measured from (a padded directory
name): a program that copies its argv[0] counts differently under sim by that length. Where the
original's was shorter than any path here, a sim replay says so (a shorter TMPDIR, or a store in
a shallower directory for a cohort, helps).
The new run keeps the original's commit, branch and tags and is tagged replay-of=<lock sha256>
(tare ab) or replay-of=<run uid> (tare run). The two hosts' fingerprints are compared (hard keys:
not comparable; soft keys: conditions differed), and the results are shown side by side, never
pooled and never judged against each other. Then `tare spread` says how far they moved.

What the bundle sets for the programs it runs (environment, working directory, arguments) is shown
before anything runs. A bundle is someone else's input: its executables run as you, so replay only
bundles you would run the builds of (their sha256 are checked against what the run recorded). Of
what it sets, variables the dynamic loader or the C library act on (LD_*, GLIBC_TUNABLES, GCONV_PATH,
...) are refused, exit 2, unless --trust-env: through them a bundle could load a library or read
a file of its choosing on this host (docs/bundle.md, "Trust").

Exit status: 0 replayed; 2 bad or tampered bundle, or loader variables without --trust-env,
nothing run; 130 interrupted.

Examples:
  mkdir /tmp/replay && cd /tmp/replay && tare replay ~/evidence.tar.gz
  tare replay evidence.tar.gz --store .tare/tare.db && tare spread --lock 0123abcd4567)");
  sub->add_option("file", o->file, "A bundle written by `tare bundle`")->required();
  sub->add_option(
      "--store", o->store_path,
      std::string(kStoreHelp) + "; arm copies go to its directory's bin/ (.tare/bin for a postgresql:// store)");
  sub->add_flag("--quiet,-q", o->quiet, "No progress");
  sub->add_flag("--trust-env", o->trust_env,
                "Run even though the bundle sets variables the dynamic loader or C library act on (LD_PRELOAD, "
                "LD_LIBRARY_PATH, GLIBC_TUNABLES, ...): only for a bundle whose maker you trust");
  sub->callback([o, exit_code]() { *exit_code = Finish(Replay(*o)); });
}

}  // namespace tare::cli
