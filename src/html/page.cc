#include "html/page.h"

#include <algorithm>
#include <cctype>
#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_read.h"
#include "env/fingerprint_json.h"
#include "html/html_text.h"

namespace tare::html {
namespace {

// Colours: one per arm (s0 base, s1 head, s2..), verdicts and compare classes. Chosen to stay
// apart for the common colour-vision deficiencies (blue/orange first) and on a printed page.
constexpr char kStyle[] = R"css(
:root { --s0:#1f6fb4; --s1:#e8590c; --s2:#7a7f87; --s3:#2f9e44; --s4:#9c36b5; --s5:#0c8599; --s6:#c2255c; --s7:#5c940d;
        --pass:#2b8a3e; --fail:#d6336c; --inc:#e67700; --muted:#868e96; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:#212529; background:#fff; margin:0; }
main { max-width: 1600px; margin: 0 auto; padding: 16px 20px 40px; }
p, li { overflow-wrap: anywhere; }
h1 { font-size: 22px; margin: 8px 0 12px; word-break: break-all; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #dee2e6; padding-bottom: 4px; word-break: break-all; }
h3 { font-size: 15px; margin: 18px 0 6px; word-break: break-all; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
dl.facts dt { color: #495057; font-weight: 600; }
dl.facts dd { margin: 0; word-break: break-all; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 13px; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #dee2e6; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f1f3f5; }
td.reasons { min-width: 14em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; word-break: break-all; }
code.token { word-break: normal; white-space: nowrap; }
table.site td.bench { min-width: 12em; overflow-wrap: anywhere; } table.site td.change { min-width: 12em; }
@media (max-width: 700px) {
  table.site, table.site tbody { display: block; } table.site tr:first-child, table.site .wide { display: none; }
  table.site tr { display: grid; grid-template-columns: auto auto 1fr; border-bottom: 1px solid #dee2e6; padding: 4px 0; }
  table.site td { border: none; padding: 1px 6px; } table.site td.bench, table.site td.change { grid-column: 1 / 4; min-width: 0; }
  table.site td.change { color: #495057; font-size: 12px; order: 1; }
}
pre { background: #f8f9fa; padding: 6px 8px; overflow-x: auto; font-size: 12px; }
details { margin: 6px 0; } summary { cursor: pointer; color: #495057; }
.badge { display: inline-block; padding: 1px 7px; border-radius: 4px; color: #fff; font-weight: 700; font-size: 12px; }
.badge.pass, .badge.improved { background: var(--pass); } .badge.fail, .badge.regressed, .badge.failed { background: var(--fail); }
.badge.boundviolated, .badge.suitechanged, .badge.stopped, .badge.broken { background: var(--fail); } .badge.interrupted { background: var(--inc); }
.badge.inconclusive { background: var(--inc); } .badge.untouched { background: #495057; }
.badge.new, .badge.missing, .badge.skipped, .badge.none { background: var(--muted); }
.banner { border-left: 5px solid var(--fail); background: #fff0f3; padding: 8px 12px; margin: 10px 0; font-weight: 600; }
.warn { border-left: 5px solid var(--inc); background: #fff8e6; padding: 6px 12px; margin: 6px 0; }
.note { color: #495057; }
.headline { font-size: 16px; font-weight: 600; margin: 8px 0; }
figure { margin: 8px 0 14px; } figcaption { color: #495057; font-size: 12.5px; }
figure.flame svg { font-family: monospace; border: 1px solid #e9ecef; }
svg { display: block; max-width: 100%; height: auto; font-family: system-ui, sans-serif; }
svg .axis { stroke: #495057; stroke-width: 1; } svg .grid { stroke: #e9ecef; stroke-width: 1; }
svg .tick { font-size: 11px; fill: #495057; } svg .axis-title { font-size: 12px; fill: #343a40; }
svg .legend { font-size: 12px; fill: #343a40; } svg .empty { font-size: 13px; fill: var(--muted); }
svg .row-label { font-size: 12px; fill: #212529; } svg .value { font-size: 12px; font-weight: 600; }
svg polyline.trace { fill: none !important; stroke-width: 1; stroke-opacity: .35; }
svg .pt { stroke: #fff; stroke-width: .6; } svg .pt.strip { fill-opacity: .75; }
svg .pt.warm { fill: #fff !important; stroke-width: 1.5; }
svg .failed { fill: var(--fail); stroke: #fff; stroke-width: .6; }
svg .zero { stroke: #212529; stroke-width: 1.2; } svg .limit { stroke: #343a40; stroke-width: 1.2; stroke-dasharray: 4 3; }
svg .band { fill: #adb5bd; fill-opacity: .35; } svg .band.threshold { fill: #74c0fc; fill-opacity: .22; }
svg .ci { fill-opacity: .85; } svg .est { stroke: #fff; stroke-width: 1.5; }
)css";

std::string ArmColours() {
  std::string css;
  for (int i = 0; i < 8; ++i) {
    css += fmt::format(
        "svg .s{0} {{ fill: var(--s{0}); stroke: var(--s{0}); }} svg .pt.s{0} {{ stroke: #fff; }} "
        "svg .pt.warm.s{0} {{ stroke: var(--s{0}); }} svg .median.s{0} {{ fill: #212529; stroke: none; }}\n",
        i);
  }
  for (const char* c : {"pass", "improved"}) css += fmt::format("svg .{0} {{ fill: var(--pass); }}\n", c);
  for (const char* c : {"fail", "regressed", "failed"}) css += fmt::format("svg .{0} {{ fill: var(--fail); }}\n", c);
  css += "svg .inconclusive { fill: var(--inc); }\nsvg .untouched { fill: #495057; }\n";
  css += "svg .new, svg .missing, svg .skipped, svg .none { fill: var(--muted); }\n";
  return css;
}

}  // namespace

std::string PageStart(std::string_view title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"tare {}\">\n<title>{}</title>\n<style>{}{}</style>\n</head>\n<body>\n<main>\n"
      "<h1>{}</h1>\n",
      HtmlAttr(TARE_VERSION), HtmlText(title), kStyle, ArmColours(), HtmlText(title));
}

std::string PageEnd() {
  return fmt::format(
      "<footer class=\"note\"><p>Written by tare {}. Every name on this page comes from the programs measured or "
      "their command lines and is shown as text. How to read it: docs/report.md.</p></footer>\n</main>\n</body>\n"
      "</html>\n",
      HtmlText(TARE_VERSION));
}

std::string FormatUnixTime(int64_t unix_ns) {
  if (unix_ns == 0) return "";
  const std::time_t t = static_cast<std::time_t>(unix_ns / 1000000000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

std::string ProvenanceText(const Provenance& p) {
  std::string code = p.branch;
  if (!p.commit.empty()) code += (code.empty() ? "" : "@") + p.commit.substr(0, 12);
  if (code.empty()) code = "commit unknown";
  if (p.dirty.has_value()) code += *p.dirty ? ", uncommitted changes" : ", clean";
  for (const auto& [k, v] : p.tags) code += fmt::format(" · {}={}", k, v);
  return code;
}

std::string RunFactRows(const RunRecord& run) {
  std::string cmd;
  for (const auto& a : run.command_line) cmd += (cmd.empty() ? "" : " ") + a;
  std::string rows;
  rows += fmt::format("<dt>Run</dt><dd>{} ({}, {})</dd>\n", run.id, RunKindName(run.kind), RunStatusName(run.status));
  rows += fmt::format("<dt>Code</dt><dd>{}</dd>\n", HtmlText(ProvenanceText(run.provenance)));
  if (!run.provenance.commit.empty()) {
    rows += fmt::format("<dt>Commit</dt><dd><code>{}</code></dd>\n", HtmlText(run.provenance.commit));
  }
  rows += fmt::format("<dt>tare</dt><dd>{}</dd>\n", HtmlText(run.tare_version));
  rows += fmt::format("<dt>Started</dt><dd>{}</dd>\n", HtmlText(FormatUnixTime(run.started_unix_ns)));
  if (run.ended_unix_ns > run.started_unix_ns && run.started_unix_ns > 0) {
    rows += fmt::format("<dt>Took</dt><dd>{:.1f} s</dd>\n",
                        static_cast<double>(run.ended_unix_ns - run.started_unix_ns) / 1e9);
  }
  if (!cmd.empty()) rows += fmt::format("<dt>Command</dt><dd><code>{}</code></dd>\n", HtmlText(cmd));
  return rows;
}

std::string FingerprintBlock(const std::string& fingerprint_json, const std::string& digest, std::string_view title) {
  std::string out = fmt::format("<h3>{} <span class=\"note mono\">fingerprint {}</span></h3>\n", HtmlText(title),
                                HtmlText(digest.substr(0, 12)));
  const auto j = ParseJson(fingerprint_json, "its text");
  auto fp = j.ok() ? env::FingerprintFromJson(*j) : StatusOr<Fingerprint>(j.status());
  if (!fp.ok()) {
    return out + fmt::format("<p class=\"warn\">The stored fingerprint cannot be read: {}</p>\n",
                             HtmlText(fp.status().message()));
  }
  std::string hard, soft;
  for (const auto& k : fp->keys) {
    (k.hard ? hard : soft) +=
        fmt::format("<tr><td><code>{}</code></td><td>{}</td></tr>\n", HtmlText(k.key), HtmlText(k.value));
  }
  out += "<table><tr><th>hard key (results are never pooled across a difference)</th><th>value</th></tr>\n" + hard +
         "</table>\n";
  std::string checks;
  int warnings = 0;
  for (const auto& c : fp->checks) {
    const char* level = c.level == CheckLevel::kWarn ? "warn" : c.level == CheckLevel::kInfo ? "info" : "ok";
    warnings += c.level == CheckLevel::kWarn ? 1 : 0;
    checks += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", HtmlText(c.name), level,
                          HtmlText(c.finding), HtmlText(c.fix));
  }
  out += fmt::format("<details><summary>{} soft keys, {} stability checks ({} warnings)</summary>\n",
                     fp->keys.size() - static_cast<size_t>(std::count_if(fp->keys.begin(), fp->keys.end(),
                                                                         [](const auto& k) { return k.hard; })),
                     fp->checks.size(), warnings);
  out += "<table><tr><th>soft key</th><th>value</th></tr>\n" + soft + "</table>\n";
  if (!checks.empty()) {
    out += "<table><tr><th>check</th><th>level</th><th>finding</th><th>fix</th></tr>\n" + checks + "</table>\n";
  }
  return out + "</details>\n";
}

std::string NotesBlock(const std::vector<NoteRecord>& notes) {
  if (notes.empty()) return "";
  std::string out = "<h3>Notes</h3>\n<ul>\n";
  for (const auto& n : notes) out += fmt::format("<li><b>{}</b>: {}</li>\n", HtmlText(n.level), HtmlText(n.message));
  return out + "</ul>\n";
}

std::string ExecutablesBlock(const std::vector<ExecutableRecord>& executables) {
  if (executables.empty()) return "";
  std::string out = "<table><tr><th>role</th><th>executable</th><th>sha256</th></tr>\n";
  for (const auto& e : executables) {
    out += fmt::format("<tr><td>{}</td><td><code>{}</code></td><td><code title=\"{}\">{}</code></td></tr>\n",
                       HtmlText(e.role), HtmlText(e.path), HtmlAttr(e.sha256), HtmlText(e.sha256.substr(0, 12)));
  }
  return out + "</table>\n";
}

std::string BadgeClass(std::string_view word) {
  std::string cls;
  for (char c : word) {
    if (std::isalpha(static_cast<unsigned char>(c)))
      cls += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return cls.empty() ? "none" : cls;
}

std::string Badge(std::string_view word) {
  return fmt::format("<span class=\"badge {}\">{}</span>", HtmlAttr(BadgeClass(word)), HtmlText(word));
}

}  // namespace tare::html
