#include "cli/commands.h"

#include <fmt/format.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include "base/files.h"
#include "base/json_text.h"
#include "base/terminal_text.h"
#include "base/units.h"
#include "bisect/commit_runs.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/flag_checks.h"
#include "cli/help_format.h"
#include "cli/progress.h"
#include "cli/option_names.h"
#include "cmdline/argv.h"
#include "base/output_path.h"
#include "cli/shard_flags.h"
#include "cmdline/usage_hints.h"
#include "compare/thresholds.h"
#include "compare/variance.h"
#include "env/provenance.h"
#include "proc/spawner.h"
#include "report/hyperfine_json.h"
#include "report/run_report.h"
#include "report/run_summary.h"
#include "session/command_line.h"
#include "session/plain_run.h"
#include "session/run_commands.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct RunOptions {
  session::TargetArgs target;
  ShardFlags shard;
  int samples = -1;  // -1: 10, or 3 under sim (its counts are identical on every rerun)
  int warmup = -1;   // -1: 1, or 0 under sim
  std::string timeout = "10m";
  std::string filter;
  std::string instrument = "wall";
  std::string store_path = DefaultStorePath();
  std::string json_path;
  std::string markdown_path;
  std::string csv_path;
  std::string color = "auto";
  bool color_given = false;          // --color was given (it must agree with --style)
  std::string style;                 // hyperfine's --style (usage_hints.h ResolveStyle)
  std::string json_format = "tare";  // --export-json-format: tare (tare.run/2) | hyperfine
  bool show_output = false;
  // hyperfine's habits (docs/coming-from.md)
  session::CommandFlags commands;  // --command, the parameter (its target is set from `target`)
  bool no_shell = false;           // -N: tare's default, said out loud
  std::string shell_program;       // -S/--shell-program (and --shell=SHELL): which shell
  std::string prepare, setup, conclude;
  bool quiet = false;
  bool fail_fast = false;
  bool no_perf = false;
  bool all_metrics = false;
  bool no_isolation = false;
  int64_t iterations = 0;       // tare binaries: fixed count instead of calibration
  std::string gbench_min_time;  // Google Benchmark: --benchmark_min_time for every sample ("" = 20 ms)
  std::vector<std::string> metrics;
  env::DeclaredProvenance provenance;
  std::string commits;  // --commits A..B: build each commit with tare.toml's [bisect] recipe and run it
  int64_t every = 1;    // --every N
};

// Flags to the spec PlainRun runs; a usage error leaves no trace.
StatusOr<session::RunSpec> ToSpec(const RunOptions& given) {
  session::RunSpec spec;
  spec.target = given.target;
  const RunOptions& o = given;
  if (!o.shell_program.empty()) {
    // hyperfine's --shell=SHELL: "none" is -N, "default" the default shell; else a name, a path or
    // a command line such as "bash --norc" (split into words, never through another shell).
    if (o.shell_program == "none") {
      if (o.target.shell) {
        return Status::InvalidArgument("--shell=none and --shell contradict each other; give one");
      }
    } else {
      spec.target.shell = true;
      if (o.shell_program != "default") {
        TARE_ASSIGN_OR_RETURN(spec.target.shell_argv, session::SplitCommandString(o.shell_program, "--shell"));
      }
    }
  }
  if (o.no_shell && spec.target.shell) {
    return Status::InvalidArgument("-N (no shell) and --shell contradict each other; give one");
  }
  TARE_RETURN_IF_ERROR(CheckColorMode(o.color));
  TARE_RETURN_IF_ERROR(cmdline::ResolveStyle(o.style, o.color, o.color_given).status());
  if (o.json_format != "tare" && o.json_format != "hyperfine") {
    return Status::InvalidArgument(
        fmt::format("--export-json-format '{}': use tare (schema tare.run/2, everything stored) or hyperfine (its "
                    "results[] layout, for tools that read hyperfine's JSON)",
                    o.json_format));
  }
  if (o.json_format != "tare" && o.json_path.empty()) {
    return Status::InvalidArgument(
        "--export-json-format says how --export-json FILE is written; give --export-json FILE too");
  }
  // The command lines, with the shell as resolved above.
  session::CommandFlags commands = o.commands;
  commands.target = spec.target;
  TARE_ASSIGN_OR_RETURN(spec.commands, session::ExpandCommands(commands));
  for (auto [text, flag, into] : {std::tuple{&o.prepare, "--prepare", &spec.prepare},
                                  {&o.setup, "--setup", &spec.setup},
                                  {&o.conclude, "--conclude", &spec.conclude}}) {
    if (text->empty()) continue;
    TARE_ASSIGN_OR_RETURN(*into, session::ToCommand(spec.target, *text, flag));
  }
  spec.samples = o.samples;
  spec.warmup = o.warmup;
  auto timeout_ns = ParseTimeoutNs(o.timeout);
  if (!timeout_ns.ok()) return timeout_ns.status().WithContext("--timeout");
  spec.timeout_ns = *timeout_ns;
  spec.filter = o.filter;
  auto instrument = ParseInstrument(o.instrument);
  if (!instrument.ok()) return instrument.status().WithContext("--instrument");
  spec.instrument = *instrument;
  spec.perf = !o.no_perf;
  spec.shared_process = o.no_isolation;
  spec.fail_fast = o.fail_fast;
  spec.show_output = o.show_output;
  spec.iterations = o.iterations;
  if (!o.gbench_min_time.empty()) {
    auto t = ParseTimeoutNs(o.gbench_min_time);
    if (!t.ok()) return t.status().WithContext("--gbench-min-time");
    spec.gbench_min_time_ns = *t;
  }
  spec.command_line = cmdline::RecordedInvocation();
  spec.tare_version = TARE_VERSION;
  TARE_RETURN_IF_ERROR(env::ValidateDeclaredProvenance(o.provenance));
  // git answers while tare starts the helper, opens the store and reads the host; PlainRun takes it
  // just before the run is recorded (env/provenance.h).
  spec.pending_provenance = env::PendingProvenance(o.provenance);
  TARE_RETURN_IF_ERROR(session::ValidateRunSpec(&spec));
  TARE_ASSIGN_OR_RETURN(spec.shard, ResolveShardFlags(o.shard, o.store_path));
  // Before the first sample: a run must never be measured only to fail at writing its output, nor
  // write it over a program it runs (issue 27, item 8: `run --json prog ./prog` replaced the program).
  std::vector<KeptFile> kept = store::StoreFiles(o.store_path);
  auto keep_program = [&kept](const session::TargetArgs& args) {
    if (args.argv.empty()) return;
    if (auto t = session::ResolveTarget(args); t.ok() && !t->argv.empty()) {
      kept.push_back({t->argv[0], "a program the run executes"});
    }
  };
  keep_program(spec.target);
  for (const auto& c : spec.commands) keep_program(c.args);
  for (const auto* c : {&spec.prepare, &spec.setup, &spec.conclude}) {
    if (c->has_value()) keep_program((*c)->args);
  }
  for (auto [flag, path] :
       {std::pair{"--json", &o.json_path}, {"--export-markdown", &o.markdown_path}, {"--export-csv", &o.csv_path}}) {
    TARE_RETURN_IF_ERROR(CheckOutputPath(flag, *path, kept, store::LocalDirectory(o.store_path)));
  }
  return spec;
}

// --commits A..B: the range's runs, each built by the [bisect] recipe and stored with its commit
// (bisect/commit_runs.h).
StatusOr<int> RunCommits(const RunOptions& o) {
  if (!o.target.argv.empty() || !o.commands.commands.empty()) {
    return Status::InvalidArgument(
        "--commits builds the executable at each commit with the [bisect] recipe of tare.toml (docs/bisect.md); "
        "give no TARGET or --command with it");
  }
  if (!o.json_path.empty() || !o.markdown_path.empty() || !o.csv_path.empty() || !o.shard.shard.empty()) {
    return Status::InvalidArgument(
        "--commits stores one run per commit; export them afterwards (tare history, tare compare, tare export), "
        "and leave out --json, --export-* and --shard");
  }
  if (!o.provenance.commit.empty()) {
    return Status::InvalidArgument("--commits records each run with the commit it built; leave out --commit");
  }
  TARE_RETURN_IF_ERROR(store::CheckStoreLocation(o.store_path));
  TARE_ASSIGN_OR_RETURN(session::RunSpec run, ToSpec(o));
  TARE_ASSIGN_OR_RETURN(bisect::BuildRecipe recipe, bisect::LoadRecipe(compare::FindConfigFile("."), {}));
  std::error_code ec;
  bisect::CommitRunsSpec spec;
  spec.range = o.commits;
  spec.every = o.every;
  spec.recipe = recipe;
  spec.cache_dir = std::filesystem::absolute(".tare/bisect", ec).lexically_normal().string();
  spec.run = std::move(run);
  spec.branch = o.provenance.branch;
  if (!o.quiet) spec.progress = [](const std::string& line) { fmt::print(stderr, "{}\n", TerminalText(line)); };
  proc::InstallInterruptHandler();
  TARE_ASSIGN_OR_RETURN(auto spawner, proc::Spawner::Start());
  TARE_ASSIGN_OR_RETURN(auto store, store::Store::Open(o.store_path));
  TARE_ASSIGN_OR_RETURN(bisect::CommitRunsReport report, bisect::RunCommits(*spawner, spec, *store));
  fmt::print("{}", bisect::RenderCommitRuns(report, store::PrintableLocation(o.store_path)));
  if (report.interrupted) return kExitInterrupted;
  return report.failed_samples > 0 ? kExitFailed : kExitOk;
}

StatusOr<int> Run(const RunOptions& given) {
  TARE_RETURN_IF_ERROR(store::CheckStoreLocation(given.store_path));
  auto spec = ToSpec(given);
  if (!spec.ok()) return spec.status();
  // hyperfine's --style, as tare's --color and --quiet (checked in ToSpec).
  RunOptions o = given;
  const cmdline::Style style = *cmdline::ResolveStyle(given.style, given.color, given.color_given);
  o.color = style.color;
  o.quiet = o.quiet || style.quiet;
  const bool several = spec->commands.size() > 1;
  proc::InstallInterruptHandler();
  auto spawner = proc::Spawner::Start();
  if (!spawner.ok()) return spawner.status();
  Progress progress(o.quiet);
  session::PlainRun run(std::move(*spec), **spawner);
  run.progress = progress.Line();
  run.notice = progress.Notice(o.quiet);
  if (Status s = run.Prepare(); !s.ok()) return s;
  // --metrics names what the table shows: a name no sample of this target will carry is a typo.
  for (const auto& name : o.metrics) {
    if (IsMeasured(name, run.kind(), *ParseInstrument(o.instrument))) continue;
    return Status::InvalidArgument(fmt::format(
        "--metrics: '{}' is not measured for {} targets under the {} instrument; choose from {}", name,
        TargetKindName(run.kind()), o.instrument, MeasuredMetricList(run.kind(), *ParseInstrument(o.instrument))));
  }

  // Opened only once the input is known to be good: a usage error creates no store.
  auto store = store::Store::Open(o.store_path);
  if (!store.ok()) return store.status();
  auto outcome = run.Run(**store);
  (*spawner)->Finish();  // the helper exits while the store is read and closed
  progress.Clear();
  if (!outcome.ok()) return outcome.status();
  // A write that failed (a full disk) ended the run: say what is kept before why, quiet or not.
  auto report_failure = [&] {
    fmt::print(stderr, "tare: run {} failed: {} samples stored in {} before the error\n", outcome->run_id,
               outcome->samples, TerminalText(store::PrintableLocation(o.store_path)));
    return outcome->error;
  };

  // Read back only for what is shown or written: `--quiet` without `--json` needs nothing, and a
  // long run's load is milliseconds.
  StatusOr<RunData> data = RunData{};
  const bool exports = !o.json_path.empty() || !o.markdown_path.empty() || !o.csv_path.empty();
  if (!o.quiet || exports) data = (*store)->LoadRun(outcome->run_id);
  // A store that lost samples usually cannot be read back either: say which write failed first.
  if (!data.ok()) return outcome->error.ok() ? data.status() : report_failure();
  if (Status shown = report::CheckShownMetrics(*data, o.metrics); !shown.ok() && outcome->error.ok()) return shown;
  report::ConsoleOptions copts;
  copts.metrics = o.metrics;
  copts.all_metrics = o.all_metrics;
  copts.color = UseColor(o.color);
  const std::optional<report::RelativeSummary> relative = several ? report::SummarizeRelative(*data) : std::nullopt;
  if (!o.quiet) {
    report::RunReport rep = report::BuildRunReport(*data);
    fmt::print("{}", report::RenderConsole(rep, copts));
    if (relative) fmt::print("{}", report::RenderRelative(*relative, copts.color));
    for (const auto& line : report::GroupNotes(data->notes)) fmt::print(stderr, "{}\n", SingleLineText(line));
    auto config = LoadCompareConfig("", false);
    const std::vector<std::string> unstable =
        config.ok() ? compare::UnstableWarnings(*data, *config)
                    : std::vector<std::string>{
                          fmt::format("warning: tare.toml was not read for thresholds: {}", config.status().message())};
    for (const auto& line : unstable) fmt::print(stderr, "{}\n", SingleLineText(line));
  }
  auto json_text = [&]() -> std::string {
    if (o.json_format == "hyperfine") return DumpJson(report::RunToHyperfineJson(*data), 2) + "\n";
    return DumpJson(report::RunToJson(*data), 2) + "\n";
  };
  for (auto [path, text] : {std::pair{&o.json_path, std::function<std::string()>(json_text)},
                            {&o.markdown_path, [&] { return report::RunMarkdown(*data, copts, relative); }},
                            {&o.csv_path, [&] { return report::RunCsv(*data); }}}) {
    if (path->empty()) continue;
    Status w = WriteFileAtomic(*path, text());
    if (!w.ok()) return outcome->error.ok() ? w : report_failure();
  }
  if (!outcome->error.ok()) return report_failure();
  if (!o.quiet && run.shard()) {
    int64_t mine = 0;
    for (const auto& [name, k] : run.shard()->assignment) mine += k == run.shard()->index ? 1 : 0;
    fmt::print(stderr, "tare: shard {}/{}: {} of {} benchmarks (assignment {}); `tare shards` shows every shard\n",
               run.shard()->index, run.shard()->count, mine, run.shard()->assignment.size(),
               run.shard()->assignment_sha256.substr(0, 12));
  }
  if (!o.quiet) {
    fmt::print(stderr, "tare: run {} {}: {} samples in {}\n", outcome->run_id,
               outcome->interrupted ? "interrupted; completed samples stored" : "stored", outcome->samples,
               TerminalText(store::PrintableLocation(o.store_path)));
  }
  if (outcome->interrupted) return kExitInterrupted;
  if (outcome->failed > 0) {
    fmt::print(stderr, "tare: {} of the measured samples failed (see FAILED lines above)\n", outcome->failed);
    return kExitFailed;
  }
  return kExitOk;
}

}  // namespace

void StartGitEarly(const std::vector<std::string>& args) {
  for (size_t i = 2; i < args.size() && args[i] != "--"; ++i) {
    if (args[i] == "--no-git") return;
  }
  env::StartGitProvenance();
}

void AddRunCommand(CLI::App& app, int* exit_code, const std::vector<std::string>* target_argv) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* sub =
      app.add_subcommand("run", "Measure a program, or several commands, in fresh processes and store every sample");
  SetUsage(sub,
           "tare run [OPTIONS] TARGET [ARGS...]\n"
           "tare run [OPTIONS] -- TARGET [ARGS...]\n"
           "tare run [OPTIONS] 'COMMAND ARGS' 'COMMAND ARGS'...   (several commands, hyperfine style)");
  sub->footer(R"(
TARGET is measured as:
  a tare benchmark binary        each benchmark in its own process per sample (child protocol)
  a Google Benchmark binary      each benchmark in its own process per sample, via its own flags
  any other command              the whole process, like hyperfine
The kind is detected by scanning the executable (it is never run to find out); force it with --kind.
Everything after TARGET is passed to it unchanged; `--` also ends tare's options.

Several commands, as hyperfine takes them: when the first word after the options has a space in it,
every word is one command line ('sleep 0.1' 'sleep 0.2'), and tare's options may also follow them;
--command CMD (repeatable) says the same; `tare run pwd 'sleep 0.1'` (every word after the first a
command of its own) is refused with both spellings (--command each, or -- for one command). Each is
a whole-process benchmark; they run interleaved (sample i of every command in round i, the order
reversed every other round), and the run ends with how much slower each is than the fastest, with
a 95% interval from the paired samples of each round.
tare runs no shell unless asked: a command line is split into words (quotes and backslashes group,
nothing else), and one with | & ; < > $ * ... is refused; add --shell to run each command line
through /bin/sh -c, or --shell=bash (or --shell bash before the commands, as hyperfine) through
another shell. --prepare, --setup and --conclude follow the same rule. hyperfine's short flags
-r -p -s -P -L -N -S work; -i is tare's --instrument, not --ignore-failure; -c, -u, -m, -M, -n NAME
are refused naming tare's flag or saying it has none (docs/coming-from.md).

Output: one line per benchmark: n, the median of its primary metric (sim.Ir, mem.allocs, bench.wall_ns,
gb.real_time_ns or wall_ns), the 95% interval of that median (from 6 samples; the MAD below),
the median of the CPU time beside a wall-clock figure (gb.cpu_time_ns, bench.cpu_ns: what tare ab
judges), the metrics; --all-metrics shows every metric. A command that mostly waits (its CPU
time under half its wall time) is named in a note: gate it with --metric wall_ns. A failing benchmark's error and stderr are told
once, however many samples fail.

Examples:
  tare run ./build/string_bench                       # every benchmark, 10 samples each
  tare run --filter 'BM_Sort/.*' --samples 20 ./build/sort_bench
  tare run -- ./my_program --input data.bin           # a command, whole process
  tare run --shell 'grep -c x big.txt | wc -l'        # through /bin/sh -c
  tare run 'sleep 0.1' 'sleep 0.2'                    # which is faster, and by how much
  tare run --runs 20 --prepare 'sync' --parameter-scan n 1 4 'xz -T{n} -k -f -c big.tar'
  tare run -r 5 --shell bash 'sleep 0.01'                # through bash, as hyperfine --shell bash
  tare run --export-json h.json --export-json-format hyperfine 'sleep 0.1'   # hyperfine's JSON
  tare run --export-markdown results.md 'gzip -c f' 'zstd -c f'
  tare run --json out.json --quiet ./bench            # machine-readable results
  tare run --shard 2/4 --store part.db ./bench        # CI job 2 of 4: its part (tare shards)
  tare run --commits v1.2..main --every 2             # the range's history, built by tare.toml's [bisect]

Metrics per sample: wall_ns, user_ns, sys_ns, peak_rss_bytes (the child's own), page faults,
context switches (wait4 of that child); perf counters where the host has them (hardware counters
are often missing on VMs: a note says why); for Google Benchmark, gb.real_time_ns, gb.cpu_time_ns,
gb.iterations and user counters (gb.counter.NAME). Each Google Benchmark sample gets
--benchmark_min_time=0.02 (20 ms), not Google Benchmark's own 0.5 s; --gbench-min-time, or
--benchmark_min_time=SECONDS after the binary, sets another length.

Exit status: 0 all samples ok; 1 some samples failed; 2 bad input (nothing measured);
130 interrupted (completed samples are kept in the store).)");
  sub->add_option("--samples,--runs,-n,-r", opts->samples, "Measured samples per benchmark (default 10; 3 under sim)")
      ->check(WholeNumberAtLeast(1));
  sub->add_option("--warmup,-w", opts->warmup,
                  "Discarded samples per benchmark before measuring (default 1; 0 under sim)")
      ->check(WholeNumberAtLeast(0));
  sub->add_option(
      "--timeout", opts->timeout,
      "Per-sample limit, e.g. 30s or 2m, above 0 and at most 7 days; the process group is killed (default 10m)");
  sub->add_option("--filter,-f", opts->filter, "Only benchmarks whose name matches this regular expression");
  sub->add_option("--kind", opts->target.kind, "auto | command | gbench | tare (default auto)");
  sub->add_flag("--shell", opts->target.shell,
                "Run the command line (each command line) through /bin/sh -c; --shell=SHELL (or --shell SHELL "
                "before the commands, SHELL being bash, zsh, ...) runs them through SHELL, as hyperfine does");
  sub->add_flag("-N,--no-shell", opts->no_shell, "No shell: tare's default, accepted for hyperfine's habit");
  sub->add_option("-S,--shell-program", opts->shell_program,
                  "With which shell --shell runs: a name, a path or a command line such as 'bash --norc' "
                  "(also written --shell=SHELL, as hyperfine does; 'none' is -N, 'default' /bin/sh)");
  sub->add_option(
         "--command", opts->commands.commands,
         "A command line to measure as a whole process (repeatable; several are measured interleaved and compared)")
      ->type_name("CMD");
  sub->add_option("-p,--prepare", opts->prepare,
                  "Run CMD before every sample (warm-ups too), untimed; a failure ends the run")
      ->check(NotBlank())
      ->type_name("CMD");
  sub->add_option("-s,--setup", opts->setup, "Run CMD once before the first sample, untimed")
      ->check(NotBlank())
      ->type_name("CMD");
  sub->add_option("--conclude", opts->conclude, "Run CMD once after the last sample, untimed")
      ->check(NotBlank())
      ->type_name("CMD");
  sub->add_option("-P,--parameter-scan", opts->commands.scan,
                  "Measure the command once per value LO, LO+STEP, ... HI, with {NAME} replaced by it")
      ->expected(3)
      ->option_text("NAME LO HI");
  sub->add_option("-D,--parameter-step-size", opts->commands.scan_step, "The step of --parameter-scan (default 1)")
      ->type_name("STEP");
  sub->add_option("-L,--parameter-list", opts->commands.list,
                  "Measure the command once per comma-separated value, with {NAME} replaced by it")
      ->expected(2)
      ->option_text("NAME A,B,C");
  sub->add_option("--cwd", opts->target.cwd,
                  "Working directory for the target (a relative TARGET not found where typed is looked for here)");
  sub->add_option(
         "--env", opts->target.env,
         "Set KEY=VALUE in the target's environment (repeatable; the only way to pass it $TARE_STORE or $PGPASSWORD)")
      ->type_name("KEY=VALUE");
  sub->add_option("--instrument,-i", opts->instrument,
                  "(-i is not hyperfine's --ignore-failure: docs/coming-from.md) wall (default): clocks, rusage, perf "
                  "counters | sim: valgrind instruction counts and "
                  "simulated caches, identical on every rerun | mem: allocation counts via an LD_PRELOAD shim");
  sub->add_option("--store", opts->store_path, kStoreHelp);
  sub->add_option("--json,--export-json", opts->json_path,
                  "Also write the results as JSON (schema tare.run/2; hyperfine's with --export-json-format "
                  "hyperfine) to FILE (checked before measuring; never the store)")
      ->type_name("FILE");
  sub->add_option("--export-json-format", opts->json_format,
                  "tare (default: schema tare.run/2, every sample and metric) | hyperfine (hyperfine's "
                  "{\"results\": [{\"command\", \"mean\", ..., \"times\"}]} in seconds, for tools that read it)")
      ->type_name("FORMAT");
  sub->add_option("--export-markdown", opts->markdown_path,
                  "Also write a Markdown table (medians, MAD, min, max; relative speed of several commands) to FILE")
      ->type_name("FILE");
  sub->add_option("--export-csv", opts->csv_path, "Also write every metric's summary as CSV (base units) to FILE")
      ->type_name("FILE");
  sub->add_option("--color", opts->color, kColorHelp)->each([opts](const std::string&) { opts->color_given = true; });
  sub->add_option(
         "--style", opts->style,
         "hyperfine's: auto | basic, nocolor (= --color never) | full, color (= --color always) | none (= --quiet)")
      ->type_name("TYPE");
  sub->add_option(
         "--metrics", opts->metrics,
         "Metrics to show, a block of rows per benchmark, comma-separated (default: one line per benchmark, its "
         "primary metric); a name this target and instrument never measure is an error that lists those it does")
      ->delimiter(',')
      ->type_name("NAME,NAME");
  sub->add_flag(
      "--all-metrics", opts->all_metrics,
      "Show every metric, a block of rows per benchmark (default: one line per benchmark, its primary metric)");
  sub->add_flag("--no-perf", opts->no_perf, "Do not open perf_event counters");
  sub->add_flag("--no-isolation", opts->no_isolation,
                "tare binaries: run all benchmarks in ONE process per sample, to see what isolation removes");
  sub->add_option(
         "--iterations", opts->iterations,
         "tare binaries: iterations per sample, at least 1 (default: calibrated to a 20 ms window; 10 under sim)")
      ->check(WholeNumberAtLeast(1));
  sub->add_option("--gbench-min-time", opts->gbench_min_time,
                  "Google Benchmark: --benchmark_min_time for every sample, e.g. 50ms (default 20ms, or an "
                  "iteration count fixed per benchmark where the binary accepts <N>x; the binary's own "
                  "--benchmark_min_time after it wins)");
  sub->add_flag("--fail-fast", opts->fail_fast, "Stop at the first failed sample");
  sub->add_flag("--show-output", opts->show_output,
                "Print the end of each sample's stdout and stderr (the last 4 KiB of each, as kept in the "
                "store) on stderr once it has run; the output is captured while it runs, never timed on the terminal");
  sub->add_flag("--quiet,-q", opts->quiet, "No table, progress or notes (use with --json)");
  sub->add_option("--commits", opts->commits,
                  "OLD..NEW: build each commit of the range with tare.toml's [bisect] recipe and store its run "
                  "with its commit, oldest first, for tare history (no TARGET; docs/bisect.md)")
      ->type_name("OLD..NEW");
  sub->add_option("--every", opts->every, "With --commits: every Nth commit from OLD (NEW always; default 1)")
      ->check(WholeNumberAtLeast(1));
  AddProvenanceFlags(sub, &opts->provenance);
  AddShardFlags(sub, &opts->shard);
  // Repeatable options take one value per occurrence, as SplitAtTarget reads them: `--env A=1 ./x`
  // must not take ./x as a second value. (CLI11's vectors would otherwise take every word up to
  // the next option.)
  for (CLI::Option* opt : sub->get_options()) {
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) opt->allow_extra_args(false);
  }
  sub->callback([sub, opts, exit_code, target_argv]() {
    opts->target.argv = *target_argv;
    opts->commands.after_dashes = cmdline::SplitAtTarget(cmdline::Invocation(), 2, ValueOptionNames(*sub)).after_dashes;
    *exit_code = Finish(opts->commits.empty() ? Run(*opts) : RunCommits(*opts));
  });
}

}  // namespace tare::cli
