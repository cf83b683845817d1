// The ledger's view of a living suite (campaign/suite_diff.h): the benchmarks base and a head do not
// share — new ones with their figures and no verdict, missing ones listed — as a banner under the
// title, a section after the broken cells, and lines of the terminal summary.
#include <fmt/core.h>

#include <algorithm>
#include <set>

#include "base/terminal_text.h"
#include "report/escape.h"
#include "report/ledger.h"
#include "report/ledger_sections.h"

namespace tare::report::ledger_detail {
namespace {

size_t CountOf(const AbReport& r, SuiteChange c) {
  return static_cast<size_t>(
      std::count_if(r.suite.begin(), r.suite.end(), [c](const AbSuiteEntry& e) { return e.change == c; }));
}

std::string Heads(const AbReport& r, const std::vector<std::string>& heads) {
  std::string out;
  for (size_t i = 0; i < heads.size(); ++i) out += (i ? ", " : "") + ArmLabel(r, heads[i]);
  return out;
}

// "1.20 ms [1.10 ms, 1.31 ms], 5 samples" or, for one sample, its value.
std::string FigureText(const AbSuiteFigure& f) {
  if (f.samples == 1) return fmt::format("{}, 1 sample", Value(f.median, f.unit));
  return fmt::format("{} [{}, {}], {} samples", Value(f.median, f.unit), Value(f.min, f.unit), Value(f.max, f.unit),
                     f.samples);
}

}  // namespace

std::string SuiteBanner(const AbReport& r) {
  if (r.suite.empty()) return "";
  const size_t added = CountOf(r, SuiteChange::kNew), missing = CountOf(r, SuiteChange::kMissing);
  std::vector<std::string> parts;
  if (added > 0)
    parts.push_back(fmt::format("{} benchmark{} new (measured, no verdict)", added, added == 1 ? "" : "s"));
  if (missing > 0) parts.push_back(fmt::format("{} missing (not compared)", missing));
  std::string what;
  for (size_t i = 0; i < parts.size(); ++i) what += (i ? ", " : "") + parts[i];
  return fmt::format(
      "> **SUITE CHANGED{}:** {}; the benchmarks both sides have are the cells. {}\"The suite changed\" below "
      "lists them.\n\n",
      r.strict_suite ? " (--strict-suite: exit 4)" : "", what,
      r.strict_suite ? "" : "This does not change the exit status (`--strict-suite` makes it 4). ");
}

void SuiteChanges(const AbReport& r, std::vector<LedgerBlock>& blocks) {
  if (r.suite.empty()) return;
  std::vector<std::string> metrics;  // in the order the figures name them
  for (const auto& e : r.suite) {
    for (const auto& f : e.figures) {
      if (std::find(metrics.begin(), metrics.end(), f.metric) == metrics.end()) metrics.push_back(f.metric);
    }
  }
  std::string head =
      "### The suite changed\n\n"
      "Benchmarks that base and a head do not share. Nothing pairs them, so they get no verdict: a new one "
      "was measured in the heads that have it (median [least, greatest] of its samples), a missing one not at "
      "all. A benchmark renamed shows as one missing and one new.\n\n| benchmark | change | head |";
  std::string rule = "|---|---|---|";
  const bool no_figures = metrics.empty();  // nothing measured: one column says why
  if (no_figures) {
    head += " figures |";
    rule += "---|";
  }
  for (const auto& m : metrics) {
    head += " " + MarkdownText(m) + " |";
    rule += "---|";
  }
  head += "\n" + rule + "\n";
  LedgerBlock b{.head = head, .tail = "\n", .rank = 3, .cut_rows = true, .row_noun = "benchmarks"};
  for (const auto& e : r.suite) {
    if (e.change == SuiteChange::kMissing) {
      std::string row =
          fmt::format("| {} | **missing** | not in {} |", MarkdownCode(e.benchmark), MarkdownText(Heads(r, e.heads)));
      for (size_t i = 0; i < std::max<size_t>(metrics.size(), 1); ++i) row += " — |";
      b.rows.push_back(row + "\n");
      continue;
    }
    for (const auto& h : e.heads) {
      std::string row = fmt::format("| {} | **new** | {} |", MarkdownCode(e.benchmark), MarkdownText(ArmLabel(r, h)));
      for (const auto& m : metrics) {
        auto f = std::find_if(e.figures.begin(), e.figures.end(),
                              [&](const AbSuiteFigure& x) { return x.head == h && x.metric == m; });
        // Figures are tare's own text (numbers and a unit from the metric catalogue): not escaped.
        row += " " +
               (f != e.figures.end() ? FigureText(*f)
                : !e.error.empty()   ? "not measured: " + MarkdownText(e.error)
                                     : std::string("—")) +
               " |";
      }
      if (no_figures)
        row += " " + (e.error.empty() ? std::string("—") : "not measured: " + MarkdownText(e.error)) + " |";
      b.rows.push_back(row + "\n");
    }
  }
  b.stand_in = fmt::format("_The suite changed: {} benchmarks new or missing, left out for size._\n\n", r.suite.size());
  blocks.push_back(std::move(b));
}

std::string SuiteSummaryLines(const AbReport& r) {
  std::string out;
  for (const auto& e : r.suite) {
    if (e.change == SuiteChange::kMissing) {
      out += fmt::format("  missing  {}  not in {}: not compared\n", SingleLineText(e.benchmark),
                         SingleLineText(Heads(r, e.heads)));
      continue;
    }
    std::string figures;
    for (const auto& f : e.figures) {
      figures += fmt::format("{}{}{} {}", figures.empty() ? "" : "; ",
                             e.heads.size() > 1 ? ArmLabel(r, f.head) + " " : "", f.metric, FigureText(f));
    }
    if (figures.empty()) figures = e.error.empty() ? "no figures" : "not measured: " + e.error;
    out += fmt::format("  new      {}  in {}: {} (no verdict)\n", SingleLineText(e.benchmark),
                       SingleLineText(Heads(r, e.heads)), SingleLineText(figures));
  }
  return out;
}

}  // namespace tare::report::ledger_detail
