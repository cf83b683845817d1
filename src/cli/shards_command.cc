#include "cli/shards_command.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "base/json_text.h"
#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/help_format.h"
#include "report/ledger.h"
#include "store/stored_look.h"

namespace tare::cli {
namespace {

using nlohmann::json;

struct ShardsFlags {
  std::string store_path = DefaultStorePath();
  std::string selector;  // a run: show its group
  std::string group;     // a group id or (ab) campaign sha256, or a prefix of either
  bool json = false;
};

std::string Short(const std::string& hex) { return hex.substr(0, 12); }

// What the view says about a host: its CPU model and the fingerprint's hard digest (the host
// type results are never pooled across).
struct HostLabel {
  std::string cpu;
  std::string digest;
};
HostLabel HostOf(const RunRecord& r) {
  HostLabel h{"", r.fingerprint_digest};
  auto j = json::parse(r.fingerprint_json.empty() ? "{}" : r.fingerprint_json, nullptr, false);
  if (j.is_object() && j.contains("keys") && j["keys"].is_array()) {
    for (const auto& k : j["keys"]) {
      if (k.is_object() && k.value("key", "") == "cpu.model_name" && k.contains("value") && k["value"].is_string()) {
        h.cpu = k["value"].get<std::string>();
      }
    }
  }
  return h;
}
std::string HostText(const HostLabel& h) {
  return fmt::format("{} (fp {})", h.cpu.empty() ? "unknown CPU" : h.cpu, Short(h.digest));
}

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

// One row of the per-cell table: one metric of one head in one cell, as one shard's host judged it.
struct CellRow {
  std::string cell, head, metric, unit;
  int64_t shard = 0;
  const RunRecord* run = nullptr;
  std::string verdict;
  int64_t pairs = 0;
  double estimate = kNaN, lo = kNaN, hi = kNaN, base_median = kNaN, head_median = kNaN;
};

struct GroupView {
  ShardGroupState state;
  std::vector<RunRecord> runs;   // by shard, then run id
  std::map<int64_t, std::optional<CohortRecord>> cohort;  // run id -> cohort (ab)
  std::vector<CellRow> cells;    // ab: by cell, head, metric, shard
};

StatusOr<GroupView> LoadGroup(store::Store& store, const std::string& group) {
  GroupView v;
  TARE_ASSIGN_OR_RETURN(v.runs, store.ShardedRuns(group));
  std::stable_sort(v.runs.begin(), v.runs.end(), [](const RunRecord& a, const RunRecord& b) {
    return a.shard->index < b.shard->index;
  });
  v.state = GroupState(group, v.runs);
  for (const auto& r : v.runs) {
    if (r.kind != "ab") continue;
    TARE_ASSIGN_OR_RETURN(v.cohort[r.id], store.CohortOf(r.id));
    TARE_ASSIGN_OR_RETURN(std::vector<store::StoredLook> looks, store.LooksOf(r.id));
    for (const auto& look : store::LatestLookOfEachCell(looks)) {
      for (const auto& c : look.comparisons) {
        for (const auto& m : c.metrics) {
          CellRow row;
          row.cell = c.cell;
          row.head = c.head;
          row.metric = m.metric;
          row.unit = m.unit;
          row.shard = r.shard->index;
          row.run = &r;
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
  std::stable_sort(v.cells.begin(), v.cells.end(), [](const CellRow& a, const CellRow& b) {
    return std::tie(a.cell, a.head, a.metric, a.shard) < std::tie(b.cell, b.head, b.metric, b.shard);
  });
  return v;
}

std::string Number(double v) {
  if (std::isnan(v)) return "n/a";
  return fmt::format("{:.6g}", v);
}

json NumberJson(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

std::string DisagreementText(const GroupView& v) {
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
                         ShardList(ks, v.state.count), Short(d), weights);
  }
  return fmt::format(
      "the shards' assignments disagree: {}. The jobs did not split the same list the same way, so some "
      "benchmarks were measured twice and others not at all; give every job the same benchmarks, --filter "
      "and --shard-weights selector (or none), and run the shards again",
      parts);
}

void PrintGroup(const GroupView& v) {
  const auto& s = v.state;
  std::string what;
  const RunRecord& first = v.runs.front();
  if (s.kind == "ab") {
    auto it = v.cohort.find(first.id);
    if (it != v.cohort.end() && it->second) {
      what = fmt::format("campaign '{}' ({})", TerminalText(it->second->campaign_name), Short(it->second->campaign_sha256));
    }
  } else {
    // The target as `tare run` resolved it (options "argv"), by its file name.
    auto options = json::parse(first.options_json.empty() ? "{}" : first.options_json, nullptr, false);
    if (options.is_object() && options.contains("argv") && options["argv"].is_array() && !options["argv"].empty() &&
        options["argv"][0].is_string()) {
      what = "target '" + TerminalText(std::filesystem::path(options["argv"][0].get<std::string>()).filename().string()) + "'";
    }
  }
  fmt::print("group {}  tare {}  {}  commit {}: {}/{} shards present\n", Short(s.group), s.kind, what,
             first.provenance.commit.empty() ? "unknown" : Short(first.provenance.commit), s.present.size(), s.count);
  fmt::print("  {:<7} {:>5}  {:<12}  {:<11}  {:>6}  {:<12}  {}\n", "shard", "run", "uid", "status",
             s.kind == "ab" ? "cells" : "benchs", "assignment", "host");
  for (const auto& r : v.runs) {
    fmt::print("  {:<7} {:>5}  {:<12}  {:<11}  {:>6}  {:<12}  {}\n", fmt::format("{}/{}", r.shard->index, r.shard->count),
               r.id, Short(r.uid), RunStatusName(r.status), PartSize(*r.shard), Short(r.shard->assignment_sha256),
               TerminalText(HostText(HostOf(r))));
  }
  if (!s.missing.empty()) {
    int64_t unmeasured = 0;
    const ShardRecord& any = *first.shard;
    for (const auto& [name, k] : any.assignment) {
      if (std::find(s.missing.begin(), s.missing.end(), k) != s.missing.end()) ++unmeasured;
    }
    fmt::print("  missing: {} ({} of {} {} not measured; run those jobs again, or merge their stores)\n",
               ShardList(s.missing, s.count), unmeasured, any.assignment.size(), s.kind == "ab" ? "cells" : "benchmarks");
  }
  if (s.digests.size() > 1) fmt::print("  error: {}\n", TerminalText(DisagreementText(v)));
  if (!v.cells.empty()) {
    fmt::print("  per cell, as each shard's host judged it (never pooled across shards or hosts):\n");
    fmt::print("    {:<32} {:<6} {:<20} {:<7} {:<14} {:>6} {:<28} {:>12} {:>12}  {}\n", "cell", "head", "metric", "shard",
               "verdict", "pairs", "change [interval]", "base median", "head median", "host");
    for (const auto& c : v.cells) {
      fmt::print("    {:<32} {:<6} {:<20} {:<7} {:<14} {:>6} {:<28} {:>12} {:>12}  {}\n", SingleLineText(c.cell),
                 SingleLineText(c.head), SingleLineText(c.metric), fmt::format("{}/{}", c.shard, s.count), c.verdict,
                 c.pairs,
                 fmt::format("{} [{}, {}]", report::SignedPercent(c.estimate), report::SignedPercent(c.lo),
                             report::SignedPercent(c.hi)),
                 Number(c.base_median), Number(c.head_median), TerminalText(HostText(HostOf(*c.run))));
    }
  }
}

json GroupJson(const GroupView& v) {
  const auto& s = v.state;
  json shards = json::array();
  for (const auto& r : v.runs) {
    const HostLabel h = HostOf(r);
    json one = {{"shard", r.shard->index},
                {"run_id", r.id},
                {"uid", r.uid},
                {"status", RunStatusName(r.status)},
                {"host", {{"cpu", h.cpu}, {"fingerprint_digest", h.digest}}},
                {"commit", r.provenance.commit},
                {"part", PartSize(*r.shard)},
                {"assignment_sha256", r.shard->assignment_sha256},
                {"weights", r.shard->weights}};
    auto it = v.cohort.find(r.id);
    if (it != v.cohort.end() && it->second) {
      one["campaign"] = {{"name", it->second->campaign_name}, {"sha256", it->second->campaign_sha256},
                         {"lock_sha256", it->second->lock_sha256}, {"cohort", it->second->cohort},
                         {"state", it->second->state}, {"outcome", it->second->outcome}};
    }
    shards.push_back(std::move(one));
  }
  json assignment = json::array();
  for (const auto& [name, k] : v.runs.front().shard->assignment) assignment.push_back({{"name", name}, {"shard", k}});
  json cells = json::array();
  for (const auto& c : v.cells) {
    const HostLabel h = HostOf(*c.run);
    cells.push_back({{"cell", c.cell},
                     {"head", c.head},
                     {"metric", c.metric},
                     {"unit", c.unit},
                     {"shard", c.shard},
                     {"run_uid", c.run->uid},
                     {"host", {{"cpu", h.cpu}, {"fingerprint_digest", h.digest}}},
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

int Shards(const ShardsFlags& f) {
  if (!f.selector.empty() && !f.group.empty()) {
    return ReportError(Status::InvalidArgument("give a run SELECTOR or --group, not both"));
  }
  if (Status s = RequireStore(f.store_path); !s.ok()) return ReportError(s);
  auto store = store::Store::Open(f.store_path);
  if (!store.ok()) return ReportError(store.status());
  auto all = (*store)->ShardedRuns("");
  if (!all.ok()) return ReportError(all.status());
  std::vector<std::string> groups;  // in the order their first run was made
  for (const auto& r : *all) {
    if (std::find(groups.begin(), groups.end(), r.shard->group) == groups.end()) groups.push_back(r.shard->group);
  }
  if (!f.selector.empty()) {
    auto id = (*store)->ResolveRun(f.selector);
    if (!id.ok()) return ReportError(id.status());
    auto it = std::find_if(all->begin(), all->end(), [&](const RunRecord& r) { return r.id == *id; });
    if (it == all->end()) {
      return ReportError(Status::NotFound(fmt::format(
          "run {} ('{}') was not measured with --shard; `tare shards` without a selector lists every sharded run",
          *id, f.selector)));
    }
    groups = {it->shard->group};
  } else if (!f.group.empty()) {
    std::vector<std::string> chosen;
    for (const auto& g : groups) {
      bool match = g.rfind(f.group, 0) == 0;
      for (const auto& r : *all) {
        if (match || r.shard->group != g || r.kind != "ab") continue;
        auto c = (*store)->CohortOf(r.id);
        if (c.ok() && *c && (*c)->campaign_sha256.rfind(f.group, 0) == 0) match = true;
      }
      if (match) chosen.push_back(g);
    }
    if (chosen.empty()) {
      return ReportError(Status::NotFound(fmt::format(
          "no sharded run in '{}' has the group or campaign '{}'; `tare shards` lists the groups", f.store_path, f.group)));
    }
    groups = chosen;
  }
  std::vector<GroupView> views;
  bool whole = true;
  for (const auto& g : groups) {
    auto v = LoadGroup(**store, g);
    if (!v.ok()) return ReportError(v.status());
    whole = whole && v->state.missing.empty() && v->state.digests.size() == 1;
    views.push_back(std::move(*v));
  }
  if (f.json) {
    json out = {{"schema", "tare.shards/1"}, {"store", f.store_path}, {"groups", json::array()}};
    for (const auto& v : views) out["groups"].push_back(GroupJson(v));
    fmt::print("{}\n", DumpJson(out, 2));
  } else if (views.empty()) {
    fmt::print("no sharded runs in {} (tare run --shard K/N, tare ab --shard K/N)\n", TerminalText(f.store_path));
  } else {
    for (size_t i = 0; i < views.size(); ++i) {
      if (i > 0) fmt::print("\n");
      PrintGroup(views[i]);
    }
  }
  return whole ? kExitOk : kExitFailed;
}

}  // namespace

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

StatusOr<std::string> ShardSummaryLine(store::Store& store, const std::vector<std::string>& groups) {
  std::string out;
  for (const auto& g : groups) {
    TARE_ASSIGN_OR_RETURN(std::vector<RunRecord> runs, store.ShardedRuns(g));
    const ShardGroupState s = GroupState(g, runs);
    std::string state = s.missing.empty() ? "all present" : "missing " + ShardList(s.missing, s.count);
    if (s.digests.size() > 1) state += ", assignments DISAGREE";
    out += fmt::format("{}group {} (tare {}): {}/{} shards, {}", out.empty() ? "" : "; ", Short(g), s.kind,
                       s.present.size(), s.count, state);
  }
  if (out.empty()) return out;
  return fmt::format("shards: {}; see `tare shards --store {}`", out, store.path());
}

void AddShardsCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<ShardsFlags>();
  CLI::App* sub = app.add_subcommand("shards", "Sharded runs as a whole: every shard, the missing ones, per-cell verdicts");
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
  sub->callback([f, exit_code]() { *exit_code = Shards(*f); });
}

}  // namespace tare::cli
