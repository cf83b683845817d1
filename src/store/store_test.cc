#include "store/store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "internal/sql_store.h"
#include "internal/sqlite_connection.h"
#include "store/transfer.h"

namespace tare::store {
namespace {

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "store_test_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    // A store is created only in a directory that exists (store.h): the test's, made here.
    std::filesystem::create_directories(dir_ + "/nested");
    path_ = dir_ + "/nested/tare.db";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static RunRecord MakeRun() {
    RunRecord r;
    r.kind = RunKind::kRun;
    r.started_unix_ns = 1'700'000'000'000'000'000;
    r.tare_version = "0.1.0";
    r.command_line = {"tare", "run", "--", "/bin/true"};
    r.options_json = R"({"samples":3})";
    r.fingerprint_json = R"({"keys":[]})";
    r.fingerprint_digest = "abc";
    return r;
  }

  static Sample MakeSample(int seq, double wall) {
    Sample s;
    s.seq = seq;
    s.started_unix_ns = 10 + seq;
    s.ended_unix_ns = 20 + seq;
    s.values = {{"wall_ns", wall}, {"peak_rss_bytes", 1234567.0}};
    return s;
  }

  std::string dir_;
  std::string path_;
};

TEST_F(StoreTest, RoundTripsARunThroughARealFile) {
  int64_t run_id = 0;
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
    auto id = (*store)->BeginRun(MakeRun());
    ASSERT_TRUE(id.ok());
    run_id = *id;
    ASSERT_TRUE((*store)->AddExecutable(run_id, {"target", "/bin/true", "deadbeef", R"({"build_id":"x"})"}).ok());
    auto bench = (*store)->AddBenchmark(run_id, {0, "true::true", "true", TargetKind::kCommand});
    ASSERT_TRUE(bench.ok());
    auto again = (*store)->AddBenchmark(run_id, {0, "true::true", "true", TargetKind::kCommand});
    EXPECT_EQ(*again, *bench) << "benchmarks are unique per run and uri";
    ASSERT_TRUE((*store)->AddMetric(run_id, LookupMetric("wall_ns")).ok());
    ASSERT_TRUE((*store)->AddMetric(run_id, LookupMetric("wall_ns")).ok());
    ASSERT_TRUE((*store)->AddNote(run_id, {"info", "instructions: not supported"}).ok());
    for (int i = 0; i < 3; ++i) ASSERT_TRUE((*store)->AppendSample(run_id, *bench, MakeSample(i, 100.0 + i)).ok());
    Sample failed = MakeSample(3, 0);
    failed.outcome = SampleOutcome::kSignaled;
    failed.signal = 11;
    failed.error = "killed by signal 11";
    failed.stderr_tail = "boom\n";
    failed.values.clear();
    ASSERT_TRUE((*store)->AppendSample(run_id, *bench, failed).ok());
    ASSERT_TRUE((*store)->AddArtifact(run_id, *bench, "callgrind", std::string("a\0b", 3)).ok());
    ASSERT_TRUE((*store)->FinishRun(run_id, RunStatus::kComplete, 99).ok());
  }
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok());
  auto latest = (*store)->ResolveRun("latest");
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ(*latest, run_id);
  auto data = (*store)->LoadRun(run_id);
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(data->run.status, RunStatus::kComplete);
  EXPECT_EQ(data->run.ended_unix_ns, 99);
  EXPECT_EQ(data->run.command_line, (std::vector<std::string>{"tare", "run", "--", "/bin/true"}));
  ASSERT_EQ(data->executables.size(), 1u);
  EXPECT_EQ(data->executables[0].sha256, "deadbeef");
  ASSERT_EQ(data->benchmarks.size(), 1u);
  EXPECT_EQ(data->metrics.size(), 1u);
  EXPECT_EQ(data->notes.size(), 1u);
  ASSERT_EQ(data->samples.size(), 4u);
  EXPECT_DOUBLE_EQ(data->samples[2].sample.values.at("wall_ns"), 102.0);
  EXPECT_DOUBLE_EQ(data->samples[0].sample.values.at("peak_rss_bytes"), 1234567.0);
  EXPECT_EQ(data->samples[3].sample.outcome, SampleOutcome::kSignaled);
  EXPECT_EQ(data->samples[3].sample.stderr_tail, "boom\n");
  EXPECT_TRUE(data->samples[3].sample.values.empty());
  auto art = (*store)->LoadArtifact(run_id, data->benchmarks[0].id, "callgrind");
  ASSERT_TRUE(art.ok());
  EXPECT_EQ(*art, std::string("a\0b", 3));
  auto listed = (*store)->ArtifactsOf(run_id);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].benchmark_id, data->benchmarks[0].id);
  EXPECT_EQ((*listed)[0].name, "callgrind");
  EXPECT_EQ((*listed)[0].size, 3);
  auto none = (*store)->ArtifactsOf(run_id + 100);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

// Values go in with one statement per batch of rows, kept prepared across samples: samples with
// more values than a batch, with different counts, and after a failed insert must all come back.
TEST_F(StoreTest, EveryValueOfEverySampleComesBackWhateverItsCount) {
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok());
  auto id = (*store)->BeginRun(MakeRun());
  auto bench = (*store)->AddBenchmark(*id, {0, "x::x", "x", TargetKind::kCommand});
  const int counts[] = {0, 1, 32, 33, 70, 12, 70};
  for (int i = 0; i < 7; ++i) {
    Sample s = MakeSample(i, 0);
    s.values.clear();
    for (int k = 0; k < counts[i]; ++k) s.values["gb.counter.c" + std::to_string(k)] = i * 1000 + k;
    ASSERT_TRUE((*store)->AppendSample(*id, *bench, s).ok());
  }
  // A sample that cannot be stored (a benchmark id that does not exist) is an error...
  EXPECT_FALSE((*store)->AppendSample(*id, 999, MakeSample(7, 1)).ok());
  // ...and leaves the cached statements usable.
  ASSERT_TRUE((*store)->AppendSample(*id, *bench, MakeSample(8, 8)).ok());
  auto data = (*store)->LoadRun(*id);
  ASSERT_TRUE(data.ok());
  ASSERT_EQ(data->samples.size(), 8u);
  for (int i = 0; i < 7; ++i) {
    const auto& values = data->samples[i].sample.values;
    ASSERT_EQ(values.size(), static_cast<size_t>(counts[i])) << "sample " << i;
    for (int k = 0; k < counts[i]; ++k) {
      EXPECT_EQ(values.at("gb.counter.c" + std::to_string(k)), i * 1000 + k);
    }
  }
  EXPECT_DOUBLE_EQ(data->samples[7].sample.values.at("wall_ns"), 8.0);
}

// Each sample is committed as it completes: a writer killed mid-run loses nothing it stored.
TEST_F(StoreTest, SamplesSurviveAWriterKilledMidRun) {
  ASSERT_TRUE(Store::Open(path_).ok());
  pid_t pid = fork();
  if (pid == 0) {
    auto store = Store::Open(path_);
    if (!store.ok()) _exit(1);
    auto id = (*store)->BeginRun(MakeRun());
    auto bench = (*store)->AddBenchmark(*id, {0, "x::x", "x", TargetKind::kCommand});
    for (int i = 0; i < 5; ++i) (void)(*store)->AppendSample(*id, *bench, MakeSample(i, i));
    raise(SIGKILL);  // no FinishRun, no destructors
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok());
  auto data = (*store)->LoadRun(*(*store)->ResolveRun("latest"));
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->samples.size(), 5u);
  EXPECT_EQ(data->run.status, RunStatus::kRunning) << "an unfinished run stays visibly unfinished";
}

// Several processes creating the same new store at once (parallel CI jobs, `tare run` started
// twice): every one opens it, and the schema is migrated exactly once. Before migrations ran
// under one write lock, a third of such processes failed with "table runs already exists".
TEST_F(StoreTest, ProcessesCreatingTheSameNewStoreAtOnceAllSucceed) {
  constexpr int kProcesses = 8;
  constexpr int kRounds = 5;  // a fresh file each round: the race is at creation only
  std::filesystem::create_directories(dir_);
  for (int round = 0; round < kRounds; ++round) {
    const std::string path = dir_ + "/round" + std::to_string(round) + "/tare.db";
    std::filesystem::create_directories(dir_ + "/round" + std::to_string(round));
    int go[2];
    ASSERT_EQ(pipe(go), 0);
    std::vector<pid_t> children;
    for (int i = 0; i < kProcesses; ++i) {
      pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        close(go[1]);
        char c;
        (void)!read(go[0], &c, 1);  // returns 0 when the parent closes the pipe: all start together
        auto store = Store::Open(path);
        if (!store.ok()) {
          fprintf(stderr, "process %d: %s\n", i, store.status().message().c_str());
          _exit(1);
        }
        _exit((*store)->schema_version() == kSchemaVersion ? 0 : 3);
      }
      children.push_back(pid);
    }
    close(go[0]);
    close(go[1]);
    int failed = 0;
    for (pid_t pid : children) {
      int status = 0;
      waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
    }
    EXPECT_EQ(failed, 0) << "round " << round << ": " << failed << " of " << kProcesses
                         << " processes could not open a new store created at the same time";
    auto store = Store::Open(path);
    ASSERT_TRUE(store.ok()) << store.status().message();
    EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
    ASSERT_TRUE((*store)->BeginRun(MakeRun()).ok());
  }
}

TEST_F(StoreTest, RefusesPathsItCannotUse) {
  std::filesystem::create_directories(dir_);
  // A directory where the file should be.
  std::filesystem::create_directories(dir_ + "/isdir.db");
  auto d = Store::Open(dir_ + "/isdir.db");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("--store"), std::string::npos) << d.status().message();
  // A parent that is a file.
  { std::ofstream(dir_ + "/afile") << "x"; }
  auto p = Store::Open(dir_ + "/afile/tare.db");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("--store"), std::string::npos);
  // Not a SQLite file at all: refused, and left byte-for-byte as it was.
  { std::ofstream(dir_ + "/notes.txt") << "my precious notes\n"; }
  auto t = Store::Open(dir_ + "/notes.txt");
  ASSERT_FALSE(t.ok());
  std::ifstream in(dir_ + "/notes.txt");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "my precious notes");
  // A directory that does not exist (a typo): refused with the mkdir to type, nothing created.
  auto m = Store::Open(dir_ + "/missing-dir/x.db");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("mkdir -p " + dir_ + "/missing-dir"), std::string::npos) << m.status().message();
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/missing-dir"));
  // The default store's .tare/ is created, when the directory it goes in exists.
  EXPECT_TRUE(Store::Open(dir_ + "/.tare/tare.db").ok());
  EXPECT_FALSE(Store::Open(dir_ + "/none/.tare/tare.db").ok());
}

// Locations SQLite would take as a temporary or URI database (the run would be dropped at exit,
// exit 0), and URLs tare does not speak, which would become local files of that name: refused with
// the forms that work, and nothing created (issue 27 item 4).
TEST_F(StoreTest, RefusesLocationsThatWouldNotKeepTheRun) {
  std::filesystem::create_directories(dir_);
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir_);
  std::filesystem::remove(dir_ + "/nested");  // SetUp's, for path_: this test counts what is created
  for (const std::string location : {"", ":memory:", "file:x.db", "file:x.db?mode=memory", "mysql://u:pw@db/perf",
                                     "postgres:/x", "postgresql:perf", "sqlite://x.db"}) {
    for (bool reading : {false, true}) {
      auto s = reading ? Store::OpenForReading(location) : Store::Open(location);
      ASSERT_FALSE(s.ok()) << "'" << location << "'";
      EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument) << location;
      EXPECT_NE(s.status().message().find("postgresql://USER@HOST"), std::string::npos) << s.status().message();
      EXPECT_EQ(s.status().message().find("pw"), std::string::npos) << "no password echoed: " << s.status().message();
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir_)) << "nothing was created";
  // A file name with a colon is still a file.
  auto colon = Store::Open("results:v2.db");
  EXPECT_TRUE(colon.ok()) << colon.status().message();
  std::filesystem::current_path(cwd);
}

TEST_F(StoreTest, RefusesSomeoneElsesDatabaseAndNewerSchemas) {
  std::filesystem::create_directories(dir_);
  {
    SQLite::Database other(dir_ + "/other.db", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    other.exec("CREATE TABLE customers (name TEXT)");
  }
  auto o = Store::Open(dir_ + "/other.db");
  ASSERT_FALSE(o.ok());
  EXPECT_NE(o.status().message().find("not a tare store"), std::string::npos);
  // Refused and left as it was: not even switched to WAL (issue 9 item 14).
  {
    SQLite::Database other(dir_ + "/other.db", SQLite::OPEN_READONLY);
    EXPECT_EQ(other.execAndGet("PRAGMA journal_mode").getString(), "delete");
  }
  {
    SQLite::Database newer(dir_ + "/newer.db", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    newer.exec("PRAGMA user_version = 99");
  }
  auto n = Store::Open(dir_ + "/newer.db");
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.status().message().find("upgrade tare"), std::string::npos);
  {
    SQLite::Database newer(dir_ + "/newer.db", SQLite::OPEN_READONLY);
    EXPECT_EQ(newer.execAndGet("PRAGMA journal_mode").getString(), "delete");
  }
}

// Kinds are stored by name and read back as enums (model/kinds.h): a name this tare does not know
// (a damaged row, a newer tare's) is an error naming it, never read as some default kind.
TEST_F(StoreTest, AnUnknownStoredKindIsAnErrorNotADefault) {
  int64_t id = 0;
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    auto run = (*store)->BeginRun(MakeRun());
    ASSERT_TRUE(run.ok());
    id = *run;
    ASSERT_TRUE((*store)->AddBenchmark(id, {0, "t::BM_X", "BM_X", TargetKind::kGbench}).ok());
    auto loaded = (*store)->LoadRun(id);
    ASSERT_TRUE(loaded.ok()) << loaded.status().message();
    EXPECT_EQ(loaded->run.kind, RunKind::kRun);
    ASSERT_EQ(loaded->benchmarks.size(), 1u);
    EXPECT_EQ(loaded->benchmarks[0].kind, TargetKind::kGbench);
  }
  {
    SQLite::Database db(path_, SQLite::OPEN_READWRITE);
    EXPECT_EQ(db.execAndGet("SELECT kind FROM runs").getString(), "run");  // the name, not a number
    EXPECT_EQ(db.execAndGet("SELECT kind FROM benchmarks").getString(), "gbench");
    db.exec("UPDATE benchmarks SET kind = 'rust'");
  }
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok());
    auto loaded = (*store)->LoadRun(id);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.status().message().find("unknown target kind 'rust'"), std::string::npos)
        << loaded.status().message();
  }
  {
    SQLite::Database db(path_, SQLite::OPEN_READWRITE);
    db.exec("UPDATE benchmarks SET kind = 'gbench'");
    db.exec("UPDATE runs SET kind = 'oracle'");
  }
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok());
  auto runs = (*store)->ListRuns(10);
  ASSERT_FALSE(runs.ok());
  EXPECT_NE(runs.status().message().find("unknown run kind 'oracle' (known: run, ab)"), std::string::npos)
      << runs.status().message();
}

// A file of src/store/testdata: ctest sets $TARE_SOURCE_DIR; run by hand without it, the test says
// what to set instead of crashing on a null pointer.
std::string StoreTestData(const std::string& name) {
  const char* root = std::getenv("TARE_SOURCE_DIR");
  if (root == nullptr || *root == '\0') {
    ADD_FAILURE() << "set TARE_SOURCE_DIR to the source tree to read src/store/testdata/" << name << " (ctest sets it)";
    return name;
  }
  return std::string(root) + "/src/store/testdata/" + name;
}

// An ab run with one cell, BM_A (args --n=1), and one final look judging wall_ns with `m`.
int64_t AbRunWithOneVerdict(Store& store, const RunRecord& base_run, const AbMetricResult& m) {
  RunRecord r = base_run;
  r.kind = RunKind::kAb;
  auto run = store.BeginRun(r);
  EXPECT_TRUE(run.ok());
  auto bench = store.AddBenchmark(*run, {0, "t::BM_A", "BM_A", TargetKind::kGbench});
  EXPECT_TRUE(bench.ok()) << bench.status().message();
  EXPECT_TRUE(store.AddCell(*run, {1, "BM_A", CellRole::kTarget, *bench, {"--n=1"}, {"X=1"}}).ok());
  AbComparison cmp;
  cmp.cell = "BM_A";
  cmp.head = "head";
  cmp.metrics = {m};
  EXPECT_TRUE(store.SaveVerdicts(*run, 1, 1, true, {cmp}).ok());
  return *run;
}

// JSON columns are read through base/json_read.h: a column that is not the JSON tare wrote (a
// damaged row, a hand edit) is an error naming the run and the column, never read as empty lists.
TEST_F(StoreTest, AMalformedJsonColumnIsAnErrorNotDefaults) {
  int64_t id = 0;
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    AbMetricResult m;
    m.metric = "wall_ns";
    m.verdict = Verdict::kPass;
    m.reasons = {"interval inside the allowance"};
    id = AbRunWithOneVerdict(**store, MakeRun(), m);
    auto cells = (*store)->CellsOf(id);
    ASSERT_TRUE(cells.ok()) << cells.status().message();
    ASSERT_EQ(cells->size(), 1u);
    EXPECT_EQ((*cells)[0].args, std::vector<std::string>{"--n=1"});
    auto looks = (*store)->LooksOf(id);
    ASSERT_TRUE(looks.ok()) << looks.status().message();
    EXPECT_EQ(looks->at(0).comparisons.at(0).metrics.at(0).reasons, m.reasons);
  }
  {
    SQLite::Database db(path_, SQLite::OPEN_READWRITE);
    db.exec(R"(UPDATE ab_cells SET params = '{"args": ["--n=1"')");
    db.exec(R"(UPDATE ab_verdicts SET reasons = '["a", 7]')");
    db.exec(R"(UPDATE runs SET command_line = 'tare ab')");
  }
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok());
  auto cells = (*store)->CellsOf(id);
  ASSERT_FALSE(cells.ok());
  EXPECT_EQ(cells.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(cells.status().message().find(fmt::format("run {} cell 1's parameters: not valid JSON at byte 18 (", id)),
            std::string::npos)
      << cells.status().message();
  auto looks = (*store)->LooksOf(id);
  ASSERT_FALSE(looks.ok());
  EXPECT_EQ(looks.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(looks.status().message().find(
                fmt::format("run {} cell 1 look 1's reasons for wall_ns: type must be string, but is number", id)),
            std::string::npos)
      << looks.status().message();
  auto loaded = (*store)->LoadRun(id);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(loaded.status().message().find(fmt::format("run {}'s command line: not valid JSON at byte 2 (", id)),
            std::string::npos)
      << loaded.status().message();
}

// A verdict the store does not know (a newer tare's, a hand edit) is an error naming the run, cell,
// look and metric — never read as INCONCLUSIVE, which would change what a stored cohort reports.
TEST_F(StoreTest, AnUnknownStoredVerdictIsAnErrorNotInconclusive) {
  int64_t id = 0;
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    AbMetricResult m;
    m.metric = "wall_ns";
    m.verdict = Verdict::kFail;
    id = AbRunWithOneVerdict(**store, MakeRun(), m);
    auto looks = (*store)->LooksOf(id);
    ASSERT_TRUE(looks.ok()) << looks.status().message();
    EXPECT_EQ(looks->at(0).comparisons.at(0).metrics.at(0).verdict, Verdict::kFail);
  }
  {
    SQLite::Database db(path_, SQLite::OPEN_READWRITE);
    EXPECT_EQ(db.execAndGet("SELECT verdict FROM ab_verdicts").getString(), "FAIL");  // the name
    db.exec("UPDATE ab_verdicts SET verdict = 'MAYBE'");
  }
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok());
  auto looks = (*store)->LooksOf(id);
  ASSERT_FALSE(looks.ok()) << "an unknown verdict was read as "
                           << VerdictName(looks->at(0).comparisons.at(0).metrics.at(0).verdict);
  EXPECT_EQ(looks.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(looks.status().message().find(
                fmt::format("run {} cell 1 look 1's verdict for wall_ns: unknown verdict 'MAYBE'", id)),
            std::string::npos)
      << looks.status().message();
}

TEST_F(StoreTest, ResolvesRunSelectorsWithClearErrors) {
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok());
  auto none = (*store)->ResolveRun("latest");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("no runs yet"), std::string::npos);
  EXPECT_FALSE((*store)->ResolveRun("banana").ok());
  EXPECT_FALSE((*store)->ResolveRun("42").ok());
  auto id = (*store)->BeginRun(MakeRun());
  EXPECT_EQ(*(*store)->ResolveRun(std::to_string(*id)), *id);
}

// Provenance (schema version 3): commit, branch, dirty state and tags come back as written, and
// every selector form finds the newest matching run.
// quick_check reads the whole file on every writing open; a store exactly as tare's own last clean
// close left it (this boot, no WAL) is not checked again (sqlite_open.cc).
TEST_F(StoreTest, AStoreAsItsLastCleanCloseLeftItIsNotCheckedAgain) {
  const std::string reserve = path_ + "-reserve";
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    ASSERT_TRUE((*store)->BeginRun(MakeRun()).ok());
    // Open: its WAL is there, and so is what another writer would see.
    EXPECT_FALSE(UnchangedSinceCleanClose(path_, reserve));
  }
  ASSERT_FALSE(std::filesystem::exists(path_ + "-wal"));
  EXPECT_TRUE(UnchangedSinceCleanClose(path_, reserve));
  // A second store open at once (another tare) keeps the WAL: the first close stamps nothing new.
  {
    auto a = Store::Open(path_);
    ASSERT_TRUE(a.ok()) << a.status().message();
    ASSERT_TRUE((*a)->BeginRun(MakeRun()).ok());
    auto b = Store::Open(path_);
    ASSERT_TRUE(b.ok()) << b.status().message();
    b->reset();
    EXPECT_TRUE(std::filesystem::exists(path_ + "-wal"));
    EXPECT_FALSE(UnchangedSinceCleanClose(path_, reserve));
  }
  EXPECT_TRUE(UnchangedSinceCleanClose(path_, reserve));
  // Any change to the file's times, or no stamp, and it is checked.
  const auto mtime = std::filesystem::last_write_time(path_);
  std::filesystem::last_write_time(path_, mtime + std::chrono::seconds(1));
  EXPECT_FALSE(UnchangedSinceCleanClose(path_, reserve));
  StampCleanClose(path_, reserve);
  EXPECT_TRUE(UnchangedSinceCleanClose(path_, reserve));
  std::filesystem::remove(reserve);
  EXPECT_FALSE(UnchangedSinceCleanClose(path_, reserve));
}

TEST_F(StoreTest, ADamagedStoreIsRefusedEvenWithItsModificationTimePutBack) {
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    ASSERT_TRUE((*store)->BeginRun(MakeRun()).ok());
  }
  ASSERT_TRUE(UnchangedSinceCleanClose(path_, path_ + "-reserve"));
  const auto mtime = std::filesystem::last_write_time(path_);
  {
    // Page 2 is the root of a table; a b-tree page type that does not exist fails quick_check.
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096);
    f.put('\x7f');
  }
  std::filesystem::last_write_time(path_, mtime);  // as `touch -r` would: the change time still moves
  auto reopened = Store::Open(path_);
  ASSERT_FALSE(reopened.ok());
  EXPECT_EQ(reopened.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(reopened.status().message().find("is damaged (SQLite's quick_check: "), std::string::npos)
      << reopened.status().message();
}

TEST_F(StoreTest, ProvenanceRoundTripsAndSelectsRuns) {
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto add = [&](const std::string& commit, const std::string& branch, std::optional<bool> dirty,
                 std::vector<std::pair<std::string, std::string>> tags) {
    RunRecord r = MakeRun();
    r.provenance = {commit, branch, dirty, std::move(tags)};
    auto id = (*store)->BeginRun(r);
    EXPECT_TRUE(id.ok()) << id.status().message();
    return id.ok() ? *id : 0;
  };
  const int64_t a = add("aaaa1111bbbb2222cccc3333dddd4444eeee5555", "main", false, {{"job", "nightly"}});
  const int64_t b =
      add("aaaa9999bbbb2222cccc3333dddd4444eeee5555", "feature-x", true, {{"job", "pr"}, {"os", "deb12"}});
  const int64_t c = add("", "", std::nullopt, {});
  const int64_t d = add("aaaa1111bbbb2222cccc3333dddd4444eeee5555", "main", false, {});

  auto run = (*store)->LoadRun(b);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->run.provenance.commit, "aaaa9999bbbb2222cccc3333dddd4444eeee5555");
  EXPECT_EQ(run->run.provenance.branch, "feature-x");
  ASSERT_TRUE(run->run.provenance.dirty.has_value());
  EXPECT_TRUE(*run->run.provenance.dirty);
  EXPECT_EQ(run->run.provenance.tags,
            (std::vector<std::pair<std::string, std::string>>{{"job", "pr"}, {"os", "deb12"}}));
  auto unknown = (*store)->LoadRun(c);
  ASSERT_TRUE(unknown.ok());
  EXPECT_FALSE(unknown->run.provenance.dirty.has_value());
  EXPECT_TRUE(unknown->run.provenance.commit.empty());
  auto listed = (*store)->ListRuns(10);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 4u);
  EXPECT_EQ((*listed)[2].provenance.tags.size(), 2u);  // run b, newest first

  auto resolves = [&](const std::string& sel) -> int64_t {
    auto id = (*store)->ResolveRun(sel);
    return id.ok() ? *id : -1;
  };
  EXPECT_EQ(resolves("latest"), d);
  EXPECT_EQ(resolves(std::to_string(b)), b);
  EXPECT_EQ(resolves("branch:main"), d);  // the newest of two
  EXPECT_EQ(resolves("main"), d);
  EXPECT_EQ(resolves("feature-x"), b);
  EXPECT_EQ(resolves("tag:job=nightly"), a);
  EXPECT_EQ(resolves("tag:os"), b);
  EXPECT_EQ(resolves("nightly"), a);  // a bare tag value
  EXPECT_EQ(resolves("commit:aaaa9"), b);
  EXPECT_EQ(resolves("AAAA1111"), d);  // bare commit prefix, any case
  // 'aaaa' names two commits: refused with both listed, not guessed.
  auto ambiguous = (*store)->ResolveRun("commit:aaaa");
  ASSERT_FALSE(ambiguous.ok());
  EXPECT_NE(ambiguous.status().message().find("more than one commit"), std::string::npos);
  EXPECT_NE(ambiguous.status().message().find("aaaa9999bbbb"), std::string::npos);
  for (const std::string bad : {"branch:nope", "tag:job=weekly", "commit:ffff", "nothing-here", "99"}) {
    auto r = (*store)->ResolveRun(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kNotFound) << bad;
  }
  for (const std::string bad : {"commit:xyz1", "commit:ab", "when:now", "0"}) {
    auto r = (*store)->ResolveRun(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << bad << ": " << r.status().message();
  }
}

// A store written by the previous schema (version 2, a real file from tare at 45f3a3c) opens,
// migrates to the current version, keeps its run, and reads with unknown provenance.
TEST_F(StoreTest, MigratesAVersion2Store) {
  std::filesystem::create_directories(dir_);
  const std::string old = dir_ + "/v2.db";
  {
    std::ifstream in(StoreTestData("v2_store.sql"));
    ASSERT_TRUE(in.good());
    std::string sql((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SQLite::Database db(old, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec(sql);
    ASSERT_EQ(db.execAndGet("PRAGMA user_version").getInt(), 2);
  }
  auto store = Store::Open(old);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
  auto runs = (*store)->ListRuns(10);
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 1u);
  auto data = (*store)->LoadRun((*runs)[0].id);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->samples.size(), 3u);  // a warm-up and two samples
  EXPECT_TRUE(data->run.provenance.commit.empty());
  EXPECT_FALSE(data->run.provenance.dirty.has_value());
  // And new runs carry provenance in the migrated file.
  RunRecord r = MakeRun();
  r.provenance.branch = "main";
  auto id = (*store)->BeginRun(r);
  ASSERT_TRUE(id.ok());
  auto found = (*store)->ResolveRun("branch:main");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, *id);
}

// A store written by the previous schema (version 3, a real file from tare at d0245d0) migrates to
// version 4: its runs keep their ids, provenance and tags, and each gets its own fresh uid.
TEST_F(StoreTest, MigratesAVersion3StoreGivingEachRunAUid) {
  std::filesystem::create_directories(dir_);
  const std::string old = dir_ + "/v3.db";
  {
    std::ifstream in(StoreTestData("v3_store.sql"));
    ASSERT_TRUE(in.good());
    std::string sql((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SQLite::Database db(old, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec(sql);
    ASSERT_EQ(db.execAndGet("PRAGMA user_version").getInt(), 3);
  }
  auto store = Store::Open(old);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
  auto runs = (*store)->ListRuns(10);
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 2u);
  const RunRecord& echo = (*runs)[0];
  const RunRecord& truth = (*runs)[1];
  EXPECT_EQ(truth.id, 1);
  EXPECT_EQ(truth.provenance.commit, "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(truth.provenance.branch, "main");
  EXPECT_EQ(truth.provenance.tags, (std::vector<std::pair<std::string, std::string>>{{"pr", "42"}}));
  EXPECT_TRUE(IsRunUid(truth.uid)) << truth.uid;
  EXPECT_TRUE(IsRunUid(echo.uid)) << echo.uid;
  EXPECT_NE(truth.uid, echo.uid);
  auto data = (*store)->LoadRun(truth.id);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->samples.size(), 3u);  // a warm-up and two samples
  EXPECT_EQ(data->run.uid, truth.uid);
  auto found = (*store)->FindRunByUid(echo.uid);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, std::optional<int64_t>(echo.id));

  // Reopening does not draw new uids: the migration ran once.
  store->reset();
  auto again = Store::Open(old);
  ASSERT_TRUE(again.ok());
  auto reread = (*again)->ListRuns(10);
  ASSERT_TRUE(reread.ok());
  EXPECT_EQ((*reread)[1].uid, truth.uid);
}

// BeginRun draws a uid when none is given, keeps one that is, and refuses a malformed or
// duplicate one without writing.
TEST_F(StoreTest, RunUidsAreDrawnKeptAndUnique) {
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto a = (*store)->BeginRun(MakeRun());
  auto b = (*store)->BeginRun(MakeRun());
  ASSERT_TRUE(a.ok() && b.ok());
  auto ra = (*store)->LoadRun(*a);
  auto rb = (*store)->LoadRun(*b);
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_TRUE(IsRunUid(ra->run.uid)) << ra->run.uid;
  EXPECT_NE(ra->run.uid, rb->run.uid);

  RunRecord given = MakeRun();
  given.uid = "0123456789abcdef0123456789abcdef";
  auto c = (*store)->BeginRun(given);
  ASSERT_TRUE(c.ok()) << c.status().message();
  auto rc = (*store)->LoadRun(*c);
  ASSERT_TRUE(rc.ok());
  EXPECT_EQ(rc->run.uid, given.uid);
  auto dup = (*store)->BeginRun(given);
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().code(), StatusCode::kFailedPrecondition) << dup.status().message();
  for (const std::string bad : {"0123456789ABCDEF0123456789ABCDEF", "abc", "0123456789abcdef0123456789abcdeg"}) {
    given.uid = bad;
    auto r = (*store)->BeginRun(given);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << bad;
  }
  auto all = (*store)->ListRuns(100);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 3u);
  EXPECT_FALSE(IsRunUid(""));
  EXPECT_TRUE(IsRunUid(NewRunUid()));
}

// A benchmark's history: newest runs of kind "run" that measured it, oldest first, filtered by
// branch and host; warm-ups never used; failed samples counted.
TEST_F(StoreTest, HistoryOfABenchmarkAcrossRuns) {
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto add_run = [&](const std::string& branch, const std::string& digest, RunKind kind, std::vector<double> values,
                     bool with_failure) {
    RunRecord r = MakeRun();
    r.kind = kind;
    r.fingerprint_digest = digest;
    r.provenance.branch = branch;
    auto id = (*store)->BeginRun(r);
    EXPECT_TRUE(id.ok());
    auto b = (*store)->AddBenchmark(*id, {0, "t::BM_X", "BM_X", TargetKind::kGbench});
    auto other = (*store)->AddBenchmark(*id, {0, "t::BM_Y", "BM_Y", TargetKind::kGbench});
    int seq = 0;
    Sample warm = MakeSample(seq++, 1e9);
    warm.warmup = true;
    EXPECT_TRUE((*store)->AppendSample(*id, *b, warm).ok());
    for (double v : values) EXPECT_TRUE((*store)->AppendSample(*id, *b, MakeSample(seq++, v)).ok());
    EXPECT_TRUE((*store)->AppendSample(*id, *other, MakeSample(seq++, 5.0)).ok());
    if (with_failure) {
      Sample f = MakeSample(seq++, 0);
      f.outcome = SampleOutcome::kFailed;
      f.values.clear();
      EXPECT_TRUE((*store)->AppendSample(*id, *b, f).ok());
    }
    return *id;
  };
  const int64_t r1 = add_run("main", "h1", RunKind::kRun, {10, 11, 12}, false);
  const int64_t r2 = add_run("feat", "h1", RunKind::kRun, {20, 21}, true);
  add_run("main", "h1", RunKind::kAb, {30}, false);  // campaigns are not history
  const int64_t r4 = add_run("main", "h2", RunKind::kRun, {40}, false);
  const int64_t r5 = add_run("main", "h1", RunKind::kRun, {50, 51}, false);

  auto all = (*store)->History({"BM_X", "wall_ns", "", "", 200});
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all->size(), 4u);
  EXPECT_EQ((*all)[0].run.id, r1);
  EXPECT_EQ((*all)[0].n, 3);
  EXPECT_EQ((*all)[0].median, 11.0);
  EXPECT_EQ((*all)[1].n, 2);
  EXPECT_EQ((*all)[1].median, 20.5);
  EXPECT_EQ((*all)[1].failed, 1);
  EXPECT_EQ((*all)[1].run.provenance.branch, "feat");
  auto main_h1 = (*store)->History({"BM_X", "wall_ns", "main", "h1", 200});
  ASSERT_TRUE(main_h1.ok());
  ASSERT_EQ(main_h1->size(), 2u);
  EXPECT_EQ((*main_h1)[0].run.id, r1);
  EXPECT_EQ((*main_h1)[1].run.id, r5);
  auto newest = (*store)->History({"BM_X", "wall_ns", "", "", 2});
  ASSERT_TRUE(newest.ok());
  ASSERT_EQ(newest->size(), 2u);
  EXPECT_EQ((*newest)[0].run.id, r4);
  auto none = (*store)->History({"BM_X", "no_such_metric", "", "", 200});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->size(), 1u);  // only the run whose failed sample counts
  EXPECT_EQ((*none)[0].run.id, r2);
  auto hosts = (*store)->HostsOf("BM_X");
  ASSERT_TRUE(hosts.ok());
  EXPECT_EQ(*hosts, (std::vector<std::pair<std::string, int64_t>>{{"h1", 3}, {"h2", 1}}));
}

// A sharded run's record (schema version 5): its shard, group, weights and whole assignment are
// read back exactly, by LoadRun, ListRuns and ShardedRuns (only the group asked for).
TEST_F(StoreTest, RoundTripsAShardRecord) {
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status().message();
  ASSERT_TRUE((*store)->BeginRun(MakeRun()).ok());  // not sharded
  RunRecord r = MakeRun();
  ShardRecord sh;
  sh.index = 2;
  sh.count = 3;
  sh.group = std::string(64, 'a');
  sh.assignment_sha256 = std::string(64, 'b');
  sh.weights = "uid:0123";
  sh.assignment = {{"BM_A", 1}, {"BM_B \"quoted\" | pipe", 2}, {"BM_C", 3}};
  r.shard = sh;
  auto id = (*store)->BeginRun(r);
  ASSERT_TRUE(id.ok()) << id.status().message();
  RunRecord other = MakeRun();
  sh.group = std::string(64, 'c');
  sh.index = 1;
  other.shard = sh;
  ASSERT_TRUE((*store)->BeginRun(other).ok());

  auto data = (*store)->LoadRun(*id);
  ASSERT_TRUE(data.ok()) << data.status().message();
  ASSERT_TRUE(data->run.shard.has_value());
  EXPECT_EQ(data->run.shard->index, 2);
  EXPECT_EQ(data->run.shard->count, 3);
  EXPECT_EQ(data->run.shard->group, std::string(64, 'a'));
  EXPECT_EQ(data->run.shard->assignment_sha256, std::string(64, 'b'));
  EXPECT_EQ(data->run.shard->weights, "uid:0123");
  EXPECT_EQ(data->run.shard->assignment, r.shard->assignment);

  auto in_group = (*store)->ShardedRuns(std::string(64, 'a'));
  ASSERT_TRUE(in_group.ok()) << in_group.status().message();
  ASSERT_EQ(in_group->size(), 1u);
  EXPECT_EQ((*in_group)[0].id, *id);
  EXPECT_EQ((*in_group)[0].shard->assignment, r.shard->assignment);
  auto all = (*store)->ShardedRuns("");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 2u);
  auto listed = (*store)->ListRuns(10);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 3u);
  EXPECT_TRUE((*listed)[1].shard.has_value());
  EXPECT_FALSE((*listed)[2].shard.has_value());
}

// A version 4 store (the previous schema, rendered from the same migration list, with a run in
// it) migrates to version 5: the run keeps its uid and has no shard; a sharded run can be added.
TEST_F(StoreTest, MigratesAVersion4Store) {
  std::filesystem::create_directories(dir_);
  const std::string old = dir_ + "/v4.db";
  {
    SQLite::Database db(old, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    for (int v = 0; v < 4; ++v) db.exec(RenderMigration(v, Dialect::kSqlite));
    db.exec("PRAGMA user_version = 4");
    db.exec(
        "INSERT INTO runs (kind, status, started_unix_ns, tare_version, command_line, options, fingerprint, "
        "fingerprint_digest, uid) VALUES ('run', 'complete', 1, '0.1.0', '[]', '{}', '{}', 'h', "
        "'0123456789abcdef0123456789abcdef')");
  }
  auto store = Store::Open(old);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
  auto runs = (*store)->ListRuns(10);
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].uid, "0123456789abcdef0123456789abcdef");
  EXPECT_FALSE((*runs)[0].shard.has_value());
  RunRecord r = MakeRun();
  r.shard = ShardRecord{1, 2, "g", "d", "equal", {{"a", 1}, {"b", 2}}};
  auto id = (*store)->BeginRun(r);
  ASSERT_TRUE(id.ok()) << id.status().message();
  auto sharded = (*store)->ShardedRuns("g");
  ASSERT_TRUE(sharded.ok());
  ASSERT_EQ(sharded->size(), 1u);
  EXPECT_EQ((*sharded)[0].shard->assignment, r.shard->assignment);
}

}  // namespace
}  // namespace tare::store

namespace tare::store {
namespace {

// Per-run summaries (schema version 6). A store whose runs finished answers tare history from
// their summaries; the same store with the summaries deleted answers from the samples; both
// answers are the same, field for field (medians bit for bit). A version 5 store (the same
// store with the summary tables dropped) is summarized by its migration.
class SummaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "summary_test_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = dir_ + "/tare.db";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Every query shape tare history makes, each answer flattened to text (%a: doubles exactly).
  std::string Histories(Store& store) {
    std::string out;
    for (const char* metric : {"wall_ns", "cycles", "no_such_metric"}) {
      for (const char* branch : {"", "main", "feat"}) {
        for (int limit : {200, 3, 1}) {
          auto points = store.History({"BM_X", metric, branch, "h1", limit});
          EXPECT_TRUE(points.ok()) << points.status().message();
          if (!points.ok()) continue;
          out += fmt::format("{} {} {}:", metric, branch, limit);
          for (const auto& p : *points) {
            out += fmt::format(" [{} {} {} {:a} {}]", p.run.id, p.n, p.failed, p.median, p.run.provenance.branch);
          }
          out += "\n";
        }
      }
    }
    return out;
  }
  int64_t SummaryRows() {
    SQLite::Database db(path_, SQLite::OPEN_READONLY);
    return db.execAndGet("SELECT (SELECT count(*) FROM run_summaries) + (SELECT count(*) FROM run_summary_metrics)")
        .getInt64();
  }
  // Run i: failed samples, a run whose every sample failed, a metric on some samples only, warm-ups,
  // an interrupted run, one left running.
  void Fill(Store& store) {
    for (int i = 0; i < 8; ++i) {
      RunRecord r;
      r.kind = RunKind::kRun;
      r.started_unix_ns = 1'700'000'000'000'000'000 + i;
      r.tare_version = "t";
      r.fingerprint_digest = "h1";
      r.provenance.branch = i % 3 == 1 ? "feat" : "main";
      auto id = store.BeginRun(r);
      ASSERT_TRUE(id.ok()) << id.status().message();
      auto b = store.AddBenchmark(*id, {0, "t::BM_X", "BM_X", TargetKind::kGbench});
      ASSERT_TRUE(b.ok());
      for (int seq = 0; seq < 5 + i; ++seq) {
        Sample s;
        s.seq = seq;
        s.warmup = seq == 0;
        s.values = {{"wall_ns", 100.0 + i + seq * 0.37 + (seq % 2) * 1e-9}};
        if (seq % 2 == 0) s.values["cycles"] = 1e9 / (seq + 1.0 + i);
        if (i == 2 || (i == 4 && seq % 3 == 0)) {
          s.outcome = SampleOutcome::kFailed;
          s.values.clear();
        }
        ASSERT_TRUE(store.AppendSample(*id, *b, s).ok());
      }
      if (i == 6) continue;  // killed: left running
      ASSERT_TRUE(store.FinishRun(*id, i == 5 ? RunStatus::kInterrupted : RunStatus::kComplete, 9).ok());
    }
  }

  std::string dir_;
  std::string path_;
};

TEST_F(SummaryTest, SummariesAnswerAsTheSamplesDoAndTheV6MigrationWritesThem) {
  std::string from_summaries;
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    Fill(**store);
    from_summaries = Histories(**store);
  }
  // Seven finished runs: one row per benchmark, one per (benchmark, metric) with a value; the run
  // whose every sample failed has no metric row.
  const int64_t rows = SummaryRows();
  EXPECT_EQ(rows, 7 + 6 * 2);
  EXPECT_NE(from_summaries.find("wall_ns  200: [1 4 0"), std::string::npos) << from_summaries;
  EXPECT_NE(from_summaries.find(" [3 0 6 nan main]"), std::string::npos) << from_summaries;

  {
    SQLite::Database db(path_, SQLite::OPEN_READWRITE);
    db.exec("DELETE FROM run_summary_metrics; DELETE FROM run_summaries");
  }
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok());
    EXPECT_EQ(Histories(**store), from_summaries);
  }

  // Back to version 5 (version 7's columns and table dropped too): the migration summarizes every
  // finished run again, the same way.
  {
    SQLite::Database db(path_, SQLite::OPEN_READWRITE);
    db.exec(
        "ALTER TABLE ab_verdicts DROP COLUMN unit; ALTER TABLE ab_verdicts DROP COLUMN direction; "
        "ALTER TABLE ab_verdicts DROP COLUMN declared; ALTER TABLE ab_verdicts DROP COLUMN has_null; "
        "ALTER TABLE ab_verdicts DROP COLUMN pass_bound; ALTER TABLE ab_verdicts DROP COLUMN changed; "
        "ALTER TABLE ab_verdicts DROP COLUMN exact; ALTER TABLE ab_checks DROP COLUMN unit; "
        "ALTER TABLE metrics DROP COLUMN cycle_model; ALTER TABLE ab_cohorts DROP COLUMN notes; "
        "DROP TABLE ab_comparisons; "
        "DROP TABLE run_summary_metrics; DROP TABLE run_summaries; PRAGMA user_version = 5");
  }
  {
    auto store = Store::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
    EXPECT_EQ(Histories(**store), from_summaries);
  }
  EXPECT_EQ(SummaryRows(), rows);
}

// A summary is never older than its samples: a sample added to a finished run (a resume) deletes
// the benchmark's summary in the same transaction; finishing the run again writes it anew.
TEST_F(SummaryTest, ASampleAddedAfterTheSummaryReplacesIt) {
  auto store = Store::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status().message();
  Fill(**store);
  const int64_t rows = SummaryRows();
  auto before = (*store)->History({"BM_X", "wall_ns", "", "h1", 1});
  ASSERT_TRUE(before.ok());
  ASSERT_EQ(before->size(), 1u);
  const int64_t run = before->back().run.id;  // the newest, finished
  auto data = (*store)->LoadRun(run);
  ASSERT_TRUE(data.ok());
  Sample s;
  s.seq = 100;
  s.values = {{"wall_ns", 1e6}};
  ASSERT_TRUE((*store)->AppendSample(run, data->benchmarks[0].id, s).ok());
  EXPECT_EQ(SummaryRows(), rows - 3);  // its benchmark row and two metric rows
  auto after = (*store)->History({"BM_X", "wall_ns", "", "h1", 1});
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->back().n, before->back().n + 1);
  EXPECT_GT(after->back().median, before->back().median);
  // A second sample (the deletion remembered) and a bulk copy of two more.
  s.seq = 101;
  ASSERT_TRUE((*store)->AppendSample(run, data->benchmarks[0].id, s).ok());
  ASSERT_TRUE((*store)->FinishRun(run, RunStatus::kComplete, 10).ok());
  EXPECT_EQ(SummaryRows(), rows);
  s.seq = 102;
  ASSERT_TRUE((*store)->AppendSamples(run, {StoredSample{0, data->benchmarks[0].id, s}}).ok());
  EXPECT_EQ(SummaryRows(), rows - 3);
  ASSERT_TRUE((*store)->FinishRun(run, RunStatus::kComplete, 11).ok());
  EXPECT_EQ(SummaryRows(), rows);
  auto finished = (*store)->History({"BM_X", "wall_ns", "", "h1", 1});
  ASSERT_TRUE(finished.ok());
  EXPECT_EQ(finished->back().n, before->back().n + 3);
  // Read from the samples, the same point.
  {
    SQLite::Database db(path_, SQLite::OPEN_READWRITE);
    db.exec("DELETE FROM run_summary_metrics; DELETE FROM run_summaries");
  }
  auto from_samples = (*store)->History({"BM_X", "wall_ns", "", "h1", 1});
  ASSERT_TRUE(from_samples.ok());
  EXPECT_EQ(from_samples->back().n, finished->back().n);
  EXPECT_EQ(from_samples->back().median, finished->back().median);
}

// Runs copied into another store (tare merge, push, import: WriteFullRun) are summarized there as
// they were where they came from; the run left running is not.
TEST_F(SummaryTest, CopiedRunsAreSummarizedInTheirNewStore) {
  std::string from_source;
  const std::string copy = dir_ + "/copy.db";
  {
    auto src = Store::Open(path_);
    ASSERT_TRUE(src.ok()) << src.status().message();
    Fill(**src);
    from_source = Histories(**src);
    auto dst = Store::Open(copy);
    ASSERT_TRUE(dst.ok()) << dst.status().message();
    auto runs = (*src)->ListRuns(100);
    ASSERT_TRUE(runs.ok());
    std::reverse(runs->begin(), runs->end());  // oldest first: the same ids in the copy
    for (const auto& r : *runs) {
      auto full = ReadFullRun(**src, r.id);
      ASSERT_TRUE(full.ok()) << full.status().message();
      auto written = WriteFullRun(**dst, *full);
      ASSERT_TRUE(written.ok()) << written.status().message();
      ASSERT_EQ(written->run_id, r.id);
    }
  }
  const int64_t rows = SummaryRows();
  path_ = copy;
  EXPECT_EQ(SummaryRows(), rows);
  auto dst = Store::Open(copy);
  ASSERT_TRUE(dst.ok());
  EXPECT_EQ(Histories(**dst), from_source);
}

}  // namespace
}  // namespace tare::store
