#include "session/shard.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <set>

#include "base/json_text.h"
#include "base/sha256.h"

namespace tare::session {
namespace {

// A positive decimal integer of at most 9 digits (no sign, no spaces), else -1.
int64_t ParseCount(const std::string& s) {
  if (s.empty() || s.size() > 9) return -1;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  }
  return std::stoll(s);
}

}  // namespace

StatusOr<ShardSpec> ParseShard(const std::string& text) {
  const auto slash = text.find('/');
  const int64_t k = slash == std::string::npos ? -1 : ParseCount(text.substr(0, slash));
  const int64_t n = slash == std::string::npos ? -1 : ParseCount(text.substr(slash + 1));
  if (k < 0 || n < 0) {
    return Status::InvalidArgument(fmt::format(
        "--shard '{}' is not K/N; give this job's shard K of N shards, counting from 1 (--shard 2/4)", text));
  }
  if (n < 1) return Status::InvalidArgument(fmt::format("--shard '{}': N must be at least 1 (--shard 1/4)", text));
  if (k < 1 || k > n) {
    return Status::InvalidArgument(
        fmt::format("--shard '{}': K must be from 1 to N={} (shards count from 1: --shard 1/{} ... --shard {}/{})",
                    text, n, n, n, n));
  }
  ShardSpec spec;
  spec.index = k;
  spec.count = n;
  return spec;
}

StatusOr<ShardSpec> WithWeightsFromRun(ShardSpec spec, store::Store& store, const std::string& selector) {
  auto id = store.ResolveRun(selector);
  if (!id.ok()) return id.status().WithContext("--shard-weights");
  TARE_ASSIGN_OR_RETURN(RunData run, store.LoadRun(*id));
  std::map<int64_t, std::string> name_of;
  for (const auto& b : run.benchmarks) name_of[b.id] = b.name;
  spec.weights.clear();
  for (const auto& s : run.samples) {
    auto it = name_of.find(s.benchmark_id);
    if (it == name_of.end()) continue;
    spec.weights[it->second] += std::max<int64_t>(0, s.sample.ended_unix_ns - s.sample.started_unix_ns);
  }
  if (spec.weights.empty()) {
    return Status::FailedPrecondition(
        fmt::format("--shard-weights '{}': run {} has no samples to weigh the benchmarks by; name a completed run of "
                    "the same benchmarks, or leave --shard-weights out for equal weights",
                    selector, *id));
  }
  spec.weights_source = "uid:" + run.run.uid;
  return spec;
}

std::string AssignmentSha256(int64_t count, const std::vector<std::pair<std::string, int64_t>>& assignment) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [name, shard] : assignment) list.push_back({name, shard});
  const nlohmann::json doc = {{"schema", "tare.shard/1"}, {"count", count}, {"assignment", list}};
  return Sha256Hex(DumpJson(doc));
}

std::string ShardGroup(RunKind kind, int64_t count, const std::string& commit, const std::string& what) {
  const nlohmann::json doc = {
      {"schema", "tare.shard-group/1"}, {"kind", kind}, {"count", count}, {"commit", commit}, {"what", what}};
  return Sha256Hex(DumpJson(doc));
}

ShardRecord AssignShards(std::vector<std::string> names, const ShardSpec& spec, const std::string& group) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  // Unknown weights: the mean of the known ones (a new benchmark costs what a typical one does);
  // all unknown: 1 each, which makes the greedy order a round-robin by name.
  int64_t known_sum = 0, known = 0;
  for (const auto& n : names) {
    auto it = spec.weights.find(n);
    if (it != spec.weights.end()) {
      known_sum += it->second;
      ++known;
    }
  }
  const int64_t fallback = known > 0 ? std::max<int64_t>(1, known_sum / known) : 1;
  std::vector<std::pair<int64_t, std::string>> order;  // (weight, name)
  for (const auto& n : names) {
    auto it = spec.weights.find(n);
    order.emplace_back(it != spec.weights.end() ? it->second : fallback, n);
  }
  // Heaviest first, ties by name.
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  const int64_t n_shards = std::max<int64_t>(1, spec.count);
  std::vector<int64_t> load(static_cast<size_t>(n_shards), 0);
  std::map<std::string, int64_t> shard_of;
  for (const auto& [weight, name] : order) {
    size_t least = 0;  // the least-loaded shard, ties to the lowest index
    for (size_t s = 1; s < load.size(); ++s) {
      if (load[s] < load[least]) least = s;
    }
    load[least] += weight;
    shard_of[name] = static_cast<int64_t>(least) + 1;
  }
  ShardRecord rec;
  rec.index = spec.index;
  rec.count = n_shards;
  rec.group = group;
  rec.weights = spec.weights_source;
  rec.assignment.assign(shard_of.begin(), shard_of.end());  // by name
  rec.assignment_sha256 = AssignmentSha256(rec.count, rec.assignment);
  return rec;
}

int64_t ShardOf(const ShardRecord& shard, const std::string& name) {
  auto it = std::lower_bound(shard.assignment.begin(), shard.assignment.end(), name,
                             [](const auto& e, const std::string& n) { return e.first < n; });
  return it != shard.assignment.end() && it->first == name ? it->second : 0;
}

Status CheckShardNotEmpty(const ShardRecord& shard, const std::string& what) {
  for (const auto& [name, k] : shard.assignment) {
    if (k == shard.index) return Status::Ok();
  }
  return Status::FailedPrecondition(fmt::format(
      "--shard {}/{}: this shard has no {} (there are only {} to split across {} shards); use at most {} shards",
      shard.index, shard.count, what, shard.assignment.size(), shard.count, shard.assignment.size()));
}

}  // namespace tare::session
