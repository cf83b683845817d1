#include "cli/commands.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/run_copy_report.h"
#include "report/shards_view.h"
#include "session/shard_view_reader.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct MergeFlags {
  std::string out;
  std::vector<std::string> inputs;
};

bool SamePath(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

StatusOr<int> Merge(const MergeFlags& f) {
  // Every input is opened (and so checked to be a tare store) before OUT is touched.
  std::vector<std::unique_ptr<store::Store>> inputs;
  for (const auto& in : f.inputs) {
    if (SamePath(in, f.out) || in == f.out) {
      return Status::InvalidArgument(fmt::format("'{}' is both OUT and an input; merge into another store", in));
    }
    if (Status s = RequireStore(in); !s.ok()) {
      return Status::NotFound(fmt::format("no store at '{}' to merge; check the path", in));
    }
    auto store = store::Store::OpenForReading(in);
    if (!store.ok()) {
      return Status::InvalidArgument(fmt::format("cannot merge '{}': {}", in, store.status().message()));
    }
    inputs.push_back(std::move(*store));
  }
  auto out = store::Store::Open(f.out);
  if (!out.ok()) return out.status();

  store::CopyCounts total;
  std::vector<std::string> shard_groups;  // of the sharded runs the inputs hold
  for (auto& in : inputs) {
    auto runs = in->ListRuns(INT_MAX);
    if (!runs.ok()) return runs.status();
    for (const auto& r : *runs) {
      if (r.shard && std::find(shard_groups.begin(), shard_groups.end(), r.shard->group) == shard_groups.end()) {
        shard_groups.push_back(r.shard->group);
      }
    }
    std::reverse(runs->begin(), runs->end());  // oldest first: OUT numbers them in the order made
    auto copied = CopyRunsReported(*in, **out, *runs, "merge");
    if (!copied.ok()) return copied.status();
    total.added += copied->added;
    total.present += copied->present;
  }
  if (total.added > 0) {
    if (Status s = (*out)->RefreshStatistics(); !s.ok()) return s;
  }
  fmt::print("{} runs added to {}, {} were already there\n", total.added, TerminalText((*out)->path()), total.present);
  // Sharded runs: whether OUT now holds every shard of the groups the inputs brought.
  std::vector<ShardGroupState> states;
  for (const auto& g : shard_groups) {
    auto runs = (*out)->ShardedRuns(g);
    if (!runs.ok()) return runs.status();
    states.push_back(session::GroupState(g, *runs));
  }
  const std::string shards = report::ShardSummaryLine(states, (*out)->path());
  if (!shards.empty()) fmt::print("{}\n", TerminalText(shards));
  return kExitOk;
}

}  // namespace

void AddMergeCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<MergeFlags>();
  CLI::App* sub = app.add_subcommand("merge", "Copy every run of several stores into one, without duplicates");
  sub->footer(R"(
Copies whole runs (samples, artifacts, campaign verdicts...) from each IN store into OUT, which is
created when it does not exist. A run is identified by its global uid (`tare runs --json`), so a run
already in OUT is skipped: merging the same stores again adds nothing. Each run keeps its host
fingerprint, provenance and tags; run ids are renumbered in OUT (select runs there by uid:HEX,
commit:, branch: or tag:). Runs are written in batches (about 25,000 samples per transaction; a
bigger run in parts of 25,000 in one transaction of its own: memory follows a batch, not a run). If
a run cannot be copied, OUT keeps every run before it and nothing of it (a batch that fails is
written again run by run to find it); if the merge is killed, OUT keeps the batches committed
before, nothing of the one in flight. Ctrl-C stops after the batch in flight and says how many
runs were committed (exit 130). Either way, run the same command again to finish.
Input stores of an older schema are migrated in place first (as any tare command does).

Exit status: 0 merged; 2 an input is missing or not a tare store, OUT is unusable (nothing
written), or a run could not be read or written (the runs merged before it are kept); 70 internal.

Examples:
  tare merge all.db shard-1/tare.db shard-2/tare.db shard-3/tare.db
  tare merge .tare/tare.db ~/Downloads/ci-run-4411.db      (CI's runs into your own store))");
  sub->add_option("OUT", f->out, "The store to merge into (created if absent)")->required();
  sub->add_option("IN", f->inputs, "Stores to copy runs from")->required();
  sub->callback([f, exit_code]() { *exit_code = Finish(Merge(*f)); });
}

}  // namespace tare::cli
