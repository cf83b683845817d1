#include "compare/stored_pair.h"

#include "compare/run_set.h"
#include "stats/run_drift.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
          "(see `tare runs`, `tare shards`)",
          base, *base_id, head, *head_id, DescribeRunSet(pair.base)));
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

HostDriftSource StoredHostDrift(store::Store& store, const RunPair& pair) {
  std::vector<Side> sides;
  for (const RunData* d : {&pair.base, &pair.head}) {
    Side side{d == &pair.head, d->run.fingerprint_digest, IdentityOf(d->run, d->executables)};
    if (!side.measured.executables.empty()) sides.push_back(std::move(side));
  }
  // The two runs compared (each side's shards too): never their own evidence of the drift between them.
  std::set<int64_t> compared = {pair.base.run.id, pair.head.run.id};
  for (const RunData* d : {&pair.base, &pair.head}) compared.insert(d->set_runs.begin(), d->set_runs.end());
  // Each stored run's identity, read once however many benchmarks ask.
  auto identities = std::make_shared<std::map<int64_t, MeasuredIdentity>>();
  return [&store, sides, compared, identities](const std::string& base_name, const std::string& head_name,
                                               const std::string& metric) -> StatusOr<std::optional<HostDrift>> {
    std::optional<HostDrift> widest;
    auto consider = [&widest](const HostDrift& d) {
      if (!widest || d.spread > widest->spread) widest = d;
    };
    for (const Side& side : sides) {
      store::HistoryQuery q;
      q.benchmark = side.head ? head_name : base_name;
      q.metric = metric;
      q.fingerprint_digest = side.host;
      q.limit = kDriftHistoryRuns + static_cast<int>(compared.size());
      TARE_ASSIGN_OR_RETURN(auto points, store.History(q));
      std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.run.id < b.run.id; });
      std::vector<double> reruns;   // the same thing measured (the compared run among them)
      std::vector<double> history;  // invoked alike, any executables, oldest first; the compared runs left out
      for (const auto& p : points) {
        const bool usable = p.n > 0 && std::isfinite(p.median) && p.median > 0;
        auto it = identities->find(p.run.id);
        if (it == identities->end()) {
          TARE_ASSIGN_OR_RETURN(const auto exes, store.ExecutablesOf(p.run.id));
          it = identities->emplace(p.run.id, IdentityOf(p.run, exes)).first;
        }
        // A rerun measured the same thing: `gzip -9 -c f` is no rerun of `gzip -1 -c f`.
        if (usable && it->second == side.measured) reruns.push_back(p.median);
        if (it->second.invocation != side.measured.invocation || compared.count(p.run.id)) continue;
        // A failed run breaks the chain of consecutive runs (stats::RunToRunDrift skips NaN pairs).
        history.push_back(usable ? p.median : std::numeric_limits<double>::quiet_NaN());
      }
      if (reruns.size() >= 2) {
        const auto [lo, hi] = std::minmax_element(reruns.begin(), reruns.end());
        consider({*hi / *lo - 1, static_cast<int64_t>(reruns.size()), DriftSource::kReruns});
      }
      if (auto d = stats::RunToRunDrift(history)) consider({d->bound, d->runs, DriftSource::kHistory});
    }
    return widest;
  };
}

StatusOr<SuiteComparison> CompareStoredRuns(store::Store& store, const RunPair& pair, CompareOptions options) {
  options.host_drift = StoredHostDrift(store, pair);
  return CompareRuns(pair.base, pair.head, pair.base_benchmarks, pair.head_benchmarks, options);
}

}  // namespace tare::compare
