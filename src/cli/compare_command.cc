#include "cli/commands.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include <fmt/core.h>

#include "base/files.h"
#include "base/json_text.h"
#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/progress.h"
#include "base/output_path.h"
#include "compare/compare.h"
#include "compare/compare_report.h"
#include "compare/stored_pair.h"
#include "compare/thresholds.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct CompareFlags {
  std::string base;
  std::string head;
  JudgingFlags judging;
  std::string format = "console";
  std::string output;
  bool all = false;
  std::string color = "auto";
  bool inconclusive_ok = false;
  std::string store_path = DefaultStorePath();
};

StatusOr<int> Compare(const CompareFlags& f) {
  if (f.format != "console" && f.format != "markdown" && f.format != "json" && f.format != "csv") {
    return Status::InvalidArgument(fmt::format("--format '{}' is not one of console, markdown, json, csv", f.format));
  }
  if (Status s = CheckColorMode(f.color); !s.ok()) {
    return s;
  }
  TARE_ASSIGN_OR_RETURN(const compare::CompareOptions options, JudgingOptions(f.judging));
  TARE_RETURN_IF_ERROR(RequireStore(f.store_path));
  if (!f.output.empty() && f.output != "-") {
    std::vector<KeptFile> kept = store::StoreFiles(f.store_path);
    // The thresholds file just read (issue 27, item 8: `compare -o tare.toml` replaced it).
    if (const std::string config = ThresholdsFile(f.judging); !config.empty())
      kept.push_back({config, "the thresholds file"});
    TARE_RETURN_IF_ERROR(CheckOutputPath("--output", f.output, kept));
  }
  TARE_ASSIGN_OR_RETURN(auto store, store::Store::OpenForReading(f.store_path));
  TARE_ASSIGN_OR_RETURN(const compare::RunPair runs, compare::LoadRunPair(*store, f.base, f.head));
  auto result = compare::CompareStoredRuns(*store, runs, options);
  if (!result.ok()) return result.status();

  std::string text;
  if (f.format == "console") {
    const bool to_terminal = f.output.empty() || f.output == "-";
    text = compare::RenderCompareConsole(*result, {to_terminal && UseColor(f.color), f.all});
  } else if (f.format == "markdown") {
    text = compare::RenderCompareMarkdown(*result);
  } else if (f.format == "json") {
    text = DumpJson(compare::CompareToJson(*result), 2) + "\n";
  } else {
    text = compare::RenderCompareCsv(*result);
  }
  if (f.output.empty() || f.output == "-") {
    fmt::print("{}", text);
  } else if (Status w = WriteFileAtomic(f.output, text); !w.ok()) {
    return w;
  }
  // GitHub Actions: the Markdown report goes to the job summary too.
  if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary != nullptr && *summary != '\0') {
    std::ofstream out(summary, std::ios::app);
    out << compare::RenderCompareMarkdown(*result) << "\n";
    if (!out.good()) {
      fmt::print(stderr, "tare: warning: could not append to $GITHUB_STEP_SUMMARY '{}'\n", TerminalText(summary));
    }
  }
  // A gate that compared nothing must not pass (issue 27, item 18): the report above says which
  // benchmark is in which run.
  const bool none_in_both = std::all_of(result->benchmarks.begin(), result->benchmarks.end(), [](const auto& b) {
    return b.cls == compare::ChangeClass::kNew || b.cls == compare::ChangeClass::kMissing;
  });
  if (none_in_both) {
    return Status::InvalidArgument(
        fmt::format("no benchmark is in both run {} and run {}, so nothing was compared; compare two runs of one suite "
                    "(`tare runs` lists them)",
                    runs.base.run.id, runs.head.run.id));
  }
  for (const auto& b : result->benchmarks) {
    if (b.cls == compare::ChangeClass::kFailed || b.cls == compare::ChangeClass::kRegressed) return kExitFailed;
  }
  if (!f.inconclusive_ok && result->Count(compare::ChangeClass::kInconclusive) > 0) return kExitInconclusive;
  return kExitOk;
}

}  // namespace

void AddCompareCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<CompareFlags>();
  CLI::App* sub = app.add_subcommand("compare", "What changed between two stored runs, benchmark by benchmark");
  sub->footer(R"(
BASE and HEAD each name a stored run of `tare run`: latest, a run id, commit:HEX, branch:NAME,
tag:KEY=VALUE, or a bare branch, tag value or commit prefix (the newest matching run).

Each benchmark is judged on what `tare ab` judges (--metric for others): sim.Ir; allocations;
its own CPU time (gb.cpu_time_ns, bench.cpu_ns), else perf's task clock, else wall_ns. The change
of head against base has a 95% interval (two-sample Hodges-Lehmann / Mann-Whitney: the runs are not
paired), judged against a threshold:
  regressed     the interval is above 0 and the change beyond the threshold
  improved      the same, downwards
  untouched     the whole interval lies within +-threshold
  inconclusive  the interval reaches past the threshold without settling it (add samples)
  new / missing in one run only;  failed: head has failed samples;  skipped: --ignore / tare.toml
Two separate runs also carry the host's drift between them, which no interval sees. So a time
metric is regressed or improved only when its interval also clears the host's drift S on this
host type, read from the store and named on the line: from reruns (stored runs of the same
executables invoked alike, two at least: the range of their medians) or from history (the
benchmark's recent runs invoked alike, of any executables: earlier commits' runs, 4 in a row at
least: the 99% bound of what consecutive runs moved), the wider. With neither stored, or when both
runs measured the same executable, it is inconclusive, saying what to store (CI: store main's run
after each merge). Exact counts (sim.Ir, allocations) need no such evidence.
A change is a ratio of positive values: a metric with a zero or negative value (a program's own
app.* figures) is compared exactly when every sample of each side is equal (from 0: a change with
no ratio), else inconclusive, saying why (docs/compare.md, "Zero and negative values").
For a verdict on time from one sitting, use `tare ab` (paired, with a null arm).
Thresholds: 5% (0.1% for metrics identical on every rerun), or a tare.toml found from the working
directory upwards ([compare] threshold, [compare.metrics], [[compare.rules]]), or --threshold.
Runs from different hosts (hard fingerprint keys) are refused unless --allow-different-hosts.
Exit status: 0 nothing regressed; 1 regressed or failed; 3 inconclusive (no regression); 2 bad input,
or no benchmark in both runs (the report is written, and nothing was compared).
With $GITHUB_STEP_SUMMARY set, the Markdown report is appended to it.

Examples:
  tare compare main feature-x
  tare compare 12 latest --threshold 3% --format markdown -o compare.md
  tare compare branch:main tag:pr=42 --metric wall_ns --metric peak_rss_bytes --all
Docs: docs/compare.md)");
  sub->add_option("BASE", f->base, "The run before the change")->required();
  sub->add_option("HEAD", f->head, "The run after the change")->required();
  sub->add_option("--metric,-m", f->judging.metrics,
                  "Judge this metric (repeatable; default: what tare ab judges, e.g. gb.cpu_time_ns, sim.Ir)");
  sub->add_option("--threshold,-t", f->judging.thresholds,
                  "T (every metric) or METRIC=T, e.g. 3% or wall_ns=2%; beats tare.toml (repeatable)");
  sub->add_option("--ignore", f->judging.ignore,
                  "Skip benchmarks whose whole name matches this RE2 pattern (repeatable)");
  sub->add_option("--confidence", f->judging.confidence, "Of the intervals, in (0, 1) (default 0.95)");
  sub->add_option("--config", f->judging.config, "Thresholds file (default: the nearest tare.toml upwards)");
  sub->add_flag("--no-config", f->judging.no_config, "Ignore any tare.toml");
  sub->add_flag("--allow-different-hosts", f->judging.allow_different_hosts,
                "Compare runs from different hosts, every line marked");
  sub->add_option("--format", f->format, "console (default) | markdown | json | csv");
  sub->add_option("-o,--output", f->output, "Write to FILE instead of stdout (never the store)");
  sub->add_flag("--all", f->all, "Console: list untouched benchmarks too");
  sub->add_option("--color", f->color, kColorHelp);
  sub->add_flag("--inconclusive-ok", f->inconclusive_ok, "Exit 0 instead of 3 when something is inconclusive");
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->callback([f, exit_code]() { *exit_code = Finish(Compare(*f)); });
}

}  // namespace tare::cli
