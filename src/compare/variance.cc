#include "compare/variance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "base/numbers.h"
#include "base/terminal_text.h"
#include "base/units.h"
#include "compare/compare.h"
#include "model/metric.h"
#include "model/metric_names.h"
#include "model/metric_roles.h"
#include "stats/drift.h"
#include "stats/summary.h"

namespace tare::compare {
namespace {

double Cv(const std::vector<double>& v) {
  if (v.size() < 2) return kNaN;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  if (mean == 0) return kNaN;
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / static_cast<double>(v.size() - 1)) / std::fabs(mean);
}

struct Acc {
  std::vector<double> run_medians;
  std::vector<double> run_cvs;
  int64_t samples = 0;
  bool drift = false;
  std::vector<double> sys_share;  // per run: median sys / (user + sys)
  int64_t min_n = std::numeric_limits<int64_t>::max();
};

std::string CvPct(double f) { return std::isnan(f) ? "-" : fmt::format("{:.3f}%", f * 100); }

}  // namespace

SuiteVariance AnalyzeVariance(const std::vector<RunData>& runs, const std::vector<std::string>& metrics,
                              const CompareConfig& config) {
  SuiteVariance out;
  std::map<std::pair<std::string, std::string>, Acc> acc;
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& d : runs) {
    out.run_ids.push_back(d.run.id);
    if (out.host.empty()) out.host = d.run.fingerprint_digest;
    std::map<int64_t, std::string> names;
    for (const auto& b : d.benchmarks) names[b.id] = b.name;
    // Measured, successful samples per benchmark, in order, with all their values.
    std::map<int64_t, std::vector<const Sample*>> by_bench;
    for (const auto& s : d.samples) {
      if (!s.sample.warmup && s.sample.ok()) by_bench[s.benchmark_id].push_back(&s.sample);
    }
    for (const auto& b : d.benchmarks) {
      const auto& ss = by_bench[b.id];
      if (ss.empty()) continue;
      std::vector<std::string> ms = metrics;
      if (ms.empty()) {
        std::vector<std::string> present;
        for (const auto& [m, v] : ss.front()->values) present.push_back(m);
        ms = DefaultMetrics(present);
      }
      for (const auto& m : ms) {
        std::vector<double> values, user, sys;
        for (const Sample* s : ss) {
          if (auto it = s->values.find(m); it != s->values.end()) values.push_back(it->second);
          auto u = s->values.find("user_ns"), y = s->values.find("sys_ns");
          if (u != s->values.end() && y != s->values.end()) {
            user.push_back(u->second);
            sys.push_back(y->second);
          }
        }
        if (values.empty()) continue;
        auto key = std::make_pair(b.name, m);
        if (!acc.count(key)) order.push_back(key);
        Acc& a = acc[key];
        a.run_medians.push_back(stats::Median(values));
        if (double cv = Cv(values); !std::isnan(cv)) a.run_cvs.push_back(cv);
        a.samples += static_cast<int64_t>(values.size());
        a.min_n = std::min<int64_t>(a.min_n, static_cast<int64_t>(values.size()));
        if (auto dr = stats::OrderDrift(values);
            dr.ok() && !std::isnan(dr->rho) && std::fabs(dr->rho) >= 0.5 && dr->p_value < 0.01) {
          a.drift = true;
        }
        if (!user.empty()) {
          const double su = stats::Median(user), sy = stats::Median(sys);
          if (su + sy > 0) a.sys_share.push_back(sy / (su + sy));
        }
      }
    }
  }
  out.across = runs.size() >= 2;
  std::vector<double> cvs;
  for (const auto& key : order) {
    const Acc& a = acc[key];
    BenchmarkVariance v;
    v.name = key.first;
    v.metric = key.second;
    v.runs = static_cast<int64_t>(a.run_medians.size());
    v.samples = a.samples;
    v.median = stats::Median(a.run_medians);
    v.within_cv = a.run_cvs.empty() ? kNaN : stats::Median(a.run_cvs);
    v.across_cv = Cv(a.run_medians);
    if (v.runs >= 2 && std::isnan(v.across_cv)) v.across_cv = 0;
    const bool deterministic = LookupMetric(v.metric).deterministic;
    v.threshold = config.ThresholdFor(v.name, v.metric, deterministic).first;
    const double cv = out.across ? v.across_cv : v.within_cv;
    v.too_noisy = !std::isnan(cv) && 2 * cv > v.threshold;
    if (a.drift) v.reasons.push_back("drift");
    if (!a.sys_share.empty() && stats::Median(a.sys_share) > 0.5) v.reasons.push_back("syscall-heavy");
    if (a.min_n < 5) v.reasons.push_back("few samples");
    if (!std::isnan(cv)) cvs.push_back(cv);
    out.too_noisy += v.too_noisy ? 1 : 0;
    out.benchmarks.push_back(std::move(v));
  }
  if (!cvs.empty()) {
    auto sorted = stats::Sorted(cvs);
    out.median_cv = stats::Quantile(sorted, 0.5);
    out.p90_cv = stats::Quantile(sorted, 0.9);
    out.max_cv = sorted.back();
  } else {
    out.median_cv = out.p90_cv = out.max_cv = kNaN;
  }
  out.over_1pct = std::count_if(cvs.begin(), cvs.end(), [](double c) { return c > 0.01; });
  out.over_0 = std::count_if(cvs.begin(), cvs.end(), [](double c) { return c > 0; });
  return out;
}

std::string RenderVarianceConsole(const SuiteVariance& v, bool all) {
  std::string runs;
  for (int64_t id : v.run_ids) runs += (runs.empty() ? "" : ", ") + std::to_string(id);
  std::string out = fmt::format(
      "runs {} on host {}: {} benchmarks, CV {} — median {}, p90 {}, max {}; CV > 1%: {}, "
      "CV > 0: {}; too noisy to gate: {}\n",
      runs, v.host.substr(0, 12), v.benchmarks.size(), v.across ? "across runs" : "within the run", CvPct(v.median_cv),
      CvPct(v.p90_cv), CvPct(v.max_cv), v.over_1pct, v.over_0, v.too_noisy);
  if (!v.measured.empty()) out += fmt::format("measured: {}\n", SingleLineText(v.measured));
  if (!v.across) out += "(one run: CVs are within it; give two or more runs of the same executable for the rerun CV)\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& b : v.benchmarks) {
    if (!all && !b.too_noisy) continue;
    std::string reasons;
    for (const auto& r : b.reasons) reasons += (reasons.empty() ? "" : ", ") + r;
    rows.push_back({b.too_noisy ? "too noisy" : "ok", SingleLineText(b.name), SingleLineText(b.metric),
                    std::to_string(b.runs), FormatValue(b.median, LookupMetric(b.metric).unit), CvPct(b.within_cv),
                    CvPct(b.across_cv), fmt::format("{:g}%", b.threshold * 100), reasons});
  }
  if (rows.empty()) return out + (all ? "" : "(every benchmark can be gated at its threshold; --all lists them)\n");
  const std::vector<std::string> head = {"",          "benchmark", "metric",    "runs", "median",
                                         "CV within", "CV across", "threshold", "why"};
  std::vector<size_t> w(head.size());
  for (size_t i = 0; i < head.size(); ++i) w[i] = head[i].size();
  for (const auto& r : rows) {
    for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  }
  auto line = [&](const std::vector<std::string>& r) {
    std::string l;
    for (size_t i = 0; i < r.size(); ++i) {
      const bool right = i >= 3 && i <= 7;
      l += right ? fmt::format("{:>{}}  ", r[i], w[i]) : fmt::format("{:<{}}  ", r[i], w[i]);
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
  };
  out += "\n" + line(head);
  for (const auto& r : rows) out += line(r);
  out += "A benchmark is too noisy to gate when 2 x its CV exceeds its threshold (docs/compare.md, \"Variance\").\n";
  return out;
}

nlohmann::json VarianceToJson(const SuiteVariance& v) {
  using nlohmann::json;
  auto num = [](double x) { return std::isfinite(x) ? json(x) : json(nullptr); };
  json benches = json::array();
  for (const auto& b : v.benchmarks) {
    benches.push_back({{"name", b.name},
                       {"metric", b.metric},
                       {"runs", b.runs},
                       {"samples", b.samples},
                       {"median", num(b.median)},
                       {"within_cv", num(b.within_cv)},
                       {"across_cv", num(b.across_cv)},
                       {"threshold", b.threshold},
                       {"too_noisy", b.too_noisy},
                       {"reasons", b.reasons}});
  }
  return {{"schema", kVarianceJsonSchema},
          {"runs", v.run_ids},
          {"host", v.host},
          {"measured", v.measured.empty() ? json(nullptr) : json(v.measured)},
          {"across_runs", v.across},
          {"median_cv", num(v.median_cv)},
          {"p90_cv", num(v.p90_cv)},
          {"max_cv", num(v.max_cv)},
          {"cv_over_1pct", v.over_1pct},
          {"cv_over_0", v.over_0},
          {"too_noisy", v.too_noisy},
          {"benchmarks", benches}};
}

std::vector<std::string> UnstableWarnings(const RunData& data, const CompareConfig& config) {
  std::vector<std::string> out;
  const SuiteVariance v = AnalyzeVariance({data}, {}, config);
  // A command whose CPU time is under half its wall time mostly waits (sleep, I/O, a server): the
  // task-clock `tare ab` judges by default says nothing of how long it takes, so its noise is
  // beside the point; its wall time is what a gate of it must judge (issue 44, item 7).
  std::map<std::string, const BenchmarkVariance*> wall;
  const SuiteVariance w = AnalyzeVariance({data}, {"wall_ns"}, config);
  for (const auto& b : w.benchmarks) wall[b.name] = &b;
  std::vector<std::string> waiting;
  for (const auto& judged : v.benchmarks) {
    const BenchmarkVariance* b = &judged;
    if (judged.metric == metric_name::kPerfTaskClockNs) {
      auto it = wall.find(judged.name);
      if (it != wall.end() && MostlyWaits(judged.median, it->second->median)) {
        waiting.push_back(
            fmt::format("`{}` ({:.0f}% of its wall time)", judged.name, 100 * judged.median / it->second->median));
        b = it->second;
      }
    }
    if (!b->too_noisy || b->samples < 5) continue;
    std::string why;
    for (const auto& r : b->reasons) why += (why.empty() ? " (" : ", ") + r;
    if (!why.empty()) why += ")";
    out.push_back(
        fmt::format("warning: {}: {} varied by CV {:.1f}% within this run{}: too noisy to gate a change of "
                    "{:g}% (2 x CV is more); see `tare variance`, docs/compare.md",
                    b->name, b->metric, 100 * b->within_cv, why, 100 * b->threshold));
  }
  if (!waiting.empty()) {
    out.insert(out.begin(),
               fmt::format("note: CPU time (perf.task_clock_ns) of {}: {} mostly wait{}, and `tare ab` and `tare "
                           "compare` judge CPU time by default, which leaves the wait out: judge {} with --metric "
                           "wall_ns",
                           fmt::join(waiting, ", "), waiting.size() == 1 ? "it" : "they",
                           waiting.size() == 1 ? "s" : "", waiting.size() == 1 ? "it" : "them"));
  }
  return out;
}

}  // namespace tare::compare
