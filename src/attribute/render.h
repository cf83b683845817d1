// The outputs of `tare attribute`: a console table sized to its content, JSON (schema
// tare.attribute/1, docs/attribute.md) and a Markdown section a ledger can include.
//
// Function names, object and file paths and disassembly come from the programs under test (a pull
// request's head binary chooses its own symbol names), so every one is escaped for its format:
// SingleLineText on the console, MarkdownText / MarkdownCode in Markdown (and a code fence longer
// than any backtick run inside it), DumpJson for JSON.
//
// Pure functions.
#pragma once

#include <optional>
#include <string>

#include "attribute/attribution.h"
#include "attribute/symbol_check.h"

namespace tare::attribute {

struct AttributionReport {
  AttributionResult result;
  std::string base_label;  // where each side came from: a path, or "run 12 (base), cell parse"
  std::string head_label;
  size_t top = 20;  // rows shown
  std::optional<AsmComparison> asm_comparison;
};

std::string RenderConsole(const AttributionReport& report);
std::string RenderJson(const AttributionReport& report);
std::string RenderMarkdown(const AttributionReport& report);

// "inlined into Work(int)" / "no longer inlined (out of Work(int))", unescaped.
std::string InliningSummary(const InliningFinding& f);

}  // namespace tare::attribute
