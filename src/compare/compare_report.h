// Renderings of a SuiteComparison: a short console summary (sized to its content, coloured on a
// terminal), Markdown for a pull request comment, JSON ("tare.compare/1", docs/json.md) and CSV.
// Benchmark and metric names come from the programs under test: each format escapes them
// (terminal controls made visible, Markdown and CSV quoted, JSON as strings).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "compare/compare.h"

namespace tare::compare {

struct ConsoleStyle {
  bool color = false;  // ANSI colours for the classes
  bool all = false;    // every benchmark, not only those that are not untouched
};

std::string RenderCompareConsole(const SuiteComparison& c, const ConsoleStyle& style);
std::string RenderCompareMarkdown(const SuiteComparison& c);
nlohmann::json CompareToJson(const SuiteComparison& c);
inline constexpr char kCompareJsonSchema[] = "tare.compare/1";
// One row per benchmark × metric (one per benchmark for new / missing / failed / skipped).
std::string RenderCompareCsv(const SuiteComparison& c);

// "+3.10% [+1.20%, +4.90%]", "0.00% (exact)", "—".
std::string FormatChange(const MetricChange& m);

}  // namespace tare::compare
