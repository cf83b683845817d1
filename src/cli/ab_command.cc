#include "cli/commands.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "base/files.h"
#include "base/json_text.h"
#include "base/output_path.h"
#include "base/terminal_text.h"
#include "base/units.h"
#include "campaign/campaign_runner.h"
#include "campaign/campaign_setup.h"
#include "campaign/plan_from_pilot.h"
#include "campaign/planner_report.h"
#include "campaign/spec_flags.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/flag_checks.h"
#include "cli/help_format.h"
#include "cmdline/argv.h"
#include "cli/progress.h"
#include "cli/shard_flags.h"
#include "proc/spawner.h"
#include "publish/cohort_outputs.h"
#include "report/ab_outcome.h"
#include "report/ledger.h"
#include "session/environment.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct AbOptions {
  std::string campaign_file;
  campaign::SpecFlags spec;  // the campaign, from flags
  // Where results go.
  std::string store_path = DefaultStorePath();
  std::string ledger_path;
  std::string json_path;
  std::string html_path;
  bool resume = false;
  bool plan = false;      // --plan: a pilot and a prediction, no verdict
  int64_t pilot = 20;     // --pilot: blocks per cell in that pilot
  int64_t attribute = 0;  // --attribute N: the top N functions behind each change, in the ledger
  bool inconclusive_ok = false;
  bool no_cross_check = false;  // --no-cross-check: no valgrind run after a time FAIL or gain
  bool quiet = false;
  env::DeclaredProvenance provenance;
  ShardFlags shard;
};

int ExitFor(const campaign::CampaignResult& result, bool inconclusive_ok) {
  switch (result.stop) {
    case campaign::StopKind::kInterrupted:
      return kExitInterrupted;
    case campaign::StopKind::kGate:
    case campaign::StopKind::kExecutableChanged:
      return kExitGate;
    case campaign::StopKind::kFailFast:
      return kExitFailed;
    case campaign::StopKind::kNone:
      break;
  }
  // The ranking the ledger's title, the summary, the JSON and the HTML print (report/ab_outcome.h).
  switch (report::OutcomeOf(result.report)) {
    case report::AbOutcome::kInterrupted:
      return kExitInterrupted;
    case report::AbOutcome::kStopped:
    case report::AbOutcome::kBoundViolated:
    case report::AbOutcome::kSuiteChanged:
      return kExitGate;
    case report::AbOutcome::kFail:
      return kExitFailed;
    // A cell that cannot be measured (broken in base: docs/campaign.md, "Broken benchmarks") is not
    // the change's fault, so not 1; nor is it undecided, so neither 3 nor hidden by --inconclusive-ok.
    case report::AbOutcome::kBroken:
      return kExitBroken;
    case report::AbOutcome::kInconclusive:
      return inconclusive_ok ? kExitOk : kExitInconclusive;
    case report::AbOutcome::kPass:
      return kExitOk;
  }
  return kExitInconclusive;
}

// What every campaign this command runs (the cohort, or --plan's pilot) is given: the environment,
// the recorded command line, and progress and notices on stderr (notices prefixed `tare: <prefix>`).
campaign::RunnerOptions CommonRunnerOptions(Progress& progress, bool quiet, const std::string& prefix) {
  campaign::RunnerOptions ropts;
  ropts.base_env = session::ProcessEnvironment();
  ropts.command_line = cmdline::RecordedInvocation();
  ropts.tare_version = TARE_VERSION;
  ropts.progress = progress.Line();
  ropts.notice = progress.Notice(quiet, prefix);
  return ropts;
}

// Where the cohort's results go (publish/cohort_outputs.h).
publish::CohortOutputOptions OutputsOf(const AbOptions& o) {
  publish::CohortOutputOptions out;
  out.store_path = o.store_path;
  out.ledger_path = o.ledger_path;
  out.json_path = o.json_path;
  out.html_path = o.html_path;
  out.attribute = static_cast<size_t>(o.attribute);
  out.terminal = isatty(STDOUT_FILENO) == 1;
  out.quiet = o.quiet;
  if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY")) out.step_summary = summary;
  return out;
}

StatusOr<int> PlanCampaign(const AbOptions& o, const campaign::CampaignInput& declared) {
  if (o.resume || !o.ledger_path.empty() || !o.html_path.empty()) {
    return Status::InvalidArgument(
        "--plan gives a prediction, not a verdict: it cannot be combined with --resume, --ledger or --html "
        "(--json writes the plan as tare.plan/1)");
  }
  if (Status s = campaign::CheckPilotRequest(declared, o.pilot); !s.ok()) return s;

  proc::InstallInterruptHandler();
  auto spawner = proc::Spawner::Start();
  if (!spawner.ok()) return spawner.status();
  Progress progress(o.quiet);
  const campaign::RunnerOptions ropts = CommonRunnerOptions(progress, o.quiet, "pilot: ");
  campaign::SpawnerProber prober(**spawner);
  auto pilot = campaign::RunPilot(declared, o.pilot, prober, ropts);
  progress.Clear();
  if (!pilot.ok()) return pilot.status();
  switch (pilot->stop) {
    case campaign::StopKind::kInterrupted:
      fmt::print(stderr, "tare: interrupted: the pilot is discarded; nothing was stored\n");
      return kExitInterrupted;
    case campaign::StopKind::kGate:
    case campaign::StopKind::kExecutableChanged:
    case campaign::StopKind::kFailFast:
      fmt::print(stderr, "tare: the pilot STOPPED, so there is nothing to plan from: {}\n",
                 TerminalText(pilot->stop_reason));
      return kExitGate;
    case campaign::StopKind::kNone:
      break;
  }
  const campaign::PlanReport& plan = pilot->plan;
  if (!o.json_path.empty()) {
    if (Status w = WriteFileAtomic(o.json_path, DumpJson(campaign::PlanToJson(plan), 2) + "\n"); !w.ok()) {
      return w;
    }
  }
  if (!o.quiet) fmt::print("{}", campaign::RenderPlan(plan));
  return plan.cells.empty() ? kExitUsage : kExitOk;
}

StatusOr<int> Ab(const AbOptions& o) {
  // Everything that can be checked before a process runs or the store is touched.
  TARE_RETURN_IF_ERROR(store::CheckStoreLocation(o.store_path));
  auto input = campaign::CampaignInputFrom(o.campaign_file, o.spec, std::filesystem::current_path().string());
  if (!input.ok()) return input.status();
  const publish::CohortOutputOptions outputs = OutputsOf(o);
  std::vector<KeptFile> inputs = {{o.campaign_file, "the campaign file"}, {input->spec.base, "the base executable"}};
  for (const auto& h : input->spec.heads) inputs.push_back({h, "a head executable"});
  if (Status s = publish::CheckCohortOutputs(outputs, std::move(inputs)); !s.ok()) return s;
  if (Status s = env::ValidateDeclaredProvenance(o.provenance); !s.ok()) return s;
  if (o.attribute > 0 && input->spec.instrument != Instrument::kSim) {
    return Status::InvalidArgument(
        "--attribute needs --instrument sim: only the sim instrument keeps the callgrind profiles that "
        "say which functions changed");
  }
  if (o.attribute > 0 && o.plan) {
    return Status::InvalidArgument("--attribute explains verdicts; --plan gives none");
  }
  auto shard = ResolveShardFlags(o.shard, o.store_path);
  if (!shard.ok()) return shard.status();
  if (o.plan && *shard) {
    return Status::InvalidArgument("--plan predicts for the whole campaign on this host; run it without --shard");
  }
  if (o.plan) return PlanCampaign(o, *input);
  if (o.resume && !store::IsStoreUrl(o.store_path) && !std::filesystem::exists(o.store_path)) {
    return Status::NotFound(
        fmt::format("--resume: there is no store at '{}' to resume from; run without --resume, or give the "
                    "store the campaign used with --store",
                    o.store_path));
  }

  proc::InstallInterruptHandler();
  auto spawner = proc::Spawner::Start();
  if (!spawner.ok()) return spawner.status();

  Progress progress(o.quiet);
  campaign::RunnerOptions ropts = CommonRunnerOptions(progress, o.quiet, "");
  ropts.stage_dir = (std::filesystem::path(store::LocalDirectory(o.store_path)) / "bin").string();
  ropts.resume = o.resume;
  ropts.cross_check = !o.no_cross_check;
  ropts.provenance = env::ResolveProvenance(o.provenance, ".");
  ropts.shard = *shard;

  // The arms are staged beside the store: a store path in a directory that does not exist is
  // refused before staging creates it (store.h).
  if (Status s = store::CheckStoreDirectory(o.store_path); !s.ok()) return s;
  campaign::SpawnerProber prober(**spawner);
  campaign::CampaignRunner runner(std::move(*input), prober, ropts);
  if (Status s = runner.Prepare(); !s.ok()) return s;

  // Opened only once the campaign is known to be good: a usage error creates no store.
  auto store = store::Store::Open(o.store_path);
  if (!store.ok()) return store.status();
  auto result = runner.Run(**store);
  progress.Clear();
  if (!result.ok()) return result.status();
  const report::AbReport& rep = result->report;

  auto delivery = publish::DeliverCohort(**store, rep, outputs);
  if (!delivery.ok()) return delivery.status();
  fmt::print("{}", delivery->stdout_text);
  for (const auto& n : delivery->notices) fmt::print(stderr, "tare: {}\n", TerminalText(n));
  for (const auto& w : delivery->warnings) fmt::print(stderr, "tare: warning: {}\n", TerminalText(w));

  // The loud part, on stderr even with --quiet: what makes the verdicts untrustworthy or stopped.
  fmt::print(stderr, "{}", report::RenderAbWarnings(rep, result->stop == campaign::StopKind::kNone));
  switch (result->stop) {
    case campaign::StopKind::kInterrupted:
      fmt::print(stderr,
                 "tare: interrupted: cohort {} (run {}) keeps its {} samples in {}. "
                 "Continue it with:\n  {}\n",
                 rep.cohort, rep.run_id, rep.samples, TerminalText(store::PrintableLocation(o.store_path)),
                 TerminalText(cmdline::ResumeCommand(cmdline::RecordedInvocation())));
      break;
    case campaign::StopKind::kGate:
    case campaign::StopKind::kExecutableChanged:
    case campaign::StopKind::kFailFast:
      fmt::print(stderr, "tare: STOPPED: {}\n", TerminalText(rep.stop_reason));
      break;
    case campaign::StopKind::kNone:
      if (!o.quiet) {
        fmt::print(stderr, "tare: cohort {} (run {}) stored in {}: {} samples; outcome {}\n", rep.cohort, rep.run_id,
                   TerminalText(store::PrintableLocation(o.store_path)), rep.samples,
                   rep.has_verdicts ? report::OutcomeWord(rep) : "none");
      }
      break;
  }
  return ExitFor(*result, o.inconclusive_ok);
}

}  // namespace

void AddAbCommand(CLI::App& app, int* exit_code, const std::vector<std::string>* target_args) {
  auto o = std::make_shared<AbOptions>();
  CLI::App* sub =
      app.add_subcommand("ab", "Compare a base build with head builds: paired, interleaved, with a null A/A arm");
  SetUsage(sub,
           "tare ab [OPTIONS] --base OLD --head NEW [-- ARGS...]\n"
           "tare ab [OPTIONS] CAMPAIGN.toml");
  sub->footer(R"(
Each block runs every arm once, back to back, in fresh processes, from copies of the executables
under <store dir>/bin/ (base, head, null: paths of equal length, the same argv and environment).
The change of head against base is the median of ln(head/base) over the pairs with an exact
sign-test interval (--interval signed-rank-v1: the narrower Wilcoxon signed-rank interval); the
null arm (a second copy of base, on by default) measures the host's own noise floor. Verdict per
cell and metric:
  FAIL          the whole interval is worse than the allowance (at least the floor);
  PASS <= C     C, the interval's worse end plus the null arm's floor, is within the allowance
                (under "noise": the noise cap, 2%): head is not worse than base by more than C;
                or the whole interval is better than base beyond the floor (a gain, which
                certifies its worse end plus that floor: C < 0, at least -C better);
  INCONCLUSIVE  otherwise, with the reason on its line -- INCONCLUSIVE IS NOT A PASS.
Bounds print in the metric's worse direction (">= -1.06%" for a throughput). The plan is
time-based: a look at 20 pairs, then undecided cells get more, the looks doubling (40, 80, ...),
each at a stricter confidence so the error rate holds, until the budget is spent (default 30 s per
cell, at most 10 min, from the first sample, never cutting a cell's first look short; --budget 5m,
or none) -- 1280 pairs
is only a safety cap; a cell the budget stops is judged once more on every pair it has. --step N
gives evenly spaced looks instead, up to --cap.
The work tier: before timing, each cell of a tare or Google Benchmark binary runs once under valgrind
in base, base again and each head. A cell whose head executes the same work (instructions, est.
cycles, system calls within 0.1%) is judged on time against 10% (--same-work-allowance), what code
placement alone can do, so an unrelated edit that moves code is not red; a larger same-work change
still FAILs, and a cell whose work changed is judged at the campaign's allowance (docs/methodology.md
section 5a).
By default CPU time is judged (it ignores time spent waiting for a CPU); add --metric wall_ns to
judge wall time too. Each Google Benchmark sample gets --benchmark_min_time=0.02 (20 ms, not its
own 0.5 s), and a tare binary runs one count calibrated on base; either is kept in the lock and
run by every arm of every cohort of the campaign. A Google Benchmark counter (--metric
gb.counter.NAME) is judged in the cells that report it; one no benchmark reports is refused.
A living suite: benchmarks both builds have are the cells; one only the head has is measured there
(figures, no verdict), one only base has is listed as missing; neither changes the exit status
unless --strict-suite (then 4).
Under --instrument sim or mem (deterministic counts) the default plan is exact: one block per cell (two without --null), the null arm must read what base reads, and the verdict
is on head/base - 1 itself; a cell whose values differ falls back to the pairs above. --samples,
--step or --cap ask for the statistical plan instead.

Examples:
  tare ab --base old/bench --head new/bench              # Google Benchmark: every benchmark
  tare ab --base old/prog --head new/prog -- --input x   # commands: ARGS for every arm
  tare ab --base a --head b --metric wall_ns=2% --metric peak_rss_bytes=noise --cap 80
  tare ab --base a --head b --instrument sim                     # instructions: 3 processes per cell, exact
  tare ab --base a --head b --instrument sim --attribute 5      # + the 5 functions behind each change
  tare ab campaign.toml --ledger ledger.md --json result.json   # declared in a file (docs/campaign.md)
  tare ab campaign.toml --resume                                # continue an interrupted cohort
  tare ab campaign.toml --plan                                  # before spending: what can it resolve?
  tare ab --base a --head b --shard 2/4 --store part.db  # CI job 2 of 4: its cells (tare shards)

Before the first sample tare writes the lock (sha256 of the campaign and of every executable,
host fingerprint, tare version, each cell's work per sample) to the store; an executable that
changes mid-campaign stops it.
Running a campaign again makes a new cohort; the ledger lists them all.
The ledger's title, the summary, the JSON's gate_outcome and the HTML page's title name the
outcome as the exit status ranks it: a violated release bound reads BOUND VIOLATED, never PASS.

A broken benchmark (every sample of a cell fails in some arm: an error such as Google Benchmark's
SkipWithError, a crash, a non-zero exit) is one failed cell, told once with its fix (--cwd DIR,
--env, --filter REGEX, or -- --benchmark_filter=-'^NAME$'); the other cells go on. Only the head
broken: FAIL. Base broken too: BROKEN, the cell cannot be measured.

Exit status (the first that applies): 130 interrupted (resume with --resume); 2 bad input, nothing
measured; 4 stopped by a sanity gate or a changed executable, or a release bound violated, or
with --strict-suite a benchmark new or missing;
1 some cell FAIL (a head broken where base runs included); 5 some cell BROKEN, cannot be measured
(base fails every sample; not turned into 0 by --inconclusive-ok); 3 some cell INCONCLUSIVE
(0 with --inconclusive-ok); 0 every cell PASS.)");
  sub->add_option("campaign", o->campaign_file, "Campaign file (TOML, docs/campaign.md)");
  // Campaign-defining options, to refuse them next to a campaign file.
  auto defining = std::make_shared<std::vector<std::pair<CLI::Option*, std::string>>>();
  auto track = [defining](CLI::Option* opt, const std::string& name) {
    defining->emplace_back(opt, name);
    return opt;
  };
  track(sub->add_option("--base", o->spec.base, "The base executable"), "--base");
  track(sub->add_option("--head", o->spec.heads, "A head executable (repeatable: several heads)"), "--head");
  track(sub->add_flag("--null,!--no-null", o->spec.null_arm,
                      "The null arm, a second copy of base that measures the host's own noise, is on by default; "
                      "--no-null leaves it out (verdicts then read \"noise\" as 0)"),
        "--null");
  track(sub->add_option("--samples,--initial,-n", o->spec.initial,
                        "Pairs per cell before the first look (default 20; sim, mem: the exact plan)"),
        "--initial");
  track(sub->add_option("--step", o->spec.step,
                        "Evenly spaced looks: pairs added per look to a cell still undecided (default: "
                        "the looks double, 20, 40, 80, ...)"),
        "--step");
  track(sub->add_option("--cap", o->spec.cap,
                        "Most pairs a cell gets (default 1280, a safety bound: the budget ends sampling first)"),
        "--cap");
  track(sub->add_option("--confidence", o->spec.confidence, "Per cell and metric, over all looks (default 0.95)"),
        "--confidence");
  track(sub->add_option("--metric", o->spec.metrics,
                        "NAME[=ALLOWANCE][:higher|:lower], repeatable: wall_ns=2%, gb.real_time_ns=noise "
                        "(default: CPU time with allowance noise: gb.cpu_time_ns for Google Benchmark, "
                        "perf.task_clock_ns for commands)"),
        "--metric");
  track(sub->add_option("--order", o->spec.order, "rotating-reversed-blocks-v1 (default) | random-v1"), "--order");
  track(sub->add_option("--seed", o->spec.seed, "Seed for --order random-v1 (default 0)")->check(WholeNumberAtLeast(0)),
        "--seed");
  track(sub->add_option("--look-scheme", o->spec.look_scheme, "bonferroni-v1 (default) | sign-test-calibrated-v1"),
        "--look-scheme");
  track(sub->add_option("--noise-floor", o->spec.noise_floor,
                        "null-split-v1 (default: FAIL against the null's estimate, a PASS adding its interval "
                        "edge) | null-interval-edge-v1 | null-estimate-v1"),
        "--noise-floor");
  track(sub->add_option("--interval", o->spec.interval,
                        "sign-test-v1 (default) | signed-rank-v1 (narrower; assumes symmetric pair differences)"),
        "--interval");
  track(sub->add_option("--noise-cap", o->spec.noise_cap,
                        "Under the allowance noise, the most a PASS may certify (default 2%): the interval's worse "
                        "end plus the null arm's floor; beyond it the cell keeps sampling, then INCONCLUSIVE"),
        "--noise-cap");
  track(sub->add_option("--filter,-f", o->spec.filter,
                        "Google Benchmark: only benchmarks matching this regex become cells"),
        "--filter");
  track(sub->add_option("--control", o->spec.control, "Cells matching this regex have role control"), "--control");
  track(sub->add_option("--kind", o->spec.kind, "auto | command | gbench | tare (default auto: detected from base)"),
        "--kind");
  track(sub->add_option("--instrument,-i", o->spec.instrument,
                        "wall (default) | sim (valgrind: deterministic instruction counts) | mem (allocation shim)"),
        "--instrument");
  track(sub->add_option("--timeout", o->spec.timeout, "Per-sample limit, e.g. 30s, at most 7 days (default 10m)"),
        "--timeout");
  track(sub->add_option("--budget", o->spec.budget,
                        "Wall time for the cohort past every cell's first look, e.g. 15m: cells still undecided "
                        "then are INCONCLUSIVE (default: 30 s per cell, at most 10 min; none: the cap alone)"),
        "--budget");
  track(sub->add_option("--layouts", o->spec.layouts,
                        "Run every cell under K stack layouts (environment padding), judged separately; the "
                        "ledger marks cells whose verdict depends on the layout (default 1)"),
        "--layouts");
  track(sub->add_option("--gbench-min-time", o->spec.gbench_min_time,
                        "Google Benchmark: --benchmark_min_time for every sample, e.g. 50ms (default 20ms, or an "
                        "iteration count fixed per cell where the binary accepts <N>x; kept in the lock for every "
                        "cohort; the binary's own --benchmark_min_time after -- wins)"),
        "--gbench-min-time");
  track(
      sub->add_option("--env", o->spec.env,
                      "KEY=VALUE for every arm (repeatable; the only way to pass the arms $TARE_STORE or $PGPASSWORD)"),
      "--env");
  track(sub->add_option(
            "--cwd", o->spec.cwd,
            "Working directory for every arm (a relative --base/--head not found where typed is looked for here)"),
        "--cwd");
  track(sub->add_option("--gate", o->spec.gates,
                        "Sanity gate checked on the first block (repeatable; replaces the default "
                        "\"peak_rss_bytes(head) <= 1.5 * peak_rss_bytes(base) + 8MiB\")"),
        "--gate");
  track(sub->add_flag("--no-gates", o->spec.no_gates, "No sanity gates"), "--no-gates");
  track(sub->add_option("--bound", o->spec.bounds, "Release bound, e.g. \"p95(wall_ns, head) <= 25ms\" (repeatable)"),
        "--bound");
  track(sub->add_flag("--strict-suite", o->spec.strict_suite,
                      "Exit 4 when the suite changed: a benchmark new in a head or missing from one (by default "
                      "they are listed, new ones measured, and the shared ones judged)"),
        "--strict-suite");
  track(sub->add_option("--same-work-allowance", o->spec.same_work_allowance,
                        "The work tier: before timing, each cell of a tare or Google Benchmark binary runs once "
                        "under valgrind per arm; a cell whose head executes the same work (instructions, est. "
                        "cycles, system calls within 0.1%) is judged on time against this, what code placement "
                        "alone can do (default 10%; off: no work tier, every cell at the campaign's allowance)"),
        "--same-work-allowance");
  track(sub->add_option("--name", o->spec.name, "Campaign name shown in the ledger"), "--name");
  sub->add_option("--store", o->store_path,
                  "SQLite store (default: $TARE_STORE, else .tare/tare.db); arm copies go to its directory's bin/ "
                  "(.tare/bin for a postgresql:// store)");
  sub->add_option("--ledger", o->ledger_path,
                  "Also write the ledger (Markdown) to FILE, for a pull-request comment: kept under GitHub's "
                  "65,536-character limit, the whole ledger beside it (FILE.full.md) when that cuts anything");
  sub->add_option("--json", o->json_path, "Also write the results as JSON (schema tare.ab/1) to FILE");
  sub->add_option("--html", o->html_path, "Also write the cohort's HTML report (forest plots, samples) to FILE");
  sub->add_flag("--resume", o->resume, "Continue the latest interrupted cohort of this campaign");
  sub->add_flag("--plan", o->plan,
                "No verdict: run a short A/A pilot and predict, per cell, what the plan can resolve "
                "(the smallest change FAILed in 90% of campaigns, the pairs an unchanged head needs to PASS)");
  sub->add_option("--pilot", o->pilot, "Blocks per cell in the --plan pilot (default 20)");
  sub->add_option("--attribute", o->attribute,
                  "With --instrument sim: append the top N functions behind every FAIL and supported gain "
                  "to the ledger and JSON (as `tare attribute` shows them)")
      ->check(WholeNumberAtLeast(1));
  sub->add_flag("--inconclusive-ok", o->inconclusive_ok, "Exit 0 instead of 3 when some cell is INCONCLUSIVE");
  sub->add_flag("--no-cross-check", o->no_cross_check,
                "Do not measure cells whose time FAILed or gained once more under valgrind (by default, when "
                "valgrind is installed, the ledger says whether their instructions agree)");
  sub->add_flag("--quiet,-q", o->quiet, "No ledger on stdout, no progress (use with --ledger/--json)");
  AddProvenanceFlags(sub, &o->provenance);
  AddShardFlags(sub, &o->shard);
  // The flags a first campaign needs, then where results go; the rest under "Advanced" (issue 26:
  // 46 flags in one list hid the five that matter first).
  GroupOptions(
      sub, {{"Essential options", {"--base", "--head", "--filter", "--metric", "--budget"}},
            {"Output", {"--store", "--ledger", "--json", "--html", "--quiet", "--inconclusive-ok"}},
            {"Advanced: the arms",
             {"--null", "--kind", "--instrument", "--gbench-min-time", "--timeout", "--env", "--cwd", "--control",
              "--layouts", "--name"}},
            {"Advanced: sampling and verdicts",
             {"--samples", "--step", "--cap", "--confidence", "--order", "--seed", "--look-scheme", "--noise-floor",
              "--interval", "--noise-cap", "--same-work-allowance", "--no-cross-check", "--attribute"}},
            {"Advanced: gates and bounds", {"--gate", "--no-gates", "--bound", "--strict-suite"}},
            {"Advanced: planning and resuming", {"--plan", "--pilot", "--resume"}},
            {"Advanced: provenance and CI shards",
             {"--commit", "--branch", "--tag", "--no-git", "--shard", "--shard-weights", "--shard-weights-store"}}});
  sub->callback([o, exit_code, target_args, defining]() {
    o->spec.args = *target_args;
    for (const auto& [opt, name] : *defining) {
      if (opt->count() > 0) o->spec.given.push_back(name);
    }
    *exit_code = Finish(Ab(*o));
  });
}

}  // namespace tare::cli
