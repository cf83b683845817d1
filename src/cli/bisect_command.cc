#include "cli/commands.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/terminal_text.h"
#include "base/units.h"
#include "bisect/bisect.h"
#include "cli/exit_codes.h"
#include "base/output_path.h"
#include "cmdline/argv.h"
#include "compare/thresholds.h"
#include "proc/spawner.h"

namespace tare::cli {
namespace {

struct BisectFlags {
  std::string good, bad;
  std::vector<std::string> benchmarks;
  std::string instrument = "sim";
  std::string repo = ".";
  std::string build, executable, workdir, config;
  std::vector<std::string> args;
  bool args_given = false;
  double allowance_percent = -1;  // -1: the instrument's default (1% sim, 5% wall)
  std::string step_budget = "60s";
  std::string cache_dir = ".tare/bisect";
  std::string json, markdown;
  bool quiet = false;
  int attribute_top = 10;
};

StatusOr<int> Bisect(const BisectFlags& f) {
  TARE_ASSIGN_OR_RETURN(Instrument instrument, ParseInstrument(f.instrument));
  if (instrument == Instrument::kMem) {
    return Status::InvalidArgument(
        "--instrument mem: tare bisect decides each step on an exact count (sim) or on a time campaign (wall)");
  }
  if (f.good.empty() || f.bad.empty()) {
    return Status::InvalidArgument("give both ends: tare bisect --good A --bad B [BENCH...]");
  }
  for (const auto* flag : {&f.json, &f.markdown}) {
    if (Status s = CheckOutputPath(flag == &f.json ? "--json" : "--markdown", *flag, {}); !s.ok()) return s;
  }
  TARE_ASSIGN_OR_RETURN(double step_budget_ns, ParseDurationNs(f.step_budget));
  // tare.toml's [bisect] (--config, else the nearest tare.toml from --repo upwards), the flags over it.
  TARE_ASSIGN_OR_RETURN(bisect::BuildRecipe recipe,
                        bisect::LoadRecipe(f.config.empty() ? compare::FindConfigFile(f.repo) : f.config,
                                           {f.build, f.executable, f.workdir, f.args, f.args_given}));
  std::error_code ec;
  bisect::BisectSpec spec;
  spec.repo = f.repo;
  spec.good = f.good;
  spec.bad = f.bad;
  spec.benchmarks = f.benchmarks;
  spec.recipe = recipe;
  spec.cache_dir = std::filesystem::absolute(f.cache_dir, ec).lexically_normal().string();
  spec.instrument = instrument;
  if (f.allowance_percent >= 0) spec.allowance = f.allowance_percent / 100;
  spec.step_budget_ns = static_cast<int64_t>(step_budget_ns);
  spec.command_line = cmdline::RecordedInvocation();
  spec.attribute_top = static_cast<size_t>(f.attribute_top);
  if (!f.quiet) spec.progress = [](const std::string& line) { fmt::print(stderr, "{}\n", TerminalText(line)); };

  proc::InstallInterruptHandler();
  TARE_ASSIGN_OR_RETURN(auto spawner, proc::Spawner::Start());
  TARE_ASSIGN_OR_RETURN(bisect::BisectReport report, bisect::RunBisect(*spawner, spec));
  fmt::print("{}", bisect::RenderConsole(report));
  if (!f.json.empty()) TARE_RETURN_IF_ERROR(WriteFileAtomic(f.json, bisect::RenderJson(report)));
  if (!f.markdown.empty()) TARE_RETURN_IF_ERROR(WriteFileAtomic(f.markdown, bisect::RenderMarkdown(report)));
  return bisect::AnyInconclusive(report) ? kExitInconclusive : kExitOk;
}

}  // namespace

void AddBisectCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<BisectFlags>();
  CLI::App* sub = app.add_subcommand(
      "bisect", "Find the commit that changed a benchmark: build commits, compare exact counts or time");
  sub->footer(R"(
Walks the first-parent path from --good to --bad (git rev-list --first-parent --ancestry-path),
builds commits with the recipe, each in a git worktree of its own under the cache directory (your
checkout is never touched), and measures each benchmark's instruction count under valgrind
(--instrument sim: exact, so one run per commit decides). A commit whose count differs from the good
end's by more than --allowance has "changed"; a binary search finds the first such commit in about
log2(commits) builds. With --instrument wall each step is instead a paired campaign (as tare ab:
null arm, looks, a --step-budget) of the commit against the good end: FAIL or a supported gain is
"changed", PASS "same", and an INCONCLUSIVE step stops that benchmark's search with the range still
undecided (never a guess); the bad end is judged against the good end first. Under sim, under
each culprit, `tare attribute`'s table says which functions the change came from (parent ->
culprit, Ir; --attribute N rows). Builds that fail are skipped, as `git bisect skip`; when skipped
commits hide the culprit, the range is said. Every build is cached by (commit, recipe): a second bisect over an
overlapping range builds nothing twice.

The recipe ({src}: the commit's worktree, {build}: its build directory), in tare.toml:
  [bisect]
  build = "cmake -S {src} -B {build} -DCMAKE_BUILD_TYPE=Release && cmake --build {build} --target bm"
  executable = "{build}/bm"
  workdir = "{src}"                       the benchmark's working directory (default {src})
  args = ["--benchmark_filter=BM_Parse"]  its arguments
or the same as --build, --executable, --workdir, --arg (flags win).

Examples:
  tare bisect --good v1.2 --bad main --instrument sim BM_Compress BM_Parse
  tare bisect --good HEAD~30 --bad HEAD --build 'make -C {src} O={build} bm' --executable '{build}/bm'
  tare bisect --good A --bad B --markdown culprit.md --json culprit.json --attribute 5
  tare bisect --good v1.2 --bad main --instrument wall --step-budget 2m BM_Compress

Exit status: 0 answered (each benchmark's culprit, range, or "unchanged"); 3 some benchmark
INCONCLUSIVE under wall (the rest answered); 2 bad input (an unknown
commit, --good not an ancestor of --bad, no recipe, an end that does not build or lacks a benchmark);
130 Ctrl-C (the builds, counts and decided time steps so far stay cached: the same command again
resumes from them). docs/bisect.md.)");
  sub->add_option("benchmarks", f->benchmarks,
                  "Benchmarks to bisect, by name in the executable (default: every benchmark of the good end)");
  sub->add_option("--good", f->good, "The last commit known good (the older end)")->required();
  sub->add_option("--bad", f->bad, "The commit where the benchmark has changed (the newer end)")->required();
  sub->add_option("--instrument", f->instrument,
                  "How each step measures: sim (exact instruction counts, default) or wall (a paired time campaign)");
  sub->add_option(
      "--allowance", f->allowance_percent,
      "Percent a step may differ from the good end and still be the same (default 1 under sim, 5 under wall)");
  sub->add_option("--step-budget", f->step_budget,
                  "wall: each step's campaign budget after its first look, e.g. 90s or 2m (default 60s)");
  sub->add_option("--build", f->build, "The build command (sh -c, run in {src}); overrides tare.toml's bisect.build");
  sub->add_option("--executable", f->executable, "The built benchmark's path, e.g. '{build}/bm'");
  sub->add_option("--workdir", f->workdir, "The benchmark's working directory (default {src})");
  sub->add_option("--arg", f->args, "An argument for the benchmark (repeatable)")->each([f](const std::string&) {
    f->args_given = true;
  });
  sub->add_option("--repo", f->repo, "A directory inside the repository (default: .)");
  sub->add_option("--config", f->config, "The tare.toml with the [bisect] recipe (default: nearest from --repo up)");
  sub->add_option("--cache-dir", f->cache_dir,
                  "Where worktrees, builds and cached executables live (default .tare/bisect)");
  sub->add_option("--json", f->json, "Write tare.bisect/1 JSON to FILE");
  sub->add_option("--markdown", f->markdown, "Write the answer as Markdown (an issue comment) to FILE");
  sub->add_option(
         "--attribute", f->attribute_top,
         "Rows of `tare attribute`'s per-function table between each culprit and its parent (default 10; 0: none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--quiet", f->quiet, "No progress lines on stderr");
  sub->callback([f, exit_code]() { *exit_code = Finish(Bisect(*f)); });
}

}  // namespace tare::cli
