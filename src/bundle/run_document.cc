#include "bundle/run_document.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <set>

#include "base/bytes_text.h"
#include "base/json_read.h"
#include "base/json_text.h"
#include "base/sha256.h"
#include "bundle/archive.h"
#include "env/fingerprint_json.h"
#include "model/record_fields.h"
#include "report/record_json.h"
#include "report/run_report.h"

namespace tare::bundle {
namespace {

using nlohmann::json;

// The text of a JSON column as the store keeps it: compact, one line (DumpJson). An empty object
// stands for an empty column.
std::string JsonText(const json& j, bool empty_object_is_empty) {
  if (j.is_null() || (empty_object_is_empty && j.is_object() && j.empty())) return "";
  return DumpJson(j);
}

// A comparison: its keys (cell, head), its own fields, its broken arms, its cross-check (null when
// none) and its metrics, each record as its field list says (model/record_fields.h).
json ComparisonToJson(const AbComparison& c) {
  json out = report::FieldsToJson(c, ComparisonFields());
  out["cell"] = report::BytesToJson(c.cell);
  out["head"] = c.head;
  out["broken"] = report::FieldsToJson(c.broken, BrokenFields());
  out["cross_check"] = c.cross_check ? report::FieldsToJson(*c.cross_check, CrossCheckFields()) : json(nullptr);
  json metrics = json::array();
  for (const auto& m : c.metrics) metrics.push_back(report::FieldsToJson(m, MetricResultFields()));
  out["metrics"] = metrics;
  return out;
}

json CampaignToJson(const store::FullRun& run) {
  const CohortRecord& c = *run.cohort;
  json cells = json::array();
  for (const auto& cell : run.cells) {
    json args = json::array(), env = json::array();
    for (const auto& a : cell.args) args.push_back(report::BytesToJson(a));
    for (const auto& e : cell.env) env.push_back(report::BytesToJson(e));
    cells.push_back({{"cell", cell.cell},
                     {"name", report::BytesToJson(cell.name)},
                     {"role", cell.role},
                     {"benchmark_id", cell.benchmark_id},
                     {"args", args},
                     {"env", env}});
  }
  json looks = json::array();
  for (const auto& l : run.looks) {
    json comparisons = json::array();
    for (const auto& x : l.comparisons) comparisons.push_back(ComparisonToJson(x));
    looks.push_back({{"cell", l.cell}, {"look", l.look}, {"final", l.final}, {"comparisons", comparisons}});
  }
  json checks = json::array();
  for (const auto& x : run.checks) checks.push_back(report::FieldsToJson(x, CheckFields()));
  return {{"cohort",
           {{"campaign_sha256", c.campaign_sha256},
            {"campaign_name", report::BytesToJson(c.campaign_name)},
            {"campaign_source", report::BytesToJson(c.campaign_source)},
            {"campaign_text", report::BytesToJson(c.campaign_text)},
            {"spec", EmbedJson(c.spec_json, nullptr)},
            {"lock", EmbedJson(c.lock_json, nullptr)},
            {"lock_sha256", c.lock_sha256},
            {"cohort", c.cohort},
            {"state", c.state},
            {"stop_reason", report::BytesToJson(c.stop_reason)},
            {"outcome", c.outcome},
            {"resumed", c.resumed},
            {"notes", c.notes ? json(*c.notes) : json(nullptr)}}},
          {"cells", cells},
          {"looks", looks},
          {"checks", checks}};
}

// Reading, in the one idiom (base/json_read.h): the reader throws through JsonAt/JsonEach/OrThrow
// (nlohmann's own exceptions and model/kinds.h's unknown names included), and FullRunFromJson's
// ReadJson turns that into DataLoss with the field's JSON pointer.

std::string BytesAt(const json& j, std::string_view key) {
  const json& v = JsonAt(j, key);
  return JsonWithin(key, [&] { return OrThrow(report::BytesFromJson(v, std::string(key))); });
}
std::vector<std::string> BytesListAt(const json& j, std::string_view key) {
  std::vector<std::string> out;
  JsonEach(j, key, [&](const json& x) { out.push_back(OrThrow(report::BytesFromJson(x, std::string(key)))); });
  return out;
}

// The value of an enum whose names `name` gives, among `all`; fails naming `what` otherwise.
template <typename E, typename NameOf>
E ByName(const std::string& s, std::initializer_list<E> all, NameOf name, const char* what) {
  for (E e : all) {
    if (s == name(e)) return e;
  }
  JsonFail(fmt::format("{} '{}' is unknown", what, s));
}

StatusOr<SampleOutcome> ParseOutcome(const std::string& s) {
  return ByName(s,
                {SampleOutcome::kOk, SampleOutcome::kFailed, SampleOutcome::kSignaled, SampleOutcome::kTimedOut,
                 SampleOutcome::kInterrupted, SampleOutcome::kSpawnError},
                SampleOutcomeName, "sample outcome");
}
StatusOr<RunStatus> ParseRunStatus(const std::string& s) {
  return ByName(s, {RunStatus::kRunning, RunStatus::kComplete, RunStatus::kInterrupted, RunStatus::kFailed},
                RunStatusName, "run status");
}

// A document written before a field was kept (an older tare's tare.run/2) lacks its key: the look
// says so (StoredLook::lacks), as one read from an older store does, and importing it keeps it unknown.
AbComparison ComparisonFromJson(const json& j, std::set<std::string>* lacks) {
  AbComparison c;
  c.cell = BytesAt(j, "cell");
  c.head = JsonAt<std::string>(j, "head");
  std::set<std::string> comparison_lacks;
  report::FieldsFromJson(j, &c, ComparisonFields(), &comparison_lacks);
  if (j.contains("broken")) {
    JsonWithin("broken", [&] { report::FieldsFromJson(j.at("broken"), &c.broken, BrokenFields(), &comparison_lacks); });
  } else {
    comparison_lacks.insert("broken");
  }
  if (!j.contains("cross_check")) {
    comparison_lacks.insert("cross_check");
  } else if (!j.at("cross_check").is_null()) {
    AbCrossCheck x;
    JsonWithin("cross_check",
               [&] { report::FieldsFromJson(j.at("cross_check"), &x, CrossCheckFields(), &comparison_lacks); });
    c.cross_check = std::move(x);
  }
  if (!comparison_lacks.empty()) lacks->insert("comparison");
  JsonEach(j, "metrics", [&](const json& x) {
    AbMetricResult m;
    std::set<std::string> metric_lacks;
    report::FieldsFromJson(x, &m, MetricResultFields(), &metric_lacks);
    if (!metric_lacks.empty()) {
      // Written from a store that did not keep these: whatever values it printed were defaults.
      for (const auto& f : MetricResultFields()) {
        if (f.since >= kFullVerdictSchema) metric_lacks.insert(f.name);
      }
      lacks->insert(metric_lacks.begin(), metric_lacks.end());
    }
    c.metrics.push_back(m);
  });
  return c;
}

void CampaignFromJson(const json& j, store::FullRun* run) {
  const json& c = JsonAt(j, "cohort");
  CohortRecord rec;
  JsonWithin("cohort", [&] {
    rec.campaign_sha256 = JsonAt<std::string>(c, "campaign_sha256");
    rec.campaign_name = BytesAt(c, "campaign_name");
    rec.campaign_source = BytesAt(c, "campaign_source");
    rec.campaign_text = BytesAt(c, "campaign_text");
    rec.spec_json = JsonText(JsonAt(c, "spec"), false);
    rec.lock_json = JsonText(JsonAt(c, "lock"), false);
    rec.lock_sha256 = JsonAt<std::string>(c, "lock_sha256");
    rec.cohort = JsonAt<int64_t>(c, "cohort");
    rec.state = JsonAt<CohortState>(c, "state");
    rec.stop_reason = BytesAt(c, "stop_reason");
    rec.outcome = JsonAt<std::string>(c, "outcome");
    rec.resumed = JsonAt<int64_t>(c, "resumed");
    // A document from an older tare has no notes: the cohort's ledger notes were not kept.
    if (c.contains("notes") && !c.at("notes").is_null()) rec.notes = JsonAt<std::vector<std::string>>(c, "notes");
  });
  run->cohort = rec;
  JsonEach(j, "cells", [&](const json& x) {
    CellRecord cell;
    cell.cell = JsonAt<int64_t>(x, "cell");
    cell.name = BytesAt(x, "name");
    cell.role = JsonAt<CellRole>(x, "role");
    cell.benchmark_id = JsonAt<int64_t>(x, "benchmark_id");
    cell.args = BytesListAt(x, "args");
    cell.env = BytesListAt(x, "env");
    run->cells.push_back(cell);
  });
  JsonEach(j, "looks", [&](const json& x) {
    store::StoredLook look;
    look.cell = JsonAt<int64_t>(x, "cell");
    look.look = JsonAt<int64_t>(x, "look");
    look.final = JsonAt<bool>(x, "final");
    JsonEach(x, "comparisons",
             [&](const json& c2) { look.comparisons.push_back(ComparisonFromJson(c2, &look.lacks)); });
    run->looks.push_back(look);
  });
  JsonEach(j, "checks", [&](const json& x) {
    AbCheck check;
    report::FieldsFromJson(x, &check, CheckFields(), nullptr);
    run->checks.push_back(check);
  });
}

// The document as a FullRun; an artifact kept in a bundle member is listed in `members` (its index
// in full.artifacts, the member) and read after, outside the reader.
store::FullRun Read(const json& j, bool can_read_members, std::vector<std::pair<size_t, std::string>>* members) {
  const std::string schema = JsonAt<std::string>(j, "schema");
  const bool v1 = schema == report::kRunJsonSchemaV1;
  if (!v1 && schema != report::kRunJsonSchema) {
    JsonWithin("schema", [&] {
      JsonFail(fmt::format("schema '{}' is not {} or {}: not a `tare export` document, or one from a newer tare",
                           schema, report::kRunJsonSchema, report::kRunJsonSchemaV1));
    });
  }
  store::FullRun full;
  RunData& data = full.data;
  const json& run = JsonAt(j, "run");
  JsonWithin("run", [&] {
    data.run.id = JsonAt<int64_t>(run, "id");
    data.run.kind = JsonAt<RunKind>(run, "kind");
    data.run.status = JsonNameAt(run, "status", ParseRunStatus);
    data.run.started_unix_ns = JsonAt<int64_t>(run, "started_unix_ns");
    data.run.ended_unix_ns = JsonAt<int64_t>(run, "ended_unix_ns");
    data.run.tare_version = JsonAt<std::string>(run, "tare_version");
    data.run.command_line = BytesListAt(run, "command_line");
    data.run.options_json = JsonText(JsonAt(run, "options"), false);
  });
  const json& fingerprint = JsonAt(j, "fingerprint");
  data.run.fingerprint_json = JsonText(fingerprint, true);
  // The host's identity is recomputed from the fingerprint's hard keys, never taken from the
  // document (issue 23, item 3); a stated digest that disagrees is an error.
  std::string stated;
  if (run.contains("fingerprint_digest")) {
    stated = JsonWithin("run", [&] { return JsonAt<std::string>(run, "fingerprint_digest"); });
  } else if (fingerprint.contains("hard_digest")) {
    stated = JsonWithin("fingerprint", [&] { return JsonAt<std::string>(fingerprint, "hard_digest"); });
  }
  data.run.fingerprint_digest =
      JsonWithin("fingerprint", [&] { return OrThrow(env::VerifiedHardDigest(data.run.fingerprint_json, stated)); });
  JsonWithin("run", [&] {
    if (run.contains("provenance")) {
      const json& p = JsonAt(run, "provenance");
      JsonWithin("provenance", [&] {
        if (!JsonAt(p, "commit").is_null()) data.run.provenance.commit = JsonAt<std::string>(p, "commit");
        if (!JsonAt(p, "branch").is_null()) data.run.provenance.branch = JsonAt<std::string>(p, "branch");
        if (!JsonAt(p, "dirty").is_null()) data.run.provenance.dirty = JsonAt<bool>(p, "dirty");
        const json& tags = JsonAt(p, "tags");
        JsonWithin("tags", [&] {
          for (const auto& [k, v] : tags.items())
            data.run.provenance.tags.emplace_back(k, JsonAt<std::string>(tags, k));
        });
      });
    }
    if (run.contains("shard") && !run.at("shard").is_null()) {
      const json& sh = JsonAt(run, "shard");
      JsonWithin("shard", [&] {
        ShardRecord shard;
        shard.index = JsonAt<int64_t>(sh, "shard");
        shard.count = JsonAt<int64_t>(sh, "count");
        shard.group = JsonAt<std::string>(sh, "group");
        shard.assignment_sha256 = JsonAt<std::string>(sh, "assignment_sha256");
        shard.weights = JsonAt<std::string>(sh, "weights");
        JsonEach(sh, "assignment", [&](const json& e) {
          if (!e.is_array() || e.size() != 2) JsonFail("expected [name, shard]");
          auto name = JsonWithin("0", [&] { return OrThrow(report::BytesFromJson(e[0], "run.shard.assignment")); });
          shard.assignment.emplace_back(std::move(name), JsonWithin("1", [&] { return JsonAs<int64_t>(e[1]); }));
        });
        data.run.shard = std::move(shard);
      });
    }
    if (!v1) data.run.uid = JsonAt<std::string>(run, "uid");
  });
  if (v1) {
    // A tare.run/1 document has no uid: one derived from what it says, so the same document
    // imported twice is the same run.
    data.run.uid = Sha256Hex(DumpJson(run) + DumpJson(fingerprint)).substr(0, 32);
  }
  JsonEach(j, "executables", [&](const json& e) {
    ExecutableRecord x;
    x.role = JsonAt<std::string>(e, "role");
    x.path = BytesAt(e, "path");
    x.sha256 = JsonAt<std::string>(e, "sha256");
    x.info_json = JsonText(JsonAt(e, "info"), true);
    data.executables.push_back(x);
  });
  JsonEach(j, "metrics", [&](const json& m) {
    MetricDef d;
    d.name = JsonAt<std::string>(m, "name");
    d.unit = JsonAt<std::string>(m, "unit");
    d.direction = JsonNameAt(m, "direction", ParseDirection);
    d.kind = JsonNameAt(m, "kind", ParseMetricKind);
    d.description = JsonAt<std::string>(m, "description");
    // A document from a tare older than the field: the model is the one its description names.
    d.model = m.contains("model") ? JsonAt<std::string>(m, "model") : ModelInDescription(d.description);
    data.metrics.push_back(d);
  });
  JsonEach(j, "notes", [&](const json& n) {
    data.notes.push_back({JsonAt<std::string>(n, "level"), BytesAt(n, "message")});
  });
  int64_t next_sample_id = 1;
  int64_t next_benchmark_id = 1;
  JsonEach(j, "benchmarks", [&](const json& b) {
    BenchmarkRecord rec;
    rec.id = v1 ? next_benchmark_id++ : JsonAt<int64_t>(b, "id");
    rec.uri = BytesAt(b, "uri");
    rec.name = BytesAt(b, "name");
    rec.kind = JsonAt<TargetKind>(b, "kind");
    data.benchmarks.push_back(rec);
    JsonEach(b, "samples", [&](const json& s) {
      StoredSample ss;
      ss.id = v1 ? next_sample_id++ : JsonAt<int64_t>(s, "id");
      ss.benchmark_id = rec.id;
      Sample& x = ss.sample;
      x.seq = JsonAt<int64_t>(s, "seq");
      x.arm = JsonAt<std::string>(s, "arm");
      x.block = JsonAt<int64_t>(s, "block");
      x.warmup = JsonAt<bool>(s, "warmup");
      x.outcome = JsonNameAt(s, "outcome", ParseOutcome);
      x.exit_code = JsonAt<int>(s, "exit_code");
      x.signal = JsonAt<int>(s, "signal");
      x.error = BytesAt(s, "error");
      x.started_unix_ns = JsonAt<int64_t>(s, "started_unix_ns");
      x.ended_unix_ns = JsonAt<int64_t>(s, "ended_unix_ns");
      x.stdout_tail = BytesAt(s, "stdout_tail");
      x.stderr_tail = BytesAt(s, "stderr_tail");
      const json& values = JsonAt(s, "values");
      JsonWithin("values", [&] {
        for (const auto& [k2, v] : values.items()) x.values[k2] = v.is_null() ? kNaN : JsonAt<double>(values, k2);
      });
      if (s.contains("discarded") && !s.at("discarded").is_null()) {
        full.discarded[ss.id] = JsonAt<std::string>(s, "discarded");
      }
      data.samples.push_back(std::move(ss));
    });
  });
  std::sort(data.samples.begin(), data.samples.end(),
            [](const StoredSample& a, const StoredSample& b) { return a.sample.seq < b.sample.seq; });
  if (j.contains("artifacts")) {
    JsonEach(j, "artifacts", [&](const json& a) {
      store::StoredArtifact art;
      art.benchmark_id = JsonAt<int64_t>(a, "benchmark_id");
      art.name = JsonAt<std::string>(a, "name");
      if (a.contains("member")) {
        const std::string member = JsonAt<std::string>(a, "member");
        if (!can_read_members) {
          JsonFail(fmt::format("artifact '{}' is in bundle member '{}'; import the bundle, not its run.json alone",
                               art.name, member));
        }
        members->emplace_back(full.artifacts.size(), member);
      } else {
        art.content = BytesAt(a, "content");
      }
      full.artifacts.push_back(std::move(art));
    });
  }
  if (j.contains("campaign") && !j.at("campaign").is_null()) {
    const json& campaign = JsonAt(j, "campaign");
    JsonWithin("campaign", [&] { CampaignFromJson(campaign, &full); });
  }
  return full;
}

}  // namespace

std::string ArtifactMember(size_t benchmark_index, const std::string& name) {
  const std::string member = fmt::format("profiles/{}/{}", benchmark_index, name);
  // Artifact names are tare's own ("callgrind.out", "base/callgrind.out"); anything else is
  // stored under a name that is safe as a path.
  if (MemberNameProblem(member).empty()) return member;
  return fmt::format("profiles/{}/artifact-{}", benchmark_index, Sha256Hex(name).substr(0, 16));
}

nlohmann::json FullRunToJson(const store::FullRun& run, ArtifactContent artifacts) {
  json j = report::RunToJson(run.data, run.discarded);
  json arts = json::array();
  for (const auto& a : run.artifacts) {
    json x = {{"benchmark_id", a.benchmark_id},
              {"name", a.name},
              {"size", a.content.size()},
              {"sha256", Sha256Hex(a.content)}};
    if (artifacts == ArtifactContent::kInline) {
      x["content"] = {{"base64", Base64Encode(a.content)}};
    } else {
      size_t index = 0;
      for (size_t i = 0; i < run.data.benchmarks.size(); ++i) {
        if (run.data.benchmarks[i].id == a.benchmark_id) index = i;
      }
      x["member"] = ArtifactMember(index, a.name);
    }
    arts.push_back(x);
  }
  j["artifacts"] = arts;
  j["campaign"] = run.cohort ? CampaignToJson(run) : json(nullptr);
  return j;
}

StatusOr<store::FullRun> FullRunFromJson(const nlohmann::json& j, const MemberReader& read_member) {
  std::vector<std::pair<size_t, std::string>> members;
  TARE_ASSIGN_OR_RETURN(store::FullRun full,
                        ReadJson<store::FullRun>(j, "not a tare export document", [&](const json& doc) {
                          return Read(doc, read_member != nullptr, &members);
                        }));
  for (const auto& [index, member] : members) {
    TARE_ASSIGN_OR_RETURN(full.artifacts[index].content, read_member(member));
  }
  return full;
}

}  // namespace tare::bundle
