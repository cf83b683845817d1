#include "bundle/spread.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <set>
#include <tuple>

#include "base/terminal_text.h"
#include "base/units.h"
#include "model/metric_names.h"
#include "model/metric_roles.h"
#include "stats/summary.h"

namespace tare::bundle {
namespace {

using nlohmann::json;

bool IsHexPrefix(const std::string& s) {
  return s.size() >= 8 && s.size() <= 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string Tag(const RunRecord& run, const std::string& key) {
  for (const auto& [k, v] : run.provenance.tags) {
    if (k == key) return v;
  }
  return "";
}

}  // namespace

std::string BenchmarkKey(const BenchmarkRecord& bench) {
  if (bench.kind != TargetKind::kCommand) return bench.name;
  const size_t sep = bench.uri.find("::");
  const std::string program = sep == std::string::npos ? "" : bench.uri.substr(0, sep);
  const size_t space = bench.name.find(' ');
  return space == std::string::npos ? program : program + bench.name.substr(space);
}

bool IsSpreadMetric(const MetricDef& metric) {
  return IsHeadlineDeterministic(metric.name) || metric.kind == MetricKind::kTime;
}

ArmValues MeasuredValues(const RunData& run, const std::set<int64_t>& discarded, const std::string& arm,
                         const std::map<int64_t, std::string>& cell_names) {
  std::map<int64_t, std::string> key_of;
  for (const auto& b : run.benchmarks) {
    auto cell = cell_names.find(b.id);
    key_of[b.id] = cell != cell_names.end() ? cell->second : BenchmarkKey(b);
  }
  ArmValues out;
  for (const auto& s : run.samples) {
    if (s.sample.arm != arm || s.sample.warmup || !s.sample.ok() || discarded.count(s.id) > 0) continue;
    auto key = key_of.find(s.benchmark_id);
    if (key == key_of.end()) continue;
    for (const auto& [metric, v] : s.sample.values) {
      if (!std::isnan(v)) out[key->second][metric].push_back(v);
    }
  }
  return out;
}

StatusOr<SpreadReport> ComputeSpread(store::Store& store, const SpreadQuery& q) {
  const bool by_exe = !q.executable.empty();
  if (by_exe == !q.lock.empty()) {
    return Status::InvalidArgument(
        "give one of --executable SHA256 or --lock SHA256 (a prefix of 8 or more hex digits)");
  }
  const std::string prefix = by_exe ? q.executable : q.lock;
  if (!IsHexPrefix(prefix)) {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a sha256 or a prefix of one (8 to 64 lowercase hex digits); `tare export` lists "
                    "executables' sha256, a ledger names its lock",
                    prefix));
  }
  TARE_ASSIGN_OR_RETURN(std::vector<RunRecord> all, store.ListRuns(1 << 30));
  SpreadReport report;
  std::set<std::string> full;  // the full sha256s the prefix matched
  struct Chosen {
    RunData data;
    std::set<int64_t> discarded;
    std::vector<std::string> arms;
  };
  std::vector<Chosen> chosen;
  // By lock: the cohorts of that lock first, then their replays (which need the full sha256).
  std::vector<std::pair<RunRecord, std::vector<std::string>>> candidates;
  for (const auto& r : all) {
    if (by_exe) {
      TARE_ASSIGN_OR_RETURN(RunData data, store.LoadRun(r.id));
      std::vector<std::string> arms;
      for (const auto& e : data.executables) {
        if (e.sha256.rfind(prefix, 0) != 0) continue;
        full.insert(e.sha256);
        arms.push_back(e.role == "target" ? "" : e.role);
      }
      if (!arms.empty()) chosen.push_back({std::move(data), {}, arms});
    } else if (r.kind == RunKind::kAb) {
      TARE_ASSIGN_OR_RETURN(std::optional<CohortRecord> cohort, store.CohortOf(r.id));
      if (cohort && cohort->lock_sha256.rfind(prefix, 0) == 0) full.insert(cohort->lock_sha256);
    }
  }
  if (full.size() > 1) {
    std::string list;
    for (const auto& f : full) list += (list.empty() ? "" : ", ") + f.substr(0, 16);
    return Status::InvalidArgument(
        fmt::format("'{}' matches {} different sha256s ({}); give more digits", prefix, full.size(), list));
  }
  if (full.empty()) {
    return Status::NotFound(fmt::format("no run in store '{}' measured {} '{}'", store.path(),
                                        by_exe ? "an executable with sha256" : "a cohort with lock", prefix));
  }
  report.sha256 = *full.begin();
  report.selector = fmt::format("{} {}", by_exe ? "executable" : "lock", report.sha256.substr(0, 12));
  if (!by_exe) {
    for (const auto& r : all) {
      bool match = Tag(r, "replay-of") == report.sha256;
      if (!match && r.kind == RunKind::kAb) {
        TARE_ASSIGN_OR_RETURN(std::optional<CohortRecord> cohort, store.CohortOf(r.id));
        match = cohort && cohort->lock_sha256 == report.sha256;
      }
      if (!match) continue;
      TARE_ASSIGN_OR_RETURN(RunData data, store.LoadRun(r.id));
      std::set<std::string> arms;
      for (const auto& s : data.samples) arms.insert(s.sample.arm);
      chosen.push_back({std::move(data), {}, {arms.begin(), arms.end()}});
    }
  }
  std::sort(chosen.begin(), chosen.end(),
            [](const Chosen& a, const Chosen& b) { return a.data.run.id < b.data.run.id; });

  struct Acc {
    std::string unit;
    std::map<int64_t, std::vector<double>> by_run;  // run -> its values
  };
  // Benchmark, arm, metric, host type, model: samples of two host types, or values of two models
  // of one estimate (metric.h MetricModel), never share a row.
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, Acc> acc;
  for (auto& c : chosen) {
    std::map<int64_t, std::string> cell_names;
    if (c.data.run.kind == RunKind::kAb) {
      TARE_ASSIGN_OR_RETURN(c.discarded, store.DiscardedSamplesOf(c.data.run.id));
      TARE_ASSIGN_OR_RETURN(std::vector<CellRecord> cells, store.CellsOf(c.data.run.id));
      for (const auto& cell : cells) cell_names[cell.benchmark_id] = cell.name;
    }
    std::map<std::string, MetricDef> defs;
    for (const auto& m : c.data.metrics) defs[m.name] = m;
    report.runs.push_back({c.data.run.id, c.data.run.kind, c.data.run.started_unix_ns, c.data.run.fingerprint_digest,
                           Tag(c.data.run, "replay-of"), c.arms});
    for (const auto& arm : c.arms) {
      for (const auto& [bench, metrics] : MeasuredValues(c.data, c.discarded, arm, cell_names)) {
        for (const auto& [metric, values] : metrics) {
          const MetricDef def = defs.count(metric) > 0 ? defs[metric] : LookupMetric(metric);
          const bool wanted = q.metrics.empty()
                                  ? IsSpreadMetric(def)
                                  : std::find(q.metrics.begin(), q.metrics.end(), metric) != q.metrics.end();
          if (!wanted) continue;
          // An executable measured under several arms of one cohort (base and its null copy) is
          // one executable: its arms' samples count together.
          Acc& a = acc[{bench, by_exe ? "" : arm, metric, c.data.run.fingerprint_digest, MetricModel(def)}];
          a.unit = def.unit;
          auto& mine = a.by_run[c.data.run.id];
          mine.insert(mine.end(), values.begin(), values.end());
        }
      }
    }
  }
  for (const auto& [key, a] : acc) {
    SpreadRow row;
    std::tie(row.benchmark, row.arm, row.metric, row.host, row.model) = key;
    row.unit = a.unit;
    row.deterministic = IsHeadlineDeterministic(row.metric);
    row.runs = static_cast<int64_t>(a.by_run.size());
    std::vector<double> medians, all;
    for (const auto& [run, values] : a.by_run) {
      medians.push_back(stats::Median(values));
      all.insert(all.end(), values.begin(), values.end());
    }
    row.samples = static_cast<int64_t>(all.size());
    auto pct = [](double lo, double hi) { return hi == lo ? 0.0 : lo == 0 ? kNaN : 100.0 * (hi - lo) / std::fabs(lo); };
    std::tie(row.run_min, row.run_max) =
        std::pair{*std::min_element(medians.begin(), medians.end()), *std::max_element(medians.begin(), medians.end())};
    row.spread_pct = medians.size() < 2 ? kNaN : pct(row.run_min, row.run_max);
    std::tie(row.sample_min, row.sample_max) =
        std::pair{*std::min_element(all.begin(), all.end()), *std::max_element(all.begin(), all.end())};
    row.sample_range_pct = pct(row.sample_min, row.sample_max);
    report.rows.push_back(row);
  }
  return report;
}

std::string RenderSpread(const SpreadReport& r) {
  std::set<std::string> hosts;
  for (const auto& run : r.runs) hosts.insert(run.fingerprint_digest);
  std::string out = fmt::format("tare spread: {}: {} run{} on {} host type{}\n", r.selector, r.runs.size(),
                                r.runs.size() == 1 ? "" : "s", hosts.size(), hosts.size() == 1 ? "" : "s");
  for (const auto& run : r.runs) {
    std::time_t t = static_cast<std::time_t>(run.started_unix_ns / 1000000000);
    char when[32];
    std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", std::gmtime(&t));
    out += fmt::format("  run {:<5} {:<4} {} UTC  host {}{}\n", run.id, RunKindName(run.kind), when,
                       run.fingerprint_digest.substr(0, 12),
                       run.replay_of.empty() ? "" : "  replay of " + run.replay_of.substr(0, 12));
  }
  if (r.runs.size() < 2) {
    out += "measured once: nothing to spread yet (replay a bundle of it, or run it again)\n";
  }
  std::set<std::string> models;
  for (const auto& row : r.rows) {
    if (!row.model.empty()) models.insert(row.model);
  }
  size_t wb = 9;
  for (const auto& row : r.rows) {
    wb = std::max(wb, SingleLineText(row.benchmark).size() + (row.arm.empty() ? 0 : row.arm.size() + 3) +
                          (hosts.size() > 1 ? 10 : 0));
  }
  wb = std::min<size_t>(wb, 60);
  out += fmt::format("\n{:<{}}  {:<20} {:>4} {:>7} {:>14} {:>14} {:>9} {:>12}\n", "benchmark", wb, "metric", "runs",
                     "samples", "lowest run", "highest run", "spread", "sample range");
  std::map<std::string, std::pair<int64_t, int64_t>> deterministic;  // metric -> (rows, rows that moved)
  for (const auto& row : r.rows) {
    // Several host types: each row says its own (a row never holds two).
    std::string name = SingleLineText(row.benchmark) + (row.arm.empty() ? "" : " [" + row.arm + "]") +
                       (hosts.size() > 1 ? " @" + row.host.substr(0, 8) : "") +
                       (models.size() > 1 && !row.model.empty() ? " (" + SingleLineText(row.model) + ")" : "");
    auto pct = [](double p) { return std::isnan(p) ? std::string("-") : fmt::format("{:.3f}%", p); };
    // Deterministic counts are shown whole: a one-instruction difference must be visible.
    auto value = [&](double v) { return row.deterministic ? fmt::format("{:.0f}", v) : FormatValue(v, row.unit); };
    out += fmt::format("{:<{}}  {:<20} {:>4} {:>7} {:>14} {:>14} {:>9} {:>12}\n", name, wb, SingleLineText(row.metric),
                       row.runs, row.samples, value(row.run_min), value(row.run_max), pct(row.spread_pct),
                       pct(row.sample_range_pct));
    if (row.deterministic) {
      // An exact count that moved in any sample is a difference to explain, whatever the medians.
      ++deterministic[row.metric].first;
      if (row.sample_max != row.sample_min) ++deterministic[row.metric].second;
    }
  }
  out +=
      "\nspread: of the runs' medians, (highest - lowest) / lowest, what a rerun moves; sample range: of every "
      "sample of every run, (max - min) / min (docs/bundle.md, \"tare spread\")\n";
  if (r.runs.size() >= 2 && !deterministic.empty()) out += "\n";
  for (const auto& [metric, counts] : deterministic) {
    if (r.runs.size() < 2) break;
    const auto [rows, moved] = counts;
    if (moved == 0) {
      out += fmt::format("{}: all {} identical across {} runs (spread 0.000%)\n", metric, rows, r.runs.size());
    } else if (metric == metric_name::kSimEstCycles) {
      out += fmt::format(
          "{}: {} of {} differ across runs: the cycle estimate counts cache misses, which depend on addresses; a "
          "different length of the executables' paths (a store elsewhere) or of the environment shifts the stack "
          "(docs/sim.md, \"Determinism\")\n",
          metric, moved, rows);
    } else {
      out += fmt::format(
          "{}: {} of {} DIFFER across runs; simulated instructions of the same executable should not move: check "
          "its input, arguments, environment and libraries (the hosts' fingerprints)\n",
          metric, moved, rows);
    }
  }
  return out;
}

json SpreadToJson(const SpreadReport& r) {
  auto num = [](double v) { return std::isnan(v) ? json(nullptr) : json(v); };
  json runs = json::array();
  for (const auto& run : r.runs) {
    runs.push_back({{"id", run.id},
                    {"kind", run.kind},
                    {"started_unix_ns", run.started_unix_ns},
                    {"fingerprint_digest", run.fingerprint_digest},
                    {"replay_of", run.replay_of.empty() ? json(nullptr) : json(run.replay_of)},
                    {"arms", run.arms}});
  }
  json rows = json::array();
  for (const auto& row : r.rows) {
    rows.push_back({{"benchmark", row.benchmark},
                    {"arm", row.arm},
                    {"metric", row.metric},
                    {"unit", row.unit},
                    {"deterministic", row.deterministic},
                    {"runs", row.runs},
                    {"host", row.host},
                    {"model", row.model.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.model)},
                    {"samples", row.samples},
                    {"run_median_min", num(row.run_min)},
                    {"run_median_max", num(row.run_max)},
                    {"spread_pct", num(row.spread_pct)},
                    {"sample_min", num(row.sample_min)},
                    {"sample_max", num(row.sample_max)},
                    {"sample_range_pct", num(row.sample_range_pct)}});
  }
  return {{"schema", "tare.spread/2"}, {"selector", r.selector}, {"sha256", r.sha256}, {"runs", runs}, {"rows", rows}};
}

}  // namespace tare::bundle
