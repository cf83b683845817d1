#include "cli/commands.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "base/files.h"
#include "base/terminal_text.h"
#include "base/units.h"
#include "bundle/bundle_writer.h"
#include "bundle/opened_bundle.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "base/output_path.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct BundleOptions {
  std::string run = "latest";
  std::string output;
  std::string store_path = DefaultStorePath();
  bool with_libs = false;
  std::string verify_file;
};

StatusOr<int> Write(const BundleOptions& o) {
  if (o.output.empty()) {
    return Status::InvalidArgument("-o FILE is required: where to write the bundle, e.g. -o evidence.tar.gz");
  }
  if (Status s = RequireStore(o.store_path); !s.ok()) return s;
  if (Status s = CheckOutputPath("-o", o.output, store::StoreFiles(o.store_path)); !s.ok()) return s;
  if (Status s = bundle::CheckReplaceableBundle(o.output); !s.ok()) return s;
  auto store = store::Store::OpenForReading(o.store_path);
  if (!store.ok()) return store.status();
  auto id = (*store)->ResolveRun(o.run);
  if (!id.ok()) return id.status();
  bundle::BundleOptions bo;
  bo.run_id = *id;
  bo.store_dir = store::LocalDirectory(o.store_path);
  bo.output = o.output;
  bo.with_libs = o.with_libs;
  bo.tare_version = TARE_VERSION;
  auto summary = bundle::WriteBundle(**store, bo);
  if (!summary.ok()) return summary.status();
  for (const auto& n : summary->notes) fmt::print(stderr, "tare: note: {}\n", TerminalText(n));
  fmt::print("wrote {}: run {}, {} members, {} ({} uncompressed)\n", TerminalText(o.output), *id, summary->members,
             FormatValue(static_cast<double>(summary->archive_bytes), "bytes"),
             FormatValue(static_cast<double>(summary->bytes), "bytes"));
  return kExitOk;
}

StatusOr<int> Verify(const std::string& path) {
  TARE_RETURN_IF_ERROR(CheckInputFile(path));  // a directory, FIFO or device is named, never opened
  bundle::VerifyResult result;
  auto opened = bundle::OpenBundle(path, &result);
  if (!opened.ok()) {
    fmt::print(stderr, "tare: bundle '{}' FAILED verification:\n", TerminalText(path));
    for (const auto& p : result.problems) fmt::print(stderr, "  {}\n", TerminalText(p));
    if (result.problems.empty()) fmt::print(stderr, "  {}\n", TerminalText(opened.status().message()));
    return kExitUsage;
  }
  const bundle::Manifest& m = opened->manifest();
  fmt::print("{}: OK — {} members ({}), every sha256 checked\n", TerminalText(path), result.members,
             FormatValue(static_cast<double>(result.bytes), "bytes"));
  fmt::print("  run {} ({}), run {} of the store it came from{}\n", m.run_uid.substr(0, 12), RunKindName(m.run_kind),
             m.run_id, m.lock_sha256.empty() ? "" : ", lock " + m.lock_sha256.substr(0, 12));
  for (const auto& e : m.executables) {
    fmt::print("  executable {:<6} {}  {}\n", TerminalText(e.role), e.sha256.substr(0, 12),
               e.member.empty() ? "(hash only)" : TerminalText(e.member));
  }
  for (const auto& l : m.libraries) {
    fmt::print("  library    {:<6} {}  {}\n", TerminalText(l.role), l.sha256.substr(0, 12),
               l.member.empty() ? "(hash only: " + TerminalText(l.path) + ")" : TerminalText(l.member));
  }
  return kExitOk;
}

}  // namespace

void AddBundleCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<BundleOptions>();
  CLI::App* sub = app.add_subcommand("bundle", "Write an evidence bundle of a run, or verify one");
  sub->footer(R"(
A bundle is one gzip'd tar that lets anyone check a result and measure it again: the run's
export document (every raw sample of every arm, cohort and look, discarded samples flagged), the
campaign file and lock (tare ab), the run's options (tare run), every executable the run used
(with its sha256; one copy per distinct build), kept callgrind profiles, the host fingerprint, the
ledger, and manifest.json with the sha256 of every member (docs/bundle.md). The C library and
loader the run recorded are listed by hash; --with-libs bundles them too.

An executable is bundled only if its recorded bytes are still on this host (the arm copy under
<store dir>/bin/, or the source it was copied from): a bundle never carries another build.
-o never replaces anything but a bundle tare wrote, and never the store.

Examples:
  tare bundle --run latest -o evidence.tar.gz
  tare bundle verify evidence.tar.gz          # exit 0 verified, 2 tampered / missing / unsafe
  tare replay evidence.tar.gz                 # measure it again here (tare replay --help))");
  sub->add_option("--run", o->run,
                  "'latest' (default), a run id from `tare runs`, commit:HEX, branch:NAME, tag:KEY=VALUE");
  sub->add_option("-o,--output", o->output, "The bundle file to write (e.g. evidence.tar.gz)");
  sub->add_option("--store", o->store_path, kStoreHelp);
  sub->add_flag("--with-libs", o->with_libs, "Also bundle the C library and dynamic loader the run recorded");
  CLI::App* verify = sub->add_subcommand("verify", "Check every member of a bundle against its manifest");
  verify->footer(R"(
Extracts the bundle into a private temporary directory (never anywhere else) and checks: it is a
gzip'd tar of plain files with safe names (no '..', absolute names, links or duplicates; sizes
bounded), manifest.sha256 matches manifest.json, every listed member is present with its sha256
and size, nothing unlisted is present, and executables match the sha256 the run recorded. Every
problem is named. Exit 0 verified, 2 otherwise.)");
  verify->add_option("file", o->verify_file, "The bundle")->required();
  verify->callback([o, exit_code]() { *exit_code = Finish(Verify(o->verify_file)); });
  sub->callback([o, exit_code, verify]() {
    if (verify->parsed()) return;
    *exit_code = Finish(Write(*o));
  });
}

}  // namespace tare::cli
