#include "cli/commands.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "base/files.h"
#include "proc/spawner.h"
#include "base/json_read.h"
#include "base/terminal_text.h"
#include "bundle/opened_bundle.h"
#include "bundle/run_document.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "store/store.h"
#include "store/transfer.h"

namespace tare::cli {
namespace {

struct ImportOptions {
  std::string file;
  std::string store_path = DefaultStorePath();
};

// A bundle starts with the gzip magic; an export document with '{' (after whitespace).
bool LooksGzipped(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[2] = {0, 0};
  in.read(head, 2);
  return in.gcount() == 2 && head[0] == '\x1f' && head[1] == '\x8b';
}

StatusOr<store::FullRun> LoadRun(const std::string& path, std::unique_ptr<bundle::OpenedBundle>* keep) {
  if (std::filesystem::is_directory(path)) {
    return Status::InvalidArgument(
        fmt::format("'{}' is a directory; give a `tare export` JSON file or a bundle", path));
  }
  // A FIFO would hang the first read, a device (/dev/zero) never end: refused by name.
  TARE_RETURN_IF_ERROR(CheckInputFile(path));
  if (LooksGzipped(path)) {
    TARE_ASSIGN_OR_RETURN(bundle::OpenedBundle opened, bundle::OpenBundle(path));
    *keep = std::make_unique<bundle::OpenedBundle>(std::move(opened));
    const bundle::OpenedBundle& b = **keep;
    TARE_ASSIGN_OR_RETURN(std::string text, b.Read("run.json"));
    TARE_ASSIGN_OR_RETURN(const nlohmann::json j, ParseJson(text, fmt::format("'{}': run.json", path)));
    return bundle::FullRunFromJson(j, [&b](const std::string& m) { return b.Read(m); });
  }
  TARE_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  // Any file may be named here: text that is not JSON is a wrong argument, said as such, with where
  // the parse stopped.
  const auto j = ParseJson(text, "the file");
  if (!j.ok() || !j->is_object()) {
    return Status::InvalidArgument(
        fmt::format("'{}' is neither a `tare export` JSON document nor a bundle (`tare bundle`){}", path,
                    j.ok() ? "" : " (" + j.status().message() + ")"));
  }
  auto run = bundle::FullRunFromJson(*j);
  if (!run.ok()) return run.status().WithContext(path);
  return run;
}

StatusOr<int> Import(const ImportOptions& o) {
  std::unique_ptr<bundle::OpenedBundle> keep;
  auto run = LoadRun(o.file, &keep);
  if (!run.ok()) return run.status();
  auto store = store::Store::Open(o.store_path);
  if (!store.ok()) return store.status();
  // One transaction: Ctrl-C during it waits for its end, then says what was kept (issue 27, item 19).
  proc::InstallInterruptHandler();
  auto written = store::WriteFullRun(**store, *run);
  if (!written.ok()) return written.status();
  if (proc::Interrupted()) {
    fmt::print(stderr, "tare import: interrupted after the run was committed whole, as run {} in {}\n", written->run_id,
               TerminalText(store::PrintableLocation(o.store_path)));
    return Status::Cancelled("interrupted");
  }
  if (written->added) {
    fmt::print("imported run {} ({} {}, {} samples{}) as run {} in {}\n", run->data.run.uid.substr(0, 12),
               RunKindName(run->data.run.kind), RunStatusName(run->data.run.status), run->data.samples.size(),
               run->cohort ? fmt::format(", cohort {} of campaign {}", run->cohort->cohort,
                                         TerminalText(run->cohort->campaign_name))
                           : "",
               written->run_id, TerminalText(store::PrintableLocation(o.store_path)));
  } else {
    fmt::print("run {} is already in {} as run {}; nothing added\n", run->data.run.uid.substr(0, 12),
               TerminalText(store::PrintableLocation(o.store_path)), written->run_id);
  }
  return kExitOk;
}

}  // namespace

void AddImportCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ImportOptions>();
  CLI::App* sub = app.add_subcommand("import", "Load a `tare export` JSON or a bundle into a store");
  sub->footer(R"(
FILE is a `tare export` document (schema tare.run/2, or the older tare.run/1) or an evidence bundle
written by `tare bundle` (verified member by member first; a tampered bundle is refused, exit 2).
The run keeps its uid, status, times, host fingerprint, provenance, samples, profiles and, for a
`tare ab` cohort, its campaign, lock, cells, verdicts and checks. Importing the same run twice
adds nothing (tare.run/1 documents, which have no uid, get one derived from their content).

Examples:
  tare export --run 12 -o run12.json && tare import run12.json --store /tmp/other.db
  tare import evidence.tar.gz)");
  sub->add_option("file", o->file, "A `tare export` JSON file or a bundle")->required();
  sub->add_option("--store", o->store_path, kStoreHelp);
  sub->callback([o, exit_code]() { *exit_code = Finish(Import(*o)); });
}

}  // namespace tare::cli
