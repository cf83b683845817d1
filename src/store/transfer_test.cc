// Whole runs moved between two real SQLite stores: every table of an `ab` cohort read, written into
// a second store with its ids remapped, read back equal; written twice, added once; a write that
// fails half-way leaves the destination as it was.
#include "store/transfer.h"
#include "store/run_copy.h"
#include "store/stored_look.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <nlohmann/json.hpp>

namespace tare::store {
namespace {

nlohmann::json Number(double v) { return std::isnan(v) ? nlohmann::json("NaN") : nlohmann::json(v); }

// Every field of a FullRun, with this store's ids replaced by positions, so runs read from two
// stores compare equal exactly when everything but the ids is.
nlohmann::json Normalized(const FullRun& f) {
  std::map<int64_t, int64_t> bench, sample;
  for (size_t i = 0; i < f.data.benchmarks.size(); ++i) bench[f.data.benchmarks[i].id] = static_cast<int64_t>(i + 1);
  for (size_t i = 0; i < f.data.samples.size(); ++i) sample[f.data.samples[i].id] = static_cast<int64_t>(i + 1);
  auto b = [&](int64_t id) { return bench.count(id) ? bench[id] : -id; };
  const RunRecord& r = f.data.run;
  nlohmann::json j;
  j["run"] = {r.uid,
              r.kind,
              RunStatusName(r.status),
              r.started_unix_ns,
              r.ended_unix_ns,
              r.tare_version,
              r.command_line,
              r.options_json,
              r.fingerprint_json,
              r.fingerprint_digest,
              r.provenance.commit,
              r.provenance.branch,
              r.provenance.dirty ? nlohmann::json(*r.provenance.dirty) : nlohmann::json(),
              r.provenance.tags};
  if (r.shard) {
    j["shard"] = {r.shard->index,   r.shard->count,     r.shard->group, r.shard->assignment_sha256,
                  r.shard->weights, r.shard->assignment};
  }
  for (const auto& e : f.data.executables) j["exes"].push_back({e.role, e.path, e.sha256, e.info_json});
  for (const auto& x : f.data.benchmarks) j["benchmarks"].push_back({b(x.id), x.uri, x.name, x.kind});
  for (const auto& m : f.data.metrics) {
    j["metrics"].push_back({m.name, m.unit, DirectionName(m.direction), MetricKindName(m.kind), m.description});
  }
  for (const auto& n : f.data.notes) j["notes"].push_back({n.level, n.message});
  for (const auto& s : f.data.samples) {
    const Sample& x = s.sample;
    nlohmann::json values;
    for (const auto& [k, v] : x.values) values[k] = Number(v);
    j["samples"].push_back({sample[s.id], b(s.benchmark_id), x.seq, x.arm, x.block, x.warmup, x.started_unix_ns,
                            x.ended_unix_ns, SampleOutcomeName(x.outcome), x.exit_code, x.signal, x.error,
                            x.stdout_tail, x.stderr_tail, values});
  }
  for (const auto& a : f.artifacts)
    j["artifacts"].push_back({b(a.benchmark_id), a.name, nlohmann::json::binary({a.content.begin(), a.content.end()})});
  if (f.cohort) {
    const CohortRecord& c = *f.cohort;
    j["cohort"] = {c.campaign_sha256, c.campaign_name, c.campaign_source, c.campaign_text, c.spec_json,
                   c.lock_json,       c.lock_sha256,   c.cohort,          c.state,         c.stop_reason,
                   c.outcome,         c.resumed,       c.started_unix_ns, c.samples};
  }
  for (const auto& c : f.cells) j["cells"].push_back({c.cell, c.name, c.role, b(c.benchmark_id), c.args, c.env});
  for (const auto& l : f.looks) {
    nlohmann::json look = {l.cell, l.look, l.final};
    for (const auto& c : l.comparisons) {
      nlohmann::json cmp = {c.cell, c.head, VerdictName(c.verdict), c.supported_gain, c.reasons};
      for (const auto& m : c.metrics) {
        cmp.push_back({m.metric, m.pairs, Number(m.confidence), Number(m.estimate), Number(m.lo), Number(m.hi),
                       Number(m.base_median), Number(m.head_median), m.allowance, Number(m.delta),
                       Number(m.noise_floor), m.has_null, Number(m.null_estimate), Number(m.null_lo), Number(m.null_hi),
                       m.host_too_noisy, VerdictName(m.verdict), m.supported_gain, m.reasons});
      }
      look.push_back(cmp);
    }
    j["looks"].push_back(look);
  }
  for (const auto& c : f.checks) {
    j["checks"].push_back({c.kind, c.rule, c.cell, c.arm, Number(c.value), Number(c.limit), c.ok});
  }
  for (const auto& [id, reason] : f.discarded) j["discarded"].push_back({sample[id], reason});
  return j;
}

// A cohort of `tare ab` with something in every table, NaNs, NUL bytes and failed samples.
int64_t WriteCohort(Store& s) {
  RunRecord r;
  r.kind = RunKind::kAb;
  r.started_unix_ns = 1'700'000'000'123'456'789;
  r.tare_version = "0.1.0";
  r.command_line = {"tare", "ab", "--base", "./old", "--head", "./new"};
  r.options_json = R"({"blocks":2})";
  r.fingerprint_json = R"({"keys":[{"key":"cpu.model","value":"X"}]})";
  r.fingerprint_digest = "digest-of-host-a";
  r.provenance = {"89abcdef0123456789abcdef0123456789abcdef", "feature/x", true, {{"ci", "7"}, {"pr", "12"}}};
  // A sharded cohort (schema version 5): its shard and whole assignment travel with it.
  r.shard = ShardRecord{2, 3, std::string(64, 'e'), std::string(64, 'f'), "equal", {{"a", 1}, {"cell", 2}, {"z", 3}}};
  auto id = s.BeginRun(r);
  EXPECT_TRUE(id.ok()) << id.status().message();
  const int64_t run = *id;
  EXPECT_TRUE(s.AddExecutable(run, {"base", "/tmp/old", "aa", R"({"build_id":"1"})"}).ok());
  EXPECT_TRUE(s.AddExecutable(run, {"head", "/tmp/new", "bb", R"({"build_id":"2"})"}).ok());
  auto b1 = s.AddBenchmark(run, {0, "t::BM_A", "BM_A", TargetKind::kGbench});
  auto b2 = s.AddBenchmark(run, {0, "t::BM_B", "BM_B", TargetKind::kGbench});
  EXPECT_TRUE(b1.ok() && b2.ok());
  EXPECT_TRUE(s.AddMetric(run, LookupMetric("wall_ns")).ok());
  EXPECT_TRUE(s.AddMetric(run, LookupMetric("peak_rss_bytes")).ok());
  EXPECT_TRUE(s.AddNote(run, {"warn", "load was high; wait and rerun"}).ok());
  std::vector<int64_t> samples;
  for (int seq = 0; seq < 8; ++seq) {
    Sample x;
    x.seq = seq;
    x.arm = seq % 2 ? "head" : "base";
    x.block = seq / 4;
    x.warmup = seq == 0;
    x.started_unix_ns = 100 + seq;
    x.ended_unix_ns = 200 + seq;
    x.values = {{"wall_ns", 1000.5 + seq}, {"peak_rss_bytes", 4096.0 * seq}};
    if (seq == 5) {
      x.outcome = SampleOutcome::kSignaled;
      x.signal = 11;
      x.exit_code = -1;
      x.error = "killed by SIGSEGV";
      x.stderr_tail = std::string("boom\0\x1b[31mred", 14);
      x.values.clear();
    }
    x.stdout_tail = "out " + std::to_string(seq);
    auto sid = s.AppendSample(run, seq < 4 ? *b1 : *b2, x);
    EXPECT_TRUE(sid.ok()) << sid.status().message();
    samples.push_back(*sid);
  }
  EXPECT_TRUE(s.AddArtifact(run, *b2, "head/callgrind.out", std::string("\0\1\2events: Ir\n", 15)).ok());
  EXPECT_TRUE(s.AddArtifact(run, 0, "ledger.md", "# ledger").ok());
  CohortRecord c;
  c.run_id = run;
  c.campaign_sha256 = "c0ffee";
  c.campaign_name = "speedup";
  c.campaign_source = "file:campaign.toml";
  c.campaign_text = "[campaign]\nname = \"speedup\"\n";
  c.spec_json = R"({"cells":2})";
  c.lock_json = R"({"schema":"tare.lock/1"})";
  c.lock_sha256 = "10c4";
  c.cohort = 3;
  c.state = CohortState::kComplete;
  c.stop_reason = "all cells decided";
  c.outcome = "FAIL";
  c.resumed = 1;
  EXPECT_TRUE(s.AddCohort(c).ok());
  EXPECT_TRUE(s.AddCell(run, {1, "BM_A", CellRole::kTarget, *b1, {"--n=1"}, {"X=1"}}).ok());
  EXPECT_TRUE(s.AddCell(run, {2, "BM_B", CellRole::kControl, *b2, {}, {}}).ok());
  auto comparison = [](const std::string& cell, const std::string& head, Verdict v, double est) {
    AbComparison cmp;
    cmp.cell = cell;
    cmp.head = head;
    cmp.verdict = v;  // stored as the cohort gave it (schema version 7), no longer recomputed
    AbMetricResult m;
    m.metric = "wall_ns";
    m.pairs = 10;
    m.confidence = 0.99;
    m.estimate = est;
    m.lo = est - 0.01;
    m.hi = kNaN;
    m.base_median = 1000;
    m.head_median = 1010;
    m.allowance = "2%";
    m.delta = 0.02;
    m.noise_floor = 0.001;
    m.host_too_noisy = false;
    m.verdict = v;
    m.supported_gain = v == Verdict::kPass;
    m.reasons = {"interval crosses the allowance"};
    AbMetricResult rss = m;
    rss.metric = "peak_rss_bytes";
    rss.estimate = kNaN;
    rss.has_null = true;
    rss.null_estimate = 0.001;
    rss.null_lo = -0.002;
    rss.null_hi = 0.004;
    rss.verdict = Verdict::kPass;
    rss.reasons = {};
    cmp.metrics = {m, rss};
    return cmp;
  };
  EXPECT_TRUE(s.SaveVerdicts(run, 1, 1, false, {comparison("BM_A", "head", Verdict::kInconclusive, 0.01)}).ok());
  EXPECT_TRUE(s.SaveVerdicts(
                   run, 1, 2, true,
                   {comparison("BM_A", "head", Verdict::kFail, 0.05), comparison("BM_A", "head2", Verdict::kPass, 0.0)})
                  .ok());
  EXPECT_TRUE(s.SaveVerdicts(run, 2, 1, true, {comparison("BM_B", "head", Verdict::kPass, -0.01)}).ok());
  EXPECT_TRUE(s.SaveChecks(run, CheckKind::kGate,
                           {{CheckKind::kGate, "failed_samples <= 0", "BM_B", "head", 1, 0, "count", false}})
                  .ok());
  EXPECT_TRUE(s.SaveChecks(run, CheckKind::kBound,
                           {{CheckKind::kBound, "wall_ns <= 5%", "BM_A", "head", 0.05, kNaN, "ratio", true},
                            {CheckKind::kBound, "wall_ns <= 5%", "BM_B", "head", kNaN, 0.05, "ratio", true}})
                  .ok());
  EXPECT_TRUE(s.DiscardSamples(run, {samples[1], samples[2]}, "resumed: block 0 was cut short").ok());
  EXPECT_TRUE(s.DiscardSamples(run, {samples[3]}, "another reason").ok());
  EXPECT_TRUE(s.FinishRun(run, RunStatus::kInterrupted, 1'700'000'000'999'000'000).ok());
  return run;
}

class TransferTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "transfer_test_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);  // a store is created only in a directory that exists
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<Store> Open(const std::string& name) {
    auto s = Store::Open(dir_ + "/" + name);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? std::move(*s) : nullptr;
  }

  std::string dir_;
};

// Into `dst`: every table of a cohort, read back equal with its ids remapped; twice, added once.
void CopiesACohort(Store& src_store, Store& dst_store) {
  Store* src = &src_store;
  Store* dst = &dst_store;
  // dst already holds other runs, so every id there differs from the source's.
  RunRecord other;
  other.started_unix_ns = 1;
  auto other_run = dst->BeginRun(other);
  ASSERT_TRUE(other_run.ok()) << other_run.status().message();
  auto other_bench = dst->AddBenchmark(*other_run, {0, "x::y", "y", TargetKind::kCommand});
  ASSERT_TRUE(other_bench.ok());
  Sample filler;
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(dst->AppendSample(*other_run, *other_bench, filler).ok());
  const int64_t run = WriteCohort(*src);

  auto full = ReadFullRun(*src, run);
  ASSERT_TRUE(full.ok()) << full.status().message();
  ASSERT_TRUE(IsRunUid(full->data.run.uid));
  EXPECT_EQ(full->data.samples.size(), 8u);
  EXPECT_EQ(full->artifacts.size(), 2u);
  ASSERT_TRUE(full->cohort.has_value());
  EXPECT_EQ(full->cells.size(), 2u);
  ASSERT_EQ(full->looks.size(), 3u);
  EXPECT_EQ(full->looks[1].comparisons.size(), 2u);  // both heads of cell 1's final look
  EXPECT_EQ(full->checks.size(), 3u);
  EXPECT_EQ(full->discarded.size(), 3u);

  auto written = WriteFullRun(*dst, *full);
  ASSERT_TRUE(written.ok()) << written.status().message();
  EXPECT_TRUE(written->added);
  EXPECT_NE(written->run_id, run);
  auto back = ReadFullRun(*dst, written->run_id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(Normalized(*back).dump(1), Normalized(*full).dump(1));
  // The ids really were remapped, and the values really are the ones written (not only equal).
  EXPECT_NE(back->data.benchmarks[0].id, full->data.benchmarks[0].id);
  EXPECT_NE(back->data.samples[0].id, full->data.samples[0].id);
  EXPECT_EQ(back->cells[0].benchmark_id, back->data.benchmarks[0].id);
  EXPECT_EQ(back->data.run.status, RunStatus::kInterrupted);
  EXPECT_EQ(back->data.run.ended_unix_ns, 1'700'000'000'999'000'000);
  EXPECT_EQ(back->data.run.fingerprint_digest, "digest-of-host-a");
  EXPECT_EQ(back->data.run.provenance.dirty, std::optional<bool>(true));
  ASSERT_TRUE(back->data.run.shard.has_value());
  EXPECT_EQ(back->data.run.shard->index, 2);
  EXPECT_EQ(back->data.run.shard->assignment, full->data.run.shard->assignment);
  EXPECT_EQ(back->data.samples[5].sample.stderr_tail, std::string("boom\0\x1b[31mred", 14));
  EXPECT_EQ(back->artifacts[0].content, "# ledger");  // benchmark id 0: the whole run's
  EXPECT_EQ(back->artifacts[0].benchmark_id, 0);
  EXPECT_EQ(back->artifacts[1].content, std::string("\0\1\2events: Ir\n", 15));
  EXPECT_TRUE(std::isnan(back->looks[0].comparisons[0].metrics[0].hi));
  EXPECT_TRUE(back->looks[1].final);
  EXPECT_FALSE(back->looks[0].final);
  EXPECT_EQ(back->looks[1].comparisons[0].verdict, Verdict::kFail);
  EXPECT_EQ(back->cohort->samples, 5);  // 8 stored, 3 set aside
  auto discarded = dst->DiscardedSamplesOf(written->run_id);
  ASSERT_TRUE(discarded.ok());
  EXPECT_EQ(*discarded,
            (std::set<int64_t>{back->data.samples[1].id, back->data.samples[2].id, back->data.samples[3].id}));
  auto cohorts = dst->CohortsOf("c0ffee");
  ASSERT_TRUE(cohorts.ok());
  ASSERT_EQ(cohorts->size(), 1u);
  EXPECT_EQ((*cohorts)[0].run_id, written->run_id);

  // Twice: nothing added, the existing id answered.
  auto again = WriteFullRun(*dst, *full);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_FALSE(again->added);
  EXPECT_EQ(again->run_id, written->run_id);
  auto runs = dst->ListRuns(100);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 2u);
  auto reread = ReadFullRun(*dst, written->run_id);
  ASSERT_TRUE(reread.ok());
  EXPECT_EQ(reread->data.samples.size(), 8u);
  EXPECT_EQ(Normalized(*reread).dump(), Normalized(*full).dump());
}

// Into `dst`, a run that cannot be written whole is not written at all: the failure comes after the
// run row, benchmarks and samples were written, and all of it is rolled back.
void LeavesTheDestinationAsItWasOnAFailure(Store& src, Store& dst_store) {
  Store* dst = &dst_store;
  auto full = ReadFullRun(src, WriteCohort(src));
  ASSERT_TRUE(full.ok()) << full.status().message();
  full->discarded[987654] = "a sample this run does not have";
  auto written = WriteFullRun(*dst, *full);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.status().code(), StatusCode::kDataLoss) << written.status().message();
  auto runs = dst->ListRuns(100);
  ASSERT_TRUE(runs.ok());
  EXPECT_TRUE(runs->empty());
  auto found = dst->FindRunByUid(full->data.run.uid);
  ASSERT_TRUE(found.ok());
  EXPECT_FALSE(found->has_value());
  // And the store still takes writes afterwards (no transaction left open).
  full->discarded.erase(987654);
  auto retry = WriteFullRun(*dst, *full);
  ASSERT_TRUE(retry.ok()) << retry.status().message();
  EXPECT_TRUE(retry->added);
  auto after = dst->ListRuns(100);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->size(), 1u);
}

// WriteFullRuns: several runs in one transaction, all or none. A damaged second run rolls the
// first back too; repaired, both go in, in order; again, both are found and nothing is added.
void WritesABatchAllOrNone(Store& src, Store& dst) {
  std::vector<FullRun> batch;
  for (int i = 0; i < 2; ++i) {
    auto full = ReadFullRun(src, WriteCohort(src));
    ASSERT_TRUE(full.ok()) << full.status().message();
    batch.push_back(std::move(*full));
  }
  ASSERT_NE(batch[0].data.run.uid, batch[1].data.run.uid);
  batch[1].discarded[987654] = "a sample this run does not have";
  auto failed = WriteFullRuns(dst, batch);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kDataLoss) << failed.status().message();
  auto none = dst.ListRuns(100);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty()) << "the first run of a failed batch was kept";

  batch[1].discarded.erase(987654);
  auto written = WriteFullRuns(dst, batch);
  ASSERT_TRUE(written.ok()) << written.status().message();
  ASSERT_EQ(written->size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE((*written)[i].added);
    auto found = dst.FindRunByUid(batch[i].data.run.uid);
    ASSERT_TRUE(found.ok() && found->has_value());
    EXPECT_EQ(**found, (*written)[i].run_id);
    auto back = ReadFullRun(dst, (*written)[i].run_id);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(Normalized(*back).dump(), Normalized(batch[i]).dump());
  }
  auto again = WriteFullRuns(dst, batch);
  ASSERT_TRUE(again.ok()) << again.status().message();
  ASSERT_EQ(again->size(), 2u);
  EXPECT_FALSE((*again)[0].added);
  EXPECT_FALSE((*again)[1].added);
  EXPECT_EQ((*again)[1].run_id, (*written)[1].run_id);
  auto runs = dst.ListRuns(100);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 2u);
}

TEST_F(TransferTest, ABatchOfRunsIsWrittenAllOrNone) {
  auto src = Open("a.db");
  auto dst = Open("b.db");
  ASSERT_TRUE(src && dst);
  WritesABatchAllOrNone(*src, *dst);
}

TEST_F(TransferTest, CopiesEveryTableOfACohortWithIdsRemapped) {
  auto src = Open("a.db");
  auto dst = Open("b.db");
  ASSERT_TRUE(src && dst);
  CopiesACohort(*src, *dst);
}

// The cohort of WriteCohort: BM_A looked twice (the second final, with two heads), BM_B once. The
// latest look per cell is what its ledger reported, from LooksOf's order or any other.
TEST_F(TransferTest, TheLatestLookOfEachCellIsTheOneItsLedgerReported) {
  auto s = Open("a.db");
  ASSERT_TRUE(s);
  const int64_t run = WriteCohort(*s);
  auto looks = s->LooksOf(run);
  ASSERT_TRUE(looks.ok()) << looks.status().message();
  ASSERT_EQ(looks->size(), 3u);
  std::vector<StoredLook> reversed(looks->rbegin(), looks->rend());
  for (const auto* in : {&*looks, &reversed}) {
    const std::vector<StoredLook> latest = LatestLookOfEachCell(*in);
    ASSERT_EQ(latest.size(), 2u);
    EXPECT_EQ(latest[0].cell, 1);
    EXPECT_EQ(latest[0].look, 2);
    EXPECT_TRUE(latest[0].final);
    ASSERT_EQ(latest[0].comparisons.size(), 2u);
    EXPECT_EQ(latest[0].comparisons[0].cell, "BM_A");
    EXPECT_EQ(latest[0].comparisons[0].verdict, Verdict::kFail);
    EXPECT_EQ(latest[1].cell, 2);
    EXPECT_EQ(latest[1].look, 1);
    EXPECT_EQ(latest[1].comparisons.at(0).cell, "BM_B");
  }
}

TEST_F(TransferTest, AFailureHalfWayLeavesTheDestinationAsItWas) {
  auto src = Open("a.db");
  auto dst = Open("b.db");
  ASSERT_TRUE(src && dst);
  LeavesTheDestinationAsItWasOnAFailure(*src, *dst);
}

// The same into a real PostgreSQL server (tests/e2e/store/with_postgres.sh sets TARE_TEST_PG; skipped
// without it), each test in a fresh schema.
std::unique_ptr<Store> OpenPostgresSchema(const std::string& schema) {
  const char* url = std::getenv("TARE_TEST_PG");
  if (url == nullptr || *url == '\0') return nullptr;
  {
    auto admin = Store::Open(url);  // any store call would do; this one also proves the URL works
    EXPECT_TRUE(admin.ok()) << admin.status().message();
  }
  const std::string reset = std::string("psql -q '") + url + "' -c 'DROP SCHEMA IF EXISTS " + schema +
                            " CASCADE; CREATE SCHEMA " + schema + "' >/dev/null";
  EXPECT_EQ(std::system(reset.c_str()), 0) << reset;
  auto s = Store::Open(std::string(url) + "&options=-csearch_path%3D" + schema);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(*s) : nullptr;
}

TEST_F(TransferTest, CopiesACohortIntoPostgres) {
  auto dst = OpenPostgresSchema("transfer_copy");
  if (!dst) GTEST_SKIP() << "TARE_TEST_PG is not set: run under tests/e2e/store/with_postgres.sh";
  auto src = Open("a.db");
  ASSERT_TRUE(src);
  CopiesACohort(*src, *dst);
}

TEST_F(TransferTest, AFailureHalfWayLeavesPostgresAsItWas) {
  auto dst = OpenPostgresSchema("transfer_failure");
  if (!dst) GTEST_SKIP() << "TARE_TEST_PG is not set: run under tests/e2e/store/with_postgres.sh";
  auto src = Open("a.db");
  ASSERT_TRUE(src);
  LeavesTheDestinationAsItWasOnAFailure(*src, *dst);
}

TEST_F(TransferTest, ABatchOfRunsIsWrittenAllOrNoneIntoPostgres) {
  auto dst = OpenPostgresSchema("transfer_batch");
  if (!dst) GTEST_SKIP() << "TARE_TEST_PG is not set: run under tests/e2e/store/with_postgres.sh";
  auto src = Open("a.db");
  ASSERT_TRUE(src);
  WritesABatchAllOrNone(*src, *dst);
}

// Many samples go into SQLite in multi-row statements (64 samples, 256 values each): a run that
// spans several of them, with samples of no value at the edges and in runs, reads back exactly.
TEST_F(TransferTest, ABigRunCrossesTheBulkStatementsIntact) {
  auto src = Open("src.db");
  auto dst = Open("dst.db");
  ASSERT_TRUE(src && dst);
  RunRecord r;
  r.started_unix_ns = 5;
  auto run = src->BeginRun(r);
  ASSERT_TRUE(run.ok());
  auto b1 = src->AddBenchmark(*run, {0, "x::a", "a", TargetKind::kCommand});
  auto b2 = src->AddBenchmark(*run, {0, "x::b", "b", TargetKind::kCommand});
  ASSERT_TRUE(b1.ok() && b2.ok());
  std::vector<StoredSample> samples;
  for (int seq = 0; seq < 301; ++seq) {
    StoredSample x;
    x.benchmark_id = seq % 3 == 0 ? *b1 : *b2;
    x.sample.seq = seq;
    x.sample.arm = seq % 2 ? "head" : "base";
    x.sample.stdout_tail = std::string(static_cast<size_t>(seq % 5), '\0') + "tail";
    // 0, 1, ... 6 values; none for the first, the last, and seq 63..66 (a statement's edge).
    const int n = seq == 0 || seq == 300 || (seq >= 63 && seq <= 66) ? 0 : seq % 7;
    for (int k = 0; k < n; ++k) x.sample.values["m" + std::to_string(k)] = seq * 10.0 + k + 0.25;
    samples.push_back(std::move(x));
  }
  ASSERT_TRUE(src->AppendSamples(*run, samples).ok());
  auto full = ReadFullRun(*src, *run);
  ASSERT_TRUE(full.ok()) << full.status().message();
  auto written = WriteFullRun(*dst, *full);
  ASSERT_TRUE(written.ok()) << written.status().message();
  auto back = ReadFullRun(*dst, written->run_id);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(Normalized(*back).dump(1), Normalized(*full).dump(1));
  ASSERT_EQ(back->data.samples.size(), 301u);
  size_t values = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    EXPECT_EQ(back->data.samples[i].sample.values, samples[i].sample.values) << "seq " << i;
    EXPECT_EQ(back->data.samples[i].sample.stdout_tail, samples[i].sample.stdout_tail);
    values += back->data.samples[i].sample.values.size();
  }
  EXPECT_GT(values, 2 * 256u) << "the values span several statements";
}

TEST_F(TransferTest, RefusesARunWithoutAUid) {
  auto dst = Open("b.db");
  ASSERT_TRUE(dst);
  FullRun f;
  auto written = WriteFullRun(*dst, f);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.status().code(), StatusCode::kInvalidArgument);
}

// A plain run of `n` samples over two benchmarks, seqs repeated in pairs (ties ordered by id), with
// values, a failed sample every 17th and tails: what a page of LoadSamples must keep exactly.
int64_t WritePlainRun(Store& s, int n, int64_t started) {
  RunRecord r;
  r.started_unix_ns = started;
  auto run = s.BeginRun(r);
  EXPECT_TRUE(run.ok()) << run.status().message();
  auto b1 = s.AddBenchmark(*run, {0, "x::a", "a", TargetKind::kCommand});
  auto b2 = s.AddBenchmark(*run, {0, "x::b", "b", TargetKind::kCommand});
  EXPECT_TRUE(b1.ok() && b2.ok());
  EXPECT_TRUE(s.AddMetric(*run, LookupMetric("wall_ns")).ok());
  std::vector<StoredSample> samples;
  for (int i = 0; i < n; ++i) {
    StoredSample x;
    x.benchmark_id = i % 2 ? *b2 : *b1;
    x.sample.seq = i / 2;
    x.sample.warmup = i < 2;
    x.sample.values = {{"wall_ns", 1000.0 + i * 0.5}, {"user_ns", 3.0 * i}};
    if (i % 17 == 5) {
      x.sample.outcome = SampleOutcome::kFailed;
      x.sample.exit_code = 3;
      x.sample.error = "exit 3";
      x.sample.stderr_tail = "no such case " + std::to_string(i);
      x.sample.values.clear();
    }
    samples.push_back(std::move(x));
  }
  EXPECT_TRUE(s.AppendSamples(*run, samples).ok());
  EXPECT_TRUE(s.FinishRun(*run, RunStatus::kComplete, started + 1).ok());
  return *run;
}

// LoadSamples: the pages of a run, of any size, are LoadRun's samples in LoadRun's order, none
// twice, none left out; the last page is short (empty when the run ends on a page's edge).
TEST_F(TransferTest, PagesOfSamplesAreTheWholeRunInOrder) {
  auto s = Open("a.db");
  ASSERT_TRUE(s);
  WritePlainRun(*s, 10, 1);  // another run's samples interleave by id: never read as this one's
  const int64_t run = WritePlainRun(*s, 301, 2);
  auto whole = s->LoadRun(run);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  ASSERT_EQ(whole->samples.size(), 301u);
  for (size_t limit : {1u, 7u, 43u, 301u, 1000u}) {
    SampleCursor cursor;
    std::vector<StoredSample> paged;
    size_t pages = 0;
    for (;;) {
      auto page = s->LoadSamples(run, cursor, limit);
      ASSERT_TRUE(page.ok()) << page.status().message();
      ++pages;
      ASSERT_LE(page->size(), limit);
      for (auto& x : *page) paged.push_back(std::move(x));
      if (page->size() < limit) break;
    }
    EXPECT_EQ(pages, 301 / limit + 1) << "limit " << limit;
    ASSERT_EQ(paged.size(), whole->samples.size()) << "limit " << limit;
    for (size_t i = 0; i < paged.size(); ++i) {
      EXPECT_EQ(paged[i].id, whole->samples[i].id) << "limit " << limit << ", sample " << i;
      EXPECT_EQ(paged[i].sample.values, whole->samples[i].sample.values);
      EXPECT_EQ(paged[i].sample.stderr_tail, whole->samples[i].sample.stderr_tail);
    }
  }
  auto head = s->LoadRunHead(run);
  ASSERT_TRUE(head.ok());
  EXPECT_TRUE(head->samples.empty());
  // One benchmark's samples: LoadRun's of that benchmark, in order, with their values.
  for (const auto& b : head->benchmarks) {
    auto one = s->LoadBenchmarkSamples(run, b.id);
    ASSERT_TRUE(one.ok()) << one.status().message();
    std::vector<const StoredSample*> expected;
    for (const auto& x : whole->samples) {
      if (x.benchmark_id == b.id) expected.push_back(&x);
    }
    ASSERT_EQ(one->size(), expected.size());
    EXPECT_GT(one->size(), 100u);
    for (size_t i = 0; i < one->size(); ++i) {
      EXPECT_EQ((*one)[i].id, expected[i]->id);
      EXPECT_EQ((*one)[i].sample.values, expected[i]->sample.values);
      EXPECT_EQ((*one)[i].sample.error, expected[i]->sample.error);
    }
  }
  EXPECT_EQ(head->benchmarks.size(), 2u);
  EXPECT_EQ(head->run.uid, whole->run.uid);
}

// CopyRuns with batches smaller than a run (tare merge and push hold a batch, not a run, in memory):
// runs bigger than a batch go over in parts, every sample, value, set-aside sample and campaign
// table exactly; runs smaller share a batch; copying again adds nothing.
void CopiesRunsInParts(Store& src, Store& dst) {
  std::vector<int64_t> ids = {WritePlainRun(src, 3, 1), WriteCohort(src), WritePlainRun(src, 14, 2),
                              WritePlainRun(src, 1000, 3), WritePlainRun(src, 2, 4)};
  std::vector<RunRecord> runs;
  for (int64_t id : ids) {
    auto head = src.LoadRunHead(id);
    ASSERT_TRUE(head.ok());
    runs.push_back(head->run);
  }
  CopyOptions options;
  options.batch_samples = 7;  // the cohort (8 samples: set-aside ones in both parts), 14 (an edge), 1000
  std::vector<CopyProgress> progress;
  options.progress = [&](const CopyProgress& p) { progress.push_back(p); };
  CopyResult r = CopyRuns(src, dst, runs, options);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.counts.added, 5);
  EXPECT_EQ(r.counts.present, 0);
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back().runs_done, 5u);
  EXPECT_EQ(progress.back().samples, 3 + 8 + 14 + 1000 + 2);
  for (int64_t id : ids) {
    auto a = ReadFullRun(src, id);
    ASSERT_TRUE(a.ok());
    auto found = dst.FindRunByUid(a->data.run.uid);
    ASSERT_TRUE(found.ok() && found->has_value());
    auto b = ReadFullRun(dst, **found);
    ASSERT_TRUE(b.ok()) << b.status().message();
    EXPECT_EQ(Normalized(*b).dump(1), Normalized(*a).dump(1)) << "run " << id;
  }
  CopyResult again = CopyRuns(src, dst, runs, options);
  ASSERT_TRUE(again.status.ok()) << again.status.message();
  EXPECT_EQ(again.counts.added, 0);
  EXPECT_EQ(again.counts.present, 5);
  auto listed = dst.ListRuns(100);
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->size(), 5u);
}

TEST_F(TransferTest, CopiesRunsBiggerThanABatchInParts) {
  auto src = Open("a.db");
  auto dst = Open("b.db");
  ASSERT_TRUE(src && dst);
  CopiesRunsInParts(*src, *dst);
}

TEST_F(TransferTest, CopiesRunsBiggerThanABatchInPartsIntoPostgres) {
  auto dst = OpenPostgresSchema("transfer_parts");
  if (!dst) GTEST_SKIP() << "TARE_TEST_PG is not set: run under tests/e2e/store/with_postgres.sh";
  auto src = Open("a.db");
  ASSERT_TRUE(src);
  CopiesRunsInParts(*src, *dst);
}

// A run copied in parts that fails at its end (a set-aside sample it does not hold) is rolled back
// whole: the destination keeps the runs before it, nothing of it, and the copy names it.
TEST_F(TransferTest, ARunInPartsThatFailsLeavesNothingOfIt) {
  auto src = Open("a.db");
  auto dst = Open("b.db");
  ASSERT_TRUE(src && dst);
  const int64_t before = WritePlainRun(*src, 5, 1);
  const int64_t big = WritePlainRun(*src, 100, 2);
  std::vector<RunRecord> runs;
  for (int64_t id : {before, big}) runs.push_back(src->LoadRunHead(id)->run);
  CopyOptions options;
  options.batch_samples = 10;
  options.admit = [&](FullRun& run) {
    if (run.data.run.id == big) run.discarded[987654] = "a sample this run does not have";
    return Status::Ok();
  };
  CopyResult r = CopyRuns(*src, *dst, runs, options);
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.code(), StatusCode::kDataLoss) << r.status.message();
  EXPECT_EQ(r.failed_run_id, big);
  EXPECT_EQ(r.counts.added, 1);
  auto listed = dst->ListRuns(100);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->front().uid, runs[0].uid);
  auto kept = dst->LoadRun(listed->front().id);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept->samples.size(), 5u);
}

}  // namespace
}  // namespace tare::store
