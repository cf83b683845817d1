#include "html/compare_page.h"

#include <fmt/format.h>

#include "base/units.h"
#include "compare/compare_report.h"
#include "compare/run_set.h"
#include "html/html_text.h"
#include "html/page.h"
#include "html/plots.h"
#include "html/run_page.h"

namespace tare::html {
namespace {

using compare::BenchmarkChange;
using compare::ChangeClassName;
using compare::MetricChange;

// The benchmark of `data` a comparison line is about: by name, or the run's only benchmark (runs
// of one command each are compared whatever their names: "./old/prog -> ./new/prog").
const BenchmarkRecord* FindBenchmark(const RunData& data, const std::string& name, bool head) {
  for (const auto& b : data.benchmarks) {
    if (b.name == name) return &b;
  }
  const size_t arrow = name.find(" -> ");
  if (arrow != std::string::npos) {
    const std::string side = head ? name.substr(arrow + 4) : name.substr(0, arrow);
    for (const auto& b : data.benchmarks) {
      if (b.name == side) return &b;
    }
  }
  return data.benchmarks.size() == 1 ? &data.benchmarks[0] : nullptr;
}

std::string RunColumn(const char* which, const RunData& d) {
  std::string cmd;
  for (const auto& a : d.run.command_line) cmd += (cmd.empty() ? "" : " ") + a;
  return fmt::format("<td><b>{}</b>: {}<br>{}<br>started {}<br>tare {} · host <code>{}</code><br><code>{}</code></td>",
                     which, HtmlText(compare::DescribeRunSet(d)), HtmlText(ProvenanceText(d.run.provenance)),
                     HtmlText(FormatUnixTime(d.run.started_unix_ns)), HtmlText(d.run.tare_version),
                     HtmlText(d.run.fingerprint_digest.substr(0, 12)), HtmlText(cmd));
}

ForestRow RowFor(const MetricChange& m) {
  ForestRow row;
  row.label = m.metric;
  row.cls = ChangeClassName(m.cls);
  row.estimate = m.change;
  row.lo = m.lo;
  row.hi = m.hi;
  row.band_lo = -m.threshold;
  row.band_hi = m.threshold;
  row.band_cls = "band threshold";
  row.band_tooltip = fmt::format("within ±{} ({}): untouched", UnsignedPercent(m.threshold), m.threshold_source);
  row.limits = {-m.threshold, m.threshold};
  row.value_text = fmt::format("{} {}", compare::FormatChange(m), ChangeClassName(m.cls));
  row.tooltip =
      fmt::format("{}: {} (threshold ±{}, {}){}{}", m.metric, compare::FormatChange(m), UnsignedPercent(m.threshold),
                  m.method, m.higher_is_better ? "; higher is better" : "", m.reason.empty() ? "" : "; " + m.reason);
  return row;
}

std::string MetricTable(const BenchmarkChange& b) {
  std::string rows;
  for (const MetricChange& m : b.metrics) {
    rows += fmt::format(
        "<tr><td>{}{}</td><td>{}</td><td class=\"num\">{} / {}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">±{}</td><td>{}</td><td>{}</td></tr>\n",
        HtmlToken(m.metric), m.higher_is_better ? " (higher is better)" : "", Badge(ChangeClassName(m.cls)), m.n_base,
        m.n_head, HtmlText(FormatValue(m.base_median, m.unit)), HtmlText(FormatValue(m.head_median, m.unit)),
        HtmlText(compare::FormatChange(m)), HtmlText(UnsignedPercent(m.threshold)),
        HtmlText(m.threshold_source + " · " + m.method), HtmlText(m.reason));
  }
  if (rows.empty()) return "";
  return "<table><tr><th>metric</th><th>class</th><th>n base / head</th><th>base median</th><th>head median</th>"
         "<th>change [95% interval]</th><th>threshold</th><th>judged by</th><th>reason</th></tr>\n" +
         rows + "</table>\n";
}

// Base's samples, then head's, on one timeline.
std::string SamplesFigure(const BenchmarkChange& b, const RunData& base, const RunData& head) {
  const BenchmarkRecord* bb = FindBenchmark(base, b.name, false);
  const BenchmarkRecord* hb = FindBenchmark(head, b.name, true);
  if (bb == nullptr && hb == nullptr) return "";
  std::string metric = b.metrics.empty() ? "" : b.metrics[0].metric;
  if (metric.empty()) metric = PlottedMetric(hb != nullptr ? head : base, hb != nullptr ? hb->id : bb->id);
  if (metric.empty()) return "";
  SamplePlotSpec spec;
  spec.metric = metric;
  spec.series = {fmt::format("base (run {})", base.run.id), fmt::format("head (run {})", head.run.id)};
  double offset = 0;
  int series = 0;
  for (const auto& [data, bench] : {std::pair{&base, bb}, std::pair{&head, hb}}) {
    if (bench != nullptr) {
      SamplePlotSpec one = SamplesOf(*data, bench->id, metric, ArmsOf(*data));
      if (spec.unit.empty()) spec.unit = one.unit;
      for (PlotPoint p : one.points) {
        p.x += offset;
        p.series = series;
        p.tooltip = spec.series[series] + ", " + p.tooltip;
        spec.points.push_back(std::move(p));
      }
      offset += static_cast<double>(one.points.size());
    }
    ++series;
  }
  return "<figure>" + SamplePlot(spec) +
         fmt::format(
             "<figcaption>{}: base's samples, then head's, in the order taken (the runs were not interleaved: "
             "a drift between them is not in the intervals); right: each run's distribution.</figcaption>"
             "</figure>\n",
             HtmlText(metric));
}

}  // namespace

std::string RenderCompareHtml(const compare::SuiteComparison& c, const RunData& base, const RunData& head) {
  std::string html = PageStart(fmt::format("tare compare: {} ({}) → {} ({})", compare::DescribeRunSet(base),
                                           ProvenanceText(c.base.provenance), compare::DescribeRunSet(head),
                                           ProvenanceText(c.head.provenance)));
  html += fmt::format("<p class=\"headline\">{}</p>\n", HtmlText(c.Headline()));
  if (c.different_hosts) {
    html +=
        "<div class=\"banner\">DIFFERENT HOSTS: these runs come from hosts whose hard fingerprint keys differ; "
        "their timings are not comparable.<ul>";
    for (const auto& d : c.host_differences) html += "<li>" + HtmlText(d) + "</li>";
    html += "</ul></div>\n";
  }
  for (const auto& w : c.warnings) html += fmt::format("<p class=\"warn\">WARNING: {}</p>\n", HtmlText(w));
  html += "<table><tr>" + RunColumn("base", base) + RunColumn("head", head) + "</tr></table>\n";
  html += fmt::format(
      "<p class=\"note\">Changes: two-sample Hodges–Lehmann shift with {:.0f}% Mann–Whitney intervals "
      "(the runs are not paired); thresholds from {}. A benchmark takes its worst metric's class.</p>\n",
      c.confidence * 100, HtmlText(c.config_source.empty() ? "the defaults and flags" : c.config_source));

  // The overview: every benchmark, one line.
  html +=
      "<h2>Summary</h2>\n<table><tr><th>benchmark</th><th>class</th><th>metric</th><th>change [interval]</th>"
      "<th>reason</th></tr>\n";
  for (const BenchmarkChange& b : c.benchmarks) {
    const MetricChange* m = b.metrics.empty() ? nullptr : &b.metrics[0];
    html += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                        HtmlText(b.name), Badge(ChangeClassName(b.cls)), m ? HtmlToken(m->metric) : "",
                        m ? HtmlText(compare::FormatChange(*m)) : "", HtmlText(b.reason));
  }
  html += "</table>\n";

  html +=
      "<h2>Benchmarks</h2>\n<p class=\"note\">Forest plots: the dot is the change of head against base, the bar "
      "its interval; the shaded band and dashed lines are ±threshold. A bar wholly inside the band is untouched, "
      "wholly beyond it (and past 0) regressed or improved; a bar that crosses a dashed line is inconclusive. For "
      "higher-is-better metrics a negative change is the worse one.</p>\n";
  for (const BenchmarkChange& b : c.benchmarks) {
    html += fmt::format("<h3>{} {}</h3>\n", HtmlText(b.name), Badge(ChangeClassName(b.cls)));
    if (!b.reason.empty()) html += fmt::format("<p class=\"note\">{}</p>\n", HtmlText(b.reason));
    std::vector<ForestRow> rows;
    for (const MetricChange& m : b.metrics) rows.push_back(RowFor(m));
    if (!rows.empty()) html += "<figure>" + ForestPlot(rows, "change of " + b.name) + "</figure>\n";
    html += MetricTable(b);
    html += SamplesFigure(b, base, head);
  }
  html += "<h2>Hosts</h2>\n";
  if (base.run.fingerprint_digest == head.run.fingerprint_digest) {
    html += FingerprintBlock(head.run.fingerprint_json, head.run.fingerprint_digest,
                             "Host of both runs (the same hard fingerprint)");
    return html + NotesBlock(base.notes) + NotesBlock(head.notes) + PageEnd();
  }
  html += FingerprintBlock(base.run.fingerprint_json, base.run.fingerprint_digest,
                           fmt::format("Host of base (run {})", base.run.id));
  html += FingerprintBlock(head.run.fingerprint_json, head.run.fingerprint_digest,
                           fmt::format("Host of head (run {})", head.run.id));
  html += NotesBlock(base.notes) + NotesBlock(head.notes);
  return html + PageEnd();
}

}  // namespace tare::html
