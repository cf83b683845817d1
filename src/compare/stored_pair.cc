#include "compare/stored_pair.h"

#include "compare/run_set.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

namespace tare::compare {
namespace {

struct Side {
  bool head = false;
  std::string host;           // fingerprint digest
  MeasuredIdentity measured;  // the executables and how they were invoked
};

}  // namespace

StatusOr<RunPair> LoadRunPair(store::Store& store, const std::string& base, const std::string& head,
                              bool with_samples) {
  auto base_id = store.ResolveRun(base);
  if (!base_id.ok()) return base_id.status().WithContext("BASE");
  auto head_id = store.ResolveRun(head);
  if (!head_id.ok()) return head_id.status().WithContext("HEAD");
  if (*base_id == *head_id) {
    return Status::InvalidArgument(fmt::format(
        "BASE '{}' and HEAD '{}' are the same run ({}); name two runs (see `tare runs`)", base, head, *base_id));
  }
  RunPair pair;
  TARE_ASSIGN_OR_RETURN(pair.base, LoadRunSet(store, *base_id, with_samples));
  TARE_ASSIGN_OR_RETURN(pair.head, LoadRunSet(store, *head_id, with_samples));
  for (int64_t id : pair.head.set_runs) {
    if (std::find(pair.base.set_runs.begin(), pair.base.set_runs.end(), id) != pair.base.set_runs.end()) {
      return Status::InvalidArgument(fmt::format(
          "BASE '{}' (run {}) and HEAD '{}' (run {}) are shards of the same sharded run ({}); name two runs "
          "(see `tare runs`, `tare shards`)", base, *base_id, head, *head_id, DescribeRunSet(pair.base)));
    }
  }
  for (auto [d, benchmarks] : {std::pair{&pair.base, &pair.base_benchmarks}, {&pair.head, &pair.head_benchmarks}}) {
    if (with_samples) {
      BenchmarkCollector collector(*d);
      for (const auto& s : d->samples) collector.Add(s);
      *benchmarks = collector.Take();
    } else {
      TARE_ASSIGN_OR_RETURN(*benchmarks, CollectStoredBenchmarks(store, *d));
    }
  }
  return pair;
}

RerunSpreadSource StoredRerunSpread(store::Store& store, const RunPair& pair) {
  std::vector<Side> sides;
  for (const RunData* d : {&pair.base, &pair.head}) {
    Side side{d == &pair.head, d->run.fingerprint_digest, IdentityOf(d->run, d->executables)};
    if (!side.measured.executables.empty()) sides.push_back(std::move(side));
  }
  // Each stored run's identity, read once however many benchmarks ask.
  auto identities = std::make_shared<std::map<int64_t, MeasuredIdentity>>();
  return [&store, sides, identities](const std::string& base_name, const std::string& head_name,
                                      const std::string& metric) -> StatusOr<std::optional<RerunSpread>> {
    std::optional<RerunSpread> widest;
    for (const Side& side : sides) {
      store::HistoryQuery q;
      q.benchmark = side.head ? head_name : base_name;
      q.metric = metric;
      q.fingerprint_digest = side.host;
      TARE_ASSIGN_OR_RETURN(const auto points, store.History(q));
      std::vector<double> medians;
      for (const auto& p : points) {
        if (p.n == 0 || !std::isfinite(p.median) || p.median <= 0) continue;
        auto it = identities->find(p.run.id);
        if (it == identities->end()) {
          TARE_ASSIGN_OR_RETURN(const auto exes, store.ExecutablesOf(p.run.id));
          it = identities->emplace(p.run.id, IdentityOf(p.run, exes)).first;
        }
        // A rerun measured the same thing: `gzip -9 -c f` is no rerun of `gzip -1 -c f`.
        if (it->second == side.measured) medians.push_back(p.median);
      }
      if (medians.size() < 2) continue;
      const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
      const RerunSpread s{*hi / *lo - 1, static_cast<int64_t>(medians.size())};
      if (!widest || s.spread > widest->spread) widest = s;
    }
    return widest;
  };
}

StatusOr<SuiteComparison> CompareStoredRuns(store::Store& store, const RunPair& pair, CompareOptions options) {
  options.rerun_spread = StoredRerunSpread(store, pair);
  return CompareRuns(pair.base, pair.head, pair.base_benchmarks, pair.head_benchmarks, options);
}

}  // namespace tare::compare
