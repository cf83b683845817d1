#include "html/run_page.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/units.h"
#include "compare/compare.h"
#include "html/html_text.h"
#include "html/page.h"
#include "model/kinds.h"
#include "model/metric_roles.h"
#include "report/run_report.h"

namespace tare::html {
namespace {

int ArmRank(const std::string& arm) {
  switch (RoleOfArm(arm)) {
    case ArmRole::kBase:
      return 0;
    case ArmRole::kHead:
      return 1;
    case ArmRole::kNull:
      return 2;
  }
  return 1;
}

std::string UnitOf(const RunData& data, const std::string& metric) {
  for (const auto& m : data.metrics) {
    if (m.name == metric) return m.unit;
  }
  return LookupMetric(metric).unit;
}

std::string FailureText(const Sample& s) {
  std::string why = SampleOutcomeName(s.outcome);
  if (!s.error.empty()) why += ": " + s.error;
  return why;
}

using MetricSummaryPtr = const report::MetricSummary*;
MetricSummaryPtr FindSummary(const report::BenchmarkReport& b, const std::string& metric) {
  for (const auto& m : b.metrics) {
    if (m.metric.name == metric) return &m;
  }
  return nullptr;
}

// One benchmark's part of the page, built from that benchmark's samples alone.
struct Section {
  report::BenchmarkReport rep;
  std::string metric;  // the plotted one (PlottedMetric)
  std::string html;
};

// Every benchmark at a glance, first on the page (issue 23, item 6): its samples and the median of
// the metric its plot shows, with that median's CV.
std::string OverviewTable(const std::vector<Section>& sections) {
  if (sections.empty()) return "";
  std::string t =
      "<table class=\"summary\"><tr><th>benchmark</th><th>ok</th><th>failed</th><th>metric</th>"
      "<th>median</th><th>CV</th></tr>\n";
  for (const auto& section : sections) {
    const report::BenchmarkReport& b = section.rep;
    const std::string& metric = section.metric;
    const MetricSummaryPtr m = FindSummary(b, metric);
    t += fmt::format(
        "<tr><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        HtmlText(b.bench.name), b.ok_samples, b.failed_samples, HtmlToken(metric),
        m != nullptr ? HtmlText(FormatValue(m->summary.median, m->metric.unit)) : "—",
        m != nullptr && std::isfinite(m->summary.cv) ? fmt::format("{:.2f}%", m->summary.cv * 100) : "—");
  }
  return t + "</table>\n";
}

std::string SummaryTable(const report::BenchmarkReport& b) {
  std::string rows;
  for (const auto& m : b.metrics) {
    if (!ShownByDefault(m.metric.name, b.bench.kind)) continue;
    const auto& s = m.summary;
    auto v = [&m](double x) { return HtmlText(FormatValue(x, m.metric.unit)); };
    rows += fmt::format(
        "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        HtmlToken(m.metric.name), s.n, v(s.median), v(s.mad),
        std::isfinite(s.cv) ? fmt::format("{:.2f}%", s.cv * 100) : "—", v(s.min), v(s.max));
  }
  if (rows.empty()) return "";
  return "<table><tr><th>metric</th><th>n</th><th>median</th><th>MAD</th><th>CV</th><th>min</th><th>max</th></tr>\n" +
         rows + "</table>\n";
}

}  // namespace

std::string PlottedMetric(const RunData& data, int64_t benchmark_id) {
  std::set<std::string> names;
  for (const auto& s : data.samples) {
    if (s.benchmark_id != benchmark_id) continue;
    for (const auto& [name, value] : s.sample.values) names.insert(name);
  }
  return compare::PrimaryMetric({names.begin(), names.end()});
}

std::vector<std::string> ArmsOf(const RunData& data) {
  std::vector<std::string> arms;
  for (const auto& s : data.samples) {
    if (std::find(arms.begin(), arms.end(), s.sample.arm) == arms.end()) arms.push_back(s.sample.arm);
  }
  std::stable_sort(arms.begin(), arms.end(),
                   [](const std::string& a, const std::string& b) { return ArmRank(a) < ArmRank(b); });
  if (arms.empty()) arms.push_back("");
  return arms;
}

SamplePlotSpec SamplesOf(const RunData& data, int64_t benchmark_id, const std::string& metric,
                         const std::vector<std::string>& arms) {
  SamplePlotSpec spec;
  spec.metric = metric;
  spec.unit = UnitOf(data, metric);
  for (const auto& a : arms) spec.series.push_back(a.empty() ? "samples" : a);
  double order = 0;
  for (const auto& stored : data.samples) {
    if (stored.benchmark_id != benchmark_id) continue;
    const Sample& s = stored.sample;
    auto arm = std::find(arms.begin(), arms.end(), s.arm);
    if (arm == arms.end()) continue;
    PlotPoint p;
    p.x = order++;
    p.series = static_cast<int>(arm - arms.begin());
    p.warmup = s.warmup;
    p.failed = !s.ok();
    auto value = s.values.find(metric);
    if (value != s.values.end()) p.y = value->second;
    std::string where = fmt::format("sample {}", static_cast<int64_t>(p.x));
    if (!s.arm.empty()) where += fmt::format(" ({}, block {})", s.arm, s.block);
    if (s.warmup) where += ", warm-up";
    if (p.failed) {
      p.tooltip = fmt::format("{}: {}", where, FailureText(s));
    } else if (value != s.values.end()) {
      p.tooltip = fmt::format("{}: {}", where, FormatValue(value->second, spec.unit));
    } else {
      p.tooltip = fmt::format("{}: no {}", where, metric);
    }
    spec.points.push_back(std::move(p));
  }
  return spec;
}

namespace {

// Benchmark `b` of `data` (whose samples include b's), its plot in the colours of `arms`.
Section BuildSection(const RunData& data, const report::BenchmarkReport& b, const std::vector<std::string>& arms,
                     const std::vector<CellFigure>& figures) {
  Section out{b, PlottedMetric(data, b.bench.id), ""};
  std::string& html = out.html;
  html += fmt::format("<h3>{}</h3>\n", HtmlText(b.bench.name));
  html += fmt::format("<p class=\"note\"><code>{}</code> · {} · {} ok, {} failed</p>\n", HtmlText(b.bench.uri),
                      TargetKindName(b.bench.kind), b.ok_samples, b.failed_samples);
  for (const auto& f : b.failures) html += fmt::format("<p class=\"warn\">FAILED: {}</p>\n", HtmlText(f));
  if (!out.metric.empty() || b.failed_samples > 0) {
    SamplePlotSpec spec = SamplesOf(data, b.bench.id, out.metric.empty() ? "wall_ns" : out.metric, arms);
    const size_t stride = DrawStride(spec.points.size());
    html +=
        "<figure>" + SamplePlot(spec) +
        fmt::format(
            "<figcaption>{} of every sample in the order taken{}; right: the measured samples' "
            "distribution{}.</figcaption></figure>\n",
            HtmlText(spec.metric),
            stride > 1 ? fmt::format(" ({} samples: 1 in {} drawn, the tables of them all)", spec.points.size(), stride)
                       : "",
            arms.size() > 1 ? " per arm" : "");
  }
  html += SummaryTable(b);
  for (const auto& f : figures) {
    if (f.cell != b.bench.name) continue;
    html += fmt::format("<figure class=\"flame\">{}<figcaption>{}</figcaption></figure>\n", f.svg, HtmlText(f.caption));
  }
  return out;
}

// The page around its sections: `head` for the run's facts (its samples unused).
std::string Page(const RunData& head, int64_t samples, int64_t failed, const std::vector<Section>& sections) {
  const RunRecord& run = head.run;
  std::string html = PageStart(fmt::format("tare run {}: {}", run.id, ProvenanceText(run.provenance)));
  html += "<dl class=\"facts\">\n" + RunFactRows(run);
  html +=
      fmt::format("<dt>Benchmarks</dt><dd>{}, {} samples, {} failed</dd>\n", head.benchmarks.size(), samples, failed);
  html += "</dl>\n";
  html += OverviewTable(sections);
  if (failed > 0) {
    html += fmt::format(
        "<p class=\"banner\">{} measured samples failed; they are marked ▲ on the timelines, with "
        "their reason on hover, and left out of every summary.</p>\n",
        failed);
  }
  if (run.kind == RunKind::kAb) {
    html +=
        "<p class=\"warn\">This run is a <code>tare ab</code> cohort: its samples are shown raw, one colour per "
        "arm. Its verdicts are in the cohort's report (<code>tare ab ... --html FILE</code>) and ledger.</p>\n";
  }
  html += ExecutablesBlock(head.executables);
  html += FingerprintBlock(run.fingerprint_json, run.fingerprint_digest);
  html += NotesBlock(head.notes);
  html += "<h2>Benchmarks</h2>\n";
  for (const auto& section : sections) html += section.html;
  if (sections.empty()) html += "<p class=\"note\">This run has no benchmarks.</p>\n";
  return html + PageEnd();
}

}  // namespace

std::string RenderRunHtml(const RunData& data, const std::vector<CellFigure>& figures) {
  const report::RunReport rep = report::BuildRunReport(data);
  const std::vector<std::string> arms = ArmsOf(data);
  std::vector<Section> sections;
  for (const auto& b : rep.benchmarks) sections.push_back(BuildSection(data, b, arms, figures));
  return Page(data, static_cast<int64_t>(data.samples.size()), rep.total_failed, sections);
}

StatusOr<std::string> RenderRunHtmlByBenchmark(const RunData& head, const BenchmarkSamplesSource& samples_of) {
  std::vector<Section> sections;
  int64_t samples = 0, failed = 0;
  for (const auto& bench : head.benchmarks) {
    RunData one;  // the run's head with this benchmark and its samples only
    one.run = head.run;
    one.executables = head.executables;
    one.metrics = head.metrics;
    one.benchmarks = {bench};
    TARE_ASSIGN_OR_RETURN(one.samples, samples_of(bench.id));
    const report::RunReport rep = report::BuildRunReport(one);
    samples += static_cast<int64_t>(one.samples.size());
    failed += rep.total_failed;
    for (const auto& b : rep.benchmarks) sections.push_back(BuildSection(one, b, ArmsOf(one), {}));
  }
  return Page(head, samples, failed, sections);
}

}  // namespace tare::html
