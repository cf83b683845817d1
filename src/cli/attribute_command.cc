#include "cli/commands.h"

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "attribute/explain.h"
#include "attribute/flame.h"
#include "attribute/inputs.h"
#include "attribute/render.h"
#include "base/files.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/flag_checks.h"
#include "base/output_path.h"
#include "store/store.h"

namespace tare::cli {
namespace {

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
  std::string flame;                   // --flame FILE.svg: the differential flame graph
  std::string flame_base, flame_head;  // each side's own flame graph
  std::string store_path = DefaultStorePath();
};

StatusOr<attribute::Sides> Load(const AttributeFlags& f) {
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
      return Status::InvalidArgument(
          fmt::format("give exactly two profiles, base then head ({} given)", f.files.size()));
    }
    if (!f.cell.empty()) return Status::InvalidArgument("--cell needs --run or --base-run/--head-run, not files");
    return attribute::SidesFromFiles(f.files[0], f.files[1]);
  }
  if (!cohort && (f.base_run.empty() || f.head_run.empty())) {
    return Status::InvalidArgument("give both --base-run and --head-run");
  }
  TARE_RETURN_IF_ERROR(attribute::RequireSimStore(f.store_path));
  TARE_ASSIGN_OR_RETURN(auto store, store::Store::OpenForReading(f.store_path));
  if (cohort) return attribute::SidesOfCohort(*store, f.run, f.cell);
  attribute::Sides out;
  TARE_ASSIGN_OR_RETURN(out.base, attribute::SideOfRun(*store, f.base_run, f.cell, "base"));
  TARE_ASSIGN_OR_RETURN(out.head, attribute::SideOfRun(*store, f.head_run, f.cell, "head"));
  return out;
}

StatusOr<int> Attribute(const AttributeFlags& f) {
  const std::vector<KeptFile> kept = store::StoreFiles(f.store_path);
  if (f.json != "-") {
    if (Status s = CheckOutputPath("--json", f.json, kept); !s.ok()) return s;
  }
  if (Status s = CheckOutputPath("--markdown", f.markdown, kept); !s.ok()) return s;
  if (Status s = CheckOutputPath("--flame", f.flame, kept); !s.ok()) return s;
  if (Status s = CheckOutputPath("--flame-base", f.flame_base, kept); !s.ok()) return s;
  if (Status s = CheckOutputPath("--flame-head", f.flame_head, kept); !s.ok()) return s;
  if (f.json == "-" && f.markdown == "-") {
    return Status::InvalidArgument("--json - and --markdown - cannot both go to stdout");
  }
  auto loaded = Load(f);
  if (!loaded.ok()) return loaded.status();
  attribute::Side& base = loaded->base;
  attribute::Side& head = loaded->head;
  if (!f.base_exe.empty()) base.executable = f.base_exe;
  if (!f.head_exe.empty()) head.executable = f.head_exe;

  auto report = attribute::Explain(base, head, f.event, static_cast<size_t>(f.top), f.asm_function);
  if (!report.ok()) return report.status();
  if (f.json != "-" && f.markdown != "-") fmt::print("{}", attribute::RenderConsole(*report));
  if (f.json == "-") fmt::print("{}", attribute::RenderJson(*report));
  if (f.markdown == "-") fmt::print("{}", attribute::RenderMarkdown(*report));
  if (!f.json.empty() && f.json != "-") {
    if (Status s = WriteFileAtomic(f.json, attribute::RenderJson(*report)); !s.ok()) return s;
  }
  if (!f.markdown.empty() && f.markdown != "-") {
    if (Status s = WriteFileAtomic(f.markdown, attribute::RenderMarkdown(*report)); !s.ok()) return s;
  }
  if (!f.flame.empty()) {
    auto tree = attribute::BuildFlameTree(base.parts, head.parts, attribute::FlameOptions{.event = f.event});
    if (!tree.ok()) return tree.status();
    const std::string svg = attribute::RenderFlameSvg(
        *tree, fmt::format("tare attribute: {} → {}", base.label, head.label), f.event, /*differential=*/true);
    if (Status s = WriteFileAtomic(f.flame, svg); !s.ok()) return s;
  }
  for (const auto& [path, side] : {std::pair{&f.flame_base, &base}, {&f.flame_head, &head}}) {
    if (path->empty()) continue;
    auto tree = attribute::BuildFlameTree(side->parts, attribute::FlameOptions{.event = f.event});
    if (!tree.ok()) return tree.status();
    const std::string svg = attribute::RenderFlameSvg(*tree, fmt::format("tare attribute: {}", side->label), f.event,
                                                      /*differential=*/false);
    if (Status s = WriteFileAtomic(*path, svg); !s.ok()) return s;
  }
  return kExitOk;
}

}  // namespace

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
  tare attribute a.out b.out --event D1mr --top 10 --markdown attribution.md
  tare attribute base.callgrind head.callgrind --flame change.svg   where the change is, drawn)");
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
  sub->add_option("--flame", f->flame,
                  "Write the differential flame graph base -> head to FILE (SVG, self-contained): width the cost, "
                  "red more in head, blue less");
  sub->add_option("--flame-base", f->flame_base, "Write base's own flame graph to FILE (SVG)");
  sub->add_option("--flame-head", f->flame_head, "Write head's own flame graph to FILE (SVG)");
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->callback([f, exit_code]() { *exit_code = Finish(Attribute(*f)); });
}

}  // namespace tare::cli
