#include "html/history_page.h"

#include <cmath>

#include <fmt/format.h>

#include "base/units.h"
#include "html/html_text.h"
#include "html/page.h"
#include "html/plots.h"

namespace tare::html {
namespace {

// "; 1 level shift within it, not a change: -3.52% between run 20 and run 21".
std::string WithinDriftText(const compare::History& h) {
  std::string out;
  for (const auto& s : h.within_drift) {
    out += fmt::format("{}{:+.2f}% between run {} and run {}", out.empty() ? "" : ", ", 100 * s.change, s.before.id,
                       s.after.id);
  }
  if (out.empty()) return out;
  return fmt::format("; {} level shift{} within it, not a change: {}", h.within_drift.size(),
                     h.within_drift.size() == 1 ? "" : "s", out);
}

// What the page says of the benchmark's runs on other host types: on a site, a link to each host
// type's page; on a page of its own, how to draw one.
std::string OtherHostsText(const compare::History& h, const std::vector<OtherHostPage>& other_hosts) {
  if (h.other_hosts_runs <= 0) return "";
  std::string out = HtmlText(
      fmt::format(" ({} runs on other hosts not shown: results are never pooled across hosts", h.other_hosts_runs));
  if (other_hosts.empty()) return out + HtmlText("; --host DIGEST draws another host type's)");
  out += "; each host type's page: ";
  for (size_t i = 0; i < other_hosts.size(); ++i) {
    const auto& o = other_hosts[i];
    out += fmt::format("{}<a href=\"{}\">{}</a> ({} run{})", i == 0 ? "" : ", ", HtmlAttr(o.href),
                       HtmlToken(o.host.substr(0, 12)), o.runs, o.runs == 1 ? "" : "s");
  }
  return out + ")";
}

}  // namespace

std::string RenderHistoryHtml(const compare::History& h, const std::string& index_href,
                              const std::vector<OtherHostPage>& other_hosts) {
  std::string html = PageStart(fmt::format("tare history: {} {}", h.benchmark, h.metric));
  if (!index_href.empty()) {
    html += fmt::format("<p><a href=\"{}\">← every benchmark</a></p>\n", HtmlAttr(index_href));
  }
  html += fmt::format(
      "<table><tr><th>metric</th><td>{} (each point: the median of a run's measured "
      "samples)</td></tr>\n<tr><th>host</th><td>{}{}</td></tr>\n<tr><th>branch</th><td>{}</td></tr>\n"
      "<tr><th>runs</th><td>{}</td></tr>\n<tr><th>change points</th><td>{}{}</td></tr>\n"
      "<tr><th>drift</th><td>{}{}</td></tr></table>\n",
      HtmlToken(h.metric), HtmlToken(h.host.substr(0, 16)), OtherHostsText(h, other_hosts),
      h.branch.empty() ? "every branch" : HtmlText(h.branch), h.rows.size(), h.steps.size(),
      h.note.empty() ? "" : " (" + HtmlText(h.note) + ")",
      HtmlText(compare::DriftLabel(h)) + "; a step is a change point only beyond it", HtmlText(WithinDriftText(h)));

  // The series: x = run order, one colour per level; outliers hollow; runs without a value on the axis.
  SamplePlotSpec spec;
  spec.metric = h.metric;
  spec.unit = h.unit;
  spec.x_title = "run id, in the order the runs were stored";
  spec.hollow_label = "outlier of its level (kept)";
  int64_t levels = 1;
  for (const auto& r : h.rows) levels = std::max(levels, r.segment + 1);
  for (int64_t i = 0; i < levels; ++i) spec.series.push_back(fmt::format("level {}", i + 1));
  for (size_t i = 0; i < h.rows.size(); ++i) {
    const auto& r = h.rows[i];
    spec.x_labels.push_back(std::to_string(r.run.id));
    PlotPoint p;
    p.x = static_cast<double>(i);
    p.y = r.median;
    p.series = static_cast<int>(r.segment);
    p.failed = std::isnan(r.median);
    p.warmup = r.outlier;
    p.tooltip = fmt::format("run {} ({}), {}: {}{}{}", r.run.id, ProvenanceText(r.run.provenance),
                            FormatUnixTime(r.run.started_unix_ns),
                            std::isnan(r.median) ? "every sample failed" : FormatValue(r.median, h.unit),
                            r.outlier ? " — outlier" : "", r.failed > 0 ? fmt::format(", {} failed", r.failed) : "");
    spec.points.push_back(std::move(p));
  }
  html +=
      "<h2>Run medians</h2>\n<p>Runs in the order they were stored, coloured by level; hollow: an outlier of "
      "its level (shown, never dropped); on the axis: a run whose samples all failed. Right: each level's "
      "distribution.</p>\n";
  html += SamplePlot(spec);

  if (!h.steps.empty()) {
    std::vector<ForestRow> rows;
    std::string table =
        "<table><tr><th>between</th><th>and</th><th>commits</th><th>before</th>"
        "<th>after</th><th>change [95%]</th><th>score (median shift / its standard error)</th></tr>\n";
    for (const auto& s : h.steps) {
      ForestRow row;
      row.label = fmt::format("run {} → {}", s.before.id, s.after.id);
      row.estimate = s.change;
      row.lo = s.lo;
      row.hi = s.hi;
      row.cls = s.change > 0 ? "regressed" : "improved";
      row.value_text = s.interval_note.empty()
                           ? fmt::format("{} [{}, {}]", Percent(s.change), Percent(s.lo), Percent(s.hi))
                           : fmt::format("{} (no interval)", Percent(s.change));
      if (!s.interval_note.empty()) row.lo = row.hi = kNoValue;
      row.tooltip = fmt::format("{} -> {}", FormatValue(s.median_before, h.unit), FormatValue(s.median_after, h.unit));
      rows.push_back(row);
      const std::string commits =
          !s.before.provenance.commit.empty() && !s.after.provenance.commit.empty()
              ? fmt::format("<code>git log {}..{}</code>", HtmlText(s.before.provenance.commit.substr(0, 12)),
                            HtmlText(s.after.provenance.commit.substr(0, 12)))
              : "unknown";
      const std::string change =
          s.interval_note.empty() ? fmt::format("{} [{}, {}]", Percent(s.change), Percent(s.lo), Percent(s.hi))
                                  : fmt::format("{} (no interval: {})", Percent(s.change), HtmlText(s.interval_note));
      table += fmt::format(
          "<tr><td>run {} ({})</td><td>run {} ({})</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
          "<td>{:.1f}</td></tr>\n",
          s.before.id, HtmlText(ProvenanceText(s.before.provenance)), s.after.id,
          HtmlText(ProvenanceText(s.after.provenance)), commits, HtmlText(FormatValue(s.median_before, h.unit)),
          HtmlText(FormatValue(s.median_after, h.unit)), change, s.score);
    }
    html +=
        "<h2>Change points</h2>\n<p>Each step between two levels, with the last run before it and the first run "
        "after it; <code>git log A..B</code> lists the suspects. The interval is taken over the run medians of "
        "the two levels (docs/compare.md, \"History\").</p>\n";
    html += ForestPlot(rows, "change points");
    html += table + "</table>\n";
  }

  html +=
      "<h2>Runs</h2>\n<table><tr><th>run</th><th>started</th><th>code</th><th>n</th><th>failed</th>"
      "<th>median</th><th></th></tr>\n";
  for (const auto& r : h.rows) {
    html += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", r.run.id,
        HtmlText(FormatUnixTime(r.run.started_unix_ns)), HtmlText(ProvenanceText(r.run.provenance)), r.n, r.failed,
        std::isnan(r.median) ? "-" : HtmlText(FormatValue(r.median, h.unit)), r.outlier ? "outlier" : "");
  }
  html += "</table>\n";
  html += PageEnd();
  return html;
}

}  // namespace tare::html
