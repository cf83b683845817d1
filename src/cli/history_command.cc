#include "cli/history_command.h"

#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "base/json_text.h"
#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/flag_checks.h"
#include "compare/compare.h"
#include "compare/history.h"
#include "model/metric.h"
#include "model/metric_roles.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct HistoryFlags {
  std::string benchmark;
  std::string metric;
  std::string branch;
  std::string host;           // digest prefix, or "" = the newest run's host
  int limit = 200;
  int min_segment = 5;
  std::string format = "console";
  std::string store_path = DefaultStorePath();
};

int History(const HistoryFlags& f) {
  if (f.format != "console" && f.format != "json") {
    return ReportError(Status::InvalidArgument(fmt::format("--format '{}' is not one of console, json", f.format)));
  }
  if (Status s = RequireStore(f.store_path); !s.ok()) return ReportError(s);
  auto store = store::Store::OpenForReading(f.store_path);
  if (!store.ok()) return ReportError(store.status());
  auto h = LoadHistory(**store, {f.benchmark, f.metric, f.branch, f.host, f.limit, f.min_segment});
  if (!h.ok()) return ReportError(h.status());
  if (f.format == "json") {
    fmt::print("{}\n", DumpJson(compare::HistoryToJson(*h), 2));
  } else {
    fmt::print("{}", compare::RenderHistoryConsole(*h));
  }
  return kExitOk;
}

}  // namespace

StatusOr<compare::History> LoadHistory(store::Store& store, const HistoryRequest& r) {
  auto hosts = store.HostsOf(r.benchmark);
  if (!hosts.ok()) return hosts.status();
  if (hosts->empty()) {
    return Status::NotFound(fmt::format(
        "no run of `tare run` in '{}' measured a benchmark named '{}'; names are as `tare runs`/`tare export` show "
        "them (e.g. BM_Sort/1024, or a command line)", store.path(), r.benchmark));
  }
  // One host type at a time: the newest run's, or the one named.
  std::string host = hosts->front().first;
  if (!r.host.empty()) {
    std::vector<std::string> matches;
    for (const auto& [digest, n] : *hosts) {
      if (digest.rfind(r.host, 0) == 0) matches.push_back(digest);
    }
    if (matches.size() != 1) {
      std::string list;
      for (const auto& [digest, n] : *hosts) list += fmt::format("\n  {} ({} runs)", digest.substr(0, 16), n);
      return Status::InvalidArgument(fmt::format(
          "--host '{}' names {} of the hosts that ran '{}'; they are:{}", r.host,
          matches.empty() ? "none" : "more than one", r.benchmark, list));
    }
    host = matches[0];
  }
  int64_t others = 0;
  for (const auto& [digest, n] : *hosts) {
    if (digest != host) others += n;
  }
  // The metric: the one named, else the benchmark's own measurement in its newest run.
  std::string metric = r.metric;
  if (metric.empty()) {
    for (const auto& m : PrimaryMetrics()) {
      auto p = store.History({r.benchmark, m, r.branch, host, 1});
      if (!p.ok()) return p.status();
      if (!p->empty() && p->back().n > 0) {
        metric = m;
        break;
      }
    }
    if (metric.empty()) {
      return Status::NotFound(fmt::format("'{}' has none of {}; name one with --metric", r.benchmark,
                                          fmt::join(PrimaryMetrics(), ", ")));
    }
  }
  auto points = store.History({r.benchmark, metric, r.branch, host, r.limit});
  if (!points.ok()) return points.status();
  if (points->empty()) {
    return Status::NotFound(fmt::format("no run on host {}{} has '{}' of '{}'; check --metric and --branch",
                                                    host.substr(0, 12), r.branch.empty() ? "" : " branch " + r.branch,
                                                    metric, r.benchmark));
  }
  std::vector<compare::HistoryInput> inputs;
  for (auto& p : *points) inputs.push_back({std::move(p.run), p.n, p.failed, p.median});
  compare::HistoryOptions options;
  options.min_segment = r.min_segment;
  compare::History h = compare::BuildHistory(std::move(inputs), options);
  h.benchmark = r.benchmark;
  h.metric = metric;
  h.unit = LookupMetric(metric).unit;
  h.host = host;
  h.branch = r.branch;
  h.other_hosts_runs = others;
  return h;
}

void AddHistoryCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<HistoryFlags>();
  CLI::App* sub = app.add_subcommand("history", "One benchmark over stored runs, with change points and their commits");
  sub->footer(R"(
Each stored run of `tare run` that measured BENCH is one point: the median of its measured
samples. Only runs of one host type are shown (the newest run's, or --host): results from
different hardware or software are never pooled. Change points are level shifts of the run
medians (binary segmentation on medians, docs/compare.md "History"); each is shown between the
last run before and the first run after it, with its commits (`git log A..B` lists the suspects),
the step and its 95% interval. Runs far from their level are marked outliers; none is dropped.

Examples:
  tare history BM_Sort/1024
  tare history BM_Sort/1024 --metric gb.cpu_time_ns --branch main --limit 500
  tare history '/home/me/proj/build/prog --input x' --format json   (a command: its absolute path))");
  sub->add_option("BENCH", f->benchmark, "The benchmark's name (as `tare export` shows it)")->required();
  sub->add_option("--metric,-m", f->metric, "The metric (default: sim.Ir, bench.wall_ns, gb.real_time_ns or wall_ns)");
  sub->add_option("--branch", f->branch, "Only runs recorded on this branch");
  sub->add_option("--host", f->host, "Fingerprint digest (prefix) of the host type (default: the newest run's)");
  sub->add_option("--limit", f->limit, "The newest N runs (default 200)")->check(WholeNumberAtLeast(1));
  sub->add_option("--min-segment", f->min_segment, "Runs on each side of a change point (default 5)")->check(WholeNumberAtLeast(1));
  sub->add_option("--format", f->format, "console (default) | json");
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->callback([f, exit_code]() { *exit_code = History(*f); });
}

}  // namespace tare::cli
