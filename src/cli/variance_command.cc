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
  const std::vector<RunData>& runs = chosen.runs;
  compare::SuiteVariance v = compare::AnalyzeVariance(runs, f.metrics, config);
  if (f.format == "json") {
    fmt::print("{}\n", DumpJson(compare::VarianceToJson(v), 2));
  } else {
    fmt::print("{}", compare::RenderVarianceConsole(v, f.all));
  }
  return kExitOk;
}

}  // namespace

void AddVarianceCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<VarianceFlags>();
  CLI::App* sub = app.add_subcommand("variance", "How much each benchmark varies within a run and across reruns");
  sub->footer(R"(
Without RUN: the newest run of `tare run` and the runs before it that measured the same
executables (sha256) on the same host, up to --last (10). Per benchmark: the coefficient of
variation within each run (median over runs) and across the runs' medians (what a rerun moves);
for the suite, the median, p90 and max CV and how many exceed 1% and 0. A benchmark is too noisy
to gate when 2 x its CV exceeds its threshold (tare.toml or --threshold, as in `tare compare`);
the reason is named when known (drift over the run, syscall-heavy, few samples).

Examples:
  tare variance                      # the latest run and its reruns
  tare variance 12 13 14 --all       # these runs, every benchmark
Docs: docs/compare.md, "Variance")");
  sub->add_option("RUN", f->runs, "Runs of one host (selectors as in `tare compare`)");
  sub->add_option("--last", f->last, "Without RUN: at most this many reruns (default 10)")->check(WholeNumberAtLeast(1));
  sub->add_option("--metric,-m", f->metrics, "Metrics (repeatable; default: what tare compare and tare ab judge, e.g. gb.cpu_time_ns, sim.Ir)");
  sub->add_option("--threshold,-t", f->thresholds, "T or METRIC=T, as in `tare compare` (beats tare.toml)");
  sub->add_flag("--all", f->all, "List every benchmark, not only those too noisy to gate");
  sub->add_option("--format", f->format, "console (default) | json");
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->callback([f, exit_code]() { *exit_code = Finish(Variance(*f)); });
}

}  // namespace tare::cli
