#include "report/run_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "base/terminal_text.h"
#include "base/units.h"
#include "model/metric_roles.h"
#include "report/escape.h"
#include "stats/sign_interval.h"
#include "stats/summary.h"

namespace tare::report {
namespace {

// block -> value of the measured, successful samples of one benchmark.
std::map<int64_t, double> ByBlock(const RunData& data, int64_t benchmark_id, const std::string& metric) {
  std::map<int64_t, double> out;
  for (const auto& s : data.samples) {
    if (s.benchmark_id != benchmark_id || s.sample.warmup || !s.sample.ok()) continue;
    auto v = s.sample.values.find(metric);
    if (v != s.sample.values.end() && v->second > 0) out[s.sample.block] = v->second;
  }
  return out;
}

std::string Num(double v) {
  if (std::isnan(v)) return "";
  return fmt::format("{:.9g}", v);
}

bool Shown(const std::string& metric, TargetKind kind, const ConsoleOptions& o) {
  if (o.all_metrics) return true;
  if (o.metrics.empty()) return ShownByDefault(metric, kind);
  return std::find(o.metrics.begin(), o.metrics.end(), metric) != o.metrics.end();
}

}  // namespace

std::optional<RelativeSummary> SummarizeRelative(const RunData& data, const std::string& metric) {
  std::vector<std::pair<const BenchmarkRecord*, std::map<int64_t, double>>> benches;
  for (const auto& b : data.benchmarks) {
    auto values = ByBlock(data, b.id, metric);
    if (!values.empty()) benches.emplace_back(&b, std::move(values));
  }
  if (benches.size() < 2) return std::nullopt;
  auto median = [](const std::map<int64_t, double>& m) {
    std::vector<double> v;
    for (const auto& [block, x] : m) v.push_back(x);
    return stats::Median(v);
  };
  size_t fastest = 0;
  for (size_t i = 1; i < benches.size(); ++i) {
    if (median(benches[i].second) < median(benches[fastest].second)) fastest = i;
  }
  RelativeSummary out;
  out.metric = metric;
  out.fastest = benches[fastest].first->name;
  out.fastest_median = median(benches[fastest].second);
  for (size_t i = 0; i < benches.size(); ++i) {
    if (i == fastest) continue;
    std::vector<double> base, head;
    for (const auto& [block, x] : benches[i].second) {
      auto f = benches[fastest].second.find(block);
      if (f == benches[fastest].second.end()) continue;
      base.push_back(f->second);
      head.push_back(x);
    }
    RelativeSpeed r;
    r.name = benches[i].first->name;
    r.pairs = static_cast<int64_t>(base.size());
    if (base.empty()) {
      r.ratio = median(benches[i].second) / out.fastest_median;
      r.no_interval = "no sample of it shares a round with the fastest";
    } else if (auto c = stats::SignTestPairedChange(base, head, 0.95); c.ok()) {
      r.ratio = 1 + c->estimate;
      r.lo = 1 + c->lo;
      r.hi = 1 + c->hi;
      r.confidence = c->confidence;
    } else {
      auto d = stats::LogRatios(base, head);
      std::vector<double> logs = d.ok() ? *d : std::vector<double>{0};
      std::sort(logs.begin(), logs.end());
      const size_t n = logs.size();
      r.ratio = std::exp(n % 2 == 1 ? logs[n / 2] : (logs[n / 2 - 1] + logs[n / 2]) / 2);
      r.no_interval = fmt::format("{} pairs; a 95% interval needs at least {} (--runs)", r.pairs,
                                  stats::MinimumSignTestCount(0.95));
    }
    out.others.push_back(std::move(r));
  }
  return out;
}

std::string RenderRelative(const RelativeSummary& s, bool color) {
  const char* bold = color ? "\x1b[1m" : "";
  const char* green = color ? "\x1b[32m" : "";
  const char* reset = color ? "\x1b[0m" : "";
  const std::string what = s.metric == "wall_ns" ? "wall time" : s.metric;
  std::string out = fmt::format("\nSummary ({}, samples paired by round):\n  {}`{}`{} is fastest (median {})\n", what,
                                green, SingleLineText(s.fastest), reset, FormatValue(s.fastest_median, "ns"));
  for (const auto& r : s.others) {
    // Below 1 only when the paired estimate disagrees with the medians' order. "`b` is 1.00 x faster
    // than `a`" under "`a` is fastest" contradicted itself (issue 45, item 6): inside the noise —
    // the interval holds 1, or there is none — the two are as fast; beyond it, the pairs and the
    // medians disagree, and the line says so.
    if (r.ratio < 1) {
      const bool noise = !(r.lo && r.hi) || (*r.lo <= 1 && 1 <= *r.hi);
      const std::string interval =
          r.lo && r.hi ? fmt::format("95%: {:.2f}–{:.2f}, {} pairs", *r.lo, *r.hi, r.pairs) : r.no_interval;
      out += noise ? fmt::format("  `{}` is as fast as `{}`: {}{:.2f} ×{} within the noise ({})\n",
                                 SingleLineText(r.name), SingleLineText(s.fastest), bold, r.ratio, reset, interval)
                   : fmt::format(
                         "  `{}` is {}{:.2f} ×{} faster than `{}` by its paired samples, though its median is "
                         "higher ({})\n",
                         SingleLineText(r.name), bold, 1 / r.ratio, reset, SingleLineText(s.fastest), interval);
      continue;
    }
    const std::string interval =
        r.lo && r.hi ? fmt::format("95%: {:.2f}–{:.2f}, {} pairs", *r.lo, *r.hi, r.pairs) : r.no_interval;
    out += fmt::format("  `{}` is {}{:.2f} ×{} slower than `{}` ({})\n", SingleLineText(r.name), bold, r.ratio, reset,
                       SingleLineText(s.fastest), interval);
  }
  return out;
}

std::string RunMarkdown(const RunData& data, const ConsoleOptions& shown,
                        const std::optional<RelativeSummary>& relative) {
  const RunReport rep = BuildRunReport(data);
  std::string out =
      fmt::format("| Benchmark | Metric | n | Median | MAD | Min | Max |{}\n|:---|:---|---:|---:|---:|---:|---:|{}\n",
                  relative ? " Relative |" : "", relative ? "---:|" : "");
  for (const auto& b : rep.benchmarks) {
    if (b.ok_samples == 0) {
      out += fmt::format("| {} | | 0 | | | | |{}\n", MarkdownCode(b.bench.name), relative ? " |" : "");
      continue;
    }
    for (const auto& m : b.metrics) {
      if (!Shown(m.metric.name, b.bench.kind, shown)) continue;
      const auto& s = m.summary;
      std::string rel;
      if (relative) {
        rel = " |";
        if (m.metric.name == relative->metric) {
          if (b.bench.name == relative->fastest) rel = " 1.00 |";
          for (const auto& r : relative->others) {
            if (r.name != b.bench.name) continue;
            rel = r.lo && r.hi ? fmt::format(" {:.2f} ({:.2f}–{:.2f}) |", r.ratio, *r.lo, *r.hi)
                               : fmt::format(" {:.2f} |", r.ratio);
          }
        }
      }
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |{}\n", MarkdownCode(b.bench.name),
                         MarkdownText(m.metric.name), s.n, FormatValue(s.median, m.metric.unit),
                         FormatValue(s.mad, m.metric.unit), FormatValue(s.min, m.metric.unit),
                         FormatValue(s.max, m.metric.unit), rel);
    }
  }
  return out;
}

std::string RunCsv(const RunData& data) {
  const RunReport rep = BuildRunReport(data);
  std::string out = "benchmark,metric,unit,n,median,mad,mean,stddev,min,max,failed\n";
  for (const auto& b : rep.benchmarks) {
    for (const auto& m : b.metrics) {
      const auto& s = m.summary;
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", CsvField(b.bench.name), CsvField(m.metric.name),
                         CsvField(m.metric.unit), s.n, Num(s.median), Num(s.mad), Num(s.mean), Num(s.stddev),
                         Num(s.min), Num(s.max), b.failed_samples);
    }
    if (b.metrics.empty()) out += fmt::format("{},,,0,,,,,,,{}\n", CsvField(b.bench.name), b.failed_samples);
  }
  return out;
}

std::vector<std::string> GroupNotes(const std::vector<NoteRecord>& notes) {
  std::vector<std::pair<std::string, std::string>> grouped;  // reason -> events
  std::vector<std::string> warnings;
  for (const auto& n : notes) {
    if (n.level == "warn") {
      warnings.push_back("warning: " + n.message);
      continue;
    }
    size_t colon = n.message.find(": ");
    std::string event = colon == std::string::npos ? "" : n.message.substr(0, colon);
    std::string reason = colon == std::string::npos ? n.message : n.message.substr(colon + 2);
    auto it = std::find_if(grouped.begin(), grouped.end(), [&](auto& g) { return g.first == reason; });
    if (it == grouped.end()) {
      grouped.push_back({reason, event});
    } else {
      it->second += ", " + event;
    }
  }
  std::vector<std::string> out;
  for (const auto& [reason, events] : grouped)
    out.push_back("note: " + (events.empty() ? reason : events + ": " + reason));
  out.insert(out.end(), warnings.begin(), warnings.end());
  return out;
}

}  // namespace tare::report
