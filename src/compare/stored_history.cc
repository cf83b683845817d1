#include "compare/stored_history.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <utility>
#include <vector>

#include "model/metric.h"
#include "model/metric_names.h"
#include "model/metric_roles.h"

namespace tare::compare {

StatusOr<History> LoadHistory(store::Store& store, const HistoryRequest& request) {
  HistoryRequest r = request;
  auto hosts = store.HostsOf(r.benchmark);
  if (!hosts.ok()) return hosts.status();
  // TARGET::NAME, as `tare run` printed names before it printed them as stored (and as exports'
  // uri fields still carry them): the name after the target's, when only that one was measured.
  if (const size_t sep = r.benchmark.find("::"); hosts->empty() && sep != std::string::npos) {
    auto named = store.HostsOf(r.benchmark.substr(sep + 2));
    if (!named.ok()) return named.status();
    if (!named->empty()) {
      r.benchmark = r.benchmark.substr(sep + 2);
      hosts = std::move(named);
    }
  }
  if (hosts->empty()) {
    return Status::NotFound(fmt::format(
        "no run of `tare run` in '{}' measured a benchmark named '{}'; names are as `tare runs`/`tare export` show "
        "them (e.g. BM_Sort/1024, or a command line)",
        store.path(), r.benchmark));
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
      return Status::InvalidArgument(fmt::format("--host '{}' names {} of the hosts that ran '{}'; they are:{}", r.host,
                                                 matches.empty() ? "none" : "more than one", r.benchmark, list));
    }
    host = matches[0];
  }
  int64_t others = 0;
  for (const auto& [digest, n] : *hosts) {
    if (digest != host) others += n;
  }
  // The metric: the one named, else what tare ab judges of the benchmark in its newest run (its CPU
  // time, sim.Ir, ...), else its own measurement (issue 44: history and site follow what is judged).
  std::string metric = r.metric;
  if (metric.empty()) {
    std::vector<std::string> candidates = JudgedPreference();
    candidates.insert(candidates.end(), PrimaryMetrics().begin(), PrimaryMetrics().end());
    double newest_median = 0;
    for (const auto& m : candidates) {
      auto p = store.History({r.benchmark, m, r.branch, host, 1});
      if (!p.ok()) return p.status();
      if (!p->empty() && p->back().n > 0) {
        metric = m;
        newest_median = p->back().median;
        break;
      }
    }
    // A command that mostly waits is followed by its wall time, as compare judges it (MostlyWaits).
    if (metric == metric_name::kPerfTaskClockNs) {
      auto wall = store.History({r.benchmark, "wall_ns", r.branch, host, 1});
      if (!wall.ok()) return wall.status();
      if (!wall->empty() && wall->back().n > 0 && MostlyWaits(newest_median, wall->back().median)) {
        metric = "wall_ns";
      }
    }
    if (metric.empty()) {
      return Status::NotFound(
          fmt::format("'{}' has none of {}; name one with --metric", r.benchmark, fmt::join(PrimaryMetrics(), ", ")));
    }
  }
  auto points = store.History({r.benchmark, metric, r.branch, host, r.limit});
  if (!points.ok()) return points.status();
  if (points->empty()) {
    return Status::NotFound(fmt::format("no run on host {}{} has '{}' of '{}'; check --metric and --branch",
                                        host.substr(0, 12), r.branch.empty() ? "" : " branch " + r.branch, metric,
                                        r.benchmark));
  }
  // A modelled metric (sim.est_cycles): the newest run's model only (metric.h MetricModel).
  std::string model;
  int64_t other_model = 0;
  if (!MetricModel(LookupMetric(metric)).empty()) {
    auto model_of = [&](int64_t run_id) -> StatusOr<std::string> {
      TARE_ASSIGN_OR_RETURN(const auto defs, store.MetricsOf(run_id));
      for (const auto& d : defs) {
        if (d.name == metric) return MetricModel(d);
      }
      return std::string();
    };
    TARE_ASSIGN_OR_RETURN(model, model_of(points->back().run.id));
    std::vector<store::HistoryPoint> kept;
    for (auto& p : *points) {
      TARE_ASSIGN_OR_RETURN(const std::string m, model_of(p.run.id));
      if (m == model) {
        kept.push_back(std::move(p));
      } else {
        ++other_model;
      }
    }
    *points = std::move(kept);
  }
  std::vector<HistoryInput> inputs;
  for (auto& p : *points) inputs.push_back({std::move(p.run), p.n, p.failed, p.median});
  HistoryOptions options;
  options.min_segment = r.min_segment;
  History h = BuildHistory(std::move(inputs), options);
  h.benchmark = r.benchmark;
  h.metric = metric;
  h.unit = LookupMetric(metric).unit;
  h.host = host;
  h.branch = r.branch;
  h.other_hosts_runs = others;
  h.model = model;
  h.other_model_runs = other_model;
  return h;
}

}  // namespace tare::compare
