#include "cli/commands.h"

#include <memory>

#include <fmt/format.h>

#include "base/json_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/flag_checks.h"
#include "compare/history.h"
#include "compare/stored_history.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct HistoryFlags {
  std::string benchmark;
  std::string metric;
  std::string branch;
  std::string host;  // digest prefix, or "" = the newest run's host
  int limit = 200;
  int min_segment = 0;
  std::string format = "console";
  std::string store_path = DefaultStorePath();
};

StatusOr<int> History(const HistoryFlags& f) {
  if (f.format != "console" && f.format != "json") {
    return Status::InvalidArgument(fmt::format("--format '{}' is not one of console, json", f.format));
  }
  if (Status s = RequireStore(f.store_path); !s.ok()) return s;
  auto store = store::Store::OpenForReading(f.store_path);
  if (!store.ok()) return store.status();
  auto h = compare::LoadHistory(**store, {f.benchmark, f.metric, f.branch, f.host, f.limit, f.min_segment});
  if (!h.ok()) return h.status();
  if (f.format == "json") {
    fmt::print("{}\n", DumpJson(compare::HistoryToJson(*h), 2));
  } else {
    fmt::print("{}", compare::RenderHistoryConsole(*h));
  }
  return kExitOk;
}

}  // namespace

void AddHistoryCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<HistoryFlags>();
  CLI::App* sub = app.add_subcommand("history", "One benchmark over stored runs, with change points and their commits");
  sub->footer(R"(
Each stored run of `tare run` that measured BENCH is one point: the median of its measured
samples. Only runs of one host type are shown (the newest run's, or --host): results from
different hardware or software are never pooled. Change points are level shifts of the run
medians (binary segmentation on medians, docs/compare.md "History"); each is shown between the
last run before and the first run after it, with its commits (`git log A..B` lists the suspects),
the step and its 95% interval. A step is a change point only when it stands beyond the series' own
run-to-run drift (the 99% bound of what consecutive runs within its levels moved, as `tare
compare` uses it; docs/methodology.md 10): a step within it is listed as a level shift, not a
change. The score is the detector's: the shift of the two levels' medians over its standard error
(how surely they differ, not how much). Runs far from their level are marked outliers; none is
dropped.

Examples:
  tare history BM_Sort/1024
  tare history BM_Sort/1024 --metric gb.cpu_time_ns --branch main --limit 500
  tare history '/home/me/proj/build/prog --input x' --format json   (a command: its absolute path))");
  sub->add_option("BENCH", f->benchmark, "The benchmark's name (as `tare export` shows it)")->required();
  sub->add_option("--metric,-m", f->metric,
                  "The metric (default: what tare ab judges — sim.Ir, mem.allocs, gb.cpu_time_ns, bench.cpu_ns, "
                  "perf.task_clock_ns or wall_ns, the first the newest run has)");
  sub->add_option("--branch", f->branch, "Only runs recorded on this branch");
  sub->add_option("--host", f->host, "Fingerprint digest (prefix) of the host type (default: the newest run's)");
  sub->add_option("--limit", f->limit, "The newest N runs (default 200)")->check(WholeNumberAtLeast(1));
  sub->add_option("--min-segment", f->min_segment,
                  "Runs on each side of a change point (default 5, fewer down to 3 for a short series)")
      ->check(WholeNumberAtLeast(1));
  sub->add_option("--format", f->format, "console (default) | json");
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->callback([f, exit_code]() { *exit_code = Finish(History(*f)); });
}

}  // namespace tare::cli
