#include "cli/compare_command.h"

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
#include "cli/output_path.h"
#include "compare/compare.h"
#include "compare/compare_report.h"
#include "compare/thresholds.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct CompareFlags {
  std::string base;
  std::string head;
  std::vector<std::string> metrics;
  std::vector<std::string> thresholds;
  std::vector<std::string> ignore;
  std::optional<double> confidence;
  std::string config;
  bool no_config = false;
  bool allow_different_hosts = false;
  std::string format = "console";
  std::string output;
  bool all = false;
  std::string color = "auto";
  bool inconclusive_ok = false;
  std::string store_path = DefaultStorePath();
};

StatusOr<int> Compare(const CompareFlags& f) {
  if (f.format != "console" && f.format != "markdown" && f.format != "json" && f.format != "csv") {
    return Status::InvalidArgument(
        fmt::format("--format '{}' is not one of console, markdown, json, csv", f.format));
  }
  if (Status s = CheckColorMode(f.color); !s.ok()) {
    return s;
  }
  auto config = LoadCompareConfig(f.config, f.no_config);
  if (!config.ok()) return config.status();
  if (Status s = compare::ApplyFlags(&*config, f.thresholds, f.ignore, f.confidence); !s.ok()) return s;
  if (Status s = RequireStore(f.store_path); !s.ok()) return s;
  if (!f.output.empty() && f.output != "-") {
    std::vector<KeptFile> kept = StoreFiles(f.store_path);
    // The thresholds file just read (issue 27, item 8: `compare -o tare.toml` replaced it).
    const std::string config_path = !f.config.empty() ? f.config : f.no_config ? "" : compare::FindConfigFile(".");
    if (!config_path.empty()) kept.push_back({config_path, "the thresholds file"});
    if (Status s = CheckOutputPath("--output", f.output, kept); !s.ok()) return s;
  }
  auto store = store::Store::OpenForReading(f.store_path);
  if (!store.ok()) return store.status();
  auto base_id = (*store)->ResolveRun(f.base);
  if (!base_id.ok()) return base_id.status().WithContext("BASE");
  auto head_id = (*store)->ResolveRun(f.head);
  if (!head_id.ok()) return head_id.status().WithContext("HEAD");
  if (*base_id == *head_id) {
    return Status::InvalidArgument(fmt::format(
        "BASE '{}' and HEAD '{}' are the same run ({}); name two runs (see `tare runs`)", f.base, f.head, *base_id));
  }
  auto base = (*store)->LoadRun(*base_id);
  if (!base.ok()) return base.status();
  auto head = (*store)->LoadRun(*head_id);
  if (!head.ok()) return head.status();

  compare::CompareOptions options;
  options.config = std::move(*config);
  options.metrics = f.metrics;
  options.allow_different_hosts = f.allow_different_hosts;
  auto result = compare::CompareRuns(*base, *head, options);
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
    return Status::InvalidArgument(fmt::format(
        "no benchmark is in both run {} and run {}, so nothing was compared; compare two runs of one suite "
        "(`tare runs` lists them)", *base_id, *head_id));
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

Each benchmark is judged on its own measurement (sim.Ir, bench.wall_ns, gb.real_time_ns or
wall_ns; --metric for others): the change of head against base with a 95% interval (two-sample
Hodges-Lehmann / Mann-Whitney: the runs are not paired), against a threshold:
  regressed     the interval is above 0 and the change beyond the threshold
  improved      the same, downwards
  untouched     the whole interval lies within +-threshold
  inconclusive  the interval reaches past the threshold without settling it (add samples)
  new / missing in one run only;  failed: head has failed samples;  skipped: --ignore / tare.toml
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
  sub->add_option("--metric,-m", f->metrics, "Judge this metric (repeatable; default: each benchmark's own measurement)");
  sub->add_option("--threshold,-t", f->thresholds, "T (every metric) or METRIC=T, e.g. 3% or wall_ns=2%; beats tare.toml (repeatable)");
  sub->add_option("--ignore", f->ignore, "Skip benchmarks whose whole name matches this RE2 pattern (repeatable)");
  sub->add_option("--confidence", f->confidence, "Of the intervals, in (0, 1) (default 0.95)");
  sub->add_option("--config", f->config, "Thresholds file (default: the nearest tare.toml upwards)");
  sub->add_flag("--no-config", f->no_config, "Ignore any tare.toml");
  sub->add_flag("--allow-different-hosts", f->allow_different_hosts, "Compare runs from different hosts, every line marked");
  sub->add_option("--format", f->format, "console (default) | markdown | json | csv");
  sub->add_option("-o,--output", f->output, "Write to FILE instead of stdout (never the store)");
  sub->add_flag("--all", f->all, "Console: list untouched benchmarks too");
  sub->add_option("--color", f->color, kColorHelp);
  sub->add_flag("--inconclusive-ok", f->inconclusive_ok, "Exit 0 instead of 3 when something is inconclusive");
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->callback([f, exit_code]() { *exit_code = Finish(Compare(*f)); });
}

}  // namespace tare::cli
