#include "cli/attribute_command.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "attribute/attribution.h"
#include "attribute/binutils.h"
#include "attribute/render.h"
#include "attribute/stored_profiles.h"
#include "attribute/symbol_check.h"
#include "base/files.h"
#include "base/sha256.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/flag_checks.h"
#include "cli/output_path.h"
#include "instrument/callgrind_profile.h"
#include "report/ab_report.h"
#include "report/escape.h"
#include "store/store.h"
#include <nlohmann/json.hpp>

namespace tare::cli {
namespace {

using attribute::ProfileFile;
using instrument::Profile;

struct AttributeFlags {
  std::vector<std::string> files;
  std::string run;
  std::string base_run;
  std::string head_run;
  std::string cell;
  std::string event = "Ir";
  int top = 20;
  std::string asm_function;
  std::string base_exe;
  std::string head_exe;
  std::string json;
  std::string markdown;
  std::string store_path = DefaultStorePath();
};

// One side's input: its parts, a label for the output, and the executable if known.
struct Side {
  std::vector<Profile> parts;
  std::string label;
  std::string executable;      // "" = unknown
  std::string exe_problem;     // why there is none, for the notes
};

StatusOr<std::vector<Profile>> ReadProfileFile(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    return Status::NotFound(fmt::format("profile '{}' does not exist; check the path", path));
  }
  auto parts = instrument::ReadCallgrindProfile(path);
  if (!parts.ok()) {
    return Status::InvalidArgument(fmt::format(
        "'{}' is not a callgrind profile this tare can read ({}); give files written by valgrind "
        "--tool=callgrind (callgrind.out.<pid>)",
        path, parts.status().message()));
  }
  if (parts->empty()) {
    return Status::InvalidArgument(fmt::format("'{}' holds no callgrind profile part", path));
  }
  return parts;
}

// The program a profile ran: the first word of its "cmd:" line, when that file exists.
std::string ExecutableOf(const std::vector<Profile>& parts) {
  for (const auto& p : parts) {
    std::string first = p.cmd.substr(0, p.cmd.find(' '));
    if (!first.empty() && std::filesystem::is_regular_file(first)) return first;
  }
  return "";
}

Status RequireSimStore(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    return Status::NotFound(fmt::format(
        "no store at '{}'; measure with `tare ab --instrument sim` or `tare run --instrument sim` first, or "
        "point to one with --store PATH",
        path));
  }
  return Status::Ok();
}

// The executable recorded for `role`, if it is still there and unchanged.
void SetExecutable(const RunData& data, const std::string& role, Side* side) {
  for (const auto& e : data.executables) {
    if (e.role != role) continue;
    auto sha = Sha256File(e.path);
    if (!sha.ok()) {
      side->exe_problem = fmt::format("the {} executable '{}' is gone", role, e.path);
    } else if (*sha != e.sha256) {
      side->exe_problem = fmt::format("the {} executable '{}' changed since run {}", role, e.path, data.run.id);
    } else {
      side->executable = e.path;
    }
    return;
  }
  side->exe_problem = fmt::format("run {} records no {} executable", data.run.id, role);
}

// The measured parts of one benchmark and arm ("" in a plain run) of a stored run.
StatusOr<std::vector<Profile>> StoredParts(store::Store& store, const RunData& data, const BenchmarkRecord& bench,
                                           const std::string& arm) {
  TARE_ASSIGN_OR_RETURN(auto artifacts, store.ArtifactsOf(data.run.id));
  const std::string prefix = (arm.empty() ? "" : arm + "/") + "callgrind/";
  std::vector<ProfileFile> files;
  bool any_profile = false;
  for (const auto& a : artifacts) {
    if (a.name.find("callgrind/") != std::string::npos) any_profile = true;
    if (a.benchmark_id != bench.id || a.name.rfind(prefix, 0) != 0) continue;
    TARE_ASSIGN_OR_RETURN(std::string content, store.LoadArtifact(data.run.id, a.benchmark_id, a.name));
    files.push_back({a.name, std::move(content)});
  }
  if (!any_profile) {
    return Status::FailedPrecondition(fmt::format(
        "run {} has no callgrind profiles: measure with --instrument sim", data.run.id));
  }
  if (files.empty()) {
    return Status::FailedPrecondition(fmt::format(
        "run {} kept no callgrind profile for '{}'{} (no sample of it succeeded)", data.run.id, bench.name,
        arm.empty() ? "" : " in arm " + arm));
  }
  auto parts = attribute::MeasuredParts(files, bench.kind);
  if (!parts.ok()) {
    return Status::FailedPrecondition(fmt::format("run {}: {}", data.run.id, parts.status().message()));
  }
  return parts;
}

std::string ListNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

struct Loaded {
  Side base;
  Side head;
};

// The base and `head_arm` sides of one cell of a loaded `tare ab` cohort.
StatusOr<Loaded> LoadCohortCell(store::Store& store, const RunData& data, const std::string& cell_name,
                                const std::string& head_arm) {
  const int64_t id = data.run.id;
  TARE_ASSIGN_OR_RETURN(auto cells, store.CellsOf(id));
  std::vector<std::string> names;
  for (const auto& c : cells) names.push_back(c.name);
  const CellRecord* cell = nullptr;
  if (cell_name.empty()) {
    if (cells.size() != 1) {
      return Status::InvalidArgument(
          fmt::format("run {} has {} cells; choose one with --cell NAME: {}", id, cells.size(), ListNames(names)));
    }
    cell = &cells[0];
  } else {
    for (const auto& c : cells) {
      if (c.name == cell_name) cell = &c;
    }
    if (cell == nullptr) {
      return Status::InvalidArgument(
          fmt::format("run {} has no cell '{}'; its cells are: {}", id, cell_name, ListNames(names)));
    }
  }
  const BenchmarkRecord* bench = nullptr;
  for (const auto& b : data.benchmarks) {
    if (b.id == cell->benchmark_id) bench = &b;
  }
  if (bench == nullptr) return Status::DataLoss(fmt::format("run {}: cell '{}' has no benchmark", id, cell->name));
  Loaded out;
  TARE_ASSIGN_OR_RETURN(out.base.parts, StoredParts(store, data, *bench, "base"));
  TARE_ASSIGN_OR_RETURN(out.head.parts, StoredParts(store, data, *bench, head_arm));
  out.base.label = fmt::format("run {} base, cell {}", id, cell->name);
  out.head.label = fmt::format("run {} {}, cell {}", id, head_arm, cell->name);
  SetExecutable(data, "base", &out.base);
  SetExecutable(data, head_arm, &out.head);
  return out;
}

StatusOr<Loaded> LoadCohort(const AttributeFlags& f) {
  TARE_RETURN_IF_ERROR(RequireSimStore(f.store_path));
  TARE_ASSIGN_OR_RETURN(auto store, store::Store::OpenForReading(f.store_path));
  TARE_ASSIGN_OR_RETURN(int64_t id, store->ResolveRun(f.run));
  TARE_ASSIGN_OR_RETURN(RunData data, store->LoadRun(id));
  if (data.run.kind != "ab") {
    return Status::InvalidArgument(fmt::format(
        "run {} is a `tare {}`, not a `tare ab` cohort, so it has no base and head arms; compare two "
        "runs with --base-run A --head-run B --cell NAME",
        id, data.run.kind));
  }
  return LoadCohortCell(*store, data, f.cell, "head");
}

StatusOr<Side> LoadRunSide(store::Store& store, const std::string& selector, const std::string& cell,
                           const std::string& role) {
  TARE_ASSIGN_OR_RETURN(int64_t id, store.ResolveRun(selector));
  TARE_ASSIGN_OR_RETURN(RunData data, store.LoadRun(id));
  if (data.run.kind != "run") {
    return Status::InvalidArgument(fmt::format(
        "run {} (--{}-run) is a `tare {}`, not a `tare run`; for a cohort use --run {} --cell NAME", id, role,
        data.run.kind, id));
  }
  std::vector<std::string> names;
  const BenchmarkRecord* bench = nullptr;
  for (const auto& b : data.benchmarks) {
    names.push_back(b.name);
    if (b.name == cell || (cell.empty() && data.benchmarks.size() == 1)) bench = &b;
  }
  if (bench == nullptr) {
    return Status::InvalidArgument(cell.empty() ? fmt::format("run {} has {} benchmarks; choose one with --cell NAME: {}",
                                                              id, names.size(), ListNames(names))
                                                : fmt::format("run {} has no benchmark '{}'; its benchmarks are: {}", id,
                                                              cell, ListNames(names)));
  }
  Side side;
  TARE_ASSIGN_OR_RETURN(side.parts, StoredParts(store, data, *bench, ""));
  side.label = fmt::format("run {}, {}", id, bench->name);
  SetExecutable(data, "target", &side);
  return side;
}

StatusOr<Loaded> Load(const AttributeFlags& f) {
  const bool files = !f.files.empty();
  const bool cohort = !f.run.empty();
  const bool runs = !f.base_run.empty() || !f.head_run.empty();
  if (files + cohort + runs != 1) {
    return Status::InvalidArgument(
        "give two profile files, or --run ID --cell NAME (a `tare ab --instrument sim` cohort), or --base-run A "
        "--head-run B --cell NAME (two `tare run --instrument sim` runs); see `tare attribute --help`");
  }
  if (files) {
    if (f.files.size() != 2) {
      return Status::InvalidArgument(fmt::format(
          "give exactly two profiles, base then head ({} given)", f.files.size()));
    }
    if (!f.cell.empty()) return Status::InvalidArgument("--cell needs --run or --base-run/--head-run, not files");
    Loaded out;
    TARE_ASSIGN_OR_RETURN(out.base.parts, ReadProfileFile(f.files[0]));
    TARE_ASSIGN_OR_RETURN(out.head.parts, ReadProfileFile(f.files[1]));
    out.base.label = f.files[0];
    out.head.label = f.files[1];
    out.base.executable = ExecutableOf(out.base.parts);
    out.head.executable = ExecutableOf(out.head.parts);
    return out;
  }
  if (cohort) return LoadCohort(f);
  if (f.base_run.empty() || f.head_run.empty()) {
    return Status::InvalidArgument("give both --base-run and --head-run");
  }
  TARE_RETURN_IF_ERROR(RequireSimStore(f.store_path));
  TARE_ASSIGN_OR_RETURN(auto store, store::Store::OpenForReading(f.store_path));
  Loaded out;
  TARE_ASSIGN_OR_RETURN(out.base, LoadRunSide(*store, f.base_run, f.cell, "base"));
  TARE_ASSIGN_OR_RETURN(out.head, LoadRunSide(*store, f.head_run, f.cell, "head"));
  return out;
}

// The attribution of `head` against `base`: the event's change per function, inlining checked in
// the symbol tables when both executables are known, and the asm diff of `asm_function` if given.
StatusOr<attribute::AttributionReport> MakeReport(const Side& base, const Side& head, const std::string& event,
                                                  size_t top, const std::string& asm_function) {
  TARE_ASSIGN_OR_RETURN(auto result, attribute::Attribute(base.parts, head.parts, {.event = event}));
  attribute::AttributionReport report;
  report.result = std::move(result);
  report.base_label = base.label;
  report.head_label = head.label;
  report.top = top;

  const bool have_exes = !base.executable.empty() && !head.executable.empty();
  std::unique_ptr<attribute::Binutils> tools;
  if (have_exes) {
    auto started = attribute::Binutils::Start();
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
      attribute::CheckInliningSymbols(tools->Symbols(base.executable), tools->Symbols(head.executable),
                                      &report.result);
    } else {
      std::string why = !base.exe_problem.empty() ? base.exe_problem
                        : !head.exe_problem.empty() ? head.exe_problem
                                                    : "the executables are unknown (give --base-exe and --head-exe)";
      Status none = Status::NotFound(why);
      attribute::CheckInliningSymbols(none, none, &report.result);
    }
  }
  if (!asm_function.empty()) {
    if (!tools) {
      std::string why = !base.exe_problem.empty() ? base.exe_problem : head.exe_problem;
      return Status::InvalidArgument(fmt::format(
          "--asm needs both executables{}; give --base-exe PATH and --head-exe PATH",
          why.empty() ? "" : " (" + why + ")"));
    }
    TARE_ASSIGN_OR_RETURN(auto a, attribute::CompareFunctionAsm(*tools, base.executable, head.executable, asm_function));
    report.asm_comparison = std::move(a);
  }

  return report;
}

int Attribute(const AttributeFlags& f) {
  const std::vector<KeptFile> kept = StoreFiles(f.store_path);
  if (f.json != "-") {
    if (Status s = CheckOutputPath("--json", f.json, kept); !s.ok()) return ReportError(s);
  }
  if (Status s = CheckOutputPath("--markdown", f.markdown, kept); !s.ok()) return ReportError(s);
  if (f.json == "-" && f.markdown == "-") {
    return ReportError(Status::InvalidArgument("--json - and --markdown - cannot both go to stdout"));
  }
  auto loaded = Load(f);
  if (!loaded.ok()) return ReportError(loaded.status());
  Side& base = loaded->base;
  Side& head = loaded->head;
  if (!f.base_exe.empty()) base.executable = f.base_exe;
  if (!f.head_exe.empty()) head.executable = f.head_exe;

  auto report = MakeReport(base, head, f.event, static_cast<size_t>(f.top), f.asm_function);
  if (!report.ok()) return ReportError(report.status());
  if (f.json != "-" && f.markdown != "-") fmt::print("{}", attribute::RenderConsole(*report));
  if (f.json == "-") fmt::print("{}", attribute::RenderJson(*report));
  if (f.markdown == "-") fmt::print("{}", attribute::RenderMarkdown(*report));
  if (!f.json.empty() && f.json != "-") {
    if (Status s = WriteFileAtomic(f.json, attribute::RenderJson(*report)); !s.ok()) return ReportError(s);
  }
  if (!f.markdown.empty() && f.markdown != "-") {
    if (Status s = WriteFileAtomic(f.markdown, attribute::RenderMarkdown(*report)); !s.ok()) return ReportError(s);
  }
  return kExitOk;
}

}  // namespace

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
    auto loaded = LoadCohortCell(store, *data, c.cell, c.head);
    if (!loaded.ok()) {
      out.problems.push_back(fmt::format("{}: {}", what, loaded.status().message()));
      continue;
    }
    loaded->head.label = fmt::format("run {} {}, cell {}", rep.run_id, label(c.head), c.cell);
    auto report = MakeReport(loaded->base, loaded->head, "Ir", top, "");
    if (!report.ok()) {
      out.problems.push_back(fmt::format("{}: {}", what, report.status().message()));
      continue;
    }
    out.markdown += fmt::format("\n### {} {}: {}\n\n", report::MarkdownCode(c.cell), report::MarkdownText(label(c.head)),
                                c.verdict == Verdict::kFail ? "FAIL" : "supported gain");
    // One level below this change's heading.
    std::string section = attribute::RenderMarkdown(*report);
    if (section.rfind("### ", 0) == 0) section.insert(0, "#");
    out.markdown += section;
    try {
      out.json.push_back({{"cell", c.cell}, {"head", c.head},
                          {"attribution", nlohmann::json::parse(attribute::RenderJson(*report))}});
    } catch (const nlohmann::json::exception& e) {
      out.problems.push_back(fmt::format("{}: the attribution's JSON did not read back ({})", what, e.what()));
    }
  }
  if (!out.markdown.empty() || !out.problems.empty()) {
    std::string section = fmt::format(
        "\n## Why it changed: the top {} functions per change (`tare attribute`, Ir)\n", top);
    for (const auto& p : out.problems) section += "\n> not attributed: " + report::MarkdownText(p) + "\n";
    out.markdown = section + out.markdown;
  }
  return out;
}

void AddAttributeCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<AttributeFlags>();
  CLI::App* sub = app.add_subcommand(
      "attribute", "Which functions a change in instructions came from (callgrind profiles, base vs head)");
  sub->footer(R"(
Per function: self and inclusive cost base -> head, calls, cost per call, the inclusive change
split into calls x per-call parts, and its share of the total change; sorted by |self change|
(the self changes sum to the total). Functions inlined into their caller (or no longer inlined)
are named, checked against the executables' symbol tables when they are known. docs/attribute.md.

Examples:
  tare attribute base/callgrind.out.123 head/callgrind.out.456
  tare attribute --run latest --cell 'BM_Compress/1'        a `tare ab --instrument sim` cohort
  tare attribute --run 12 --cell parse --asm 'json::Parser::value'
  tare attribute --base-run 3 --head-run 5 --cell X          two `tare run --instrument sim` runs
  tare attribute a.out b.out --event D1mr --top 10 --markdown attribution.md)");
  sub->add_option("profiles", f->files, "Two callgrind profiles: BASE HEAD (several parts in a file are summed)");
  sub->add_option("--run", f->run, "A `tare ab --instrument sim` run: 'latest' or an id from `tare runs`");
  sub->add_option("--base-run", f->base_run, "A `tare run --instrument sim` run for the base side");
  sub->add_option("--head-run", f->head_run, "A `tare run --instrument sim` run for the head side");
  sub->add_option("--cell", f->cell, "The cell (benchmark) to attribute; may be left out when there is one");
  sub->add_option("--event", f->event, "The callgrind event to attribute (default Ir): Ir, Dr, Dw, D1mr, ...");
  sub->add_option("--top", f->top, "Rows to show, at least 1 (default 20)")->check(WholeNumberAtLeast(1));
  sub->add_option("--asm", f->asm_function, "Diff this function's normalised assembly between the two executables");
  sub->add_option("--base-exe", f->base_exe, "The base executable (default: from the run, or the profile's cmd:)");
  sub->add_option("--head-exe", f->head_exe, "The head executable");
  sub->add_option("--json", f->json, "Write tare.attribute/1 JSON to FILE ('-' for stdout)");
  sub->add_option("--markdown", f->markdown, "Write a Markdown section to FILE ('-' for stdout)");
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->callback([f, exit_code]() { *exit_code = Attribute(*f); });
}

}  // namespace tare::cli
