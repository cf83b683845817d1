#include "compare/run_set.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>

namespace tare::compare {

namespace {

// Samples per page read by CollectStoredBenchmarks.
constexpr size_t kSamplesPerPage = 10000;

}  // namespace

StatusOr<std::vector<BenchSamples>> CollectStoredBenchmarks(store::Store& store, const RunData& set) {
  BenchmarkCollector collector(set);
  std::vector<int64_t> runs = set.set_runs;
  if (runs.empty()) runs.push_back(set.run.id);
  for (int64_t id : runs) {
    store::SampleCursor cursor;
    for (;;) {
      TARE_ASSIGN_OR_RETURN(const auto page, store.LoadSamples(id, cursor, kSamplesPerPage));
      for (const auto& s : page) collector.Add(s);
      if (page.size() < kSamplesPerPage) break;
    }
  }
  return collector.Take();
}

StatusOr<RunData> LoadRunSet(store::Store& store, int64_t run_id, bool with_samples) {
  auto load = [&](int64_t id) { return with_samples ? store.LoadRun(id) : store.LoadRunHead(id); };
  TARE_ASSIGN_OR_RETURN(RunData selected, load(run_id));
  if (!selected.run.shard || selected.run.shard->count <= 1 || selected.run.kind != RunKind::kRun) return selected;
  const ShardRecord& mine = *selected.run.shard;
  TARE_ASSIGN_OR_RETURN(const auto group, store.ShardedRuns(mine.group));

  // Per other shard, the run of the same split nearest in start time to the selected one.
  std::map<int64_t, const RunRecord*> chosen;
  for (const auto& r : group) {
    if (r.id == selected.run.id || !r.shard || r.kind != RunKind::kRun) continue;
    if (r.shard->assignment_sha256 != mine.assignment_sha256 || r.shard->index == mine.index) continue;
    const RunRecord*& best = chosen[r.shard->index];
    auto distance = [&](const RunRecord& x) { return std::llabs(x.started_unix_ns - selected.run.started_unix_ns); };
    if (best == nullptr || distance(r) < distance(*best)) best = &r;
  }
  RunData set = selected;
  set.set_runs.clear();
  std::set<std::pair<std::string, std::string>> exes;
  for (const auto& e : set.executables) exes.insert({e.sha256, e.path});
  std::set<std::string> metrics;
  for (const auto& m : set.metrics) metrics.insert(m.name);
  for (int64_t k = 1; k <= mine.count; ++k) {
    if (k == mine.index) {
      set.set_runs.push_back(selected.run.id);
      continue;
    }
    auto it = chosen.find(k);
    if (it == chosen.end()) {
      set.missing_shards.push_back(k);
      continue;
    }
    TARE_ASSIGN_OR_RETURN(RunData part, load(it->second->id));
    if (part.run.fingerprint_digest != selected.run.fingerprint_digest) {
      return Status::FailedPrecondition(fmt::format(
          "run {} is shard {}/{} of a sharded run whose shard {} (run {}) was measured on another host type "
          "(hard fingerprint digest {} against {}): their timings are not one suite's; tare never pools hosts. "
          "Run every shard on one host type, or select runs that are not sharded",
          selected.run.id, mine.index, mine.count, k, part.run.id, part.run.fingerprint_digest.substr(0, 12),
          selected.run.fingerprint_digest.substr(0, 12)));
    }
    set.set_runs.push_back(part.run.id);
    for (auto& e : part.executables) {
      if (exes.insert({e.sha256, e.path}).second) set.executables.push_back(std::move(e));
    }
    for (auto& m : part.metrics) {
      if (metrics.insert(m.name).second) set.metrics.push_back(std::move(m));
    }
    for (auto& b : part.benchmarks) set.benchmarks.push_back(std::move(b));
    for (auto& n : part.notes) {
      n.message = fmt::format("shard {} (run {}): {}", k, part.run.id, n.message);
      set.notes.push_back(std::move(n));
    }
    for (auto& s : part.samples) set.samples.push_back(std::move(s));
  }
  return set;
}

std::string DescribeRunSet(const RunData& d) {
  if (d.set_runs.size() <= 1 && d.missing_shards.empty()) return fmt::format("run {}", d.run.id);
  std::string ids;
  for (int64_t id : d.set_runs) ids += fmt::format("{}{}", ids.empty() ? "" : ", ", id);
  const int64_t count = d.run.shard ? d.run.shard->count : 0;
  return fmt::format("run{} {} ({} of {} shards)", d.set_runs.size() == 1 ? "" : "s", ids, d.set_runs.size(), count);
}

int64_t ShardOf(const RunData& d, const std::string& name) {
  if (!d.run.shard) return 0;
  const auto& a = d.run.shard->assignment;
  auto it = std::find_if(a.begin(), a.end(), [&](const auto& p) { return p.first == name; });
  return it != a.end() ? it->second : 0;
}

}  // namespace tare::compare
