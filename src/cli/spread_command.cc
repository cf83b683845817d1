#include "cli/commands.h"

#include <fmt/format.h>

#include <memory>

#include "base/files.h"
#include "base/json_text.h"
#include "bundle/spread.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "base/output_path.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct SpreadOptions {
  std::string executable;
  std::string lock;
  std::vector<std::string> metrics;
  std::string store_path = DefaultStorePath();
  std::string json_path;
};

StatusOr<int> Spread(const SpreadOptions& o) {
  if (Status s = RequireStore(o.store_path); !s.ok()) return s;
  if (o.json_path != "-") {
    if (Status s = CheckOutputPath("--json", o.json_path, store::StoreFiles(o.store_path)); !s.ok()) return s;
  }
  auto store = store::Store::OpenForReading(o.store_path);
  if (!store.ok()) return store.status();
  auto report = bundle::ComputeSpread(**store, {o.executable, o.lock, o.metrics});
  if (!report.ok()) return report.status();
  const std::string json = DumpJson(bundle::SpreadToJson(*report), 2) + "\n";
  if (o.json_path == "-") {
    fmt::print("{}", json);
    return kExitOk;
  }
  fmt::print("{}", bundle::RenderSpread(*report));
  if (!o.json_path.empty()) {
    if (Status w = WriteFileAtomic(o.json_path, json); !w.ok()) return w;
  }
  return kExitOk;
}

}  // namespace

void AddSpreadCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<SpreadOptions>();
  CLI::App* sub = app.add_subcommand("spread", "How far one executable's figures moved across runs, replays and hosts");
  sub->footer(R"(
Per benchmark and metric, over every run that measured the executable (--executable) or over a
cohort and its replays (--lock): runs, host types, samples, the lowest and highest run median and
the spread of those run-level figures, (highest - lowest) / lowest: what a rerun moves. Beside it,
labelled "sample range", the range of every raw sample of every run, (max - min) / min. One run
has no spread. Measured, successful, kept samples only. Default metrics: sim.Ir and
sim.est_cycles (deterministic: a count that moved in any sample is reported as a difference to
explain) and every timing metric.

Examples:
  tare spread --executable 3f2a9c1b0d4e          # sha256 or a prefix of 8+ hex digits
  tare spread --lock 0123abcd4567 --json -        # a cohort and its replays, as JSON
  tare spread --executable 3f2a9c1b --metric sim.Ir)");
  sub->add_option("--executable", o->executable, "The executable's sha256 (or a unique prefix, 8+ hex digits)");
  sub->add_option("--lock", o->lock, "A cohort's lock sha256 (or prefix): that cohort and its replays");
  sub->add_option("--metric", o->metrics, "Only this metric (repeatable)");
  sub->add_option("--json", o->json_path, "Also write tare.spread/2 JSON to FILE ('-': only JSON, to stdout)");
  sub->add_option("--store", o->store_path, kStoreHelp);
  sub->callback([o, exit_code]() { *exit_code = Finish(Spread(*o)); });
}

}  // namespace tare::cli
