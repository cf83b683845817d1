#include "compare/compare_report.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "base/terminal_text.h"
#include "base/units.h"
#include "report/escape.h"

namespace tare::compare {
namespace {

std::string Pct(double f) {
  if (std::isinf(f)) return f > 0 ? "+inf" : "-inf";
  return fmt::format("{:+.2f}%", f * 100);
}

std::string Value(double v, const std::string& unit) {
  if (std::isnan(v)) return "-";
  return FormatValue(v, unit);
}

// "run 7 (main@abc)", or for a sharded run read whole "runs 5, 6, 7, 8 (main@abc)".
std::string Code(const RunRecord& r, const std::vector<int64_t>& set_runs) {
  const Provenance& p = r.provenance;
  std::string code = p.branch;
  if (!p.commit.empty()) code += (code.empty() ? "" : "@") + p.commit.substr(0, 12);
  if (p.dirty && *p.dirty) code += "+";
  std::string runs = fmt::format("run {}", r.id);
  if (set_runs.size() > 1) {
    runs = "runs ";
    for (size_t i = 0; i < set_runs.size(); ++i) runs += fmt::format("{}{}", i ? ", " : "", set_runs[i]);
  }
  return code.empty() ? runs : fmt::format("{} ({})", runs, code);
}

const char* Color(ChangeClass c) {
  switch (c) {
    case ChangeClass::kRegressed:
    case ChangeClass::kFailed:
      return "\x1b[1;31m";
    case ChangeClass::kImproved:
      return "\x1b[32m";
    case ChangeClass::kInconclusive:
      return "\x1b[33m";
    case ChangeClass::kNew:
    case ChangeClass::kMissing:
      return "\x1b[36m";
    default:
      return "";
  }
}

bool Shown(const BenchmarkChange& b, bool all) { return all || b.cls != ChangeClass::kUntouched; }

struct Row {
  ChangeClass cls;
  std::string status, bench, metric, base, head, change, threshold, note;
};

std::vector<Row> Rows(const SuiteComparison& c, bool all, bool terminal) {
  auto text = [terminal](const std::string& s) { return terminal ? SingleLineText(s) : s; };
  std::vector<Row> rows;
  for (const auto& b : c.benchmarks) {
    if (!Shown(b, all)) continue;
    if (b.metrics.empty()) {
      rows.push_back({b.cls, ChangeClassName(b.cls), text(b.name), "", "", "", "", "", text(b.reason)});
      continue;
    }
    for (const auto& m : b.metrics) {
      std::string note = m.reason.empty() ? b.reason : m.reason;
      rows.push_back({m.cls, ChangeClassName(m.cls), text(b.name), text(m.metric), Value(m.base_median, m.unit),
                      Value(m.head_median, m.unit), FormatChange(m),
                      m.cls == ChangeClass::kSkipped ? "" : fmt::format("±{:g}%", m.threshold * 100), text(note)});
    }
  }
  return rows;
}

std::string Num(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{:.9g}", v);
}

}  // namespace

std::string FormatChange(const MetricChange& m) {
  if (m.method == "exact" && std::isnan(m.change) && m.cls != ChangeClass::kSkipped) {
    // From zero: a change with no ratio (compare.cc, Judge); the values say it.
    return fmt::format("{} -> {} (exact, no ratio)", Num(m.base_median), Num(m.head_median));
  }
  if (m.cls == ChangeClass::kSkipped || std::isnan(m.change)) return "-";
  if (m.method == "exact") return Pct(m.change) + " (exact)";
  // Too few samples for any interval: omitted (the reason column says why), never [-100%, +inf].
  if (!std::isfinite(m.lo) || !std::isfinite(m.hi)) return Pct(m.change) + " (no interval)";
  return fmt::format("{} [{}, {}]", Pct(m.change), Pct(m.lo), Pct(m.hi));
}

std::string RenderCompareConsole(const SuiteComparison& c, const ConsoleStyle& style) {
  std::string out = fmt::format("{} -> {}: {}\n", SingleLineText(Code(c.base, c.base_runs)),
                                SingleLineText(Code(c.head, c.head_runs)), c.Headline());
  if (c.different_hosts) {
    out +=
        "DIFFERENT HOSTS: every line compares runs measured on different hardware or software "
        "(--allow-different-hosts):\n";
    for (const auto& d : c.host_differences) out += "  " + SingleLineText(d) + "\n";
  }
  for (const auto& w : c.warnings) out += "WARNING: " + SingleLineText(w) + "\n";
  auto rows = Rows(c, style.all, true);
  if (rows.empty()) return out;
  const std::vector<std::string> head = {"status", "benchmark",         "metric",    "base",
                                         "head",   "change [interval]", "threshold", ""};
  std::vector<size_t> w(head.size());
  for (size_t i = 0; i < head.size(); ++i) w[i] = head[i].size();
  auto cols = [](const Row& r) {
    return std::vector<std::string>{r.status, r.bench, r.metric, r.base, r.head, r.change, r.threshold, r.note};
  };
  // Widths in code points: names may be UTF-8.
  auto width = [](const std::string& s) {
    return static_cast<size_t>(
        std::count_if(s.begin(), s.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
  };
  for (const auto& r : rows) {
    auto v = cols(r);
    for (size_t i = 0; i + 1 < v.size(); ++i) w[i] = std::max(w[i], width(v[i]));
  }
  auto line = [&](const std::vector<std::string>& v, const char* color) {
    std::string l;
    for (size_t i = 0; i < v.size(); ++i) {
      if (i + 1 == v.size()) {
        if (!v[i].empty()) l += v[i];
        break;
      }
      std::string cell = v[i] + std::string(w[i] - std::min(w[i], width(v[i])), ' ');
      if (i == 0 && *color != '\0') cell = std::string(color) + v[i] + "\x1b[0m" + std::string(w[i] - width(v[i]), ' ');
      l += cell + "  ";
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
  };
  out += "\n" + line(head, "");
  for (const auto& r : rows) out += line(cols(r), style.color ? Color(r.cls) : "");
  const int64_t hidden = style.all ? 0 : c.Count(ChangeClass::kUntouched);
  if (hidden > 0) out += fmt::format("({} untouched not shown; --all shows them)\n", hidden);
  out += fmt::format(
      "Changes: two-sample Hodges–Lehmann with {:g}% Mann–Whitney intervals (unpaired runs); docs/compare.md\n",
      c.confidence * 100);
  return out;
}

std::string RenderCompareMarkdown(const SuiteComparison& c) {
  using report::MarkdownText;
  std::string out = fmt::format("### tare compare: {}\n\n{} → {}", MarkdownText(c.Headline()),
                                MarkdownText(Code(c.base, c.base_runs)), MarkdownText(Code(c.head, c.head_runs)));
  out +=
      c.config_source.empty() ? "\n\n" : fmt::format(", thresholds from {}\n\n", report::MarkdownCode(c.config_source));
  if (c.different_hosts) {
    out +=
        "> **Different hosts**: these runs were measured on different hardware or software; every line compares across "
        "hosts.\n";
    for (const auto& d : c.host_differences) out += "> - " + MarkdownText(d) + "\n";
    out += "\n";
  }
  for (const auto& w : c.warnings) out += "> **Warning**: " + MarkdownText(w) + "\n\n";
  auto table = [&](const std::vector<Row>& rows) {
    std::string t =
        "| | benchmark | metric | base | head | change [interval] | threshold | |\n|---|---|---|--:|--:|--:|--:|---|\n";
    for (const auto& r : rows) {
      t += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", r.status, report::MarkdownCode(r.bench),
                       MarkdownText(r.metric), r.base, r.head, r.change, r.threshold, MarkdownText(r.note));
    }
    return t;
  };
  auto changed = Rows(c, false, false);
  if (!changed.empty()) out += table(changed) + "\n";
  const int64_t untouched = c.Count(ChangeClass::kUntouched);
  if (untouched > 0) {
    std::vector<Row> rest;
    for (const auto& r : Rows(c, true, false)) {
      if (r.cls == ChangeClass::kUntouched) rest.push_back(r);
    }
    out += fmt::format("<details><summary>{} untouched</summary>\n\n{}\n</details>\n\n", untouched, table(rest));
  }
  out += fmt::format(
      "<sub>Two-sample Hodges–Lehmann change with a {:g}% Mann–Whitney interval (the runs are not paired). "
      "regressed: the interval is above 0 and the change beyond the threshold; untouched: the interval "
      "lies within ±threshold.</sub>\n",
      c.confidence * 100);
  return out;
}

nlohmann::json CompareToJson(const SuiteComparison& c) {
  using nlohmann::json;
  auto num = [](double v) {
    return std::isfinite(v) ? json(v) : (std::isnan(v) ? json(nullptr) : json(v > 0 ? "inf" : "-inf"));
  };
  auto run = [](const RunRecord& r) {
    const Provenance& p = r.provenance;
    return json{{"id", r.id},
                {"commit", p.commit.empty() ? json(nullptr) : json(p.commit)},
                {"branch", p.branch.empty() ? json(nullptr) : json(p.branch)},
                {"dirty", p.dirty ? json(*p.dirty) : json(nullptr)},
                {"fingerprint_digest", r.fingerprint_digest}};
  };
  auto side = [&](const RunRecord& r, const std::vector<int64_t>& set_runs) {
    json j = run(r);
    j["runs"] = set_runs.empty() ? std::vector<int64_t>{r.id} : set_runs;
    return j;
  };
  json counts = json::object();
  for (ChangeClass k :
       {ChangeClass::kRegressed, ChangeClass::kImproved, ChangeClass::kUntouched, ChangeClass::kInconclusive,
        ChangeClass::kNew, ChangeClass::kMissing, ChangeClass::kFailed, ChangeClass::kSkipped}) {
    counts[ChangeClassName(k)] = c.Count(k);
  }
  json benches = json::array();
  for (const auto& b : c.benchmarks) {
    json metrics = json::array();
    for (const auto& m : b.metrics) {
      metrics.push_back({{"metric", m.metric},
                         {"unit", m.unit},
                         {"higher_is_better", m.higher_is_better},
                         {"class", ChangeClassName(m.cls)},
                         {"n_base", m.n_base},
                         {"n_head", m.n_head},
                         {"base_median", num(m.base_median)},
                         {"head_median", num(m.head_median)},
                         {"change", num(m.change)},
                         {"lo", num(m.lo)},
                         {"hi", num(m.hi)},
                         {"threshold", m.threshold},
                         {"threshold_source", m.threshold_source},
                         {"method", m.method},
                         {"reason", m.reason},
                         {"drift", num(m.drift)},
                         {"drift_runs", m.drift_runs},
                         {"drift_source", m.drift_source.empty() ? json(nullptr) : json(m.drift_source)},
                         // tare.compare/1 as first written: the drift when it came from reruns.
                         {"rerun_spread", m.drift_source == "reruns" ? num(m.drift) : json(nullptr)},
                         {"rerun_runs", m.drift_source == "reruns" ? m.drift_runs : 0}});
    }
    benches.push_back(
        {{"name", b.name}, {"class", ChangeClassName(b.cls)}, {"reason", b.reason}, {"metrics", metrics}});
  }
  return {{"schema", kCompareJsonSchema},
          {"base", side(c.base, c.base_runs)},
          {"head", side(c.head, c.head_runs)},
          {"confidence", c.confidence},
          {"config", c.config_source.empty() ? json(nullptr) : json(c.config_source)},
          {"different_hosts", c.different_hosts},
          {"host_differences", c.host_differences},
          {"warnings", c.warnings},
          {"headline", c.Headline()},
          {"counts", counts},
          {"benchmarks", benches}};
}

std::string RenderCompareCsv(const SuiteComparison& c) {
  using report::CsvField;
  std::string out =
      "benchmark,metric,class,base_median,head_median,change,lo,hi,threshold,n_base,n_head,method,reason\n";
  for (const auto& b : c.benchmarks) {
    if (b.metrics.empty()) {
      out += fmt::format("{},,{},,,,,,,,,,{}\n", CsvField(b.name), ChangeClassName(b.cls), CsvField(b.reason));
      continue;
    }
    for (const auto& m : b.metrics) {
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", CsvField(b.name), CsvField(m.metric),
                         ChangeClassName(m.cls), Num(m.base_median), Num(m.head_median), Num(m.change), Num(m.lo),
                         Num(m.hi), Num(m.threshold), m.n_base, m.n_head, m.method,
                         CsvField(m.reason.empty() ? b.reason : m.reason));
    }
  }
  return out;
}

}  // namespace tare::compare
