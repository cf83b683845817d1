#include "compare/stored_variance.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compare/compare.h"
#include "compare/run_set.h"

namespace tare::compare {
StatusOr<VarianceRuns> LoadVarianceRuns(store::Store& store, const std::vector<std::string>& selectors, int last) {
  VarianceRuns out;
  std::vector<RunData> runs;
  for (const auto& sel : selectors) {
    TARE_ASSIGN_OR_RETURN(const int64_t id, store.ResolveRun(sel));
    TARE_ASSIGN_OR_RETURN(RunData d, LoadRunSet(store, id));
    if (d.run.kind != RunKind::kRun) {
      return Status::InvalidArgument(fmt::format("run {} is a `tare {}` run; variance takes runs of `tare run`",
                                                 d.run.id, RunKindName(d.run.kind)));
    }
    if (!runs.empty() && d.run.fingerprint_digest != runs.front().run.fingerprint_digest) {
      return Status::FailedPrecondition(fmt::format(
          "runs {} and {} were measured on different hosts (hard fingerprint keys differ); variance never pools "
          "hosts: give runs of one host",
          runs.front().run.id, d.run.id));
    }
    if (!d.missing_shards.empty()) {
      const std::string shards = fmt::format("{}", fmt::join(d.missing_shards, ", "));
      out.warnings.push_back(
          fmt::format("{} lacks shard {} of {} in this store: its benchmarks are not in these "
                      "figures; bring that job's store in with `tare merge`",
                      DescribeRunSet(d), shards, d.run.shard->count));
    }
    runs.push_back(std::move(d));
  }
  if (!selectors.empty()) {
    // Grouped by what each run measured; a group keeps the order its runs were given in.
    std::vector<MeasuredIdentity> keys;
    for (auto& d : runs) {
      const MeasuredIdentity id = IdentityOf(d.run, d.executables);
      const auto it = std::find(keys.begin(), keys.end(), id);
      if (it == keys.end()) {
        keys.push_back(id);
        out.groups.push_back({{}, DescribeMeasured(d)});
      }
      out.groups[static_cast<size_t>(std::find(keys.begin(), keys.end(), id) - keys.begin())].runs.push_back(
          std::move(d));
    }
    return out;
  }
  // The newest run of `tare run`, and the reruns of its executables on its host before it.
  TARE_ASSIGN_OR_RETURN(const auto listed, store.ListRuns(500));
  MeasuredIdentity measured;  // the newest run's: its reruns measured the same thing
  for (const auto& r : listed) {
    if (r.kind != RunKind::kRun || static_cast<int>(runs.size()) >= last) continue;
    if (!runs.empty() && r.fingerprint_digest != runs.front().run.fingerprint_digest) continue;
    TARE_ASSIGN_OR_RETURN(RunData d, store.LoadRun(r.id));
    if (runs.empty()) {
      measured = IdentityOf(d.run, d.executables);
    } else if (IdentityOf(d.run, d.executables) != measured) {
      continue;
    }
    runs.push_back(std::move(d));
  }
  if (runs.empty()) {
    return Status::NotFound(
        fmt::format("the store '{}' has no run of `tare run`", store::PrintableLocation(store.path())));
  }
  std::reverse(runs.begin(), runs.end());
  out.groups.push_back({std::move(runs), ""});
  out.groups.back().measured = DescribeMeasured(out.groups.back().runs.front());
  return out;
}

std::string DescribeMeasured(const RunData& run) {
  const MeasuredIdentity id = IdentityOf(run.run, run.executables);
  std::string out = id.executables.empty() ? "no executable recorded" : "sha256";
  for (const auto& sha : id.executables) out += " " + sha.substr(0, 12);
  // The invocation only when it says more than "no arguments".
  if (id.invocation != R"({"args":[]})") out += ", invoked as " + id.invocation;
  return out;
}

}  // namespace tare::compare
