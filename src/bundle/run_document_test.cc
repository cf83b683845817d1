// The export document against real SQLite stores: a run with everything a store keeps (a cohort
// with its campaign, cells, looks and checks; discarded samples; a profile; tails that are not
// UTF-8; a failed sample) goes store -> tare.run/2 JSON text -> another store and must read back field
// for field. The end-to-end version with real `tare run` / `tare ab` runs is tests/e2e/bundle.
#include "bundle/run_document.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "base/files.h"
#include "base/json_text.h"
#include "bundle/bundle_writer.h"
#include "campaign/campaign_definition.h"
#include "model/fingerprint.h"
#include "store/store.h"
#include "store/transfer.h"

namespace tare::bundle {
namespace {

using nlohmann::json;

class RunDocumentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("tare-run-document-test");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
  }
  void TearDown() override { RemoveTree(dir_); }
  std::unique_ptr<store::Store> Open(const std::string& name) {
    auto s = store::Store::Open(dir_ + "/" + name);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return std::move(*s);
  }
  std::string dir_;
};

AbMetricResult Metric(double estimate) {
  AbMetricResult m;
  m.metric = "sim.Ir";
  m.unit = "count";
  m.pairs = 6;
  m.confidence = 0.95;
  m.estimate = estimate;
  m.lo = estimate - 0.001;
  m.hi = estimate + 0.001;
  m.base_median = 1234567;
  m.head_median = 1234567 * (1 + estimate);
  m.pass_bound = 0.02;
  m.verdict = Verdict::kPass;
  m.reasons = {"within the allowance"};
  return m;  // null_* stay NaN: no null arm
}

// A cohort as `tare ab` leaves it, written through the Store interface.
int64_t WriteCohort(store::Store& s) {
  RunRecord r;
  r.kind = RunKind::kAb;
  r.status = RunStatus::kComplete;
  r.started_unix_ns = 1700000000000000001;
  r.ended_unix_ns = 1700000000900000002;
  r.tare_version = "0.1.0";
  r.command_line = {"tare", "ab", "--base", std::string("/tmp/b\xff\xfe", 8)};
  r.options_json = R"({"instrument":"sim","seed":3})";
  // A real digest of its keys: an import recomputes it (issue 23, item 3).
  Fingerprint fp;
  fp.keys = {{"cpu.model", "X", true}};
  r.fingerprint_digest = fp.HardDigest();
  r.fingerprint_json = R"({"hard_digest":")" + r.fingerprint_digest +
                       R"(","keys":[{"hard":true,"key":"cpu.model","value":"X"}],"schema":"tare.fingerprint/1"})";
  r.provenance.commit = "0123456789abcdef0123456789abcdef01234567";
  r.provenance.branch = "main";
  r.provenance.dirty = true;
  r.provenance.tags = {{"job", "nightly"}};
  // Sharded (schema version 5): the shard and the whole split come back.
  r.shard = ShardRecord{2, 2, std::string(64, '1'), std::string(64, '2'), "uid:00ff", {{"BM_A", 2}, {"BM_Z", 1}}};
  auto id = s.BeginRun(r);
  EXPECT_TRUE(id.ok()) << id.status().message();
  EXPECT_TRUE(s.AddExecutable(*id, {"base", "/s/bin/base", std::string(64, 'b'), R"({"build_id":"1"})"}).ok());
  EXPECT_TRUE(s.AddExecutable(*id, {"head", "/s/bin/head", std::string(64, 'c'), R"({"build_id":"2"})"}).ok());
  auto bench = s.AddBenchmark(*id, {0, "base::BM_A", "BM_A", TargetKind::kGbench});
  EXPECT_TRUE(s.AddMetric(*id, LookupMetric("sim.Ir")).ok());
  EXPECT_TRUE(s.AddNote(*id, {"warn", "a note"}).ok());
  std::vector<int64_t> ids;
  for (int block = 0; block < 3; ++block) {
    for (const char* arm : {"base", "head"}) {
      Sample x;
      x.seq = static_cast<int64_t>(ids.size());
      x.arm = arm;
      x.block = block;
      x.started_unix_ns = 1700000000000000100 + x.seq;
      x.ended_unix_ns = x.started_unix_ns + 7;
      x.values = {{"sim.Ir", 1234567.0 + (arm[0] == 'h' ? 3 : 0)}, {"wall_ns", 0.1 + x.seq}};
      x.stderr_tail = std::string("warn\x80\n", 6);
      if (block == 2 && arm[0] == 'h') {
        x.outcome = SampleOutcome::kFailed;
        x.exit_code = 3;
        x.error = "exited with status 3";
        x.values = {};  // a failed sample has no readings
      }
      auto sid = s.AppendSample(*id, *bench, x);
      EXPECT_TRUE(sid.ok()) << sid.status().message();
      ids.push_back(*sid);
    }
  }
  EXPECT_TRUE(s.AddArtifact(*id, *bench, "base/callgrind.out", std::string("events: Ir\n\0\xff", 13)).ok());
  CohortRecord c;
  c.run_id = *id;
  c.campaign_sha256 = std::string(64, 'd');
  c.campaign_name = "knob";
  c.campaign_source = "flags";
  c.campaign_text = "{\n  \"name\": \"knob\"\n}";
  c.spec_json = R"({"format":"tare.campaign/1","name":"knob"})";
  c.lock_json = R"({"schema":"tare.lock/1","tare_version":"0.1.0"})";
  c.lock_sha256 = std::string(64, 'e');
  c.cohort = 2;
  c.state = CohortState::kComplete;
  c.outcome = "PASS";
  c.resumed = 1;
  EXPECT_TRUE(s.AddCohort(c).ok());
  EXPECT_TRUE(s.AddCell(*id, {0, "BM_A", CellRole::kTarget, *bench, {"--x"}, {"K=V"}}).ok());
  EXPECT_TRUE(s.DiscardSamples(*id, {ids[4], ids[5]}, "cut block").ok());
  AbComparison cmp;
  cmp.cell = "BM_A";
  cmp.head = "head";
  cmp.blocks = 2;
  cmp.looks = 1;
  cmp.verdict = Verdict::kPass;
  cmp.metrics = {Metric(0.0000024)};
  EXPECT_TRUE(s.SaveVerdicts(*id, 0, 0, false, {cmp}).ok());
  cmp.looks = 2;
  cmp.metrics = {Metric(0.0000025)};
  EXPECT_TRUE(s.SaveVerdicts(*id, 0, 1, true, {cmp}).ok());
  AbCheck gate{CheckKind::kGate,
               "peak_rss_bytes(head) <= 1.5 * peak_rss_bytes(base) + 8MiB",
               "BM_A",
               "head",
               1e6,
               2e7,
               "bytes",
               true};
  EXPECT_TRUE(s.SaveChecks(*id, CheckKind::kGate, {gate}).ok());
  EXPECT_TRUE(s.FinishRun(*id, RunStatus::kComplete, r.ended_unix_ns).ok());
  return *id;
}

// Everything but the ids a store gives, as one comparable JSON value.
json Comparable(const store::FullRun& run) {
  json j = FullRunToJson(run, ArtifactContent::kInline);
  j["run"].erase("id");
  std::map<int64_t, int64_t> bench_index, sample_index;
  for (size_t i = 0; i < run.data.benchmarks.size(); ++i)
    bench_index[run.data.benchmarks[i].id] = static_cast<int64_t>(i);
  for (size_t i = 0; i < run.data.samples.size(); ++i) sample_index[run.data.samples[i].id] = static_cast<int64_t>(i);
  for (auto& b : j["benchmarks"]) {
    b["id"] = bench_index[b["id"].get<int64_t>()];
    for (auto& s : b["samples"]) s["id"] = sample_index[s["id"].get<int64_t>()];
  }
  for (auto& a : j["artifacts"]) a["benchmark_id"] = bench_index[a["benchmark_id"].get<int64_t>()];
  if (!j["campaign"].is_null()) {
    for (auto& c : j["campaign"]["cells"]) c["benchmark_id"] = bench_index[c["benchmark_id"].get<int64_t>()];
  }
  return j;
}

TEST_F(RunDocumentTest, ImportOfExportRoundTripsEveryStoredValue) {
  auto src = Open("src.db");
  const int64_t id = WriteCohort(*src);
  auto original = store::ReadFullRun(*src, id);
  ASSERT_TRUE(original.ok()) << original.status().message();
  ASSERT_EQ(original->discarded.size(), 2u);
  ASSERT_EQ(original->looks.size(), 2u);

  // Through text, as `tare export` writes it and `tare import` reads it.
  const std::string text = DumpJson(FullRunToJson(*original, ArtifactContent::kInline), 2);
  auto parsed = FullRunFromJson(json::parse(text));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto dst = Open("dst.db");
  auto written = store::WriteFullRun(*dst, *parsed);
  ASSERT_TRUE(written.ok()) << written.status().message();
  EXPECT_TRUE(written->added);
  auto back = store::ReadFullRun(*dst, written->run_id);
  ASSERT_TRUE(back.ok()) << back.status().message();

  EXPECT_EQ(Comparable(*back).dump(2), Comparable(*original).dump(2));
  // Spot checks of what JSON would lose without care.
  // The store keeps argv as JSON (invalid bytes replaced); whatever it keeps comes back.
  EXPECT_EQ(back->data.run.command_line[3], original->data.run.command_line[3]);
  EXPECT_EQ(back->data.samples[0].sample.stderr_tail, std::string("warn\x80\n", 6));
  EXPECT_EQ(back->data.samples[5].sample.error, "exited with status 3");
  EXPECT_EQ(back->artifacts.at(0).content, std::string("events: Ir\n\0\xff", 13));
  EXPECT_EQ(back->data.run.uid, original->data.run.uid);
  ASSERT_TRUE(back->data.run.shard.has_value());
  EXPECT_EQ(back->data.run.shard->assignment, original->data.run.shard->assignment);
  EXPECT_EQ(back->data.run.shard->weights, "uid:00ff");
  EXPECT_EQ(back->data.run.shard->index, 2);

  // Importing again adds nothing.
  auto again = store::WriteFullRun(*dst, *parsed);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->added);
  EXPECT_EQ(again->run_id, written->run_id);
  EXPECT_EQ((*dst->ListRuns(100)).size(), 1u);
}

// A stored lock is read, not guessed at (base/json_read.h): `tare bundle` of a cohort whose lock is
// not JSON, or not a lock, stops naming the run; `tare export` keeps the text as it is stored (a JSON
// string of it, never null).
TEST_F(RunDocumentTest, AStoredLockThatCannotBeReadStopsTheBundleAndExportKeepsItsText) {
  auto src = Open("src.db");
  auto run = store::ReadFullRun(*src, WriteCohort(*src));
  ASSERT_TRUE(run.ok()) << run.status().message();
  for (const std::string& lock : {std::string(R"({"schema": "tare.lock/1", )"), run->cohort->lock_json}) {
    store::FullRun damaged = *run;
    damaged.cohort->lock_json = lock;
    auto dst = Open(lock.size() < 30 ? "cut.db" : "partial.db");
    auto written = store::WriteFullRun(*dst, damaged);
    ASSERT_TRUE(written.ok()) << written.status().message();
    auto bundle = WriteBundle(*dst, {written->run_id, dir_, dir_ + "/x.tar.gz", false, "0.1.0"});
    ASSERT_FALSE(bundle.ok());
    EXPECT_EQ(bundle.status().code(), StatusCode::kDataLoss);
    const std::string want = lock.size() < 30
                                 ? fmt::format("run {}'s lock: not valid JSON at byte 27 (", written->run_id)
                                 : fmt::format(
                                       "run {}'s lock: the stored lock is damaged or not tare.lock/1: "
                                       "missing field 'campaign'",
                                       written->run_id);
    EXPECT_NE(bundle.status().message().find(want), std::string::npos) << bundle.status().message();
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/x.tar.gz"));
    auto back = store::ReadFullRun(*dst, written->run_id);
    ASSERT_TRUE(back.ok()) << back.status().message();
    const json doc = FullRunToJson(*back, ArtifactContent::kInline);
    EXPECT_EQ(doc["campaign"]["cohort"]["lock"], lock.size() < 30 ? json(lock) : json::parse(lock));
  }
}

TEST_F(RunDocumentTest, SummariesAreNeverPooledAcrossArmsAndSkipDiscardedSamples) {
  auto src = Open("src.db");
  const int64_t id = WriteCohort(*src);
  auto run = store::ReadFullRun(*src, id);
  ASSERT_TRUE(run.ok());
  const json j = FullRunToJson(*run, ArtifactContent::kInline);
  EXPECT_EQ(j["schema"], "tare.run/2");
  const json& b = j["benchmarks"][0];
  ASSERT_EQ(b["summaries"].size(), 2u);
  EXPECT_EQ(b["summaries"][0]["arm"], "base");
  EXPECT_EQ(b["summaries"][1]["arm"], "head");
  // Block 2 was set aside: base and head keep two samples each, with their own values.
  EXPECT_EQ(b["summaries"][0]["metrics"]["sim.Ir"]["n"], 2);
  EXPECT_EQ(b["summaries"][0]["metrics"]["sim.Ir"]["median"], 1234567.0);
  EXPECT_EQ(b["summaries"][1]["metrics"]["sim.Ir"]["median"], 1234570.0);
  EXPECT_EQ(b["discarded_samples"], 2);
  EXPECT_EQ(b["samples"][4]["discarded"], "cut block");
  EXPECT_TRUE(b["samples"][0]["discarded"].is_null());
  EXPECT_EQ(j["campaign"]["looks"].size(), 2u);
  EXPECT_EQ(j["campaign"]["checks"][0]["kind"], "gate");
}

TEST_F(RunDocumentTest, ReadsTareRun1AndGivesItAStableUid) {
  const json v1 = json::parse(R"({
    "schema": "tare.run/1",
    "run": {"id": 4, "kind": "run", "status": "complete", "started_unix_ns": 1, "ended_unix_ns": 2,
            "tare_version": "0.1.0", "command_line": ["tare", "run", "./b"], "options": {"samples": 2},
            "provenance": {"commit": null, "branch": null, "dirty": null, "tags": {}}},
    "fingerprint": {"schema": "tare.fingerprint/1", "keys": [], "checks": []},
    "executables": [{"role": "target", "path": "/b", "sha256": "s", "info": {}}],
    "metrics": [{"name": "wall_ns", "unit": "ns", "direction": "lower", "kind": "time", "description": "d"}],
    "notes": [],
    "benchmarks": [{"uri": "b::b", "name": "b", "kind": "command", "ok_samples": 2, "failed_samples": 0,
      "summary": {}, "samples": [
        {"seq": 0, "arm": "", "block": 0, "warmup": false, "outcome": "ok", "exit_code": 0, "signal": 0,
         "error": "", "started_unix_ns": 1, "ended_unix_ns": 2, "stdout_tail": "", "stderr_tail": "",
         "values": {"wall_ns": 1000}},
        {"seq": 1, "arm": "", "block": 1, "warmup": false, "outcome": "ok", "exit_code": 0, "signal": 0,
         "error": "", "started_unix_ns": 3, "ended_unix_ns": 4, "stdout_tail": "", "stderr_tail": "",
         "values": {"wall_ns": 1010}}]}]})");
  auto a = FullRunFromJson(v1);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->data.run.uid.size(), 32u);
  EXPECT_EQ(a->data.run.fingerprint_digest, Fingerprint().HardDigest()) << "recomputed from the (no) keys";
  EXPECT_EQ(a->data.samples.size(), 2u);
  EXPECT_EQ(FullRunFromJson(v1)->data.run.uid, a->data.run.uid);
  auto dst = Open("dst.db");
  ASSERT_TRUE(store::WriteFullRun(*dst, *a).ok());
  auto again = store::WriteFullRun(*dst, *FullRunFromJson(v1));
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->added) << "a tare.run/1 document imported twice is one run";
}

TEST_F(RunDocumentTest, RefusesOtherDocumentsNamingTheField) {
  auto r = FullRunFromJson(json::parse(R"({"schema": "tare.ab/1"})"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("tare.ab/1"), std::string::npos);
  auto missing = FullRunFromJson(json::parse(R"({"schema": "tare.run/2", "run": {"id": 1}})"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("not a tare export document: at /run: missing field 'kind'"),
            std::string::npos)
      << missing.status().message();
}

// Integer fields take JSON integers that fit in 64 bits (32 for exit_code and signal): a float
// there, or an unsigned integer past INT64_MAX, is DataLoss naming the field, never a conversion
// (converting an out-of-range float is undefined behaviour: the run_document fuzzer found
// started_unix_ns = 21796141803706527842; tests/fuzz/crashes/run_document/).
TEST_F(RunDocumentTest, IntegerFieldsRefuseFloatsAndValuesBeyondTheirRange) {
  auto src = Open("src.db");
  auto original = store::ReadFullRun(*src, WriteCohort(*src));
  ASSERT_TRUE(original.ok()) << original.status().message();
  const json good = json::parse(DumpJson(FullRunToJson(*original, ArtifactContent::kInline), 2));
  ASSERT_TRUE(FullRunFromJson(good).ok());
  struct Case {
    const char* field;
    json value;
  };
  for (const Case& c :
       {Case{"started_unix_ns", json(UINT64_MAX)}, Case{"started_unix_ns", json(2.1796141803706527842e19)},
        Case{"seq", json(3.0)}, Case{"exit_code", json(int64_t{1} << 40)}, Case{"signal", json("9")}}) {
    json doc = good;
    ASSERT_FALSE(doc.at("benchmarks").at(0).at("samples").empty());
    doc["benchmarks"][0]["samples"][0][c.field] = c.value;
    auto r = FullRunFromJson(doc);
    ASSERT_FALSE(r.ok()) << c.field << " = " << c.value.dump();
    EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
    EXPECT_NE(r.status().message().find(c.field), std::string::npos) << r.status().message();
  }
  json big_ok = good;
  big_ok["benchmarks"][0]["samples"][0]["started_unix_ns"] = INT64_MAX;  // the largest that fits is read
  auto r = FullRunFromJson(big_ok);
  ASSERT_TRUE(r.ok()) << r.status().message();
}

// `tare replay` rebuilds a campaign from the spec the store kept.
TEST(SpecJson, SpecFromJsonInvertsSpecToJson) {
  campaign::CampaignSpec spec;
  spec.name = "knob";
  spec.kind = TargetKind::kGbench;
  spec.instrument = Instrument::kSim;
  spec.base = "/a/base";
  spec.heads = {"/a/head", "/a/head2"};
  spec.null_arm = true;
  spec.args = {"--x"};
  spec.env = {"K=V"};
  spec.filter = "BM_.*";
  spec.sampling = {6, 6, 12};
  spec.seed = 7;
  spec.budget_ns = 60'000'000'000;
  spec.metrics = {{"sim.Ir", *campaign::ParseAllowance("0.5%"), Direction::kLowerIsBetter}};
  campaign::CellSpec cell;
  cell.name = "BM_A";
  cell.allowances["sim.Ir"] = *campaign::ParseAllowance("1%");
  spec.cells = {cell};
  spec.gates.emplace();
  spec.bounds = {*campaign::ParseBound("p95(wall_ns, head) <= 25ms")};
  const json j = campaign::SpecToJson(spec);
  auto back = campaign::SpecFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(campaign::SpecToJson(*back).dump(), j.dump());
  EXPECT_EQ(campaign::CampaignIdentity(*back), campaign::CampaignIdentity(spec));
  json bad = j;
  bad["order"] = "sideways";
  EXPECT_FALSE(campaign::SpecFromJson(bad).ok());
  // A spec from another host's bundle: integers must be integers that fit (JsonInteger).
  for (const auto& [field, value] : std::vector<std::pair<std::string, json>>{
           {"budget_ns", json(1e300)}, {"seed", json(-1)}, {"timeout_ns", json(2.5)}, {"layouts", json(UINT64_MAX)}}) {
    json hostile = j;
    hostile[field] = value;
    auto r = campaign::SpecFromJson(hostile);
    ASSERT_FALSE(r.ok()) << field << " = " << value.dump();
    EXPECT_NE(r.status().message().find(field), std::string::npos) << r.status().message();
  }
  json deep = j;
  deep["sampling"]["cap"] = 1e30;
  EXPECT_FALSE(campaign::SpecFromJson(deep).ok());
  // One read idiom (base/json_read.h): the field by its JSON pointer, a Status parser's message as
  // it is, and stored text that is not JSON an error, not a spec of defaults.
  json role = j;
  role["cells"][0]["role"] = "sidekick";
  auto r = campaign::SpecFromJson(role);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(r.status().message().find("campaign spec: at /cells/0/role: "), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("'sidekick'"), std::string::npos) << r.status().message();
  auto text = campaign::SpecFromJsonText(j.dump().substr(0, 30), "run 9's campaign spec");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("run 9's campaign spec: not valid JSON at byte 31 ("), std::string::npos)
      << text.status().message();
  auto back_text = campaign::SpecFromJsonText(j.dump(), "run 9's campaign spec");
  ASSERT_TRUE(back_text.ok()) << back_text.status().message();
  EXPECT_EQ(campaign::SpecToJson(*back_text).dump(), j.dump());
}

}  // namespace
}  // namespace tare::bundle
