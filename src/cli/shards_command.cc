#include "cli/commands.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>

#include "base/json_text.h"
#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/help_format.h"
#include "report/shards_view.h"
#include "session/shard_view_reader.h"
#include "store/store.h"

namespace tare::cli {
namespace {

using nlohmann::json;

struct ShardsFlags {
  std::string store_path = DefaultStorePath();
  std::string selector;  // a run: show its group
  std::string group;     // a group id or (ab) campaign sha256, or a prefix of either
  bool json = false;
};

StatusOr<int> Shards(const ShardsFlags& f) {
  if (!f.selector.empty() && !f.group.empty()) {
    return Status::InvalidArgument("give a run SELECTOR or --group, not both");
  }
  if (Status s = RequireStore(f.store_path); !s.ok()) return s;
  // It only reads: a read-only store is fine (issue 27, item 17).
  auto store = store::Store::OpenForReading(f.store_path);
  if (!store.ok()) return store.status();
  auto groups = session::ChooseShardGroups(**store, f.selector, f.group);
  if (!groups.ok()) return groups.status();
  std::vector<ShardGroupView> views;
  bool whole = true;
  for (const auto& g : *groups) {
    auto v = session::LoadShardGroup(**store, g);
    if (!v.ok()) return v.status();
    whole = whole && v->state.missing.empty() && v->state.digests.size() == 1;
    views.push_back(std::move(*v));
  }
  if (f.json) {
    json out = {{"schema", "tare.shards/1"}, {"store", f.store_path}, {"groups", json::array()}};
    for (const auto& v : views) out["groups"].push_back(report::ShardGroupToJson(v));
    fmt::print("{}\n", DumpJson(out, 2));
  } else if (views.empty()) {
    fmt::print("no sharded runs in {} (tare run --shard K/N, tare ab --shard K/N)\n",
               TerminalText(store::PrintableLocation(f.store_path)));
  } else {
    for (size_t i = 0; i < views.size(); ++i) {
      if (i > 0) fmt::print("\n");
      fmt::print("{}", report::RenderShardGroup(views[i]));
    }
  }
  return whole ? kExitOk : kExitFailed;
}

}  // namespace

void AddShardsCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<ShardsFlags>();
  CLI::App* sub =
      app.add_subcommand("shards", "Sharded runs as a whole: every shard, the missing ones, per-cell verdicts");
  SetUsage(sub, "tare shards [OPTIONS] [SELECTOR]");
  sub->footer(R"(
Runs measured with --shard K/N (tare run, tare ab) record their shard and the whole split of the
benchmarks (cells). This groups them (the N jobs of one sharded run share a group: kind, N, commit
and what was measured) and shows, per group: each shard's run, uid, status, part and host; the
missing shards; shards whose splits disagree (an error: the jobs measured different parts); and for
tare ab every shard's per-cell verdicts in one table, each row labelled with its shard and host.
Nothing is averaged or pooled across shards or hosts.

Exit status: 0 every shown group has all its shards and one split; 1 a shard is missing or the
splits disagree; 2 no store, a selector or group that matches nothing.

Examples:
  tare shards --store all.db                      (every sharded run/campaign in the merged store)
  tare shards --store all.db latest --json        (the group of the newest run, as JSON)
  tare shards --store all.db --group 1a2b3c4d     (a group id or an ab campaign's sha256 prefix))");
  sub->add_option("SELECTOR", f->selector, "A sharded run: show its group (latest, N, uid:HEX, tag:K=V...)");
  sub->add_option("--group", f->group, "A group id or tare ab campaign sha256 (a prefix of either)")->type_name("HEX");
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->add_flag("--json", f->json, "JSON (schema tare.shards/1) on stdout instead of the tables");
  sub->callback([f, exit_code]() { *exit_code = Finish(Shards(*f)); });
}

}  // namespace tare::cli
