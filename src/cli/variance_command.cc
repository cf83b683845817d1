#include "cli/commands.h"

#include <filesystem>
#include <memory>
#include <set>

#include <fmt/core.h>

#include "base/files.h"
#include "base/json_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/flag_checks.h"
#include "compare/stored_variance.h"
#include "compare/thresholds.h"
#include "compare/variance.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct VarianceFlags {
  std::vector<std::string> runs;
  int last = 10;
  std::vector<std::string> metrics;
  std::vector<std::string> thresholds;
  bool all = false;
  std::string format = "console";
  std::string store_path = DefaultStorePath();
};

StatusOr<int> Variance(const VarianceFlags& f) {
  if (f.format != "console" && f.format != "json") {
    return Status::InvalidArgument(fmt::format("--format '{}' is not one of console, json", f.format));
  }
  if (Status s = RequireStore(f.store_path); !s.ok()) return s;
  auto loaded = LoadCompareConfig("", false);
  if (!loaded.ok()) return loaded.status();
  compare::CompareConfig config = std::move(*loaded);
  if (Status s = compare::ApplyFlags(&config, f.thresholds, {}, std::nullopt); !s.ok()) return s;
  auto store = store::Store::OpenForReading(f.store_path);
  if (!store.ok()) return store.status();

  TARE_ASSIGN_OR_RETURN(const compare::VarianceRuns chosen, compare::LoadVarianceRuns(**store, f.runs, f.last));
  for (const auto& w : chosen.warnings) fmt::print(stderr, "tare: warning: {}\n", w);
  // Each thing measured on its own: runs of two builds pooled would read their difference as noise.
  std::vector<compare::SuiteVariance> groups;
  for (const auto& g : chosen.groups) {
    groups.push_back(compare::AnalyzeVariance(g.runs, f.metrics, config));
    groups.back().measured = g.measured;
  }
  std::string note;
  if (groups.size() > 1) {
    std::string runs;
    for (const auto& g : groups) {
      for (int64_t id : g.run_ids) runs += (runs.empty() ? "" : ", ") + std::to_string(id);
    }
    note = fmt::format(
        "runs {} are not reruns of one thing: they measured {} different things (executables, or how they were "
        "invoked). Variance is what reruns of one thing move, so each is analysed on its own below, never pooled; "
        "to see what changed between them, use `tare compare`",
        runs, groups.size());
  }
  if (f.format == "json") {
    if (groups.size() == 1) {
      fmt::print("{}\n", DumpJson(compare::VarianceToJson(groups.front()), 2));
    } else {
      nlohmann::json docs = nlohmann::json::array();
      for (const auto& g : groups) docs.push_back(compare::VarianceToJson(g));
      const nlohmann::json doc = {{"schema", compare::kVarianceGroupsJsonSchema}, {"note", note}, {"groups", docs}};
      fmt::print("{}\n", DumpJson(doc, 2));
    }
  } else {
    if (!note.empty()) fmt::print("{}\n", note);
    for (size_t i = 0; i < groups.size(); ++i) {
      fmt::print("{}{}", groups.size() > 1 ? "\n" : "", compare::RenderVarianceConsole(groups[i], f.all));
    }
  }
  return kExitOk;
}

}  // namespace

void AddVarianceCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<VarianceFlags>();
  CLI::App* sub = app.add_subcommand("variance", "How much each benchmark varies within a run and across reruns");
  sub->footer(R"(
Without RUN: the newest run of `tare run` and the runs before it that measured the same
executables (sha256) on the same host, up to --last (10). With RUN: those runs, grouped by what
they measured (the executables and how they were invoked); runs of several things (3 runs of base
and 3 of head) are analysed group by group and never pooled, and the output says so.
Per benchmark: the coefficient of variation within each run (median over runs) and across the
runs' medians (what a rerun moves); for the suite, the median, p90 and max CV and how many exceed
1% and 0. A benchmark is too noisy to gate when 2 x its CV exceeds its threshold (tare.toml or
--threshold, as in `tare compare`); the reason is named when known (drift over the run,
syscall-heavy, few samples).

Examples:
  tare variance                      # the latest run and its reruns
  tare variance 12 13 14 --all       # these runs, every benchmark
Docs: docs/compare.md, "Variance")");
  sub->add_option("RUN", f->runs, "Runs of one host (selectors as in `tare compare`)");
  sub->add_option("--last", f->last, "Without RUN: at most this many reruns (default 10)")
      ->check(WholeNumberAtLeast(1));
  sub->add_option("--metric,-m", f->metrics,
                  "Metrics (repeatable; default: what tare compare and tare ab judge, e.g. gb.cpu_time_ns, sim.Ir)");
  sub->add_option("--threshold,-t", f->thresholds, "T or METRIC=T, as in `tare compare` (beats tare.toml)");
  sub->add_flag("--all", f->all, "List every benchmark, not only those too noisy to gate");
  sub->add_option("--format", f->format, "console (default) | json");
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->callback([f, exit_code]() { *exit_code = Finish(Variance(*f)); });
}

}  // namespace tare::cli
