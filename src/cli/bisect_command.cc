#include "cli/commands.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "attribute/explain.h"
#include "attribute/render.h"
#include "attribute/stored_profiles.h"
#include "base/files.h"
#include "base/terminal_text.h"
#include "bisect/bisect.h"
#include "cli/exit_codes.h"
#include "base/output_path.h"
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
  double allowance_percent = 100 * bisect::kDefaultAllowance;
  std::string cache_dir = ".tare/bisect";
  std::string json, markdown;
  bool quiet = false;
  int attribute_top = 10;
};

// The recipe: tare.toml's [bisect] (--config, else the nearest tare.toml from --repo upwards), then
// the flags over it.
StatusOr<bisect::BuildRecipe> LoadRecipe(const BisectFlags& f) {
  bisect::BuildRecipe r;
  std::string path = f.config.empty() ? compare::FindConfigFile(f.repo) : f.config;
  if (!path.empty()) {
    TARE_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    TARE_ASSIGN_OR_RETURN(r, bisect::ParseRecipe(text, path));
  }
  if (!f.build.empty()) r.build = f.build;
  if (!f.executable.empty()) r.executable = f.executable;
  if (!f.workdir.empty()) r.workdir = f.workdir;
  if (f.args_given) r.args = f.args;
  if (!f.build.empty() || !f.executable.empty()) r.source = path.empty() ? "flags" : path + " and flags";
  TARE_RETURN_IF_ERROR(bisect::CheckRecipe(r));
  return r;
}

// `tare attribute`'s table between each exact culprit and its parent, from the profiles the two
// sim samples left: the top `top` functions of the change in Ir, inlining checked in the two cached
// executables. A profile that cannot be read is said beside the answer, never fatal.
void AttributeCulprits(bisect::BisectReport* report, size_t top) {
  for (auto& a : report->answers) {
    if (!a.changed || !a.exact) continue;
    auto parts = [&](const std::vector<std::pair<std::string, std::string>>& files) {
      std::vector<attribute::ProfileFile> in;
      for (const auto& [name, content] : files) in.push_back({name, content});
      return attribute::MeasuredParts(in, a.kind);
    };
    auto base_parts = parts(a.last_same_profiles);
    auto head_parts = parts(a.culprit_profiles);
    if (!base_parts.ok() || !head_parts.ok()) {
      a.attribution_problem = std::string(base_parts.ok() ? head_parts.status().message() : base_parts.status().message());
      continue;
    }
    attribute::Side base{*base_parts, "parent " + a.last_same.id.substr(0, 12), a.last_same_executable, ""};
    attribute::Side head{*head_parts, "culprit " + a.culprit.id.substr(0, 12), a.culprit_executable, ""};
    auto explained = attribute::Explain(base, head, "Ir", top, "");
    if (!explained.ok()) {
      a.attribution_problem = std::string(explained.status().message());
      continue;
    }
    a.attribution_console = attribute::RenderConsole(*explained);
    a.attribution_markdown = attribute::RenderMarkdown(*explained);
    a.attribution_json = attribute::RenderJson(*explained);
  }
}

StatusOr<int> Bisect(const BisectFlags& f) {
  if (f.instrument != "sim") {
    return Status::InvalidArgument(fmt::format(
        "--instrument {}: tare bisect decides each step on an exact count; only --instrument sim is supported "
        "(time-based steps are not built yet; docs/bisect.md)",
        f.instrument));
  }
  if (f.good.empty() || f.bad.empty()) {
    return Status::InvalidArgument("give both ends: tare bisect --good A --bad B [BENCH...]");
  }
  for (const auto* flag : {&f.json, &f.markdown}) {
    if (Status s = CheckOutputPath(flag == &f.json ? "--json" : "--markdown", *flag, {}); !s.ok()) return s;
  }
  TARE_ASSIGN_OR_RETURN(bisect::BuildRecipe recipe, LoadRecipe(f));
  std::error_code ec;
  bisect::BisectSpec spec;
  spec.repo = f.repo;
  spec.good = f.good;
  spec.bad = f.bad;
  spec.benchmarks = f.benchmarks;
  spec.recipe = recipe;
  spec.cache_dir = std::filesystem::absolute(f.cache_dir, ec).lexically_normal().string();
  spec.allowance = f.allowance_percent / 100;
  if (!f.quiet) spec.progress = [](const std::string& line) { fmt::print(stderr, "{}\n", TerminalText(line)); };

  proc::InstallInterruptHandler();
  TARE_ASSIGN_OR_RETURN(auto spawner, proc::Spawner::Start());
  TARE_ASSIGN_OR_RETURN(bisect::BisectReport report, bisect::RunBisect(*spawner, spec));
  if (f.attribute_top > 0) AttributeCulprits(&report, static_cast<size_t>(f.attribute_top));
  fmt::print("{}", bisect::RenderConsole(report));
  if (!f.json.empty()) TARE_RETURN_IF_ERROR(WriteFileAtomic(f.json, bisect::RenderJson(report)));
  if (!f.markdown.empty()) TARE_RETURN_IF_ERROR(WriteFileAtomic(f.markdown, bisect::RenderMarkdown(report)));
  return kExitOk;
}

}  // namespace

void AddBisectCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<BisectFlags>();
  CLI::App* sub = app.add_subcommand(
      "bisect", "Find the commit that changed a benchmark: build commits, compare exact instruction counts");
  sub->footer(R"(
Walks the first-parent path from --good to --bad (git rev-list --first-parent --ancestry-path),
builds commits with the recipe, each in a git worktree of its own under the cache directory (your
checkout is never touched), and measures each benchmark's instruction count under valgrind
(--instrument sim: exact, so one run per commit decides). A commit whose count differs from the good
end's by more than --allowance has "changed"; a binary search finds the first such commit in about
log2(commits) builds; under each culprit, `tare attribute`'s table says which functions the change
came from (parent -> culprit, Ir; --attribute N rows). Builds that fail are skipped, as `git bisect skip`; when skipped commits hide
the culprit, the range is said. Every build is cached by (commit, recipe): a second bisect over an
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

Exit status: 0 answered (each benchmark's culprit, range, or "unchanged"); 2 bad input (an unknown
commit, --good not an ancestor of --bad, no recipe, an end that does not build or lacks a benchmark);
130 Ctrl-C (the builds done so far stay cached). docs/bisect.md.)");
  sub->add_option("benchmarks", f->benchmarks,
                  "Benchmarks to bisect, by name in the executable (default: every benchmark of the good end)");
  sub->add_option("--good", f->good, "The last commit known good (the older end)")->required();
  sub->add_option("--bad", f->bad, "The commit where the benchmark has changed (the newer end)")->required();
  sub->add_option("--instrument", f->instrument, "How each step measures: sim (exact instruction counts; the only one)");
  sub->add_option("--allowance", f->allowance_percent,
                  "Percent a count may differ from the good end's and still be the same (default 1)");
  sub->add_option("--build", f->build, "The build command (sh -c, run in {src}); overrides tare.toml's bisect.build");
  sub->add_option("--executable", f->executable, "The built benchmark's path, e.g. '{build}/bm'");
  sub->add_option("--workdir", f->workdir, "The benchmark's working directory (default {src})");
  sub->add_option("--arg", f->args, "An argument for the benchmark (repeatable)")
      ->each([f](const std::string&) { f->args_given = true; });
  sub->add_option("--repo", f->repo, "A directory inside the repository (default: .)");
  sub->add_option("--config", f->config, "The tare.toml with the [bisect] recipe (default: nearest from --repo up)");
  sub->add_option("--cache-dir", f->cache_dir, "Where worktrees, builds and cached executables live (default .tare/bisect)");
  sub->add_option("--json", f->json, "Write tare.bisect/1 JSON to FILE");
  sub->add_option("--markdown", f->markdown, "Write the answer as Markdown (an issue comment) to FILE");
  sub->add_option("--attribute", f->attribute_top,
                  "Rows of `tare attribute`'s per-function table between each culprit and its parent (default 10; 0: none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--quiet", f->quiet, "No progress lines on stderr");
  sub->callback([f, exit_code]() { *exit_code = Finish(Bisect(*f)); });
}

}  // namespace tare::cli
