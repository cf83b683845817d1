#include "report/shards_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>

#include "base/json_read.h"
#include "base/terminal_text.h"
#include "report/ledger.h"

namespace tare::report {
namespace {

using nlohmann::json;

std::string ShortDigest(const std::string& hex) { return hex.substr(0, 12); }

std::string HostText(const ShardHost& h) {
  return fmt::format("{} (fp {})", h.cpu.empty() ? "unknown CPU" : h.cpu, ShortDigest(h.digest));
}

json HostJson(const ShardHost& h) { return {{"cpu", h.cpu}, {"fingerprint_digest", h.digest}}; }

int64_t PartSize(const ShardRecord& s) {
  int64_t n = 0;
  for (const auto& [name, k] : s.assignment) n += k == s.index ? 1 : 0;
  return n;
}

std::string ShardList(const std::vector<int64_t>& ks, int64_t n) {
  std::string out;
  for (int64_t k : ks) out += fmt::format("{}{}/{}", out.empty() ? "" : ", ", k, n);
  return out;
}

std::string Number(double v) {
  if (std::isnan(v)) return "n/a";
  return fmt::format("{:.6g}", v);
}

json NumberJson(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

std::string DisagreementText(const ShardGroupView& v) {
  std::string parts;
  for (const auto& d : v.state.digests) {
    std::vector<int64_t> ks;
    for (const auto& r : v.runs) {
      if (r.shard->assignment_sha256 == d) ks.push_back(r.shard->index);
    }
    std::string weights;
    for (const auto& r : v.runs) {
      if (r.shard->assignment_sha256 == d) weights = r.shard->weights;
    }
    parts += fmt::format("{}{} split the list as {} ({} weights)", parts.empty() ? "" : "; ",
                         ShardList(ks, v.state.count), ShortDigest(d), weights);
  }
  return fmt::format(
      "the shards' assignments disagree: {}. The jobs did not split the same list the same way, so some "
      "benchmarks were measured twice and others not at all; give every job the same benchmarks, --filter "
      "and --shard-weights selector (or none), and run the shards again",
      parts);
}

}  // namespace

std::string RenderShardGroup(const ShardGroupView& v) {
  std::string out;
  auto put = std::back_inserter(out);
  const auto& s = v.state;
  std::string what;
  const RunRecord& first = v.runs.front();
  if (s.kind == RunKind::kAb) {
    auto it = v.cohort.find(first.id);
    if (it != v.cohort.end() && it->second) {
      what = fmt::format("campaign '{}' ({})", TerminalText(it->second->campaign_name),
                         ShortDigest(it->second->campaign_sha256));
    }
  } else {
    // The target as `tare run` resolved it (options "argv"), by its file name. A label only: options
    // that are absent or cannot be read name no target.
    const auto parsed = ParseJsonOr(first.options_json, "the run's options", json::object());
    const json options = parsed.ok() ? *parsed : json::object();
    if (options.is_object() && options.contains("argv") && options["argv"].is_array() && !options["argv"].empty() &&
        options["argv"][0].is_string()) {
      what = "target '" +
             TerminalText(std::filesystem::path(options["argv"][0].get<std::string>()).filename().string()) + "'";
    }
  }
  fmt::format_to(
      put, "group {}  tare {}  {}  commit {}: {}/{} shards present\n", ShortDigest(s.group), RunKindName(s.kind), what,
      first.provenance.commit.empty() ? "unknown" : ShortDigest(first.provenance.commit), s.present.size(), s.count);
  fmt::format_to(put, "  {:<7} {:>5}  {:<12}  {:<11}  {:>6}  {:<12}  {}\n", "shard", "run", "uid", "status",
                 s.kind == RunKind::kAb ? "cells" : "benchs", "assignment", "host");
  for (size_t i = 0; i < v.runs.size(); ++i) {
    const RunRecord& r = v.runs[i];
    fmt::format_to(put, "  {:<7} {:>5}  {:<12}  {:<11}  {:>6}  {:<12}  {}\n",
                   fmt::format("{}/{}", r.shard->index, r.shard->count), r.id, ShortDigest(r.uid),
                   RunStatusName(r.status), PartSize(*r.shard), ShortDigest(r.shard->assignment_sha256),
                   TerminalText(HostText(v.hosts[i])));
  }
  if (!s.missing.empty()) {
    int64_t unmeasured = 0;
    const ShardRecord& any = *first.shard;
    for (const auto& [name, k] : any.assignment) {
      if (std::find(s.missing.begin(), s.missing.end(), k) != s.missing.end()) ++unmeasured;
    }
    fmt::format_to(put, "  missing: {} ({} of {} {} not measured; run those jobs again, or merge their stores)\n",
                   ShardList(s.missing, s.count), unmeasured, any.assignment.size(),
                   s.kind == RunKind::kAb ? "cells" : "benchmarks");
  }
  if (s.digests.size() > 1) fmt::format_to(put, "  error: {}\n", TerminalText(DisagreementText(v)));
  if (!v.cells.empty()) {
    fmt::format_to(put, "  per cell, as each shard's host judged it (never pooled across shards or hosts):\n");
    fmt::format_to(put, "    {:<32} {:<6} {:<20} {:<7} {:<14} {:>6} {:<28} {:>12} {:>12}  {}\n", "cell", "head",
                   "metric", "shard", "verdict", "pairs", "change [interval]", "base median", "head median", "host");
    for (const auto& c : v.cells) {
      fmt::format_to(put, "    {:<32} {:<6} {:<20} {:<7} {:<14} {:>6} {:<28} {:>12} {:>12}  {}\n",
                     SingleLineText(c.cell), SingleLineText(c.head), SingleLineText(c.metric),
                     fmt::format("{}/{}", c.shard, s.count), c.verdict, c.pairs,
                     fmt::format("{} [{}, {}]", SignedPercent(c.estimate), SignedPercent(c.lo), SignedPercent(c.hi)),
                     Number(c.base_median), Number(c.head_median), TerminalText(HostText(c.host)));
    }
  }
  return out;
}

json ShardGroupToJson(const ShardGroupView& v) {
  const auto& s = v.state;
  json shards = json::array();
  for (size_t i = 0; i < v.runs.size(); ++i) {
    const RunRecord& r = v.runs[i];
    json one = {{"shard", r.shard->index},
                {"run_id", r.id},
                {"uid", r.uid},
                {"status", RunStatusName(r.status)},
                {"host", HostJson(v.hosts[i])},
                {"commit", r.provenance.commit},
                {"part", PartSize(*r.shard)},
                {"assignment_sha256", r.shard->assignment_sha256},
                {"weights", r.shard->weights}};
    auto it = v.cohort.find(r.id);
    if (it != v.cohort.end() && it->second) {
      one["campaign"] = {{"name", it->second->campaign_name},
                         {"sha256", it->second->campaign_sha256},
                         {"lock_sha256", it->second->lock_sha256},
                         {"cohort", it->second->cohort},
                         {"state", it->second->state},
                         {"outcome", it->second->outcome}};
    }
    shards.push_back(std::move(one));
  }
  json assignment = json::array();
  for (const auto& [name, k] : v.runs.front().shard->assignment) assignment.push_back({{"name", name}, {"shard", k}});
  json cells = json::array();
  for (const auto& c : v.cells) {
    cells.push_back({{"cell", c.cell},
                     {"head", c.head},
                     {"metric", c.metric},
                     {"unit", c.unit},
                     {"shard", c.shard},
                     {"run_uid", c.run_uid},
                     {"host", HostJson(c.host)},
                     {"verdict", c.verdict},
                     {"pairs", c.pairs},
                     {"estimate", NumberJson(c.estimate)},
                     {"lo", NumberJson(c.lo)},
                     {"hi", NumberJson(c.hi)},
                     {"base_median", NumberJson(c.base_median)},
                     {"head_median", NumberJson(c.head_median)}});
  }
  json out = {{"group", s.group},
              {"kind", s.kind},
              {"count", s.count},
              {"present", s.present},
              {"missing", s.missing},
              {"complete", s.missing.empty() && s.digests.size() == 1},
              {"assignment_sha256", s.digests},
              {"shards", shards},
              {"assignment", assignment},
              {"cells", cells}};
  if (s.digests.size() > 1) out["error"] = DisagreementText(v);
  return out;
}

std::string ShardSummaryLine(const std::vector<ShardGroupState>& states, const std::string& store_path) {
  std::string out;
  for (const auto& s : states) {
    std::string state = s.missing.empty() ? "all present" : "missing " + ShardList(s.missing, s.count);
    if (s.digests.size() > 1) state += ", assignments DISAGREE";
    out += fmt::format("{}group {} (tare {}): {}/{} shards, {}", out.empty() ? "" : "; ", ShortDigest(s.group),
                       RunKindName(s.kind), s.present.size(), s.count, state);
  }
  if (out.empty()) return out;
  return fmt::format("shards: {}; see `tare shards --store {}`", out, store_path);
}

}  // namespace tare::report
