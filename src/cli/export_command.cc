#include "cli/commands.h"

#include <fmt/format.h>

#include <ctime>
#include <filesystem>
#include <memory>

#include "base/files.h"
#include "base/json_text.h"
#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/flag_checks.h"
#include "base/output_path.h"
#include "bundle/run_document.h"
#include "store/store.h"
#include "store/transfer.h"

namespace tare::cli {
namespace {

struct ExportOptions {
  std::string run = "latest";
  std::string format = "json";
  std::string store_path = DefaultStorePath();
  std::string output;
};

StatusOr<int> Export(const ExportOptions& o) {
  if (o.format != "json") {
    return Status::InvalidArgument(fmt::format("--format {} is not supported; use --format json", o.format));
  }
  if (Status s = RequireStore(o.store_path); !s.ok()) return s;
  if (o.output != "-") {
    if (Status s = CheckOutputPath("--output", o.output, store::StoreFiles(o.store_path)); !s.ok()) return s;
  }
  auto store = store::Store::OpenForReading(o.store_path);
  if (!store.ok()) return store.status();
  auto id = (*store)->ResolveRun(o.run);
  if (!id.ok()) return id.status();
  auto full = store::ReadFullRun(**store, *id);
  if (!full.ok()) return full.status();
  std::string text = DumpJson(bundle::FullRunToJson(*full, bundle::ArtifactContent::kInline), 2) + "\n";
  if (o.output.empty() || o.output == "-") {
    fmt::print("{}", text);
    return kExitOk;
  }
  Status w = WriteFileAtomic(o.output, text);
  if (!w.ok()) return w;
  return kExitOk;
}

StatusOr<int> ListRuns(const std::string& store_path, int limit) {
  if (Status s = RequireStore(store_path); !s.ok()) return s;
  auto store = store::Store::OpenForReading(store_path);
  if (!store.ok()) return store.status();
  auto runs = (*store)->ListRuns(limit);
  if (!runs.ok()) return runs.status();
  // Columns sized to their content: branch names and tags are as long as users make them.
  struct Row {
    std::string id, kind, status, when, code, cmd;
  };
  std::vector<Row> rows;
  for (const auto& r : *runs) {
    std::time_t t = static_cast<std::time_t>(r.started_unix_ns / 1000000000);
    char when[32];
    std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", std::gmtime(&t));
    std::string cmd;
    for (const auto& a : r.command_line) cmd += (cmd.empty() ? "" : " ") + a;
    // Where the code came from: "main@1a2b3c4d5e6f+" (+ = uncommitted changes), tags after.
    const Provenance& p = r.provenance;
    std::string code = p.branch;
    if (!p.commit.empty()) code += (code.empty() ? "" : "@") + p.commit.substr(0, 12);
    if (p.dirty && *p.dirty) code += "+";
    for (const auto& [k, v] : p.tags) code += (code.empty() ? "" : " ") + k + "=" + v;
    if (code.empty()) code = "-";
    rows.push_back({std::to_string(r.id), RunKindName(r.kind), RunStatusName(r.status), when, SingleLineText(code),
                    SingleLineText(cmd)});
  }
  size_t wid = 2, wkind = 4, wstatus = 6, wcode = 4;
  for (const auto& r : rows) {
    wid = std::max(wid, r.id.size());
    wkind = std::max(wkind, r.kind.size());
    wstatus = std::max(wstatus, r.status.size());
    wcode = std::max(wcode, r.code.size());
  }
  fmt::print("{:>{}}  {:<{}}  {:<{}}  {:<19}  {:<{}}  {}\n", "id", wid, "kind", wkind, "status", wstatus,
             "started (UTC)", "code", wcode, "command");
  for (const auto& r : rows) {
    fmt::print("{:>{}}  {:<{}}  {:<{}}  {:<19}  {:<{}}  {}\n", r.id, wid, r.kind, wkind, r.status, wstatus, r.when,
               r.code, wcode, r.cmd);
  }
  return kExitOk;
}

}  // namespace

void AddExportCommand(CLI::App& app, int* exit_code) {
  auto opts = std::make_shared<ExportOptions>();
  CLI::App* sub = app.add_subcommand("export", "Write everything stored for a run as JSON");
  sub->footer(R"(
The JSON (schema tare.run/2, documented in docs/json.md) holds everything the store keeps for the
run: its options, tare's version and command line, provenance, the host fingerprint, each
executable's sha256 and build facts, every sample of every arm with every metric value (failed
samples too, with exit status and stderr tail; samples a resume set aside flagged "discarded"),
notes, kept profiles (base64), per-arm summaries (base, head and null are never pooled), and for a
`tare ab` cohort the campaign: its text, lock, cells, the verdicts of every look, gates and bounds.
`tare import` loads it into another store; bytes that are not UTF-8 are kept as {"base64": ...}.

Examples:
  tare export --run latest --format json > run.json
  tare export --run 12 -o run12.json
  tare import run12.json --store other/.tare/tare.db)");
  sub->add_option("--run", opts->run,
                  "'latest' (default), a run id from `tare runs`, commit:HEX, branch:NAME, tag:KEY=VALUE, or a bare "
                  "branch/tag/commit");
  sub->add_option("--format", opts->format, "json (default)");
  sub->add_option("--store", opts->store_path, kStoreHelp);
  sub->add_option("-o,--output", opts->output, "Write to FILE instead of stdout (never the store)");
  sub->callback([opts, exit_code]() { *exit_code = Finish(Export(*opts)); });
}

void AddRunsCommand(CLI::App& app, int* exit_code) {
  auto store_path = std::make_shared<std::string>(DefaultStorePath());
  auto limit = std::make_shared<int>(20);
  CLI::App* sub = app.add_subcommand("runs", "List the runs in the store, newest first");
  sub->add_option("--store", *store_path, kStoreHelp);
  sub->add_option("--limit", *limit, "How many runs to list, at least 1 (default 20)")->check(WholeNumberAtLeast(1));
  sub->footer(R"(
One line per run: its id, kind, status (complete, interrupted, ...), when it started, the code it
measured (branch@commit, + for uncommitted changes) and the command line. An id names the run in
export, compare, report, bundle.

Examples:
  tare runs                                   the newest 20 runs of .tare/tare.db
  tare runs --limit 100 --store ci/tare.db    more runs, of another store
  tare export --run 12                        then everything stored for one of them)");
  sub->callback([store_path, limit, exit_code]() { *exit_code = Finish(ListRuns(*store_path, *limit)); });
}

}  // namespace tare::cli
