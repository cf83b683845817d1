// The PostgreSQL backend against a real server: tests/e2e/store/with_postgres.sh starts a throwaway
// cluster and passes its URL in TARE_TEST_PG (without it every test here is skipped). Each test
// works in a schema of its own.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "internal/pg_connection.h"
#include "internal/sql_store.h"
#include "store/store.h"

namespace tare::store {
namespace {

class PgStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* url = std::getenv("TARE_TEST_PG");
    if (url == nullptr || *url == '\0')
      GTEST_SKIP() << "TARE_TEST_PG is not set: run under tests/e2e/store/with_postgres.sh";
    base_url_ = url;
  }

  // A URL whose connections work in the empty schema `name` (dropped and created anew).
  std::string FreshSchema(const std::string& name) {
    PgConnection admin(base_url_);
    admin.Exec("DROP SCHEMA IF EXISTS " + name + " CASCADE; CREATE SCHEMA " + name);
    return base_url_ + "&options=-csearch_path%3D" + name;
  }

  static RunRecord MakeRun() {
    RunRecord r;
    r.started_unix_ns = 1'700'000'000'000'000'000;  // needs 64 bits
    r.tare_version = "0.1.0";
    r.command_line = {"tare", "run", "--", "/bin/true"};
    r.fingerprint_digest = "h";
    return r;
  }

  std::string base_url_;
};

TEST_F(PgStoreTest, MigratesAnEmptyDatabaseAndReopensIt) {
  const std::string url = FreshSchema("from_empty");
  {
    auto store = Store::Open(url);
    ASSERT_TRUE(store.ok()) << store.status().message();
    EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
  }
  auto again = Store::Open(url);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ((*again)->schema_version(), kSchemaVersion);
  PgConnection c(url);
  Statement tables(c, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'from_empty'");
  ASSERT_TRUE(tables.executeStep());
  EXPECT_EQ(tables.getColumn(0).getInt64(), 19);  // 18 of the schema and tare_schema
}

TEST_F(PgStoreTest, RefusesADatabaseWithSomeoneElsesTablesAndLeavesIt) {
  const std::string url = FreshSchema("foreign_tables");
  {
    PgConnection c(url);
    c.Exec("CREATE TABLE invoices (id INTEGER); INSERT INTO invoices VALUES (7)");
  }
  auto store = Store::Open(url);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kInvalidArgument) << store.status().message();
  EXPECT_NE(store.status().message().find("not a tare store"), std::string::npos) << store.status().message();
  PgConnection c(url);
  Statement rows(c, "SELECT count(*) FROM invoices");
  ASSERT_TRUE(rows.executeStep());
  EXPECT_EQ(rows.getColumn(0).getInt64(), 1);
  Statement version(c, "SELECT to_regclass('tare_schema') IS NULL");
  ASSERT_TRUE(version.executeStep());
  EXPECT_EQ(version.getColumn(0).getString(), "t");
}

TEST_F(PgStoreTest, RefusesAnUnreachableServerClearly) {
  auto store = Store::Open("postgresql://nobody:secret@/tare?host=/nonexistent-dir");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(store.status().message().find("cannot connect"), std::string::npos) << store.status().message();
  EXPECT_EQ(store.status().message().find("secret"), std::string::npos) << "the password is not shown";
}

// A version 3 database (the previous schema, rendered from the same migration list) with runs in
// it migrates to version 4, each run getting its own uid.
TEST_F(PgStoreTest, MigratesAVersion3Database) {
  const std::string url = FreshSchema("from_v3");
  {
    PgConnection c(url);
    c.Exec("CREATE TABLE tare_schema (version INTEGER NOT NULL); INSERT INTO tare_schema VALUES (3)");
    for (int v = 0; v < 3; ++v) c.Exec(RenderMigration(v, Dialect::kPostgres));
    c.Exec(
        "INSERT INTO runs (kind, status, started_unix_ns, tare_version, command_line, options, fingerprint, "
        "fingerprint_digest, git_branch) VALUES "
        "('run', 'complete', 1700000000000000000, '0.1.0', '[]', '{}', '{}', 'h', 'main'), "
        "('run', 'complete', 1700000000000000001, '0.1.0', '[]', '{}', '{}', 'h', 'main')");
  }
  auto store = Store::Open(url);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
  auto runs = (*store)->ListRuns(10);
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_TRUE(IsRunUid((*runs)[0].uid)) << (*runs)[0].uid;
  EXPECT_TRUE(IsRunUid((*runs)[1].uid)) << (*runs)[1].uid;
  EXPECT_NE((*runs)[0].uid, (*runs)[1].uid);
  EXPECT_EQ((*runs)[0].started_unix_ns, 1700000000000000001);
  auto id = (*store)->ResolveRun("branch:main");
  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, (*runs)[0].id);
}

// A version 4 database with a run in it migrates to version 5 (run_shards); the run has no shard,
// a sharded run's record reads back exactly.
TEST_F(PgStoreTest, MigratesAVersion4DatabaseAndKeepsShards) {
  const std::string url = FreshSchema("from_v4");
  {
    PgConnection c(url);
    c.Exec("CREATE TABLE tare_schema (version INTEGER NOT NULL); INSERT INTO tare_schema VALUES (4)");
    for (int v = 0; v < 4; ++v) c.Exec(RenderMigration(v, Dialect::kPostgres));
    c.Exec(
        "INSERT INTO runs (kind, status, started_unix_ns, tare_version, command_line, options, fingerprint, "
        "fingerprint_digest, uid) VALUES ('run', 'complete', 1700000000000000000, '0.1.0', '[]', '{}', '{}', 'h', "
        "'0123456789abcdef0123456789abcdef')");
  }
  auto store = Store::Open(url);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
  auto runs = (*store)->ListRuns(10);
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_FALSE((*runs)[0].shard.has_value());
  RunRecord r = MakeRun();
  r.shard = ShardRecord{3, 4, "grp", "digest", "uid:ab", {{"BM_x", 3}, {"BM_y", 1}, {"BM_z", 4}, {"BM_w", 2}}};
  auto id = (*store)->BeginRun(r);
  ASSERT_TRUE(id.ok()) << id.status().message();
  auto data = (*store)->LoadRun(*id);
  ASSERT_TRUE(data.ok()) << data.status().message();
  ASSERT_TRUE(data->run.shard.has_value());
  EXPECT_EQ(data->run.shard->index, 3);
  EXPECT_EQ(data->run.shard->count, 4);
  EXPECT_EQ(data->run.shard->group, "grp");
  EXPECT_EQ(data->run.shard->weights, "uid:ab");
  EXPECT_EQ(data->run.shard->assignment, r.shard->assignment);
  auto in_group = (*store)->ShardedRuns("grp");
  ASSERT_TRUE(in_group.ok()) << in_group.status().message();
  ASSERT_EQ(in_group->size(), 1u);
  EXPECT_EQ((*in_group)[0].id, *id);
}

// Per-run summaries on PostgreSQL (schema version 6): the history read from them equals the one
// read from the samples (the summaries deleted), medians bit for bit; a version 5 database (the
// summary tables dropped) is summarized by its migration.
TEST_F(PgStoreTest, SummariesAnswerAsTheSamplesDoAndTheV6MigrationWritesThem) {
  const std::string url = FreshSchema("summaries");
  auto histories = [&]() {
    auto store = Store::Open(url);
    EXPECT_TRUE(store.ok()) << store.status().message();
    if (!store.ok()) return std::string();
    EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
    std::string out;
    for (const char* metric : {"wall_ns", "peak_rss_bytes", "none"}) {
      for (int limit : {200, 2}) {
        auto points = (*store)->History({"true", metric, "", "h", limit});
        EXPECT_TRUE(points.ok()) << points.status().message();
        if (!points.ok()) continue;
        for (const auto& p : *points)
          out += fmt::format("{} {} {} {} {:a}\n", metric, p.run.id, p.n, p.failed, p.median);
      }
    }
    return out;
  };
  auto rows = [&]() {
    PgConnection c(url);
    Statement q(c, "SELECT (SELECT count(*) FROM run_summaries) + (SELECT count(*) FROM run_summary_metrics)");
    q.executeStep();
    return q.getColumn(0).getInt64();
  };
  {
    auto store = Store::Open(url);
    ASSERT_TRUE(store.ok()) << store.status().message();
    for (int i = 0; i < 4; ++i) {
      auto run = (*store)->BeginRun(MakeRun());
      ASSERT_TRUE(run.ok()) << run.status().message();
      auto bench = (*store)->AddBenchmark(*run, {0, "true::true", "true", TargetKind::kCommand});
      ASSERT_TRUE(bench.ok());
      for (int seq = 0; seq < 6 + i; ++seq) {
        Sample s;
        s.seq = seq;
        s.warmup = seq == 0;
        s.values = {{"wall_ns", 1000.0 / (seq + 3) + i}, {"peak_rss_bytes", 1e6 + seq}};
        if (seq == 2 && i != 1) {
          s.outcome = SampleOutcome::kTimedOut;
          s.values.clear();
        }
        ASSERT_TRUE((*store)->AppendSample(*run, *bench, s).ok());
      }
      if (i != 3) {  // the last: killed
        ASSERT_TRUE((*store)->FinishRun(*run, RunStatus::kComplete, 5).ok());
      }
    }
  }
  const std::string from_summaries = histories();
  EXPECT_NE(from_summaries.find("wall_ns 1 4 1 "), std::string::npos) << from_summaries;
  const int64_t summary_rows = rows();
  EXPECT_EQ(summary_rows, 3 * 3);
  {
    PgConnection c(url);
    c.Exec("DELETE FROM run_summary_metrics; DELETE FROM run_summaries");
  }
  EXPECT_EQ(histories(), from_summaries);
  {
    PgConnection c(url);
    // (version 7's columns and table dropped too)
    c.Exec(
        "ALTER TABLE ab_verdicts DROP COLUMN unit; ALTER TABLE ab_verdicts DROP COLUMN direction; "
        "ALTER TABLE ab_verdicts DROP COLUMN declared; ALTER TABLE ab_verdicts DROP COLUMN has_null; "
        "ALTER TABLE ab_verdicts DROP COLUMN pass_bound; ALTER TABLE ab_verdicts DROP COLUMN changed; "
        "ALTER TABLE ab_verdicts DROP COLUMN exact; ALTER TABLE ab_checks DROP COLUMN unit; "
        "ALTER TABLE metrics DROP COLUMN cycle_model; ALTER TABLE ab_cohorts DROP COLUMN notes; "
        "DROP TABLE ab_comparisons; "
        "DROP TABLE run_summary_metrics; DROP TABLE run_summaries; DELETE FROM tare_schema; "
        "INSERT INTO tare_schema VALUES (5)");
  }
  EXPECT_EQ(histories(), from_summaries);
  EXPECT_EQ(rows(), summary_rows);
}

// The server restarts in the middle of a run: the store reconnects, and every sample is stored
// exactly once.
TEST_F(PgStoreTest, ARunSurvivesAServerRestart) {
  const char* ctl = std::getenv("TARE_TEST_PG_CTL");
  ASSERT_NE(ctl, nullptr);
  const std::string url = FreshSchema("restart");
  auto store = Store::Open(url);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto run = (*store)->BeginRun(MakeRun());
  ASSERT_TRUE(run.ok()) << run.status().message();
  auto bench = (*store)->AddBenchmark(*run, {0, "true::true", "true", TargetKind::kCommand});
  ASSERT_TRUE(bench.ok());
  auto add = [&](int seq) {
    Sample s;
    s.seq = seq;
    s.started_unix_ns = 1'700'000'000'000'000'000 + seq;
    s.values = {{"wall_ns", 1000.0 + seq}, {"peak_rss_bytes", 1e6}};
    auto id = (*store)->AppendSample(*run, *bench, s);
    EXPECT_TRUE(id.ok()) << "sample " << seq << ": " << id.status().message();
  };
  for (int seq = 0; seq < 20; ++seq) add(seq);
  ASSERT_EQ(std::system((std::string(ctl) + " restart").c_str()), 0);
  for (int seq = 20; seq < 40; ++seq) add(seq);
  // Down for a while, back while a sample waits to be stored.
  ASSERT_EQ(std::system((std::string(ctl) + " stop").c_str()), 0);
  ASSERT_EQ(std::system((std::string("(sleep 2; ") + ctl + " start) >/dev/null 2>&1 &").c_str()), 0);
  for (int seq = 40; seq < 60; ++seq) add(seq);
  ASSERT_TRUE((*store)->FinishRun(*run, RunStatus::kComplete, 5).ok());
  auto data = (*store)->LoadRun(*run);
  ASSERT_TRUE(data.ok()) << data.status().message();
  ASSERT_EQ(data->samples.size(), 60u);
  std::set<int64_t> seqs;
  for (const auto& s : data->samples) {
    seqs.insert(s.sample.seq);
    EXPECT_EQ(s.sample.values.at("wall_ns"), 1000.0 + s.sample.seq);
  }
  EXPECT_EQ(seqs.size(), 60u);
  EXPECT_EQ(data->run.status, RunStatus::kComplete);
}

}  // namespace
}  // namespace tare::store
