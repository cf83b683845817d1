#include "session/shard_view_reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "env/fingerprint_json.h"
#include "store/stored_look.h"

namespace tare::session {

ShardGroupState GroupState(const std::string& group, const std::vector<RunRecord>& runs) {
  ShardGroupState s;
  s.group = group;
  std::set<int64_t> present;
  for (const auto& r : runs) {
    if (!r.shard) continue;
    s.kind = r.kind;
    s.count = std::max(s.count, r.shard->count);
    present.insert(r.shard->index);
    if (std::find(s.digests.begin(), s.digests.end(), r.shard->assignment_sha256) == s.digests.end()) {
      s.digests.push_back(r.shard->assignment_sha256);
    }
  }
  s.present.assign(present.begin(), present.end());
  for (int64_t k = 1; k <= s.count; ++k) {
    if (!present.count(k)) s.missing.push_back(k);
  }
  return s;
}

ShardHost HostOf(const RunRecord& run) {
  ShardHost h{"", run.fingerprint_digest};
  // A label only: a fingerprint that is missing or cannot be read names no CPU.
  if (auto fp = env::FingerprintFromJsonText(run.fingerprint_json, "the run's fingerprint"); fp.ok()) {
    h.cpu = fp->Get("cpu.model_name");
  }
  return h;
}

StatusOr<ShardGroupView> LoadShardGroup(store::Store& store, const std::string& group) {
  ShardGroupView v;
  TARE_ASSIGN_OR_RETURN(v.runs, store.ShardedRuns(group));
  std::stable_sort(v.runs.begin(), v.runs.end(),
                   [](const RunRecord& a, const RunRecord& b) { return a.shard->index < b.shard->index; });
  v.state = GroupState(group, v.runs);
  for (const auto& r : v.runs) v.hosts.push_back(HostOf(r));
  for (size_t i = 0; i < v.runs.size(); ++i) {
    const RunRecord& r = v.runs[i];
    if (r.kind != RunKind::kAb) continue;
    TARE_ASSIGN_OR_RETURN(v.cohort[r.id], store.CohortOf(r.id));
    TARE_ASSIGN_OR_RETURN(std::vector<store::StoredLook> looks, store.LooksOf(r.id));
    for (const auto& look : store::LatestLookOfEachCell(looks)) {
      for (const auto& c : look.comparisons) {
        for (const auto& m : c.metrics) {
          ShardCellRow row;
          row.cell = c.cell;
          row.head = c.head;
          row.metric = m.metric;
          row.unit = m.unit;
          row.shard = r.shard->index;
          row.run_uid = r.uid;
          row.host = v.hosts[i];
          row.verdict = std::string(VerdictName(m.verdict));
          if (!look.final) row.verdict += " (not final)";
          row.pairs = m.pairs;
          row.estimate = m.estimate;
          row.lo = m.lo;
          row.hi = m.hi;
          row.base_median = m.base_median;
          row.head_median = m.head_median;
          v.cells.push_back(std::move(row));
        }
      }
    }
  }
  std::stable_sort(v.cells.begin(), v.cells.end(), [](const ShardCellRow& a, const ShardCellRow& b) {
    return std::tie(a.cell, a.head, a.metric, a.shard) < std::tie(b.cell, b.head, b.metric, b.shard);
  });
  return v;
}

StatusOr<std::vector<std::string>> ChooseShardGroups(store::Store& store, const std::string& selector,
                                                     const std::string& group_prefix) {
  TARE_ASSIGN_OR_RETURN(std::vector<RunRecord> all, store.ShardedRuns(""));
  std::vector<std::string> groups;  // in the order their first run was made
  for (const auto& r : all) {
    if (std::find(groups.begin(), groups.end(), r.shard->group) == groups.end()) groups.push_back(r.shard->group);
  }
  if (!selector.empty()) {
    TARE_ASSIGN_OR_RETURN(int64_t id, store.ResolveRun(selector));
    auto it = std::find_if(all.begin(), all.end(), [&](const RunRecord& r) { return r.id == id; });
    if (it == all.end()) {
      return Status::NotFound(fmt::format(
          "run {} ('{}') was not measured with --shard; `tare shards` without a selector lists every sharded run", id,
          selector));
    }
    return std::vector<std::string>{it->shard->group};
  }
  if (group_prefix.empty()) return groups;
  std::vector<std::string> chosen;
  for (const auto& g : groups) {
    bool match = g.rfind(group_prefix, 0) == 0;
    for (const auto& r : all) {
      if (match || r.shard->group != g || r.kind != RunKind::kAb) continue;
      auto c = store.CohortOf(r.id);
      if (c.ok() && *c && (*c)->campaign_sha256.rfind(group_prefix, 0) == 0) match = true;
    }
    if (match) chosen.push_back(g);
  }
  if (chosen.empty()) {
    return Status::NotFound(
        fmt::format("no sharded run in '{}' has the group or campaign '{}'; `tare shards` lists the groups",
                    store.path(), group_prefix));
  }
  return chosen;
}

}  // namespace tare::session
