#include "cli/commands.h"

#include <filesystem>
#include <memory>
#include <optional>

#include <fmt/core.h>

#include "attribute/explain.h"
#include "base/files.h"
#include "base/json_text.h"
#include "base/terminal_text.h"
#include "bundle/stored_report.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "base/output_path.h"
#include "compare/compare.h"
#include "compare/stored_history.h"
#include "compare/stored_pair.h"
#include "compare/thresholds.h"
#include "html/ab_page.h"
#include "html/compare_page.h"
#include "html/history_page.h"
#include "html/run_page.h"
#include "report/ab_json.h"
#include "report/ledger.h"
#include "store/store.h"
#include "store/transfer.h"

namespace tare::cli {
namespace {

struct ReportFlags {
  std::string run;
  std::vector<std::string> compare;  // BASE HEAD
  std::string history;               // BENCH
  std::string branch;                // --history: only this branch
  std::string host;                  // --history: host digest prefix
  int min_segment = 0;               // --history: runs on each side of a change point
  std::string output;
  std::string format = "html";  // html | ledger | json | summary (the last three: a tare ab cohort)
  std::string store_path = DefaultStorePath();
  JudgingFlags judging;  // --compare, as `tare compare` takes them (--metric also names --history's metric)
};

StatusOr<std::string> RunPage(store::Store& store, const std::string& selector) {
  TARE_ASSIGN_OR_RETURN(int64_t id, store.ResolveRun(selector));
  TARE_ASSIGN_OR_RETURN(RunData head, store.LoadRunHead(id));
  if (head.run.kind != RunKind::kAb) {
    // A benchmark's samples at a time: memory for one benchmark, not the run (issue 48, item 7).
    return html::RenderRunHtmlByBenchmark(head, [&](int64_t bench) { return store.LoadBenchmarkSamples(id, bench); });
  }
  TARE_ASSIGN_OR_RETURN(RunData data, store.LoadRun(id));
  // A cohort is read whole instead and drawn as `tare ab --html` drew it: its report rebuilt from
  // the store (as `tare bundle` does: issue 47, item 2), the samples per arm, and on a sim cohort
  // each FAIL and supported gain's differential flame graph under its cell.
  auto whole = store::ReadFullRun(store, id);
  if (!whole.ok()) return html::RenderRunHtml(data);  // the samples still make a page
  const store::FullRun& full = *whole;
  std::vector<html::CellFigure> figures;
  auto rep = bundle::StoredCohortReport(store, full);
  if (!rep.ok()) {
    fmt::print(stderr, "tare: warning: the cohort's verdicts could not be read back ({}); the page shows its samples\n",
               TerminalText(rep.status().message()));
  }
  if (rep.ok() && rep->instrument == Instrument::kSim) {
    std::vector<std::string> problems;
    for (auto& f : attribute::FlameGraphsOfCohortChanges(store, *rep, full.data, &problems)) {
      figures.push_back({f.cell, f.caption, std::move(f.svg)});
    }
    for (const auto& p : problems) fmt::print(stderr, "tare: warning: no flame graph for {}\n", TerminalText(p));
  }
  if (rep.ok()) return html::RenderAbHtml(*rep, full.data, full.cells, figures);
  return html::RenderRunHtml(full.data, figures);
}

// A `tare ab` cohort as `tare ab` delivered it, rebuilt from the store (issue 47, item 2): its
// Markdown ledger, its tare.ab/1 JSON or the summary it printed on a terminal. The summary names the
// whole ledger where `tare ab` wrote it beside the store, when that file is still there.
StatusOr<std::string> CohortText(store::Store& store, const std::string& store_path, const std::string& selector,
                                 const std::string& format) {
  TARE_ASSIGN_OR_RETURN(int64_t id, store.ResolveRun(selector));
  TARE_ASSIGN_OR_RETURN(RunData head, store.LoadRunHead(id));
  if (head.run.kind != RunKind::kAb) {
    return Status::InvalidArgument(fmt::format(
        "--format {}: run {} is a `tare {}` run, not a `tare ab` cohort; its page is --format html, everything "
        "stored for it `tare export --run {}`",
        format, id, RunKindName(head.run.kind), id));
  }
  TARE_ASSIGN_OR_RETURN(store::FullRun full, store::ReadFullRun(store, id));
  TARE_ASSIGN_OR_RETURN(report::AbReport rep, bundle::StoredCohortReport(store, full));
  if (format == "ledger") return report::RenderLedger(rep);
  if (format == "json") return DumpJson(report::AbReportToJson(rep), 2) + "\n";
  // Where `tare ab` wrote the whole ledger on a terminal, spelt as it printed it.
  const std::string kept = store::KeptLedgerPath(store::LocalDirectory(store_path), id);
  std::error_code ec;
  const std::string where = std::filesystem::is_regular_file(kept, ec)
                                ? kept
                                : fmt::format("`tare report --run {} --format ledger` rebuilds it", id);
  return report::RenderAbSummary(rep, where);
}

StatusOr<std::string> ComparePage(store::Store& store, const ReportFlags& f, const compare::CompareOptions& options) {
  TARE_ASSIGN_OR_RETURN(const compare::RunPair runs,
                        compare::LoadRunPair(store, f.compare[0], f.compare[1], /*with_samples=*/true));
  TARE_ASSIGN_OR_RETURN(compare::SuiteComparison result, compare::CompareStoredRuns(store, runs, options));
  return html::RenderCompareHtml(result, runs.base, runs.head);
}

StatusOr<int> Report(const ReportFlags& f) {
  const bool compare_mode = !f.compare.empty();
  const bool history_mode = !f.history.empty();
  if (int(compare_mode) + int(history_mode) + int(!f.run.empty()) != 1) {
    return Status::InvalidArgument(
        "name one thing to report: --run SELECTOR (one run), --compare BASE HEAD (two runs) or --history BENCH "
        "(one benchmark over runs)");
  }
  if (f.format != "html" && f.run.empty()) {
    return Status::InvalidArgument(fmt::format(
        "--format {} is a `tare ab` cohort's (with --run); --compare and --history draw an HTML page", f.format));
  }
  std::optional<compare::CompareOptions> options;
  if (compare_mode) {
    TARE_ASSIGN_OR_RETURN(options, JudgingOptions(f.judging));
  }
  // Reading commands must not create a store where there is none.
  if (Status s = RequireStore(f.store_path); !s.ok()) return s;
  const bool to_stdout = f.output.empty() || f.output == "-";
  if (!to_stdout) {
    std::vector<KeptFile> kept = store::StoreFiles(f.store_path);
    if (const std::string config = compare_mode ? ThresholdsFile(f.judging) : ""; !config.empty()) {
      kept.push_back({config, "the thresholds file"});
    }
    TARE_RETURN_IF_ERROR(CheckOutputPath("--output", f.output, kept));
  }
  auto store = store::Store::OpenForReading(f.store_path);
  if (!store.ok()) return store.status();
  StatusOr<std::string> page = std::string();
  if (history_mode) {
    auto h = compare::LoadHistory(**store, {f.history, f.judging.metrics.empty() ? "" : f.judging.metrics.front(),
                                            f.branch, f.host, 200, f.min_segment});
    page = h.ok() ? StatusOr<std::string>(html::RenderHistoryHtml(*h)) : StatusOr<std::string>(h.status());
  } else if (f.format != "html") {
    page = CohortText(**store, f.store_path, f.run, f.format);
  } else {
    page = compare_mode ? ComparePage(**store, f, *options) : RunPage(**store, f.run);
  }
  if (!page.ok()) return page.status();
  if (to_stdout) {
    fmt::print("{}", *page);
    return kExitOk;
  }
  if (Status w = WriteFileAtomic(f.output, *page); !w.ok()) return w;
  return kExitOk;
}

}  // namespace

void AddReportCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<ReportFlags>();
  CLI::App* sub = app.add_subcommand("report", "A stored run, or two compared, as one HTML page with plots");
  sub->footer(R"(
One self-contained HTML file (inline SVG and CSS, no scripts, nothing fetched): the run's code,
tare version, start time and host; per benchmark every sample in the order taken (warm-ups hollow,
failed samples marked with their reason) beside each arm's distribution, and the summaries.
A `tare ab` cohort's run is drawn as `tare ab --html` drew it: its verdicts rebuilt from the store.
--format gives a cohort as `tare ab` printed and wrote it, rebuilt from the store: its ledger
(Markdown), its JSON (tare.ab/1, as --json) or the short summary it prints on a terminal.
--compare adds what `tare compare` judges: per benchmark a forest plot of each metric's change and
95% interval against +-threshold, coloured by class, with the headline and warnings.
How to read the plots: docs/report.md.
Exit status: 0 written; 2 bad input (no store, no such run, an output that is the store, --format
other than html for a run that is not a cohort).

Examples:
  tare report --run latest -o run.html
  tare report --compare main feature-x -o compare.html
  tare report --history BM_Sort/1024 --branch main -o history.html
  tare report --run 12 > run12.html
  tare report --run latest --format ledger     the last cohort's ledger, Markdown on stdout
  tare report --run 7 --format json -o 7.json)");
  sub->add_option("--run", f->run,
                  "One run: 'latest', a run id, commit:HEX, branch:NAME, tag:KEY=VALUE, or a bare branch/tag/commit");
  sub->add_option("--compare", f->compare,
                  "Two runs, BASE HEAD (selectors as for --run), judged as `tare compare` does")
      ->expected(2);
  sub->add_option("--history", f->history,
                  "One benchmark over stored runs of one host type, with its change points (as `tare history`)");
  sub->add_option("--branch", f->branch, "--history: only runs of this branch");
  sub->add_option("--min-segment", f->min_segment,
                  "--history: runs on each side of a change point (default 5, fewer down to 3 for a short series)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--host", f->host, "--history: the host's fingerprint digest (prefix); default: the newest run's");
  sub->add_option("-o,--output", f->output, "Write the page to FILE (default, or '-': stdout; never the store)");
  sub->add_option("--format", f->format,
                  "--run of a `tare ab` cohort: html (the page, default), ledger (Markdown), json (tare.ab/1) or "
                  "summary (what `tare ab` printed on a terminal), each rebuilt from the store")
      ->check(CLI::IsMember({"html", "ledger", "json", "summary"}));
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->add_option("--metric,-m", f->judging.metrics,
                  "--compare: judge this metric (repeatable); --history: the metric");
  sub->add_option("--threshold,-t", f->judging.thresholds,
                  "--compare: T or METRIC=T, as for `tare compare` (repeatable)");
  sub->add_option("--ignore", f->judging.ignore, "--compare: skip benchmarks matching this RE2 pattern (repeatable)");
  sub->add_option("--confidence", f->judging.confidence, "--compare: of the intervals, in (0, 1) (default 0.95)");
  sub->add_option("--config", f->judging.config, "--compare: thresholds file (default: the nearest tare.toml upwards)");
  sub->add_flag("--no-config", f->judging.no_config, "--compare: ignore any tare.toml");
  sub->add_flag("--allow-different-hosts", f->judging.allow_different_hosts,
                "--compare: runs from different hosts, marked");
  sub->callback([f, exit_code]() { *exit_code = Finish(Report(*f)); });
}

}  // namespace tare::cli
