#include "html/site_pages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/sha256.h"
#include "base/units.h"
#include "html/html_text.h"
#include "html/page.h"
#include "html/svg.h"

namespace tare::html {
namespace {

std::string Hex12(const std::string& text) { return Sha256Hex(text).substr(0, 12); }

std::string ShortDigest(const std::string& digest) { return digest.substr(0, 12); }

std::string LastChange(const compare::History& h) {
  if (h.steps.empty() && !h.within_drift.empty()) {
    // The detector's step stood within the host's drift (compare/history.h): named, not a change.
    const compare::HistoryStep& s = h.within_drift.back();
    return fmt::format("none ({:+.2f}% between run {} and run {} is within the host's drift, ±{:.2f}%)",
                       100 * s.change, s.before.id, s.after.id, h.drift ? 100 * h.drift->bound : 0.0);
  }
  if (h.steps.empty()) return h.note.empty() ? "none" : "none (" + h.note + ")";
  const compare::HistoryStep& s = h.steps.back();
  return fmt::format("{:+.2f}% between run {} and run {}{}", 100 * s.change, s.before.id, s.after.id,
                     s.after.provenance.commit.empty() ? "" : " (" + s.after.provenance.commit.substr(0, 12) + ")");
}

}  // namespace

std::string SitePagePath(const std::string& benchmark) {
  std::string slug;
  for (char c : benchmark) {
    if (slug.size() >= 48) break;
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    slug += ok ? c : '_';
  }
  return "b/" + slug + "-" + Hex12(benchmark) + ".html";
}

std::string Sparkline(const compare::History& h, int width, int height) {
  std::vector<double> ys;
  for (const auto& r : h.rows) {
    if (std::isfinite(r.median)) ys.push_back(r.median);
  }
  std::string svg = fmt::format("<svg class=\"spark\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">",
                                width, height, width, height);
  if (ys.size() >= 2) {
    const auto [lo, hi] = std::minmax_element(ys.begin(), ys.end());
    const double span = *hi - *lo;
    std::string points;
    for (size_t i = 0; i < ys.size(); ++i) {
      const double x = 2 + (width - 4) * static_cast<double>(i) / static_cast<double>(ys.size() - 1);
      const double y = span > 0 ? 2 + (height - 4) * (1 - (ys[i] - *lo) / span) : height / 2.0;
      points += fmt::format("{}{},{}", points.empty() ? "" : " ", SvgNumber(x), SvgNumber(y));
    }
    svg += fmt::format("<polyline fill=\"none\" stroke=\"#1c7ed6\" stroke-width=\"1.5\" points=\"{}\"/>", points);
    // Each change point as a tick where the new level starts.
    for (const auto& s : h.steps) {
      const double x = 2 + (width - 4) * static_cast<double>(s.index) / static_cast<double>(ys.size() - 1);
      svg += fmt::format("<line x1=\"{0}\" x2=\"{0}\" y1=\"0\" y2=\"{1}\" stroke=\"#e03131\" stroke-width=\"1\"/>",
                         SvgNumber(x), height);
    }
  } else if (ys.size() == 1) {
    svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"2\" fill=\"#1c7ed6\"/>", width / 2, height / 2);
  }
  svg += fmt::format("<title>{} run medians, oldest left{}</title></svg>", ys.size(),
                     h.steps.empty() ? "" : "; red: change points");
  return svg;
}

std::string RenderSiteIndex(const std::vector<SiteEntry>& entries, const std::string& source) {
  std::string html = PageStart("tare: every benchmark");
  html += fmt::format("<p class=\"note\">{} benchmarks from {}: each one's run medians over the stored runs of one "
                      "host type (the newest run's), its last value and its last change point. A row links to the "
                      "benchmark's history plot. Written by <code>tare site</code>; docs/report.md.</p>\n",
                      entries.size(), HtmlText(source));
  // The trend first after the name, so a phone sees it; below 700 px the host, branch and run count
  // are hidden (.wide: each benchmark's page has them).
  html += "<table class=\"site\"><tr><th>benchmark</th><th>trend</th><th>last value</th><th>last change point</th>"
          "<th>metric</th><th class=\"wide\">runs</th><th class=\"wide\">host</th><th class=\"wide\">branch</th></tr>\n";
  for (const auto& e : entries) {
    if (!e.problem.empty()) {
      html += fmt::format("<tr><td class=\"bench\">{}</td><td colspan=\"7\" class=\"note\">{}</td></tr>\n", HtmlText(e.benchmark),
                          HtmlText(e.problem));
      continue;
    }
    const compare::History& h = e.history;
    double last = std::numeric_limits<double>::quiet_NaN();
    std::string branch;
    for (const auto& r : h.rows) {
      if (std::isfinite(r.median)) last = r.median;
      branch = r.run.provenance.branch;
    }
    html += fmt::format(
        "<tr><td class=\"bench\"><a href=\"{}\">{}</a></td><td class=\"trend\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"change\">{}</td><td>{}</td><td class=\"num wide\">{}</td><td class=\"wide\">{}</td><td class=\"wide\">{}</td></tr>\n",
        HtmlAttr(SitePagePath(e.benchmark)), HtmlText(e.benchmark), Sparkline(h),
        std::isfinite(last) ? HtmlText(FormatValue(last, h.unit)) : "—", HtmlText(LastChange(h)), HtmlToken(h.metric),
        h.rows.size(), HtmlToken(ShortDigest(h.host)),
        HtmlText(h.branch.empty() ? (branch.empty() ? "—" : branch) : h.branch));
  }
  html += "</table>\n";
  html += PageEnd();
  return html;
}

}  // namespace tare::html
