#include "bundle/run_document.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "base/bytes_text.h"
#include "base/json_number.h"
#include "base/json_read.h"
#include "base/json_text.h"
#include "base/sha256.h"
#include "bundle/archive.h"
#include "env/fingerprint_json.h"
#include "report/run_report.h"

namespace tare::bundle {
namespace {

using nlohmann::json;

json Num(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

// The text of a JSON column as the store keeps it: compact, one line (DumpJson). An empty object
// stands for an empty column.
std::string JsonText(const json& j, bool empty_object_is_empty) {
  if (j.is_null() || (empty_object_is_empty && j.is_object() && j.empty())) return "";
  return DumpJson(j);
}

json MetricResultToJson(const AbMetricResult& m) {
  return {{"metric", m.metric}, {"unit", m.unit}, {"direction", DirectionName(m.direction)},
          {"allowance", m.allowance}, {"declared", m.declared}, {"pairs", m.pairs},
          {"confidence", m.confidence}, {"estimate", Num(m.estimate)}, {"lo", Num(m.lo)}, {"hi", Num(m.hi)},
          {"base_median", Num(m.base_median)}, {"head_median", Num(m.head_median)}, {"has_null", m.has_null},
          {"null_estimate", Num(m.null_estimate)}, {"null_lo", Num(m.null_lo)}, {"null_hi", Num(m.null_hi)},
          {"noise_floor", Num(m.noise_floor)}, {"delta", Num(m.delta)}, {"pass_bound", Num(m.pass_bound)},
          {"host_too_noisy", m.host_too_noisy}, {"verdict", VerdictName(m.verdict)},
          {"supported_gain", m.supported_gain}, {"changed", m.changed}, {"reasons", m.reasons}};
}

json ComparisonToJson(const AbComparison& c) {
  json metrics = json::array();
  for (const auto& m : c.metrics) metrics.push_back(MetricResultToJson(m));
  return {{"cell", report::BytesToJson(c.cell)}, {"role", c.role}, {"head", c.head}, {"blocks", c.blocks},
          {"looks", c.looks}, {"verdict", VerdictName(c.verdict)}, {"supported_gain", c.supported_gain},
          {"failed_samples", c.failed_samples}, {"reasons", c.reasons}, {"metrics", metrics}};
}

json CheckToJson(const AbCheck& c) {
  return {{"kind", c.kind}, {"rule", c.rule}, {"cell", report::BytesToJson(c.cell)}, {"arm", c.arm},
          {"value", Num(c.value)}, {"limit", Num(c.limit)}, {"unit", c.unit}, {"ok", c.ok}};
}

json CampaignToJson(const store::FullRun& run) {
  const CohortRecord& c = *run.cohort;
  json cells = json::array();
  for (const auto& cell : run.cells) {
    json args = json::array(), env = json::array();
    for (const auto& a : cell.args) args.push_back(report::BytesToJson(a));
    for (const auto& e : cell.env) env.push_back(report::BytesToJson(e));
    cells.push_back({{"cell", cell.cell}, {"name", report::BytesToJson(cell.name)}, {"role", cell.role},
                     {"benchmark_id", cell.benchmark_id}, {"args", args}, {"env", env}});
  }
  json looks = json::array();
  for (const auto& l : run.looks) {
    json comparisons = json::array();
    for (const auto& x : l.comparisons) comparisons.push_back(ComparisonToJson(x));
    looks.push_back({{"cell", l.cell}, {"look", l.look}, {"final", l.final}, {"comparisons", comparisons}});
  }
  json checks = json::array();
  for (const auto& x : run.checks) checks.push_back(CheckToJson(x));
  return {{"cohort",
           {{"campaign_sha256", c.campaign_sha256}, {"campaign_name", report::BytesToJson(c.campaign_name)},
            {"campaign_source", report::BytesToJson(c.campaign_source)},
            {"campaign_text", report::BytesToJson(c.campaign_text)},
            {"spec", EmbedJson(c.spec_json, nullptr)},
            {"lock", EmbedJson(c.lock_json, nullptr)},
            {"lock_sha256", c.lock_sha256}, {"cohort", c.cohort}, {"state", c.state},
            {"stop_reason", report::BytesToJson(c.stop_reason)}, {"outcome", c.outcome}, {"resumed", c.resumed}}},
          {"cells", cells},
          {"looks", looks},
          {"checks", checks}};
}

// Reading: nlohmann's checked accessors throw on a missing key or a wrong type; FullRunFromJson
// catches that at its boundary and reports it with `where`, the field being read.
struct Reader {
  std::string where;

  std::string Bytes(const json& j, const std::string& key) {
    auto b = report::BytesFromJson(j.at(key), key);
    if (!b.ok()) throw std::runtime_error(b.status().message());
    return *b;
  }
  std::vector<std::string> BytesList(const json& j, const std::string& key) {
    std::vector<std::string> out;
    for (const auto& x : j.at(key)) {
      auto b = report::BytesFromJson(x, key);
      if (!b.ok()) throw std::runtime_error(b.status().message());
      out.push_back(*b);
    }
    return out;
  }
  static double Double(const json& j, const std::string& key) {
    const json& v = j.at(key);
    return v.is_null() ? kNaN : v.get<double>();
  }
};

// The value of an enum whose names `name` gives, among `all`; throws naming `what` otherwise.
template <typename E, typename NameOf>
E ByName(const std::string& s, std::initializer_list<E> all, NameOf name, const char* what) {
  for (E e : all) {
    if (s == name(e)) return e;
  }
  throw std::runtime_error(fmt::format("{} '{}' is unknown", what, s));
}

Direction ParseDirection(const std::string& s) {
  return ByName(s, {Direction::kLowerIsBetter, Direction::kHigherIsBetter}, DirectionName, "direction");
}
MetricKind ParseMetricKind(const std::string& s) {
  return ByName(s, {MetricKind::kTime, MetricKind::kCount, MetricKind::kBytes, MetricKind::kRatio}, MetricKindName,
                "metric kind");
}
SampleOutcome ParseOutcome(const std::string& s) {
  return ByName(s, {SampleOutcome::kOk, SampleOutcome::kFailed, SampleOutcome::kSignaled, SampleOutcome::kTimedOut,
                    SampleOutcome::kInterrupted, SampleOutcome::kSpawnError}, SampleOutcomeName, "sample outcome");
}
RunStatus ParseRunStatus(const std::string& s) {
  return ByName(s, {RunStatus::kRunning, RunStatus::kComplete, RunStatus::kInterrupted, RunStatus::kFailed},
                RunStatusName, "run status");
}

Verdict ParseVerdictOrThrow(const std::string& s) {
  auto v = ParseVerdict(s);
  if (!v.ok()) throw std::runtime_error(v.status().message());
  return *v;
}

AbComparison ComparisonFromJson(const json& j, Reader& r) {
  AbComparison c;
  c.cell = r.Bytes(j, "cell");
  c.role = j.at("role").get<CellRole>();
  c.head = j.at("head").get<std::string>();
  c.blocks = JsonIntegerAt<int64_t>(j, "blocks");
  c.looks = JsonIntegerAt<int64_t>(j, "looks");
  c.verdict = ParseVerdictOrThrow(j.at("verdict").get<std::string>());
  c.supported_gain = j.at("supported_gain").get<bool>();
  c.failed_samples = JsonIntegerAt<int64_t>(j, "failed_samples");
  c.reasons = j.at("reasons").get<std::vector<std::string>>();
  for (const auto& x : j.at("metrics")) {
    AbMetricResult m;
    r.where = "metrics";
    m.metric = x.at("metric").get<std::string>();
    m.unit = x.at("unit").get<std::string>();
    m.direction = ParseDirection(x.at("direction").get<std::string>());
    m.allowance = x.at("allowance").get<std::string>();
    m.declared = Reader::Double(x, "declared");
    m.pairs = JsonIntegerAt<int64_t>(x, "pairs");
    m.confidence = Reader::Double(x, "confidence");
    m.estimate = Reader::Double(x, "estimate");
    m.lo = Reader::Double(x, "lo");
    m.hi = Reader::Double(x, "hi");
    m.base_median = Reader::Double(x, "base_median");
    m.head_median = Reader::Double(x, "head_median");
    m.has_null = x.at("has_null").get<bool>();
    m.null_estimate = Reader::Double(x, "null_estimate");
    m.null_lo = Reader::Double(x, "null_lo");
    m.null_hi = Reader::Double(x, "null_hi");
    m.noise_floor = Reader::Double(x, "noise_floor");
    m.delta = Reader::Double(x, "delta");
    m.pass_bound = Reader::Double(x, "pass_bound");
    m.host_too_noisy = x.at("host_too_noisy").get<bool>();
    m.verdict = ParseVerdictOrThrow(x.at("verdict").get<std::string>());
    m.supported_gain = x.at("supported_gain").get<bool>();
    m.changed = x.at("changed").get<bool>();
    m.reasons = x.at("reasons").get<std::vector<std::string>>();
    c.metrics.push_back(m);
  }
  return c;
}

void CampaignFromJson(const json& j, store::FullRun* run, Reader& r) {
  const json& c = j.at("cohort");
  CohortRecord rec;
  r.where = "campaign.cohort";
  rec.campaign_sha256 = c.at("campaign_sha256").get<std::string>();
  rec.campaign_name = r.Bytes(c, "campaign_name");
  rec.campaign_source = r.Bytes(c, "campaign_source");
  rec.campaign_text = r.Bytes(c, "campaign_text");
  rec.spec_json = JsonText(c.at("spec"), false);
  rec.lock_json = JsonText(c.at("lock"), false);
  rec.lock_sha256 = c.at("lock_sha256").get<std::string>();
  rec.cohort = JsonIntegerAt<int64_t>(c, "cohort");
  rec.state = c.at("state").get<CohortState>();
  rec.stop_reason = r.Bytes(c, "stop_reason");
  rec.outcome = c.at("outcome").get<std::string>();
  rec.resumed = JsonIntegerAt<int64_t>(c, "resumed");
  run->cohort = rec;
  for (const auto& x : j.at("cells")) {
    r.where = "campaign.cells";
    CellRecord cell;
    cell.cell = JsonIntegerAt<int64_t>(x, "cell");
    cell.name = r.Bytes(x, "name");
    cell.role = x.at("role").get<CellRole>();
    cell.benchmark_id = JsonIntegerAt<int64_t>(x, "benchmark_id");
    cell.args = r.BytesList(x, "args");
    cell.env = r.BytesList(x, "env");
    run->cells.push_back(cell);
  }
  for (const auto& x : j.at("looks")) {
    r.where = "campaign.looks";
    store::StoredLook look;
    look.cell = JsonIntegerAt<int64_t>(x, "cell");
    look.look = JsonIntegerAt<int64_t>(x, "look");
    look.final = x.at("final").get<bool>();
    for (const auto& c2 : x.at("comparisons")) look.comparisons.push_back(ComparisonFromJson(c2, r));
    run->looks.push_back(look);
  }
  for (const auto& x : j.at("checks")) {
    r.where = "campaign.checks";
    AbCheck check;
    check.kind = x.at("kind").get<CheckKind>();
    check.rule = x.at("rule").get<std::string>();
    check.cell = r.Bytes(x, "cell");
    check.arm = x.at("arm").get<std::string>();
    check.value = Reader::Double(x, "value");
    check.limit = Reader::Double(x, "limit");
    check.unit = x.at("unit").get<std::string>();
    check.ok = x.at("ok").get<bool>();
    run->checks.push_back(check);
  }
}

StatusOr<store::FullRun> Read(const json& j, const MemberReader& read_member, Reader& r) {
  r.where = "schema";
  const std::string schema = j.at("schema").get<std::string>();
  const bool v1 = schema == report::kRunJsonSchemaV1;
  if (!v1 && schema != report::kRunJsonSchema) {
    return Status::DataLoss(fmt::format("schema '{}' is not {} or {}: not a `tare export` document, or one from "
                                        "a newer tare", schema, report::kRunJsonSchema, report::kRunJsonSchemaV1));
  }
  store::FullRun full;
  RunData& data = full.data;
  const json& run = j.at("run");
  r.where = "run";
  data.run.id = JsonIntegerAt<int64_t>(run, "id");
  data.run.kind = run.at("kind").get<RunKind>();
  data.run.status = ParseRunStatus(run.at("status").get<std::string>());
  data.run.started_unix_ns = JsonIntegerAt<int64_t>(run, "started_unix_ns");
  data.run.ended_unix_ns = JsonIntegerAt<int64_t>(run, "ended_unix_ns");
  data.run.tare_version = run.at("tare_version").get<std::string>();
  data.run.command_line = r.BytesList(run, "command_line");
  data.run.options_json = JsonText(run.at("options"), false);
  data.run.fingerprint_json = JsonText(j.at("fingerprint"), true);
  // The host's identity is recomputed from the fingerprint's hard keys, never taken from the
  // document (issue 23, item 3); a stated digest that disagrees is an error.
  std::string stated;
  if (run.contains("fingerprint_digest")) {
    stated = run.at("fingerprint_digest").get<std::string>();
  } else if (j.at("fingerprint").contains("hard_digest")) {
    stated = j.at("fingerprint").at("hard_digest").get<std::string>();
  }
  r.where = "fingerprint";
  auto digest = env::VerifiedHardDigest(data.run.fingerprint_json, stated);
  if (!digest.ok()) throw std::runtime_error(digest.status().message());
  data.run.fingerprint_digest = *digest;
  r.where = "run";
  if (run.contains("provenance")) {
    r.where = "run.provenance";
    const json& p = run.at("provenance");
    if (!p.at("commit").is_null()) data.run.provenance.commit = p.at("commit").get<std::string>();
    if (!p.at("branch").is_null()) data.run.provenance.branch = p.at("branch").get<std::string>();
    if (!p.at("dirty").is_null()) data.run.provenance.dirty = p.at("dirty").get<bool>();
    for (const auto& [k, v] : p.at("tags").items()) data.run.provenance.tags.emplace_back(k, v.get<std::string>());
  }
  if (run.contains("shard") && !run.at("shard").is_null()) {
    r.where = "run.shard";
    const json& sh = run.at("shard");
    ShardRecord shard;
    shard.index = JsonIntegerAt<int64_t>(sh, "shard");
    shard.count = JsonIntegerAt<int64_t>(sh, "count");
    shard.group = sh.at("group").get<std::string>();
    shard.assignment_sha256 = sh.at("assignment_sha256").get<std::string>();
    shard.weights = sh.at("weights").get<std::string>();
    for (const auto& e : sh.at("assignment")) {
      auto name = report::BytesFromJson(e.at(0), "run.shard.assignment");
      if (!name.ok()) throw std::runtime_error(name.status().message());
      shard.assignment.emplace_back(*name, JsonInteger<int64_t>(e.at(1), "assignment"));
    }
    data.run.shard = std::move(shard);
  }
  if (!v1) {
    data.run.uid = run.at("uid").get<std::string>();
  } else {
    // A tare.run/1 document has no uid: one derived from what it says, so the same document
    // imported twice is the same run.
    data.run.uid = Sha256Hex(DumpJson(run) + DumpJson(j.at("fingerprint"))).substr(0, 32);
  }
  for (const auto& e : j.at("executables")) {
    r.where = "executables";
    ExecutableRecord x;
    x.role = e.at("role").get<std::string>();
    x.path = r.Bytes(e, "path");
    x.sha256 = e.at("sha256").get<std::string>();
    x.info_json = JsonText(e.at("info"), true);
    data.executables.push_back(x);
  }
  for (const auto& m : j.at("metrics")) {
    r.where = "metrics";
    MetricDef d;
    d.name = m.at("name").get<std::string>();
    d.unit = m.at("unit").get<std::string>();
    d.direction = ParseDirection(m.at("direction").get<std::string>());
    d.kind = ParseMetricKind(m.at("kind").get<std::string>());
    d.description = m.at("description").get<std::string>();
    data.metrics.push_back(d);
  }
  for (const auto& n : j.at("notes")) {
    r.where = "notes";
    data.notes.push_back({n.at("level").get<std::string>(), r.Bytes(n, "message")});
  }
  int64_t next_sample_id = 1;
  const json& benchmarks = j.at("benchmarks");
  for (size_t i = 0; i < benchmarks.size(); ++i) {
    const json& b = benchmarks[i];
    r.where = fmt::format("benchmarks[{}]", i);
    BenchmarkRecord rec;
    rec.id = v1 ? static_cast<int64_t>(i) + 1 : JsonIntegerAt<int64_t>(b, "id");
    rec.uri = r.Bytes(b, "uri");
    rec.name = r.Bytes(b, "name");
    rec.kind = b.at("kind").get<TargetKind>();
    data.benchmarks.push_back(rec);
    const json& samples = b.at("samples");
    for (size_t k = 0; k < samples.size(); ++k) {
      const json& s = samples[k];
      r.where = fmt::format("benchmarks[{}].samples[{}]", i, k);
      StoredSample ss;
      ss.id = v1 ? next_sample_id++ : JsonIntegerAt<int64_t>(s, "id");
      ss.benchmark_id = rec.id;
      Sample& x = ss.sample;
      x.seq = JsonIntegerAt<int64_t>(s, "seq");
      x.arm = s.at("arm").get<std::string>();
      x.block = JsonIntegerAt<int64_t>(s, "block");
      x.warmup = s.at("warmup").get<bool>();
      x.outcome = ParseOutcome(s.at("outcome").get<std::string>());
      x.exit_code = JsonIntegerAt<int>(s, "exit_code");
      x.signal = JsonIntegerAt<int>(s, "signal");
      x.error = r.Bytes(s, "error");
      x.started_unix_ns = JsonIntegerAt<int64_t>(s, "started_unix_ns");
      x.ended_unix_ns = JsonIntegerAt<int64_t>(s, "ended_unix_ns");
      x.stdout_tail = r.Bytes(s, "stdout_tail");
      x.stderr_tail = r.Bytes(s, "stderr_tail");
      for (const auto& [k2, v] : s.at("values").items()) x.values[k2] = v.is_null() ? kNaN : v.get<double>();
      if (s.contains("discarded") && !s.at("discarded").is_null()) {
        full.discarded[ss.id] = s.at("discarded").get<std::string>();
      }
      data.samples.push_back(std::move(ss));
    }
  }
  std::sort(data.samples.begin(), data.samples.end(),
            [](const StoredSample& a, const StoredSample& b) { return a.sample.seq < b.sample.seq; });
  if (j.contains("artifacts")) {
    for (const auto& a : j.at("artifacts")) {
      r.where = "artifacts";
      store::StoredArtifact art;
      art.benchmark_id = JsonIntegerAt<int64_t>(a, "benchmark_id");
      art.name = a.at("name").get<std::string>();
      if (a.contains("member")) {
        const std::string member = a.at("member").get<std::string>();
        if (!read_member) {
          return Status::DataLoss(fmt::format("artifact '{}' is in bundle member '{}'; import the bundle, not its "
                                              "run.json alone", art.name, member));
        }
        TARE_ASSIGN_OR_RETURN(art.content, read_member(member));
      } else {
        art.content = r.Bytes(a, "content");
      }
      full.artifacts.push_back(std::move(art));
    }
  }
  if (j.contains("campaign") && !j.at("campaign").is_null()) CampaignFromJson(j.at("campaign"), &full, r);
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
    json x = {{"benchmark_id", a.benchmark_id}, {"name", a.name}, {"size", a.content.size()},
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
  Reader r;
  try {
    return Read(j, read_member, r);
  } catch (const std::exception& e) {
    return Status::DataLoss(fmt::format("not a tare export document: at {}: {}", r.where, e.what()));
  }
}

}  // namespace tare::bundle
