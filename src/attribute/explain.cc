#include "attribute/explain.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "attribute/attribution.h"
#include "attribute/binutils.h"
#include "attribute/flame.h"
#include "attribute/symbol_check.h"
#include "base/json_read.h"
#include "report/escape.h"
#include "report/ledger.h"

namespace tare::attribute {

StatusOr<AttributionReport> Explain(const Side& base, const Side& head, const std::string& event, size_t top,
                                    const std::string& asm_function) {
  TARE_ASSIGN_OR_RETURN(auto result, Attribute(base.parts, head.parts, {.event = event}));
  AttributionReport report;
  report.result = std::move(result);
  report.base_label = base.label;
  report.head_label = head.label;
  report.top = top;

  const bool have_exes = !base.executable.empty() && !head.executable.empty();
  std::unique_ptr<Binutils> tools;
  if (have_exes) {
    auto started = Binutils::Start();
    if (!started.ok()) {
      if (!asm_function.empty()) return started.status();
      report.result.notes.push_back(fmt::format("symbol tables not checked: {}", started.status().message()));
    } else {
      tools = std::move(*started);
    }
  }
  bool any_finding = false;
  for (const auto& row : report.result.rows) any_finding = any_finding || row.inlining.has_value();
  if (any_finding) {
    if (tools) {
      CheckInliningSymbols(tools->Symbols(base.executable), tools->Symbols(head.executable), &report.result);
    } else {
      std::string why = !base.exe_problem.empty()   ? base.exe_problem
                        : !head.exe_problem.empty() ? head.exe_problem
                                                    : "the executables are unknown (give --base-exe and --head-exe)";
      Status none = Status::NotFound(why);
      CheckInliningSymbols(none, none, &report.result);
    }
  }
  if (!asm_function.empty()) {
    if (!tools) {
      std::string why = !base.exe_problem.empty() ? base.exe_problem : head.exe_problem;
      return Status::InvalidArgument(
          fmt::format("--asm needs both executables{}; give --base-exe PATH and --head-exe PATH",
                      why.empty() ? "" : " (" + why + ")"));
    }
    TARE_ASSIGN_OR_RETURN(auto a, CompareFunctionAsm(*tools, base.executable, head.executable, asm_function));
    report.asm_comparison = std::move(a);
  }
  return report;
}

CohortAttribution AttributeCohortChanges(store::Store& store, const report::AbReport& rep, size_t top) {
  CohortAttribution out;
  auto data = store.LoadRun(rep.run_id);
  if (!data.ok()) {
    out.problems.push_back(fmt::format("run {} could not be read back: {}", rep.run_id, data.status().message()));
    return out;
  }
  auto label = [&rep](const std::string& arm) {
    for (const auto& a : rep.arms) {
      if (a.name == arm && !a.source.empty()) {
        return fmt::format("{} ({})", arm, std::filesystem::path(a.source).filename().string());
      }
    }
    return arm;
  };
  for (const auto& c : rep.comparisons) {
    if (c.verdict != Verdict::kFail && !c.supported_gain) continue;
    ++out.changes;
    const std::string what = fmt::format("{} ({})", c.cell, label(c.head));
    auto loaded = SidesOfCohortCell(store, *data, c.cell, c.head);
    if (!loaded.ok()) {
      out.problems.push_back(fmt::format("{}: {}", what, loaded.status().message()));
      continue;
    }
    loaded->head.label = fmt::format("run {} {}, cell {}", rep.run_id, label(c.head), c.cell);
    auto report = Explain(loaded->base, loaded->head, "Ir", top, "");
    if (!report.ok()) {
      out.problems.push_back(fmt::format("{}: {}", what, report.status().message()));
      continue;
    }
    out.markdown +=
        fmt::format("\n### {} {}: {}\n\n", report::MarkdownCode(c.cell), report::MarkdownText(label(c.head)),
                    c.verdict == Verdict::kFail ? "FAIL" : "supported gain");
    // One level below this change's heading.
    std::string section = RenderMarkdown(*report);
    if (section.rfind("### ", 0) == 0) section.insert(0, "#");
    out.markdown += section;
    if (auto attribution = ParseJson(RenderJson(*report), "the attribution's JSON"); attribution.ok()) {
      out.json.push_back({{"cell", c.cell}, {"head", c.head}, {"attribution", std::move(*attribution)}});
    } else {
      out.problems.push_back(
          fmt::format("{}: the attribution's JSON did not read back ({})", what, attribution.status().message()));
    }
  }
  if (!out.markdown.empty() || !out.problems.empty()) {
    std::string section =
        fmt::format("\n## Why it changed: the top {} functions per change (`tare attribute`, Ir)\n", top);
    for (const auto& p : out.problems) section += "\n> not attributed: " + report::MarkdownText(p) + "\n";
    out.markdown = section + out.markdown;
  }
  return out;
}

std::vector<CohortFlame> FlameGraphsOfCohortChanges(store::Store& store, const report::AbReport& rep,
                                                    const RunData& run, std::vector<std::string>* problems) {
  std::vector<CohortFlame> out;
  for (const auto& c : rep.comparisons) {
    if (c.verdict != Verdict::kFail && !c.supported_gain) continue;
    const std::string head = report::ArmLabel(rep, c.head);
    auto loaded = SidesOfCohortCell(store, run, c.cell, c.head);
    if (!loaded.ok()) {
      problems->push_back(fmt::format("{} ({}): {}", c.cell, head, loaded.status().message()));
      continue;
    }
    auto tree = BuildFlameTree(loaded->base.parts, loaded->head.parts);
    if (!tree.ok()) {
      problems->push_back(fmt::format("{} ({}): {}", c.cell, head, tree.status().message()));
      continue;
    }
    const std::string what =
        fmt::format("{}, {}: {}", c.cell, head, c.verdict == Verdict::kFail ? "FAIL" : "supported gain");
    out.push_back(
        {c.cell, c.head,
         fmt::format("Where the instructions went, base → {}: the differential flame graph of {} (red: more in "
                     "head, blue: less; hover a frame for its numbers). docs/attribute.md, \"Flame graphs\".",
                     head, c.cell),
         RenderFlameSvg(*tree, what, "Ir", /*differential=*/true)});
  }
  return out;
}

}  // namespace tare::attribute
