#include "attribute/render.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "base/json_text.h"
#include "base/terminal_text.h"
#include "report/escape.h"

namespace tare::attribute {
namespace {

using report::MarkdownCode;
using report::MarkdownText;

// Costs are integers; per-call costs and split parts are shown with one decimal when they have a
// fraction. The range check comes first: a hostile profile can hold counts up to 2^64 - 1.
std::string Num(double v) {
  if (std::fabs(v) < 0x1p63 && v == std::trunc(v)) return fmt::format("{}", static_cast<int64_t>(v));
  return fmt::format("{:.1f}", v);
}
std::string Signed(double v) { return v > 0 ? "+" + Num(v) : Num(v); }
std::string Percent(double fraction) { return fmt::format("{:+.1f}%", 100 * fraction); }

std::string SideText(const SideCost& c, uint64_t SideCost::*field) {
  return c.present ? Num(static_cast<double>(c.*field)) : "-";
}
std::string PerCall(const SideCost& c) {
  auto v = c.PerCall();
  return v ? Num(std::round(*v * 10) / 10) : "-";
}
std::string Arrow(const std::string& a, const std::string& b, const char* arrow) { return a + arrow + b; }
std::string Opt(const std::optional<double>& v) { return v ? Signed(std::round(*v * 10) / 10) : "-"; }

// "libc.so.6" out of "/usr/lib/x86_64-linux-gnu/libc.so.6".
std::string Basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Names that more than one object defines: those rows show their object.
std::set<std::string> AmbiguousNames(const AttributionResult& r) {
  std::map<std::string, int> count;
  for (const auto& row : r.rows) ++count[row.name];
  std::set<std::string> out;
  for (const auto& [name, n] : count) {
    if (n > 1) out.insert(name);
  }
  return out;
}

std::string FunctionLabel(const FunctionRow& row, const std::set<std::string>& ambiguous) {
  std::string label = row.name;
  if (ambiguous.count(row.name) || row.name == kNoSymbol) label += " [" + Basename(row.object) + "]";
  if (row.presence != Presence::kBoth) label += fmt::format(" ({})", PresenceName(row.presence));
  return label;
}

// The top N rows, never one whose cost did not move.
size_t Shown(const AttributionReport& r) { return std::min(r.top, r.result.ChangedRows()); }

// `event` is escaped by the caller's format.
std::string ChangeLine(const AttributionResult& r, const std::string& event, const char* arrow) {
  const double pct = r.base_total == 0 ? 0 : r.total_delta / static_cast<double>(r.base_total);
  return fmt::format("{}: base {} {} head {}, change {} ({})", event, r.base_total, arrow, r.head_total,
                     Signed(r.total_delta), Percent(pct));
}

std::string Parts(size_t n) { return fmt::format("{} part{}", n, n == 1 ? "" : "s"); }

// "inlined into `Work()`" in Markdown.
std::string InliningMarkdown(const InliningFinding& f) {
  return f.kind == InliningFinding::Kind::kInlinedInto ? "inlined into " + MarkdownCode(f.caller)
                                                       : "no longer inlined (out of " + MarkdownCode(f.caller) + ")";
}

// "top 20 of 512 functions: their self changes sum to -119992 of the total -119997; the other rows
// -5 (0.0% of the total change); they hold 99.9% of all movement (sum of |self change|)".
std::string ExplainedLine(const AttributionReport& report) {
  const AttributionResult& r = report.result;
  const size_t shown = Shown(report);
  const double top = r.SelfDeltaOfTop(shown);
  const double rest = r.total_delta - top;
  std::string rest_share = r.total_delta == 0 ? ""
                                              : fmt::format(" ({:.1f}% of the total change)",
                                                            100 * std::fabs(rest) / std::fabs(r.total_delta));
  const size_t changed = r.ChangedRows();
  const std::string which =
      shown == changed
          ? (changed == 1 ? fmt::format("The one function that changed (of {})", r.rows.size())
                          : fmt::format("All {} functions that changed (of {})", changed, r.rows.size()))
          : fmt::format("The top {} of the {} functions that changed (of {})", shown, changed, r.rows.size());
  return fmt::format(
      "{}: self changes sum to {} of the total {}; the rows not shown {}{}. "
      "The rows shown hold {:.1f}% of all movement (sum of |self change|).",
      which, Signed(top), Signed(r.total_delta), Signed(rest), rest_share, 100 * r.GrossShareOfTop(shown));
}

std::string FindingText(const FunctionRow& row, const InliningFinding& f, const std::string& event, bool markdown) {
  auto name = [&](const std::string& s) { return markdown ? MarkdownCode(s) : SingleLineText(s); };
  const bool inlined = f.kind == InliningFinding::Kind::kInlinedInto;
  std::string text =
      fmt::format("{} was {} {}: the caller's self cost changed by {}, against {} expected from the calls that {}",
                  name(row.name), inlined ? "inlined into" : "no longer inlined, out of", name(f.caller),
                  Signed(f.caller_self_delta), Signed(f.expected), inlined ? "went away" : "appeared");
  // What a call cost: the part of F's cost the caller did not take in (inlined) or give out.
  if (f.calls > 0) {
    text += fmt::format("; {} {} {} per call × {} calls ({} in all){}", inlined ? "the calls cost" : "the calls add",
                        Signed(std::round(f.call_overhead * 10) / 10), markdown ? MarkdownText(event) : event, f.calls,
                        Signed(std::round(f.call_overhead * static_cast<double>(f.calls))),
                        f.within_tolerance ? ""
                        : (inlined ? f.caller_self_delta < 0 : f.caller_self_delta > 0)
                            ? ": the caller's self cost moved the same way as the function's (spilled registers "
                              "around the call, or other changes in the caller)"
                            : "");
  }
  std::string note = f.symbol_note.empty() ? "symbol tables not checked (no executables)" : f.symbol_note;
  return text + "; " + (markdown ? MarkdownText(note) : SingleLineText(note));
}

// A table with right-aligned columns, the last one left-aligned, each as wide as its content.
std::string Table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& r : rows) {
    width.resize(std::max(width.size(), r.size()));
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i) {
      if (i + 1 == r.size()) {
        line += r[i];
      } else {
        line += fmt::format("{:>{}}  ", r[i], width[i]);
      }
    }
    out += line + "\n";
  }
  return out;
}

// A Markdown code fence longer than any run of backticks in `lines`.
std::string Fence(const std::vector<std::string>& lines) {
  size_t longest = 0;
  for (const auto& l : lines) {
    size_t run = 0;
    for (char c : l) {
      run = c == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

std::vector<std::string> AsmLines(const AsmComparison& a) {
  std::vector<std::string> out;
  for (const auto& l : ChangedHunks(a.diff)) out.push_back(std::string(1, l.op) + " " + SingleLineText(l.text));
  return out;
}

std::string AsmHeadline(const AsmComparison& a) {
  return fmt::format("Assembly of {} (base {} bytes, {} normalised lines; head {} bytes, {} lines): ", a.function,
                     a.base_bytes, a.base_lines, a.head_bytes, a.head_lines);
}

size_t ChangedCount(const AsmComparison& a) {
  return static_cast<size_t>(
      std::count_if(a.diff.begin(), a.diff.end(), [](const DiffLine& l) { return l.op != ' '; }));
}

nlohmann::json SideJson(const SideCost& c) {
  nlohmann::json j = {
      {"present", c.present}, {"self", c.self}, {"inclusive", c.inclusive}, {"calls", c.calls}, {"file", c.file}};
  auto pc = c.PerCall();
  j["inclusive_per_call"] = pc ? nlohmann::json(*pc) : nlohmann::json(nullptr);
  return j;
}

// The cache columns (attribution.h, CacheCost): each a signed self change, base -> head.
const char* const kCacheHeads[] = {"est. cycles", "I1 misses", "D1 misses", "LL misses"};
std::vector<double> CacheDeltas(const CacheCost& b, const CacheCost& h) {
  auto d = [](uint64_t x, uint64_t y) { return static_cast<double>(y) - static_cast<double>(x); };
  return {std::round(h.est_cycles - b.est_cycles), d(b.i1_misses, h.i1_misses), d(b.d1_misses, h.d1_misses),
          d(b.ll_misses, h.ll_misses)};
}

// "est. cycles 2465946 -> 3681487 (+49.3%), I1 misses ..., D1 misses ..., LL misses ...".
std::string CacheLine(const AttributionResult& r, const char* arrow) {
  const CacheCost &b = r.base_cache_total, &h = r.head_cache_total;
  auto part = [&](const char* what, double x, double y) {
    return fmt::format("{} {} {} {} ({})", what, Num(std::round(x)), arrow, Num(std::round(y)),
                       x == 0 ? "n/a" : Percent((y - x) / x));
  };
  return part("est. cycles", b.est_cycles, h.est_cycles) + ", " +
         part("I1 misses", static_cast<double>(b.i1_misses), static_cast<double>(h.i1_misses)) + ", " +
         part("D1 misses", static_cast<double>(b.d1_misses), static_cast<double>(h.d1_misses)) + ", " +
         part("LL misses", static_cast<double>(b.ll_misses), static_cast<double>(h.ll_misses));
}

nlohmann::json CacheJson(const CacheCost& c) {
  return {
      {"i1_misses", c.i1_misses}, {"d1_misses", c.d1_misses}, {"ll_misses", c.ll_misses}, {"est_cycles", c.est_cycles}};
}

nlohmann::json OptJson(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

}  // namespace

std::string InliningSummary(const InliningFinding& f) {
  return f.kind == InliningFinding::Kind::kInlinedInto ? "inlined into " + f.caller
                                                       : "no longer inlined (out of " + f.caller + ")";
}

std::string RenderConsole(const AttributionReport& report) {
  const AttributionResult& r = report.result;
  std::string out = ChangeLine(r, SingleLineText(r.event), "->") + "\n";
  if (r.has_cache) out += "cache simulation: " + CacheLine(r, "->") + "\n";
  out += fmt::format("base: {} ({})\nhead: {} ({})\n\n", SingleLineText(report.base_label), Parts(r.base_parts),
                     SingleLineText(report.head_label), Parts(r.head_parts));
  const auto ambiguous = AmbiguousNames(r);
  std::vector<std::vector<std::string>> rows = {{"self change", "share"}};
  if (r.has_cache) rows[0].insert(rows[0].end(), std::begin(kCacheHeads), std::end(kCacheHeads));
  for (const char* h : {"self base -> head", "incl. base -> head", "calls base -> head", "incl./call base -> head",
                        "calls part", "per-call part", "function"}) {
    rows[0].push_back(h);
  }
  for (size_t i = 0; i < Shown(report); ++i) {
    const FunctionRow& row = r.rows[i];
    std::string label = FunctionLabel(row, ambiguous);
    if (row.inlining) label += "  <- " + InliningSummary(*row.inlining);
    rows.push_back({Signed(row.self_delta), r.total_delta == 0 ? "-" : Percent(row.share)});
    if (r.has_cache) {
      for (double d : CacheDeltas(row.base_cache, row.head_cache)) rows.back().push_back(Signed(d));
    }
    rows.back().insert(
        rows.back().end(),
        {Arrow(SideText(row.base, &SideCost::self), SideText(row.head, &SideCost::self), " -> "),
         Arrow(SideText(row.base, &SideCost::inclusive), SideText(row.head, &SideCost::inclusive), " -> "),
         Arrow(SideText(row.base, &SideCost::calls), SideText(row.head, &SideCost::calls), " -> "),
         Arrow(PerCall(row.base), PerCall(row.head), " -> "), Opt(row.calls_part), Opt(row.per_call_part),
         SingleLineText(label)});
  }
  out += Table(rows);
  out += "\n" + ExplainedLine(report) + "\n";
  out += "Self changes sum to the total; calls part + per-call part = the inclusive change (docs/attribute.md).\n";
  bool any = false;
  for (const auto& row : r.rows) {
    if (!row.inlining) continue;
    if (!any) out += "\nInlining:\n";
    any = true;
    out += "  " + FindingText(row, *row.inlining, SingleLineText(r.event), false) + "\n";
  }
  for (const auto& n : r.notes) out += "\nnote: " + SingleLineText(n) + "\n";
  if (report.asm_comparison) {
    const AsmComparison& a = *report.asm_comparison;
    out += "\n" + SingleLineText(AsmHeadline(a));
    if (a.identical) {
      out += "no difference (the code is the same; it may have moved)\n";
    } else {
      out += fmt::format("{} changed lines (- base, + head)\n", ChangedCount(a));
      for (const auto& l : AsmLines(a)) out += "  " + l + "\n";
    }
  }
  return out;
}

std::string RenderJson(const AttributionReport& report) {
  const AttributionResult& r = report.result;
  const size_t shown = Shown(report);
  nlohmann::json j;
  j["schema"] = "tare.attribute/1";
  j["event"] = r.event;
  j["base"] = {
      {"source", report.base_label}, {"parts", r.base_parts}, {"total", r.base_total}, {"events", r.base_events}};
  j["head"] = {
      {"source", report.head_label}, {"parts", r.head_parts}, {"total", r.head_total}, {"events", r.head_events}};
  j["total_delta"] = r.total_delta;
  j["cache"] = r.has_cache
                   ? nlohmann::json{{"base", CacheJson(r.base_cache_total)}, {"head", CacheJson(r.head_cache_total)}}
                   : nlohmann::json(nullptr);
  j["functions"] = r.rows.size();
  j["changed"] = r.ChangedRows();
  j["shown"] = {{"rows", shown},
                {"self_delta_sum", r.SelfDeltaOfTop(shown)},
                {"rest_self_delta", r.total_delta - r.SelfDeltaOfTop(shown)},
                {"gross_share", r.GrossShareOfTop(shown)}};
  auto finding = [](const InliningFinding& f) {
    const char* check = f.symbol_check == InliningFinding::SymbolCheck::kConfirmed      ? "confirmed"
                        : f.symbol_check == InliningFinding::SymbolCheck::kNotConfirmed ? "not_confirmed"
                                                                                        : "not_checked";
    return nlohmann::json{
        {"kind", f.kind == InliningFinding::Kind::kInlinedInto ? "inlined_into" : "no_longer_inlined"},
        {"caller", f.caller},
        {"caller_object", f.caller_object},
        {"expected", f.expected},
        {"caller_self_delta", f.caller_self_delta},
        {"calls", f.calls},
        {"call_overhead", f.call_overhead},
        {"within_tolerance", f.within_tolerance},
        {"symbol_check", check},
        {"symbol_note", f.symbol_note}};
  };
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < shown; ++i) {
    const FunctionRow& row = r.rows[i];
    nlohmann::json x = {{"object", row.object},
                        {"name", row.name},
                        {"presence", PresenceName(row.presence)},
                        {"base", SideJson(row.base)},
                        {"head", SideJson(row.head)},
                        {"self_delta", row.self_delta},
                        {"inclusive_delta", row.inclusive_delta},
                        {"calls_part", OptJson(row.calls_part)},
                        {"per_call_part", OptJson(row.per_call_part)},
                        {"share", row.share}};
    if (r.has_cache) x["cache"] = {{"base", CacheJson(row.base_cache)}, {"head", CacheJson(row.head_cache)}};
    x["inlining"] = row.inlining ? finding(*row.inlining) : nlohmann::json(nullptr);
    rows.push_back(std::move(x));
  }
  j["rows"] = std::move(rows);
  nlohmann::json inlining = nlohmann::json::array();
  for (const auto& row : r.rows) {
    if (!row.inlining) continue;
    nlohmann::json f = finding(*row.inlining);
    f["function"] = row.name;
    f["object"] = row.object;
    inlining.push_back(std::move(f));
  }
  j["inlining"] = std::move(inlining);
  j["notes"] = r.notes;
  if (report.asm_comparison) {
    const AsmComparison& a = *report.asm_comparison;
    nlohmann::json diff = nlohmann::json::array();
    for (const auto& l : a.diff) diff.push_back(std::string(1, l.op) + l.text);
    j["asm"] = {{"function", a.function},           {"base_symbol", a.base_symbol}, {"head_symbol", a.head_symbol},
                {"base_bytes", a.base_bytes},       {"head_bytes", a.head_bytes},   {"identical", a.identical},
                {"changed_lines", ChangedCount(a)}, {"diff", std::move(diff)}};
  }
  return DumpJson(j, 2) + "\n";
}

std::string RenderMarkdown(const AttributionReport& report) {
  const AttributionResult& r = report.result;
  std::string out = fmt::format("### tare attribute: {}\n\n", ChangeLine(r, MarkdownText(r.event), "→"));
  out += fmt::format("Base: {} ({}). Head: {} ({}).\n\n", MarkdownCode(report.base_label), Parts(r.base_parts),
                     MarkdownCode(report.head_label), Parts(r.head_parts));
  if (r.has_cache) out += "Cache simulation: " + CacheLine(r, "→") + ".\n\n";
  out += "| self change | share |";
  if (r.has_cache) {
    for (const char* h : kCacheHeads) out += fmt::format(" {} |", h);
  }
  out +=
      " self base → head | incl. base → head | calls base → head | incl./call base → head | calls part | "
      "per-call part | function |\n|---:|---:|";
  if (r.has_cache) out += "---:|---:|---:|---:|";
  out += "---:|---:|---:|---:|---:|---:|---|\n";
  const auto ambiguous = AmbiguousNames(r);
  for (size_t i = 0; i < Shown(report); ++i) {
    const FunctionRow& row = r.rows[i];
    std::string label = MarkdownCode(row.name);
    if (ambiguous.count(row.name)) label += " in " + MarkdownCode(Basename(row.object));
    if (row.presence != Presence::kBoth) label += fmt::format(" ({})", PresenceName(row.presence));
    if (row.inlining) label += " — " + InliningMarkdown(*row.inlining);
    out += fmt::format("| {} | {} |", Signed(row.self_delta), r.total_delta == 0 ? "—" : Percent(row.share));
    if (r.has_cache) {
      for (double d : CacheDeltas(row.base_cache, row.head_cache)) out += fmt::format(" {} |", Signed(d));
    }
    out += fmt::format(" {} → {} | {} → {} | {} → {} | {} → {} | {} | {} | {} |\n", SideText(row.base, &SideCost::self),
                       SideText(row.head, &SideCost::self), SideText(row.base, &SideCost::inclusive),
                       SideText(row.head, &SideCost::inclusive), SideText(row.base, &SideCost::calls),
                       SideText(row.head, &SideCost::calls), PerCall(row.base), PerCall(row.head), Opt(row.calls_part),
                       Opt(row.per_call_part), label);
  }
  out += "\n" + MarkdownText(ExplainedLine(report)) + "\n";
  bool any = false;
  for (const auto& row : r.rows) {
    if (!row.inlining) continue;
    if (!any) out += "\n**Inlining**\n\n";
    any = true;
    out += "- " + FindingText(row, *row.inlining, r.event, true) + "\n";
  }
  for (const auto& n : r.notes) out += "\n> " + MarkdownText(n) + "\n";
  if (report.asm_comparison) {
    const AsmComparison& a = *report.asm_comparison;
    out += "\n" + MarkdownText(AsmHeadline(a));
    if (a.identical) {
      out += "no difference.\n";
    } else {
      std::vector<std::string> lines = AsmLines(a);
      const std::string fence = Fence(lines);
      out += fmt::format("{} changed lines.\n\n{}diff\n", ChangedCount(a), fence);
      for (const auto& l : lines) out += l + "\n";
      out += fence + "\n";
    }
  }
  return out;
}

}  // namespace tare::attribute
