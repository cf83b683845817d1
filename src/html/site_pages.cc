#include "html/site_pages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "base/sha256.h"
#include "base/units.h"
#include "env/fingerprint_json.h"
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
    return fmt::format("none ({:+.2f}% between run {} and run {} is within the host's drift, ±{:.2f}%)", 100 * s.change,
                       s.before.id, s.after.id, h.drift ? 100 * h.drift->bound : 0.0);
  }
  if (h.steps.empty()) return h.note.empty() ? "none" : "none (" + h.note + ")";
  const compare::HistoryStep& s = h.steps.back();
  return fmt::format("{:+.2f}% between run {} and run {}{}", 100 * s.change, s.before.id, s.after.id,
                     s.after.provenance.commit.empty() ? "" : " (" + s.after.provenance.commit.substr(0, 12) + ")");
}

}  // namespace

// Letters, digits, '-' and '_' of `text`, others as '_', at most `max` of them: safe in a file name.
std::string Slug(const std::string& text, size_t max) {
  std::string slug;
  for (char c : text) {
    if (slug.size() >= max) break;
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    slug += ok ? c : '_';
  }
  return slug;
}

std::string SitePagePath(const std::string& benchmark, const std::string& host) {
  // The name and digest hashed together, with a separator no digest holds: distinct pairs, distinct files.
  return "b/" + Slug(benchmark, 48) + "-" + Slug(host, 12) + "-" + Hex12(benchmark + '\n' + host) + ".html";
}

std::string SiteHostAnchor(const std::string& host) { return "host-" + Slug(host, 12); }

std::vector<HostTypeText> DescribeHostTypes(const std::vector<SiteHost>& hosts) {
  std::vector<HostTypeText> out(hosts.size());
  std::vector<std::optional<Fingerprint>> fps(hosts.size());
  for (size_t i = 0; i < hosts.size(); ++i) {
    if (hosts[i].fingerprint_json.empty() || hosts[i].fingerprint_json == "{}") {
      out[i].machine = "its runs kept no fingerprint";
      continue;
    }
    auto fp = env::FingerprintFromJsonText(hosts[i].fingerprint_json, "the host type's fingerprint");
    if (!fp.ok()) {
      out[i].machine = std::string(fp.status().message());
      continue;
    }
    const std::string cpus = fp->Get("cpu.logical");
    out[i].machine = fmt::format("{}, {} CPU{}, kernel {}", fp->Get("cpu.model_name"), cpus, cpus == "1" ? "" : "s",
                                 fp->Get("os.kernel"));
    fps[i] = std::move(*fp);
  }
  // Each hard key on which a host type differs from another, with its own value: the keys that
  // split the runs (CompareFingerprints lists them, a key only one side has as "(absent)").
  for (size_t i = 0; i < hosts.size(); ++i) {
    if (!fps[i]) continue;
    std::set<std::string> differing;
    for (size_t j = 0; j < hosts.size(); ++j) {
      if (j == i || !fps[j]) continue;
      for (const auto& d : env::CompareFingerprints(*fps[i], *fps[j]).hard) differing.insert(d.key);
    }
    std::set<std::string> listed;
    auto add = [&](const std::string& key, const std::string& text) {
      if (differing.count(key) > 0 && listed.insert(key).second) out[i].apart.push_back(text);
    };
    for (const auto& k : fps[i]->keys) add(k.key, k.key + " = " + k.value);
    for (const auto& key : differing) add(key, key + " (absent)");
  }
  return out;
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

namespace {

std::string SiteRow(const SiteEntry& e) {
  if (!e.problem.empty()) {
    return fmt::format("<tr><td class=\"bench\">{}</td><td colspan=\"6\" class=\"note\">{}</td></tr>\n",
                       HtmlText(e.benchmark), HtmlText(e.problem));
  }
  const compare::History& h = e.history;
  double last = std::numeric_limits<double>::quiet_NaN();
  std::string branch;
  for (const auto& r : h.rows) {
    if (std::isfinite(r.median)) last = r.median;
    branch = r.run.provenance.branch;
  }
  return fmt::format(
      "<tr><td class=\"bench\"><a href=\"{}\">{}</a></td><td class=\"trend\">{}</td><td class=\"num\">{}</td>"
      "<td class=\"change\">{}</td><td>{}</td><td class=\"num wide\">{}</td><td class=\"wide\">{}</td></tr>\n",
      HtmlAttr(SitePagePath(e.benchmark, e.host)), HtmlText(e.benchmark), Sparkline(h),
      std::isfinite(last) ? HtmlText(FormatValue(last, h.unit)) : "—", HtmlText(LastChange(h)), HtmlToken(h.metric),
      h.rows.size(), HtmlText(h.branch.empty() ? (branch.empty() ? "—" : branch) : h.branch));
}

}  // namespace

std::string RenderSiteIndex(const std::vector<SiteHost>& hosts, const std::vector<SiteEntry>& entries,
                            const std::string& source) {
  std::set<std::string> benchmarks;
  for (const auto& e : entries) benchmarks.insert(e.benchmark);
  std::string html = PageStart("tare: every benchmark");
  html += fmt::format(
      "<p class=\"note\">{} benchmark{} on {} host type{}, from {}: each one's run medians over the "
      "stored runs of a host type, its last value and its last change point. Results of two host "
      "types (hosts whose hard fingerprint keys differ: CPU, kernel, C library, the allocator's "
      "environment...) are never pooled, so each host type has its own section, and a benchmark "
      "measured on several has a row in each. A row links to the benchmark's history plot on that "
      "host type. Written by <code>tare site</code>; docs/report.md.</p>\n",
      benchmarks.size(), benchmarks.size() == 1 ? "" : "s", hosts.size(), hosts.size() == 1 ? "" : "s",
      HtmlText(source));
  const std::vector<HostTypeText> texts = DescribeHostTypes(hosts);
  if (hosts.size() > 1) {
    html += "<p>Host types, the newest run's first:";
    for (size_t i = 0; i < hosts.size(); ++i) {
      html += fmt::format("{} <a href=\"#{}\">{}</a>", i == 0 ? "" : ",", HtmlAttr(SiteHostAnchor(hosts[i].digest)),
                          HtmlToken(ShortDigest(hosts[i].digest)));
    }
    html += "</p>\n";
  }
  for (size_t i = 0; i < hosts.size(); ++i) {
    const std::string& host = hosts[i].digest;
    html += fmt::format("<h2 id=\"{}\">host type {}</h2>\n<p class=\"note\">{}", HtmlAttr(SiteHostAnchor(host)),
                        HtmlToken(ShortDigest(host)), HtmlText(texts[i].machine));
    if (!texts[i].apart.empty()) {
      html += ". Set apart from the other host types by: ";
      for (size_t k = 0; k < texts[i].apart.size(); ++k) {
        html += fmt::format("{}<code>{}</code>", k == 0 ? "" : "; ", HtmlText(texts[i].apart[k]));
      }
    }
    html += ".</p>\n";
    // The trend first after the name, so a phone sees it; below 700 px the run count and branch
    // are hidden (.wide: each benchmark's page has them).
    html +=
        "<table class=\"site\"><tr><th>benchmark</th><th>trend</th><th>last value</th><th>last change point</th>"
        "<th>metric</th><th class=\"wide\">runs</th><th class=\"wide\">branch</th></tr>\n";
    for (const auto& e : entries) {
      if (e.host == host) html += SiteRow(e);
    }
    html += "</table>\n";
  }
  html += PageEnd();
  return html;
}

}  // namespace tare::html
