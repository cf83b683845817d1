// `tare ab` end to end: the real binary against real programs with known changes (the ab_knob
// builds: +3%, -3%, the same build twice, 64 MiB more memory), a real Google Benchmark binary,
// SIGINT and --resume, an executable replaced in the middle of a campaign, and bad input. The
// store is reopened from its file afterwards and read with plain SQL.
//
// Timing: the workload is sized so one process takes about 15 ms here (kWork = 12 million loop
// iterations); the default plan (a look at 20 pairs, then doubling while undecided, ended by the
// default budget of 30 s per cell) decides the changes these tests make at the first look or two:
// 60 to 120 processes per campaign, 1-4 s. The default metric for commands is perf.task_clock_ns (CPU time):
// on this 2-CPU VM shared with other builds, wall time's noise floor reached 20-80% and no +3%
// could be told apart; task-clock caught +3% in 20 of 20 campaigns (10 at 6M, 10 at 12M
// iterations), and at 12M supported the -3% gain in 10 of 10, with 0 FAIL in 20 A/A campaigns.
#include <gtest/gtest.h>

#include "../tare_process.h"
#include "../tare_terminal.h"
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "report/ab_consistency.h"

namespace {

// Millions of loop iterations per ab_knob process in these tests.
constexpr const char* kWork = "12";

using tare::e2e::Result;
using tare::e2e::Slurp;

std::string Knob(const std::string& variant) { return std::string(AB_KNOB_DIR) + "/ab_knob_" + variant; }

// What a test of `tare ab` read back, beside its ledger (AbE2E::ExpectOutputsAgree).
struct Written {
  std::string json = "result.json";  // in the test's directory
  std::string summary{};             // a terminal's stdout
  bool inconclusive_ok = false;
};

class AbE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "tare_ab_e2e_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    std::filesystem::create_directories(dir_ + "/store");  // a store is created only in a directory that exists
    store_ = dir_ + "/store/tare.db";
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }

  Result Tare(std::vector<std::string> args) {
    pid_t pid = StartTare(std::move(args));
    int status = 0;
    waitpid(pid, &status, 0);
    return Collect(status);
  }

  pid_t StartTare(std::vector<std::string> args) { return tare::e2e::StartTare(TARE_BIN, dir_, std::move(args)); }

  Result Collect(int status) { return tare::e2e::CollectTare(dir_, status); }

  // tare ab --base B --head H [--no-null] [extra...] -- --work kWork, JSON to dir/result.json. The
  // null arm is on by default (issue 21), so null_arm = true passes no flag at all.
  Result Ab(const std::string& base, const std::string& head, std::vector<std::string> extra = {},
            bool null_arm = true) {
    std::vector<std::string> args = {
        "ab",       "--base",           base, "--head", head, "--store", store_, "--json", dir_ + "/result.json",
        "--ledger", dir_ + "/ledger.md"};
    if (!null_arm) args.push_back("--no-null");
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--", "--work", kWork});
    return Tare(args);
  }

  nlohmann::json Json() { return nlohmann::json::parse(Slurp(dir_ + "/result.json")); }

  // Issue 42: every line of the cohort's outputs agrees with itself and its neighbours
  // (report/ab_consistency.h) — the ledger `tare ab` printed (stdout, when piped) or wrote to
  // dir/ledger.md, the JSON in dir/result.json, the HTML page in dir/page.html when the test asked
  // for one, a terminal's summary when it has one, and the exit status.
  void ExpectOutputsAgree(const Result& r, const Written& w = {}) {
    tare::report::AbOutputs o;
    o.ledger = r.out.rfind("## tare ab: ", 0) == 0 ? r.out : Slurp(dir_ + "/ledger.md");
    o.json = Slurp(dir_ + "/" + w.json);
    if (std::filesystem::exists(dir_ + "/page.html")) o.html = Slurp(dir_ + "/page.html");
    o.summary = w.summary;
    o.exit_status = r.exit_code;
    o.inconclusive_ok = w.inconclusive_ok;
    const auto problems = tare::report::CheckAbOutputs(o);
    EXPECT_TRUE(problems.empty()) << tare::report::DescribeProblems(problems) << "\n" << o.ledger;
  }

  // Samples the latest cohort uses: (cell, arm, block) -> count, from the store file itself.
  std::map<std::tuple<int64_t, std::string, int64_t>, int> UsedSamples(int64_t* run_id = nullptr) {
    SQLite::Database db(store_, SQLite::OPEN_READONLY);
    int64_t run = db.execAndGet("SELECT max(run_id) FROM ab_cohorts").getInt64();
    if (run_id) *run_id = run;
    SQLite::Statement q(db,
                        "SELECT c.cell, s.arm, s.block FROM samples s JOIN ab_cells c ON c.run_id = s.run_id AND "
                        "c.benchmark_id = s.benchmark_id WHERE s.run_id = ? AND s.id NOT IN "
                        "(SELECT sample_id FROM ab_discarded_samples)");
    q.bind(1, static_cast<int64_t>(run));
    std::map<std::tuple<int64_t, std::string, int64_t>, int> out;
    while (q.executeStep()) {
      ++out[{q.getColumn(0).getInt64(), q.getColumn(1).getString(), q.getColumn(2).getInt64()}];
    }
    return out;
  }

  int64_t SampleCount() {
    if (!std::filesystem::exists(store_)) return 0;
    try {
      SQLite::Database db(store_, SQLite::OPEN_READONLY);
      db.setBusyTimeout(2000);
      return db.execAndGet("SELECT count(*) FROM samples").getInt64();
    } catch (const std::exception&) {
      return 0;
    }
  }

  std::string dir_;
  std::string store_;
};

TEST_F(AbE2E, SameBinaryAsBaseAndHeadNeverFails) {
  Result r = Ab(Knob("base"), Knob("base"));
  ASSERT_NE(r.exit_code, 1) << r.out << r.err;
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.err;
  nlohmann::json j = Json();
  EXPECT_EQ(j["schema"], "tare.ab/1");
  EXPECT_NE(j["outcome"], "FAIL");
  EXPECT_EQ(j["comparisons"][0]["metrics"][0]["metric"], "perf.task_clock_ns");
  EXPECT_TRUE(j["comparisons"][0]["metrics"][0]["null"].is_object()) << "the null arm is on by default";
  // The ledger went to stdout and to the file.
  EXPECT_NE(r.out.find("## tare ab: ab_knob_base vs ab_knob_base"), std::string::npos) << r.out;
  EXPECT_EQ(r.out, Slurp(dir_ + "/ledger.md"));
  EXPECT_NE(r.out.find("INCONCLUSIVE is not a pass"), std::string::npos);
  // Every arm ran from its own same-length copy.
  std::set<size_t> lengths;
  for (const auto& arm : j["arms"]) lengths.insert(arm["path"].get<std::string>().size());
  EXPECT_EQ(lengths.size(), 1u);
  EXPECT_EQ(j["arms"].size(), 3u);
  ExpectOutputsAgree(r);
}

TEST_F(AbE2E, ThreePercentMoreWorkFailsAtTheDefaultBudget) {
  Result r = Ab(Knob("base"), Knob("plus3"));
  nlohmann::json j = Json();
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(j["outcome"], "FAIL");
  const auto& m = j["comparisons"][0]["metrics"][0];
  EXPECT_EQ(m["verdict"], "FAIL");
  EXPECT_GT(m["change"]["lo"].get<double>(), 0.0);
  EXPECT_NE(r.out.find("**FAIL**"), std::string::npos);
  ExpectOutputsAgree(r);
}

TEST_F(AbE2E, ThreePercentLessWorkIsASupportedGain) {
  Result r = Ab(Knob("base"), Knob("minus3"));
  nlohmann::json j = Json();
  EXPECT_NE(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(j["comparisons"][0]["supported_gain"], true) << r.out;
  EXPECT_LT(j["comparisons"][0]["metrics"][0]["change"]["hi"].get<double>(), 0.0);
  EXPECT_NE(r.out.find("yes: perf.task_clock_ns -"), std::string::npos) << r.out;
  ExpectOutputsAgree(r);
}

TEST_F(AbE2E, InterruptedCohortResumesAndEndsWithEverySampleOnce) {
  // A plan with one look at 24 pairs: long enough to interrupt in the middle.
  std::vector<std::string> args = {
      "ab", "--base", Knob("base"), "--head", Knob("plus0_5"),       "--null", "--store", store_, "--samples",
      "24", "--cap",  "24",         "--json", dir_ + "/result.json", "--",     "--work",  kWork};
  pid_t pid = StartTare(args);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (SampleCount() < 20 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  Result first = Collect(status);
  ASSERT_EQ(first.exit_code, 130) << first.err;
  EXPECT_NE(first.err.find("--resume"), std::string::npos) << first.err;
  const int64_t stored_at_interrupt = SampleCount();
  EXPECT_LT(stored_at_interrupt, 72);

  args.insert(args.begin() + 1, "--resume");
  Result second = Tare(args);
  ASSERT_TRUE(second.exit_code == 0 || second.exit_code == 1 || second.exit_code == 3) << second.err;
  EXPECT_NE(second.err.find("resuming cohort 1"), std::string::npos) << second.err;

  int64_t run_id = 0;
  auto used = UsedSamples(&run_id);
  ASSERT_EQ(used.size(), 24u * 3u) << "24 blocks x 3 arms";
  for (const auto& [key, count] : used) {
    EXPECT_EQ(count, 1) << std::get<1>(key) << " block " << std::get<2>(key);
    EXPECT_LT(std::get<2>(key), 24);
  }
  SQLite::Database db(store_, SQLite::OPEN_READONLY);
  EXPECT_EQ(db.execAndGet("SELECT count(*) FROM ab_cohorts").getInt(), 1) << "resumed, not a new cohort";
  EXPECT_EQ(db.execAndGet("SELECT state FROM ab_cohorts").getString(), "complete");
  EXPECT_EQ(db.execAndGet("SELECT resumed FROM ab_cohorts").getInt(), 1);
  EXPECT_EQ(db.execAndGet("SELECT status FROM runs").getString(), "complete");
  // Every sample ever taken is still stored; the ones set aside say why.
  const int64_t discarded = db.execAndGet("SELECT count(*) FROM ab_discarded_samples").getInt64();
  EXPECT_EQ(db.execAndGet("SELECT count(*) FROM samples").getInt64(), 72 + discarded);
  if (discarded > 0) {
    EXPECT_NE(db.execAndGet("SELECT reason FROM ab_discarded_samples LIMIT 1").getString().find("interruption"),
              std::string::npos);
  }
  nlohmann::json j = Json();
  EXPECT_EQ(j["resumed"], 1);
  EXPECT_EQ(j["state"], "complete");
  EXPECT_EQ(j["comparisons"][0]["metrics"][0]["pairs"], 24);
  ExpectOutputsAgree(second);
}

TEST_F(AbE2E, AnExecutableReplacedMidCampaignStopsIt) {
  const std::string head = dir_ + "/head_build";
  std::filesystem::copy_file(Knob("base"), head);
  std::vector<std::string> args = {
      "ab",        "--base", Knob("base"), "--head", head, "--store", store_, "--json", dir_ + "/result.json",
      "--samples", "30",     "--cap",      "30",     "--", "--work",  kWork};
  pid_t pid = StartTare(args);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (SampleCount() < 6 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // A rebuild: the new file replaces the old one.
  std::filesystem::copy_file(Knob("plus3"), head + ".new");
  std::filesystem::rename(head + ".new", head);
  int status = 0;
  waitpid(pid, &status, 0);
  Result r = Collect(status);
  ASSERT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("STOPPED: the head executable '" + head + "' changed during the campaign"), std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("> **STOPPED:**"), std::string::npos) << r.out;
  EXPECT_LT(SampleCount(), 60);
  ExpectOutputsAgree(r);
  SQLite::Database db(store_, SQLite::OPEN_READONLY);
  EXPECT_EQ(db.execAndGet("SELECT state FROM ab_cohorts").getString(), "stopped");
  // A stopped cohort is not resumable: the lock no longer holds.
  args.insert(args.begin() + 1, "--resume");
  Result resumed = Tare(args);
  EXPECT_EQ(resumed.exit_code, 2) << resumed.err;
  EXPECT_NE(resumed.err.find("no interrupted cohort of this campaign"), std::string::npos) << resumed.err;
}

TEST_F(AbE2E, AHeadThatNeedsFarMoreMemoryTripsTheSanityGate) {
  Result r = Ab(Knob("base"), Knob("fat"), {}, false);
  ASSERT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("STOPPED: sanity gate \"peak_rss_bytes(head) <= 1.5 * peak_rss_bytes(base) + 8MiB\" "
                       "is violated in cell '--work " +
                       std::string(kWork) + "': head is "),
            std::string::npos)
      << r.err;
  EXPECT_EQ(SampleCount(), 2) << "stopped after the first block: one sample per arm";
  EXPECT_NE(Slurp(dir_ + "/ledger.md").find("**VIOLATED**"), std::string::npos);
  ExpectOutputsAgree(r);
}

TEST_F(AbE2E, AGateNamingHeadChecksEveryHead) {
  // Each head against itself: the fat second head is within 1.2 x its own RSS. Reading the first
  // head's RSS for every head (the old behaviour) would make the fat one violate it.
  Result r = Tare({"ab",
                   "--base",
                   Knob("base"),
                   "--head",
                   Knob("base"),
                   "--head",
                   Knob("fat"),
                   "--store",
                   store_,
                   "--json",
                   dir_ + "/result.json",
                   "--samples",
                   "6",
                   "--cap",
                   "6",
                   "--gate",
                   "peak_rss_bytes(head) <= 1.2 * peak_rss_bytes(head)",
                   "--",
                   "--work",
                   kWork});
  EXPECT_NE(r.exit_code, 4) << r.out << r.err;
  const auto checks = Json()["checks"];
  std::set<std::string> arms;
  for (const auto& c : checks) arms.insert(c["arm"].get<std::string>());
  EXPECT_EQ(arms, (std::set<std::string>{"head", "hd02"})) << checks.dump();
  ExpectOutputsAgree(r);
  // And the fat head against base trips the default gate even as the second head.
  Result fat = Tare({"ab", "--base", Knob("base"), "--head", Knob("base"), "--head", Knob("fat"), "--store", store_,
                     "--samples", "6", "--cap", "6", "--", "--work", kWork});
  EXPECT_EQ(fat.exit_code, 4) << fat.err;
  EXPECT_NE(fat.err.find("hd02 is"), std::string::npos) << fat.err;
}

TEST_F(AbE2E, AnyWorkingDirectoryWorksWithARelativeStore) {
  std::filesystem::create_directories(dir_ + "/elsewhere");
  std::filesystem::create_directories(dir_ + "/rel");  // a store is created only in a directory that exists
  Result r = Tare({"ab", "--base", Knob("base"), "--head", Knob("base"), "--store", "rel/tare.db", "--cwd",
                   dir_ + "/elsewhere", "--samples", "6", "--cap", "6", "--quiet", "--", "--work", kWork});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.err;
  EXPECT_EQ(r.err.find("cannot execute"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/rel/tare.db"));
}

TEST_F(AbE2E, AUsageErrorFoundAfterStagingLeavesNoCopies) {
  // The filter is checked once the arms are staged and listed: nothing may be left behind.
  Result r = Tare(
      {"ab", "--base", GBENCH_BASIC, "--head", GBENCH_BASIC, "--store", store_, "--filter", "^no_such_benchmark$"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("matches none"), std::string::npos) << r.err;
  const std::string bin = dir_ + "/store/bin";
  if (std::filesystem::exists(bin)) {
    for (const auto& e : std::filesystem::directory_iterator(bin)) {
      EXPECT_TRUE(e.path().filename().string().rfind(".", 0) == 0) << "left behind: " << e.path();
    }
  }
}

TEST_F(AbE2E, ExecutablesThatLoadLibrariesThroughOriginRun) {
  Result r = Tare({"ab", "--base", ORIGIN_APP, "--head", ORIGIN_APP, "--null", "--store", store_, "--json",
                   dir_ + "/result.json", "--samples", "6", "--cap", "6", "--metric", "wall_ns"});
  EXPECT_NE(r.exit_code, 4) << r.out << r.err;
  EXPECT_EQ(r.err.find("error while loading shared libraries"), std::string::npos) << r.err;
  const auto notes = Json()["notes"].dump();
  EXPECT_NE(notes.find("through $ORIGIN"), std::string::npos) << notes;
  ExpectOutputsAgree(r);
}

TEST_F(AbE2E, AHugeCapIsRefusedAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  Result r = Tare({"ab", "--base", Knob("base"), "--head", Knob("base"), "--store", store_, "--cap", "1000000"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("more than 10000 pairs"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(store_)) << "a usage error creates no store";
  // Not a timing assertion on tare's speed: the refusal happens before any planning at all.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST_F(AbE2E, ACommentOnlyEditKeepsTheCampaignAndItsCohorts) {
  const std::string file = dir_ + "/campaign.toml";
  const std::string body = "args = [\"--work\", \"" + std::string(kWork) +
                           "\"]\n"
                           "[arms]\nbase = \"" +
                           Knob("base") + "\"\nhead = \"" + Knob("base") +
                           "\"\n"
                           "[sampling]\ninitial = 6\nstep = 6\ncap = 6\n";
  std::ofstream(file) << body;
  const std::vector<std::string> args = {"ab", file, "--store", store_, "--json", dir_ + "/result.json", "--quiet"};
  Result first = Tare(args);
  ASSERT_NE(first.exit_code, 2) << first.err;
  const std::string identity = Json()["campaign"]["sha256"];
  std::ofstream(file) << "# a comment, and the keys reflowed\n\n" << body;
  Result second = Tare(args);
  ASSERT_NE(second.exit_code, 2) << second.err;
  nlohmann::json j = Json();
  EXPECT_EQ(j["campaign"]["sha256"], identity);
  EXPECT_EQ(j["cohort"], 2);
  EXPECT_EQ(j["cohorts"].size(), 2u);
  // A declared setting is a new campaign.
  std::ofstream(file) << body << "[metrics]\nwall_ns = \"5%\"\n";
  Result third = Tare(args);
  ASSERT_NE(third.exit_code, 2) << third.err;
  EXPECT_NE(Json()["campaign"]["sha256"], identity);
  EXPECT_EQ(Json()["cohort"], 1);
}

TEST_F(AbE2E, ThePlansCostIsSaidAndABudgetEndsUndecidedCells) {
  const std::string file = dir_ + "/budget.toml";
  // An allowance no interval can certify (0.001%) keeps the unchanged head undecided at its first
  // look, so the budget is what ends it.
  std::ofstream(file) << "args = [\"--work\", \"" << kWork << "\"]\nbudget = \"1ms\"\n"
                      << "[arms]\nbase = \"" << Knob("base") << "\"\nhead = \"" << Knob("base") << "\"\n"
                      << "[metrics]\n\"perf.task_clock_ns\" = \"0.001%\"\n";
  Result r = Tare({"ab", file, "--store", store_, "--json", dir_ + "/result.json"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  // The null arm is on by default (issue 21): three arms.
  EXPECT_NE(r.err.find("plan: 1 cell x 3 arms x 20 to 1280 pairs = 60 to 3840 processes; budget 1 ms"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("first block: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("of it tare's own); the first looks take about"), std::string::npos) << r.err;
  // The budget counts after the first look, which it never cuts short (issue 21 §6), so the whole
  // campaign is the first looks plus up to the budget (issue 42).
  EXPECT_NE(r.err.find("the first look alone outlasts the budget of 1 ms, which is spent after it: about "),
            std::string::npos)
      << r.err;
  // Once the first look is taken, the projection: no pairs left in the budget, so the cell is named
  // as one the budget will leave undecided (and it is).
  EXPECT_NE(r.err.find("first looks taken ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("0 of 1 cell decided; the 1 still sampling, each projected from its own pairs through the "
                       "looks to come, need about 0 more pairs: about "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("; 1 of them ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(") will likely still be undecided when the budget is spent, at this host's noise"),
            std::string::npos)
      << r.err;
  nlohmann::json j = Json();
  EXPECT_EQ(j["outcome"], "INCONCLUSIVE");
  EXPECT_EQ(j["samples"], 60) << "the first look's 20 blocks, then the budget was spent";
  EXPECT_EQ(j["budget_ns"], 1000000);
  EXPECT_FALSE(j["budget_default"].get<bool>());
  EXPECT_NE(j["comparisons"][0]["reasons"].dump().find("budget of 1 ms spent"), std::string::npos)
      << j["comparisons"][0].dump();
  ExpectOutputsAgree(r);
}

// Issue 42: once every cell has had its first look, the estimate is a projection from each cell's
// own pairs, not a bracket. An allowance no interval can certify (0.001%) keeps the unchanged head
// undecided however many pairs it gets; a short workload (1 million iterations, ~1 ms) and a 5 s
// budget leave room for more looks even on a loaded host. Whether the projection names the cell
// as one the budget will leave undecided depends on the first look: its continuations carry the
// first look's own difference (nothing recentred), and under load that difference can be large
// enough to decide at 0.001% within the budget (ctest -j2 saw "need about 123 more pairs: about
// 3.74 s" and no name). So the line is checked against itself — a cell not named is projected to
// end within the budget — and the naming on a budget that leaves no pairs is
// ThePlansCostIsSaidAndABudgetEndsUndecidedCells' (deterministic), the fractions ProjectCell's (seeded).
TEST_F(AbE2E, TheFirstLooksProjectTheRestAndTheNextCohortHearsWhatTheLastTook) {
  const std::string file = dir_ + "/budget.toml";
  std::ofstream(file) << "args = [\"--work\", \"1\"]\nbudget = \"5s\"\n"
                      << "[arms]\nbase = \"" << Knob("base") << "\"\nhead = \"" << Knob("base") << "\"\n"
                      << "[metrics]\n\"perf.task_clock_ns\" = \"0.001%\"\n";
  Result r = Tare({"ab", file, "--store", store_, "--json", dir_ + "/result.json"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  const size_t at = r.err.find("first looks taken (");
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::string line = r.err.substr(at, r.err.find('\n', at) - at);
  // The first look came before the budget ran out, so the projection has pairs still to come.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(line, m,
                                std::regex("need about ([0-9]+) more pairs?: about ([0-9.]+) (ms|s|min) in all "
                                           "\\(the budget ends it by [0-9.]+ (s|min) at the latest\\)")))
      << line;
  EXPECT_GT(std::stoi(m[1]), 0) << line;
  const bool named = line.find("; 1 of them (") != std::string::npos;
  EXPECT_EQ(named, line.find(") will likely still be undecided when the budget is spent") != std::string::npos) << line;
  if (!named) {
    // Projected to be decided: then within the budget (5 s after the first sample).
    const double in_all_s = std::stod(m[2]) * (m[3] == "ms" ? 1e-3 : m[3] == "min" ? 60.0 : 1.0);
    EXPECT_LE(in_all_s, 5.0) << line;
  }
  // It was: the cell ended INCONCLUSIVE at the budget, with more pairs than its first look.
  nlohmann::json j = Json();
  EXPECT_EQ(j["outcome"], "INCONCLUSIVE");
  EXPECT_GT(j["samples"].get<int64_t>(), 60) << "the budget let the cell go past its first look";
  EXPECT_NE(j["comparisons"][0]["reasons"].dump().find("budget of 5 s spent"), std::string::npos)
      << j["comparisons"][0].dump();
  EXPECT_EQ(r.err.find("the campaign's last cohort"), std::string::npos) << "the store had no earlier cohort";

  // The campaign again: before its first sample, what its last cohort on this host type took.
  Result again = Tare({"ab", file, "--store", store_, "--json", dir_ + "/result.json"});
  EXPECT_EQ(again.exit_code, 3) << again.err;
  const size_t plan = again.err.find("tare: plan: ");
  const size_t earlier = again.err.find("tare: the campaign's last cohort on this host type (cohort 1, run 1) took ");
  ASSERT_NE(earlier, std::string::npos) << again.err;
  EXPECT_LT(plan, earlier);
  EXPECT_LT(earlier, again.err.find("first block: ")) << "told before the first sample's estimate";
  EXPECT_NE(again.err.find(" for 1 cell; the estimate below", earlier), std::string::npos) << again.err;
}

// Issue 42: the bound's exit status (4) ranks above every verdict, and every output says so first —
// the ledger's title and counts, the JSON's gate_outcome, the HTML title and, on a terminal, the
// summary — while the JSON's outcome keeps its meaning, the worst comparison's.
TEST_F(AbE2E, AViolatedReleaseBoundExitsFour) {
  const std::vector<std::string> plan = {
      "--samples", "8", "--cap", "8", "--bound", "p95(wall_ns, head) <= 1us", "--html", dir_ + "/page.html"};
  Result r = Ab(Knob("base"), Knob("base"), plan);
  ASSERT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("release bound violated: p95(wall_ns, head) <= 1us"), std::string::npos) << r.err;
  nlohmann::json j = Json();
  EXPECT_EQ(j["bounds_ok"], false);
  EXPECT_EQ(j["gate_outcome"], "BOUND VIOLATED");
  EXPECT_NE(j["outcome"], "BOUND VIOLATED") << "tare.ab/1's outcome stays the worst comparison's";
  const std::string ledger = Slurp(dir_ + "/ledger.md");
  EXPECT_EQ(ledger.find("## tare ab: ab_knob_base vs ab_knob_base — **BOUND VIOLATED**\n\n"), 0u) << ledger;
  EXPECT_NE(ledger.find("; **1 release bound violated** (exit 4); INCONCLUSIVE is not a pass."), std::string::npos)
      << ledger;
  EXPECT_NE(ledger.find("> **BOUND VIOLATED.** <code>p95(wall_ns, head) &lt;= 1us</code> in `--work 12`"),
            std::string::npos)
      << ledger;
  EXPECT_NE(Slurp(dir_ + "/page.html").find("<title>tare ab: ab_knob_base vs ab_knob_base — BOUND VIOLATED</title>"),
            std::string::npos);
  // The same campaign at a terminal: the summary.
  std::vector<std::string> args = {"ab",   "--base", Knob("base"),          "--head",   Knob("base"),       "--store",
                                   store_, "--json", dir_ + "/result.json", "--ledger", dir_ + "/ledger.md"};
  args.insert(args.end(), plan.begin(), plan.end());
  args.insert(args.end(), {"--", "--work", kWork});
  Result terminal = tare::e2e::RunTareOnTerminal(TARE_BIN, dir_, args);
  ASSERT_EQ(terminal.exit_code, 4) << terminal.out << terminal.err;
  EXPECT_EQ(terminal.out.find("tare ab: 'ab_knob_base vs ab_knob_base' cohort "), 0u) << terminal.out;
  EXPECT_NE(terminal.out.find("): BOUND VIOLATED — "), std::string::npos) << terminal.out;
  EXPECT_NE(terminal.out.find("; 1 release bound violated (exit 4)\n"), std::string::npos) << terminal.out;
  EXPECT_NE(terminal.out.find(" violated: p95(wall_ns, head) <= 1us (--work 12 head)\n"), std::string::npos)
      << terminal.out;
  ExpectOutputsAgree(terminal, {.summary = terminal.out});
}

// Issue 42: --base base/bench --head head/bench was titled "bench vs bench". The default name takes
// as many of the paths' last components as tell the arms apart.
TEST_F(AbE2E, ArmsOfOneFileNameAreToldApartByTheirDirectories) {
  for (const char* arm : {"base", "head"}) {
    std::filesystem::create_directories(dir_ + "/" + arm);
    std::filesystem::copy_file(Knob(std::string(arm) == "base" ? "base" : "plus3"), dir_ + "/" + arm + "/bench");
  }
  Result r = Ab(dir_ + "/base/bench", dir_ + "/head/bench", {"--samples", "8", "--cap", "8"});
  ASSERT_NE(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.out.find("## tare ab: base/bench vs head/bench — "), 0u) << r.out;
  EXPECT_EQ(Json()["campaign"]["name"], "base/bench vs head/bench");
  ExpectOutputsAgree(r);
}

TEST_F(AbE2E, BadInputExitsTwoAndStoresNothing) {
  std::ofstream(dir_ + "/bad.toml") << "[arms]\nbase = \"x\"\nhead = \"y\"\n[sampling]\ncap = \"40\"\n";
  Result r = Tare({"ab", dir_ + "/bad.toml", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.toml:5: sampling.cap: expected an integer, got a string"), std::string::npos) << r.err;

  std::ofstream(dir_ + "/missing.toml") << "[arms]\nbase = \"nowhere/base\"\nhead = \"nowhere/head\"\n";
  r = Tare({"ab", dir_ + "/missing.toml", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nowhere/base' does not exist"), std::string::npos) << r.err;

  r = Tare({"ab", "--base", Knob("base"), "--head", Knob("plus3"), "--metric", "wall_ns=2", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("allowance '2' is not understood"), std::string::npos) << r.err;

  r = Tare({"ab", "--base", Knob("base"), "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no head executable"), std::string::npos) << r.err;

  r = Tare({"ab", "--base", Knob("base"), "--head", Knob("plus3"), "--samples", "4", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("initial=4 pairs cannot give"), std::string::npos) << r.err;

  r = Tare({"ab", dir_ + "/missing.toml", "--cap", "60", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--cap cannot be combined with a campaign file"), std::string::npos) << r.err;

  r = Tare({"ab", "--base", Knob("base"), "--head", Knob("plus3"), "--resume", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--resume: there is no store"), std::string::npos) << r.err;

  EXPECT_FALSE(std::filesystem::exists(store_)) << "a usage error must leave no store behind";
}

// Issue 26 item 4: the common mistakes get the diagnosis, and the command line to type, instead of
// "cannot be combined with a campaign file ... '0.01'", "unknown flag" or "argument was not
// expected". Nothing is stored.
TEST_F(AbE2E, CommonMistakesSayWhatToTypeInstead) {
  // A forgotten `--`: the benchmark's argument read as a campaign file.
  Result r = Tare({"ab", "--base", "/bin/sleep", "--head", "/bin/sleep", "0.01", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'0.01' is not a campaign file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tare ab --base /bin/sleep --head /bin/sleep --store " + store_ + " -- 0.01"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("cannot be combined"), std::string::npos) << r.err;
  // A Google Benchmark flag given to tare.
  r = Tare({"ab", "--base", Knob("base"), "--head", Knob("base"), "--benchmark_min_time=0.05", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'--benchmark_min_time=0.05' is a Google Benchmark flag"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--gbench-min-time 0.05s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("-- --benchmark_min_time=0.05"), std::string::npos) << r.err;
  // Two builds as words.
  r = Tare({"ab", Knob("base"), Knob("plus3"), "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("tare ab --base " + Knob("base") + " --head " + Knob("plus3") + " --store " + store_),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("not expected"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(store_)) << "a usage error must leave no store behind";
}

// `tare ab --help` opens with the flags a first campaign needs; the rest are grouped under
// "Advanced: ..." after where the results go.
TEST_F(AbE2E, HelpListsTheEssentialFlagsFirst) {
  Result r = Tare({"ab", "--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> groups;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line) && line.rfind("Each block runs", 0) != 0;) {
    if (!line.empty() && line[0] != ' ' && line.back() == ':') groups.push_back(line);
  }
  ASSERT_GE(groups.size(), 5u) << r.out;
  EXPECT_EQ(groups[0], "Positionals:") << r.out;
  EXPECT_EQ(groups[1], "Essential options:") << r.out;
  EXPECT_EQ(groups[2], "Output:") << r.out;
  for (size_t i = 3; i < groups.size(); ++i) EXPECT_EQ(groups[i].rfind("Advanced: ", 0), 0u) << groups[i];
  // The first group holds the newcomer's five flags and help, and nothing else.
  const size_t start = r.out.find("Essential options:\n"), end = r.out.find("\nOutput:");
  ASSERT_LT(start, end);
  const std::string first = r.out.substr(start, end - start);
  for (const char* flag : {"--base", "--head", "--filter", "--metric", "--budget", "--help"}) {
    EXPECT_NE(first.find(flag), std::string::npos) << flag << " in\n" << first;
  }
  size_t flags = 0;
  for (size_t at = first.find("\n  -"); at != std::string::npos; at = first.find("\n  -", at + 1)) ++flags;
  EXPECT_EQ(flags, 6u) << first;
  EXPECT_EQ(r.out.find("\nOptions:"), std::string::npos) << "every flag has its group:\n" << r.out;
}

TEST_F(AbE2E, ACampaignFileRunTwiceMakesTwoCohortsAndTheLedgerListsBoth) {
  std::ofstream(dir_ + "/c.toml") << "name = \"knob twice\"\n"
                                  << "[arms]\nbase = \"" << Knob("base") << "\"\nhead = \"" << Knob("plus3")
                                  << "\"\nnull = true\n"
                                  << "[sampling]\ninitial = 8\ncap = 8\n"
                                  << "[metrics]\nwall_ns = \"noise\"\nuser_ns = \"10%\"\n"
                                  << "[[cells]]\nname = \"small\"\nargs = [\"--work\", \"2\"]\n";
  Result first = Tare({"ab", "c.toml", "--store", store_, "--quiet", "--json", "first.json"});
  ASSERT_TRUE(first.exit_code == 0 || first.exit_code == 1 || first.exit_code == 3) << first.err;
  EXPECT_TRUE(first.out.empty()) << "--quiet: no ledger on stdout";
  Result second = Tare({"ab", "c.toml", "--store", store_, "--ledger", "ledger.md", "--json", "second.json"});
  ASSERT_TRUE(second.exit_code == 0 || second.exit_code == 1 || second.exit_code == 3) << second.err;
  nlohmann::json j1 = nlohmann::json::parse(Slurp(dir_ + "/first.json"));
  nlohmann::json j2 = nlohmann::json::parse(Slurp(dir_ + "/second.json"));
  EXPECT_EQ(j1["cohort"], 1);
  EXPECT_EQ(j2["cohort"], 2);
  EXPECT_EQ(j1["campaign"]["sha256"], j2["campaign"]["sha256"]);
  EXPECT_NE(j1["lock_sha256"], j2["lock_sha256"]) << "each cohort has its own lock (time, host state)";
  EXPECT_EQ(j2["cohorts"].size(), 2u);
  EXPECT_EQ(j2["comparisons"][0]["metrics"].size(), 2u);
  EXPECT_EQ(j2["lock"]["executables"][1]["arm"], "head");
  const std::string ledger = Slurp(dir_ + "/ledger.md");
  EXPECT_NE(ledger.find("| **2** (this) |"), std::string::npos) << ledger;
  EXPECT_NE(ledger.find("| 1 | "), std::string::npos) << ledger;
  EXPECT_NE(ledger.find(j2["lock_sha256"].get<std::string>().substr(0, 12)), std::string::npos);
  EXPECT_NE(ledger.find("file `" + std::filesystem::canonical(dir_).string() + "/c.toml`"), std::string::npos)
      << ledger;
  ExpectOutputsAgree(second, {.json = "second.json"});
}

TEST_F(AbE2E, GoogleBenchmarkBinariesAreComparedPerBenchmark) {
  Result r =
      Tare({"ab", "--base", GBENCH_BASIC, "--head", GBENCH_BASIC, "--filter", "BM_StringCopy/64", "--samples", "6",
            "--cap", "6", "--store", store_, "--json", dir_ + "/result.json", "--", "--benchmark_min_time=0.01"});
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.out << r.err;
  nlohmann::json j = Json();
  EXPECT_EQ(j["kind"], "gbench");
  ASSERT_EQ(j["comparisons"].size(), 1u);
  EXPECT_EQ(j["comparisons"][0]["cell"], "BM_StringCopy/64");
  EXPECT_EQ(j["comparisons"][0]["metrics"][0]["metric"], "gb.cpu_time_ns");
  EXPECT_NE(r.out.find("Iteration counts: Google Benchmark chooses its own count in every process, for the length "
                       "the campaign's own --benchmark_min_time argument sets (tare adds none)"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(j["lock"].contains("work")) << "the binary's own --benchmark_min_time stands: tare fixes nothing";
  ExpectOutputsAgree(r);
}

// An unmodified Google Benchmark binary samples for 20 ms by default, not its own 0.5 s: the length
// is recorded per cell in the lock, and the next cohort runs what the lock says (edited here to 2 ms
// to tell it from the default: Google Benchmark then runs about a tenth of the iterations; a third
// is asked). --gbench-min-time sets another length; with the binary's own --benchmark_min_time it
// is refused (give one).
TEST_F(AbE2E, GbenchSamplesAreShortByDefaultAndTheirLengthIsLocked) {
  const std::string knob = GBENCH_KNOB_DIR;
  std::vector<std::string> args = {"ab",
                                   "--base",
                                   knob + "/gbench_knob_base",
                                   "--head",
                                   knob + "/gbench_knob_plus2",
                                   "--null",
                                   "--filter",
                                   "BM_Steady",
                                   "--samples",
                                   "6",
                                   "--cap",
                                   "6",
                                   "--store",
                                   store_,
                                   "--json",
                                   dir_ + "/result.json"};
  Result r = Tare(args);
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.out << r.err;
  nlohmann::json j = Json();
  EXPECT_EQ(j["lock"]["work"],
            nlohmann::json::parse(R"([{"cell": "BM_Steady", "gbench_min_time_ns": 20000000, "from": "default"}])"));
  EXPECT_NE(r.out.find("Iteration counts: Google Benchmark chooses its own count in every process, within "
                       "--benchmark_min_time=0.02 per sample (20 ms, tare's default instead of Google Benchmark's "
                       "0.5 s; --gbench-min-time sets another)"),
            std::string::npos)
      << r.out;
  // Issue 42: the route note, due for an INCONCLUSIVE cell (or a slow sample, or a wide floor), says
  // what a sample cost here, not "about a second" beside 50 ms samples.
  EXPECT_EQ(r.out.find("about a second"), std::string::npos) << r.out;
  if (j["comparisons"][0]["verdict"] == "INCONCLUSIVE") {
    EXPECT_NE(r.out.find("for at least its minimum time, 20 ms here (`--benchmark_min_time=0.02`, kept in the lock)"),
              std::string::npos)
        << r.out;
  }
  ExpectOutputsAgree(r);
  SQLite::Database db(store_, SQLite::OPEN_READWRITE);
  auto median_iterations = [&](int64_t run) {
    SQLite::Statement q(db,
                        "SELECT v.value FROM samples s JOIN sample_values v ON v.sample_id = s.id "
                        "WHERE v.metric = 'gb.iterations' AND s.run_id = ? ORDER BY v.value");
    q.bind(1, run);
    std::vector<double> v;
    while (q.executeStep()) v.push_back(q.getColumn(0).getDouble());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  {
    SQLite::Statement get(db, "SELECT lock FROM ab_cohorts WHERE run_id = 1");
    ASSERT_TRUE(get.executeStep());
    nlohmann::json lock = nlohmann::json::parse(get.getColumn(0).getString());
    lock["work"][0]["gbench_min_time_ns"] = 2'000'000;
    SQLite::Statement put(db, "UPDATE ab_cohorts SET lock = ? WHERE run_id = 1");
    put.bind(1, lock.dump());
    put.exec();
  }
  r = Tare(args);
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.out << r.err;
  j = Json();
  EXPECT_EQ(j["cohort"], 2);
  EXPECT_EQ(j["lock"]["work"],
            nlohmann::json::parse(R"([{"cell": "BM_Steady", "gbench_min_time_ns": 2000000, "from": "cohort 1"}])"));
  EXPECT_NE(r.out.find("within --benchmark_min_time=0.002 per sample (2 ms, as cohort 1 ran it (its lock))"),
            std::string::npos)
      << r.out;
  if (j["comparisons"][0]["verdict"] == "INCONCLUSIVE") {
    EXPECT_NE(r.out.find("2 ms here (`--benchmark_min_time=0.002`, kept in the lock)"), std::string::npos) << r.out;
  }
  ExpectOutputsAgree(r);
  EXPECT_LT(3 * median_iterations(2), median_iterations(1)) << "2 ms samples run fewer iterations than 20 ms ones";

  // --gbench-min-time: another campaign, its length locked as given.
  std::vector<std::string> explicit_args = args;
  explicit_args.insert(explicit_args.end(), {"--gbench-min-time", "5ms"});
  r = Tare(explicit_args);
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.out << r.err;
  EXPECT_EQ(
      Json()["lock"]["work"],
      nlohmann::json::parse(R"([{"cell": "BM_Steady", "gbench_min_time_ns": 5000000, "from": "--gbench-min-time"}])"));
  explicit_args.insert(explicit_args.end(), {"--", "--benchmark_min_time=0.01"});
  r = Tare(explicit_args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("give one"), std::string::npos) << r.err;
}

TEST_F(AbE2E, ARateCounterIsHigherIsBetterWhateverItsName) {
  // "processed" is a Counter::kIsRate: the slow build does twice the work per item, so its rate
  // halves. Judged by name it would be a lower-is-better count and a supported gain.
  const std::string dir = RATE_COUNTER_DIR;
  Result r = Tare({"ab", "--base", dir + "/rate_counter_base", "--head", dir + "/rate_counter_slow", "--metric",
                   "gb.counter.processed=5%", "--samples", "6", "--cap", "6", "--store", store_, "--json",
                   dir_ + "/result.json", "--", "--benchmark_min_time=0.02"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  nlohmann::json j = Json();
  const auto& m = j["comparisons"][0]["metrics"][0];
  EXPECT_EQ(m["metric"], "gb.counter.processed");
  EXPECT_EQ(m["direction"], "higher");
  EXPECT_EQ(m["verdict"], "FAIL");
  EXPECT_FALSE(m["supported_gain"].get<bool>());
  // The magnitude is read from the estimate: at 6 pairs the interval's upper end is wide on a loaded
  // host (a fresh-clone CI run read [.., -0.19] for a true -0.50); the FAIL above is the verdict.
  EXPECT_LT(m["change"]["estimate"].get<double>(), -0.25) << "half the items per second";
  EXPECT_LT(m["change"]["hi"].get<double>(), 0) << "the whole interval is fewer items per second";
  SQLite::Database db(store_, SQLite::OPEN_READONLY);
  SQLite::Statement q(db, "SELECT direction, unit FROM metrics WHERE name = 'gb.counter.processed'");
  ASSERT_TRUE(q.executeStep());
  EXPECT_EQ(q.getColumn(0).getString(), "higher");
  EXPECT_EQ(q.getColumn(1).getString(), "/s");
  ExpectOutputsAgree(r);
}

TEST_F(AbE2E, HalfAPercentMoreInstructionsFailsUnderSimEveryTime) {
  // Under valgrind the counts are deterministic: the null arm reads exactly 0, the head's interval
  // has no width, and a second campaign (a new cohort) reads the very same numbers.
  std::vector<std::string> args = {
      "ab",        "--base", Knob("base"), "--head", Knob("plus0_5"), "--null", "--instrument", "sim",
      "--samples", "6",      "--cap",      "6",      "--store",       store_,   "--json",       dir_ + "/result.json",
      "--",        "--work", "1"};
  std::vector<nlohmann::json> metrics;
  for (int run = 0; run < 2; ++run) {
    Result r = Tare(args);
    ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
    nlohmann::json j = Json();
    EXPECT_EQ(j["instrument"], "sim");
    EXPECT_EQ(j["cohort"], run + 1);
    const auto& m = j["comparisons"][0]["metrics"][0];
    EXPECT_EQ(m["metric"], "sim.Ir");
    EXPECT_EQ(m["verdict"], "FAIL");
    EXPECT_EQ(m["change"]["lo"], m["change"]["hi"]) << "every pair has the same ratio";
    EXPECT_EQ(m["pairs"], 6) << "a declared plan is run as declared, not the exact plan";
    EXPECT_FALSE(m["exact"].get<bool>());
    EXPECT_GT(m["change"]["lo"].get<double>(), 0.003);
    EXPECT_EQ(m["null"]["lo"], 0.0);
    EXPECT_EQ(m["null"]["hi"], 0.0);
    metrics.push_back(m);
    ExpectOutputsAgree(r);
  }
  EXPECT_EQ(metrics[0]["base_median"], metrics[1]["base_median"]);
  EXPECT_EQ(metrics[0]["head_median"], metrics[1]["head_median"]);
}

// A tare binary's iteration count is calibrated once, on base, in the campaign's first cohort, kept
// in the lock, and run by every arm of every later cohort and of a resumed one (a count calibrated
// anew in each cohort once moved from 131,072 to 65,536 between two cohorts of one campaign). To
// show the count comes from the lock and not from a calibration that happened to agree, the stored
// lock is edited to 7 iterations before the second cohort, and again before a resume.
TEST_F(AbE2E, TareBinariesRunOneIterationCountInEveryArmAndEveryCohort) {
#ifndef TARE_BASIC
  GTEST_SKIP() << "examples/tare_basic is not in this build";
#else
  const std::vector<std::string> args = {"ab",        "--base",
                                         TARE_BASIC,  "--head",
                                         TARE_BASIC,  "--null",
                                         "--filter",  "sort_ints/512",
                                         "--samples", "6",
                                         "--cap",     "6",
                                         "--store",   store_,
                                         "--json",    dir_ + "/result.json",
                                         "--ledger",  dir_ + "/ledger.md"};
  Result r = Tare(args);
  // Any verdict will do (an A/A FAIL happens at the error rate α); this is about the counts.
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.out << r.err;
  nlohmann::json j = Json();
  EXPECT_EQ(j["kind"], "tare");
  EXPECT_EQ(j["comparisons"][0]["metrics"][0]["metric"], "bench.cpu_ns");
  ASSERT_EQ(j["lock"]["work"].size(), 1u) << j["lock"].dump();
  const nlohmann::json work = j["lock"]["work"][0];
  EXPECT_EQ(work["cell"], "sort_ints/512");
  EXPECT_EQ(work["from"], "calibrated");
  const int64_t calibrated = work["iterations"].get<int64_t>();
  EXPECT_GT(calibrated, 0);
  EXPECT_NE(r.out.find("Iteration counts: fixed per cell, the same for every arm and kept in the lock, so every "
                       "later cohort and --resume of this campaign runs them too (sort_ints/512 " +
                       std::to_string(calibrated) + "; calibrated once on base for a 20 ms window)."),
            std::string::npos)
      << r.out;
  SQLite::Database db(store_, SQLite::OPEN_READWRITE);
  // (run, arm) -> the distinct counts its samples ran.
  auto counts = [&](int64_t run) {
    SQLite::Statement q(db,
                        "SELECT DISTINCT s.arm, v.value FROM samples s JOIN sample_values v ON v.sample_id = s.id "
                        "WHERE v.metric = 'bench.iterations' AND s.run_id = ? ORDER BY s.arm");
    q.bind(1, run);
    std::map<std::string, std::set<int64_t>> out;
    while (q.executeStep()) out[q.getColumn(0).getString()].insert(q.getColumn(1).getInt64());
    return out;
  };
  const std::set<int64_t> one = {calibrated};
  EXPECT_EQ(counts(1), (std::map<std::string, std::set<int64_t>>{{"base", one}, {"head", one}, {"null", one}}));

  // The next cohort takes the count from cohort 1's lock.
  auto set_locked_count = [&](int64_t run, int64_t iterations) {
    SQLite::Statement get(db, "SELECT lock FROM ab_cohorts WHERE run_id = ?");
    get.bind(1, run);
    ASSERT_TRUE(get.executeStep());
    nlohmann::json lock = nlohmann::json::parse(get.getColumn(0).getString());
    lock["work"][0]["iterations"] = iterations;
    SQLite::Statement put(db, "UPDATE ab_cohorts SET lock = ? WHERE run_id = ?");
    put.bind(1, lock.dump());
    put.bind(2, run);
    put.exec();
  };
  set_locked_count(1, 7);
  r = Tare(args);
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.out << r.err;
  j = Json();
  EXPECT_EQ(j["cohort"], 2);
  EXPECT_EQ(j["lock"]["work"][0], (nlohmann::json{{"cell", "sort_ints/512"}, {"iterations", 7}, {"from", "cohort 1"}}));
  EXPECT_NE(r.out.find("(sort_ints/512 7; as cohort 1 ran them (its lock))"), std::string::npos) << r.out;
  const std::set<int64_t> seven = {7};
  EXPECT_EQ(counts(2), (std::map<std::string, std::set<int64_t>>{{"base", seven}, {"head", seven}, {"null", seven}}));

  // A resumed cohort runs what its own lock says: a third cohort, stopped after its first samples.
  std::vector<std::string> longer = args;
  longer.insert(longer.end(), {"--seed", "3"});  // another campaign: its own first cohort
  pid_t pid = StartTare(longer);
  const int64_t before = SampleCount();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (SampleCount() < before + 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  Result stopped = Collect(status);
  if (stopped.exit_code != 130) GTEST_SKIP() << "the cohort finished before it could be interrupted";
  set_locked_count(3, 5);
  longer.insert(longer.begin() + 1, "--resume");
  r = Tare(longer);
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.out << r.err;
  SQLite::Statement q(db,
                      "SELECT count(*) FROM samples s JOIN sample_values v ON v.sample_id = s.id WHERE "
                      "v.metric = 'bench.iterations' AND s.run_id = 3 AND v.value = 5");
  ASSERT_TRUE(q.executeStep());
  EXPECT_GT(q.getColumn(0).getInt(), 0) << "the resumed samples ran the locked count";
#endif
}

TEST_F(AbE2E, InconclusiveOkTurnsExitThreeIntoZero) {
  // Deterministically INCONCLUSIVE: base fails its third run (block 2), which leaves 5 usable pairs
  // of the 6 planned, too few for a 95% sign-test interval, so there is no verdict to be had.
  const std::string counter = dir_ + "/runs";
  const std::string base = dir_ + "/flaky_base.sh";
  const std::string head = dir_ + "/steady_head.sh";
  auto write_script = [](const std::string& path, const std::string& body) {
    std::ofstream(path) << "#!/bin/sh\n" << body;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  };
  write_script(base, "n=$(cat '" + counter + "' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '" + counter +
                         "'; [ $n -ne 3 ]\n");
  write_script(head, "exit 0\n");
  const std::vector<std::string> plan = {"--samples", "6", "--cap", "6", "--metric", "wall_ns"};
  Result r = Ab(base, head, plan, false);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_EQ(Json()["outcome"], "INCONCLUSIVE");
  ExpectOutputsAgree(r);
  std::filesystem::remove(counter);
  std::vector<std::string> ok_plan = plan;
  ok_plan.push_back("--inconclusive-ok");
  Result ok = Ab(base, head, ok_plan, false);
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_EQ(Json()["outcome"], "INCONCLUSIVE");
  ExpectOutputsAgree(ok, {.inconclusive_ok = true});
}

// --plan: a pilot into a temporary store, a prediction per cell; the user's store is not created,
// no temporary directory is left, and the JSON carries the prediction.
TEST_F(AbE2E, PlanRunsAPilotAndPredictsWithoutStoringAnything) {
  const std::string tmp = dir_ + "/tmp";
  std::filesystem::create_directories(tmp);
  setenv("TMPDIR", tmp.c_str(), 1);
  Result r = Tare({"ab", "--base", Knob("base"), "--head", Knob("plus3"), "--null", "--plan", "--pilot", "8", "--cap",
                   "40", "--store", store_, "--json", dir_ + "/plan.json", "--", "--work", kWork});
  unsetenv("TMPDIR");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Plan: 20 pairs per cell, then, for each cell still undecided, looks that double up to 40;"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Predicted from a pilot of 8 blocks per cell"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("perf.task_clock_ns"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Nothing was locked or stored"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("tare: pilot: plan: 1 cell x 3 arms x 8 pairs = 24 processes"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(store_)) << "--plan must not create or touch the store";
  EXPECT_TRUE(std::filesystem::is_empty(tmp)) << "the pilot's temporary directory must be removed";

  nlohmann::json j = nlohmann::json::parse(Slurp(dir_ + "/plan.json"));
  EXPECT_EQ(j["format"], "tare.plan/1");
  EXPECT_EQ(j["pilot"]["processes"], 24);
  EXPECT_EQ(j["sampling"]["cap"], 40);
  ASSERT_EQ(j["cells"].size(), 1u);
  const auto& c = j["cells"][0];
  EXPECT_EQ(c["metric"], "perf.task_clock_ns");
  EXPECT_EQ(c["pilot_blocks"], 8);
  EXPECT_GT(c["pair_spread"].get<double>(), 0.0) << "two processes never take exactly the same CPU time";
  const double pass = c["unchanged"]["pass"], fail = c["unchanged"]["fail"], inc = c["unchanged"]["inconclusive"];
  EXPECT_NEAR(pass + fail + inc, 1.0, 1e-9);
  EXPECT_GE(c["unchanged"]["mean_pairs"].get<double>(), 20.0);
  EXPECT_LE(c["unchanged"]["mean_pairs"].get<double>(), 40.0);
  ASSERT_FALSE(c["fail_rate_by_change"].empty());
  // The FAIL rates rise with the change (common random numbers).
  double last = -1;
  for (const auto& p : c["fail_rate_by_change"]) {
    EXPECT_GE(p["fail"].get<double>() + 1e-12, last);
    last = p["fail"];
  }
}

TEST_F(AbE2E, PlanRefusesWhatItCannotDo) {
  Result r = Tare({"ab", "--base", Knob("base"), "--head", Knob("plus3"), "--plan", "--pilot", "3", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--pilot 3 is out of range"), std::string::npos) << r.err;
  r = Tare(
      {"ab", "--base", Knob("base"), "--head", Knob("plus3"), "--plan", "--ledger", dir_ + "/l.md", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--plan gives a prediction, not a verdict"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(store_));
}

// A store write that fails for want of space (here `ulimit -f`: tare ignores SIGXFSZ, so the write
// fails with EFBIG) stops the campaign with exit 2 and leaves the cohort `interrupted` with every
// stored sample intact; once the limit is gone, the same command with --resume finishes it. Before,
// the cohort was left `stopped` and --resume refused it, so the campaign had to start over.
TEST_F(AbE2E, AFullDiskInterruptsTheCohortAndResumeFinishesIt) {
  const std::string base = Knob("base"), head = Knob("plus3");
  // A first, small campaign creates the store (about 160 KB) before the limit applies.
  ASSERT_EQ(Tare({"ab", "--base", base, "--head", head, "--samples", "6", "--cap", "6", "--store", store_,
                  "--inconclusive-ok", "--", "--work", "0"})
                .exit_code,
            0);
  const std::string command = "\"" + std::string(TARE_BIN) + "\" ab --base " + base + " --head " + head +
                              " --null --samples 200 --cap 200 --store " + store_ + " -- --work 0";
  // 600 blocks of 512 bytes (dash): the store fits, its write-ahead log does not for long.
  Result r = tare::e2e::RunTare("/bin/sh", dir_, {"-c", "ulimit -f 600 && exec " + command});
  ASSERT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("`ulimit -f`"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("with --resume to continue this cohort"), std::string::npos) << r.err;
  int64_t kept = 0;
  {
    SQLite::Database db(store_, SQLite::OPEN_READONLY);
    EXPECT_EQ(db.execAndGet("PRAGMA integrity_check").getString(), "ok");
    EXPECT_EQ(db.execAndGet("SELECT state FROM ab_cohorts WHERE run_id = 2").getString(), "interrupted");
    kept = db.execAndGet("SELECT count(*) FROM samples WHERE run_id = 2").getInt64();
    EXPECT_GT(kept, 0);
    EXPECT_LT(kept, 600);
  }
  r = Tare({"ab", "--base", base, "--head", head, "--null", "--samples", "200", "--cap", "200", "--store", store_,
            "--resume", "--inconclusive-ok", "--", "--work", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  SQLite::Database db(store_, SQLite::OPEN_READONLY);
  EXPECT_EQ(db.execAndGet("SELECT state FROM ab_cohorts WHERE run_id = 2").getString(), "complete");
  EXPECT_EQ(db.execAndGet("SELECT resumed FROM ab_cohorts WHERE run_id = 2").getInt64(), 1);
  EXPECT_GE(db.execAndGet("SELECT count(*) FROM samples WHERE run_id = 2").getInt64(), 600)
      << "the " << kept << " samples stored before the failure, and the rest";
}

// examples/gbench_knob, the Google Benchmark study's workload (bench/gbench_sensitivity.sh): under sim
// the plus2 build's BM_Knob reads exactly 2% more instructions and BM_Steady exactly the same, so
// the changed cell FAILs at +2.00% and the unchanged one PASSes at 0, every time.
TEST_F(AbE2E, GbenchKnobChangesOneBenchmarkByTwoPercent) {
  Result r = Tare({"ab", "--base", GBENCH_KNOB_DIR "/gbench_knob_base", "--head", GBENCH_KNOB_DIR "/gbench_knob_plus2",
                   "--instrument", "sim", "--filter", "BM_Knob|BM_Steady", "--samples", "6", "--cap", "6", "--store",
                   store_, "--json", dir_ + "/result.json"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  nlohmann::json j = Json();
  ASSERT_EQ(j["comparisons"].size(), 2u) << j.dump();
  std::map<std::string, nlohmann::json> cells;
  for (const auto& c : j["comparisons"]) cells[c["cell"]] = c;
  const auto& knob = cells.at("BM_Knob")["metrics"][0];
  EXPECT_EQ(cells.at("BM_Knob")["verdict"], "FAIL");
  EXPECT_EQ(knob["metric"], "sim.Ir");
  EXPECT_NEAR(knob["change"]["estimate"].get<double>(), 0.02, 0.0005) << knob.dump();
  EXPECT_EQ(cells.at("BM_Steady")["verdict"], "PASS");
  EXPECT_EQ(cells.at("BM_Steady")["metrics"][0]["change"]["estimate"].get<double>(), 0.0);
  ExpectOutputsAgree(r);
}

// --gbench-min-time reaches every sample: Google Benchmark runs far fewer iterations in 2 ms than in
// 200 ms (its count grows with the time asked for; the margin is a factor of 10 where 100 is expected).
// Any verdict will do: this is about the samples' length, and even an A/A may FAIL on time when the
// arms' copies of one binary are laid out differently — seen once in CI on the 2-vCPU Firecracker
// VM (2 ms samples, BM_StringCopy/64 10.8 ns -> 25.6 ns, the null arm matching base, the cross-check
// saying "the same work — likely a layout effect"): what tare is built to show, not this test's concern.
TEST_F(AbE2E, GbenchMinTimeSetsEverySamplesLength) {
  auto iterations = [&](const std::string& min_time) {
    const std::string store = dir_ + "/" + min_time + ".db";
    Result r = Tare({"ab", "--base", GBENCH_BASIC, "--head", GBENCH_BASIC, "--filter", "BM_StringCopy/64", "--samples",
                     "6", "--cap", "6", "--store", store, "--gbench-min-time", min_time});
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.out << r.err;
    SQLite::Database db(store, SQLite::OPEN_READONLY);
    return db.execAndGet("SELECT min(value) FROM sample_values WHERE metric = 'gb.iterations'").getDouble();
  };
  const double short_runs = iterations("2ms");
  const double long_runs = iterations("200ms");
  EXPECT_GT(short_runs, 0);
  EXPECT_GT(long_runs, 10 * short_runs) << short_runs << " vs " << long_runs;

  Result r =
      Tare({"ab", "--base", Knob("base"), "--head", Knob("plus3"), "--gbench-min-time", "50ms", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("applies to Google Benchmark binaries"), std::string::npos) << r.err;
}

// --layouts: the same change judged under four stack layouts. stack_align's "shifted" build moves
// its stack by 16 bytes; whether that costs or saves instructions depends on where the stack
// started (examples/stack_align). Each layout moves the stack by kLayoutPadBytes = 1040 bytes, 16
// modulo the checksum's 64-byte alignment, so four layouts visit every 16-byte position and one of
// them always wraps the alignment: the shifted build is dearer in three layouts and cheaper in one,
// wherever the checkout sits (the path and environment move the starting point; three layouts
// missed the wrap in one of four starting points, which is how CI under /check/ failed). Under sim
// the counts are exact, so the flip is certain: the shifted head is LAYOUT-SENSITIVE, while a second
// head identical to base holds in every layout.
TEST_F(AbE2E, LayoutsMarkAChangeThatDependsOnWhereTheStackSits) {
  const std::string dir = STACK_ALIGN_DIR;
  Result r = Tare({"ab",
                   "--base",
                   dir + "/stack_align_base",
                   "--head",
                   dir + "/stack_align_shifted",
                   "--head",
                   dir + "/stack_align_base",
                   "--null",
                   "--instrument",
                   "sim",
                   "--layouts",
                   "4",
                   "--samples",
                   "6",
                   "--cap",
                   "6",
                   "--store",
                   store_,
                   "--json",
                   dir_ + "/result.json",
                   "--ledger",
                   dir_ + "/ledger.md",
                   "--",
                   "300"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  nlohmann::json j = Json();
  EXPECT_EQ(j["layouts"], 4);
  ASSERT_EQ(j["comparisons"].size(), 8u) << "4 layouts x 2 heads";
  EXPECT_EQ(j["comparisons"][0]["cell"], "300 [layout 0]");
  ASSERT_EQ(j["layout_rows"].size(), 2u);
  std::map<std::string, nlohmann::json> rows;
  for (const auto& row : j["layout_rows"]) rows[row["head"]] = row;
  const auto& shifted = rows.at("head");
  EXPECT_TRUE(shifted["layout_sensitive"].get<bool>()) << shifted.dump();
  std::set<std::string> verdicts;
  double lo = 1, hi = -1;
  for (const auto& l : shifted["layouts"]) {
    verdicts.insert(l["verdict"].get<std::string>());
    lo = std::min(lo, l["estimate"].get<double>());
    hi = std::max(hi, l["estimate"].get<double>());
  }
  EXPECT_TRUE(verdicts.count("FAIL")) << shifted.dump();
  EXPECT_GT(verdicts.size(), 1u) << "the verdict must differ between layouts: " << shifted.dump();
  EXPECT_LT(lo, 0) << "some layout makes the shifted build cheaper";
  EXPECT_GT(hi, 0) << "some layout makes it dearer";
  EXPECT_NEAR(shifted["spread"].get<double>(), hi - lo, 1e-12);
  const auto& same = rows.at("hd02");
  EXPECT_FALSE(same["layout_sensitive"].get<bool>()) << same.dump();
  EXPECT_EQ(same["spread"], 0.0) << "an identical build reads the same instructions in every layout";
  for (const auto& l : same["layouts"]) EXPECT_EQ(l["verdict"], "PASS") << same.dump();

  const std::string ledger = Slurp(dir_ + "/ledger.md");
  EXPECT_NE(ledger.find("### Layouts"), std::string::npos) << ledger;
  EXPECT_NE(ledger.find("**LAYOUT-SENSITIVE**"), std::string::npos) << ledger;
  EXPECT_NE(ledger.find("| holds |"), std::string::npos) << ledger;
  ExpectOutputsAgree(r);

  // The same cohort rebuilt from the store (`tare bundle`: result.json always, ledger.md when tare
  // ab wrote none next to the store) keeps the layout table the live report had (issue 22: the
  // stored builder used to drop it).
  r = Tare({"bundle", "--store", store_, "-o", dir_ + "/cohort.tar.gz"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::filesystem::create_directories(dir_ + "/bundle");
  ASSERT_EQ(
      std::system(("tar -xzf '" + dir_ + "/cohort.tar.gz' -C '" + dir_ + "/bundle' result.json ledger.md").c_str()), 0);
  const nlohmann::json stored = nlohmann::json::parse(Slurp(dir_ + "/bundle/result.json"));
  EXPECT_EQ(stored["layouts"], 4);
  EXPECT_EQ(stored["layout_rows"].dump(1), j["layout_rows"].dump(1));
  const std::string stored_ledger = Slurp(dir_ + "/bundle/ledger.md");
  EXPECT_NE(stored_ledger.find("### Layouts"), std::string::npos) << stored_ledger;
  EXPECT_NE(stored_ledger.find("**LAYOUT-SENSITIVE**"), std::string::npos) << stored_ledger;

  r = Tare({"ab", "--base", dir + "/stack_align_base", "--head", dir + "/stack_align_shifted", "--layouts", "9",
            "--store", store_ + ".other"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("layouts 9 is outside 1..8"), std::string::npos) << r.err;
}

// Issue 21: a suite with one broken benchmark (BM_NeedsData calls SkipWithError without its data
// file) used to stop `tare ab` after its first block with exit 4 and no verdict for any other cell.
// Now it is one failed cell: settled after the block in which every arm failed, reported once with
// the fixes, while the other cells get their verdicts; the exit status is 5 (cannot be measured),
// or 1 if an unchanged cell happened to FAIL. Then the fix the message names (Google Benchmark's
// negative filter) leaves it out, and nothing stored by the first cohort is lost.
TEST_F(AbE2E, ABrokenBenchmarkIsOneFailedCellNotAStoppedCampaign) {
  const std::string bench = BROKEN_BENCH_DIR "/broken_bench_base";
  const std::vector<std::string> common = {"ab",
                                           "--base",
                                           bench,
                                           "--head",
                                           bench,
                                           "--null",
                                           "--samples",
                                           "6",
                                           "--cap",
                                           "6",
                                           "--gbench-min-time",
                                           "5ms",
                                           "--store",
                                           store_,
                                           "--json",
                                           dir_ + "/result.json",
                                           "--ledger",
                                           dir_ + "/ledger.md"};
  Result r = Tare(common);
  nlohmann::json j = Json();
  std::map<std::string, nlohmann::json> cells;
  bool other_fail = false;
  for (const auto& c : j["comparisons"]) {
    cells[c["cell"]] = c;
    if (c["cell"] != "BM_NeedsData" && c["verdict"] == "FAIL") other_fail = true;
  }
  EXPECT_EQ(r.exit_code, other_fail ? 1 : 5) << r.out << r.err;
  EXPECT_EQ(j["state"], "complete") << r.err;
  ASSERT_EQ(cells.size(), 3u) << j.dump();
  const auto& broken = cells.at("BM_NeedsData");
  EXPECT_EQ(broken["verdict"], "INCONCLUSIVE");
  EXPECT_EQ(broken["blocks"], 1) << "settled after the block in which every arm failed";
  EXPECT_EQ(broken["broken"]["arms"], nlohmann::json({"base", "head", "null"}));
  EXPECT_EQ(broken["broken"]["cannot_be_measured"], true);
  EXPECT_NE(broken["broken"]["error"].get<std::string>().find("cannot open broken_bench_data.txt"), std::string::npos);
  EXPECT_EQ(j["cannot_be_measured"], nlohmann::json({"BM_NeedsData"}));
  for (const char* name : {"BM_Sum", "BM_Parse"}) {
    EXPECT_TRUE(cells.at(name)["broken"].is_null()) << name;
    EXPECT_EQ(cells.at(name)["blocks"], 6) << name << ": measured and judged as usual";
    EXPECT_EQ(cells.at(name)["metrics"][0]["pairs"], 6) << name;
  }
  // Told once, not per sample: the error with the first failure and in the closing lines; the fixes
  // named. Google Benchmark's context banner (its stderr before any benchmark runs: caches, "Load
  // Average:") is never shown as the benchmark's stderr (issue 44, item 7).
  auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(r.err, "Load Average:"), 0u) << r.err;
  EXPECT_EQ(count(r.err, "CPU Caches:"), 0u) << r.err;
  EXPECT_EQ(count(r.err, "cannot open broken_bench_data.txt"), 2u) << r.err;
  EXPECT_NE(r.err.find("BM_NeedsData: BROKEN, cannot be measured"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--cwd DIR"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--filter REGEX"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("-- '--benchmark_filter=-^BM_NeedsData$'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("STOPPED"), std::string::npos) << r.err;
  const std::string ledger = Slurp(dir_ + "/ledger.md");
  EXPECT_NE(ledger.find("| `BM_NeedsData` | target | **BROKEN** (cannot be measured) |"), std::string::npos) << ledger;
  EXPECT_NE(ledger.find("### Broken cells"), std::string::npos) << ledger;
  EXPECT_EQ(count(ledger, "cannot open broken_bench_data.txt"), 1u) << ledger;
  ExpectOutputsAgree(r);

  // Everything is stored: the broken cell's three failed samples, every other sample, every cell's
  // final verdict.
  {
    SQLite::Database db(store_, SQLite::OPEN_READONLY);
    EXPECT_EQ(db.execAndGet("SELECT state FROM ab_cohorts").getString(), "complete");
    std::map<std::tuple<int64_t, std::string, int64_t>, int> used = UsedSamples();
    std::map<int64_t, int> per_cell;
    for (const auto& [key, n] : used) per_cell[std::get<0>(key)] += n;
    SQLite::Statement q(db, "SELECT cell, name FROM ab_cells ORDER BY cell");
    while (q.executeStep()) {
      EXPECT_EQ(per_cell[q.getColumn(0).getInt64()], q.getColumn(1).getString() == "BM_NeedsData" ? 3 : 18)
          << q.getColumn(1).getString();
    }
    EXPECT_EQ(db.execAndGet("SELECT count(*) FROM samples WHERE outcome != 'ok'").getInt64(), 3);
    EXPECT_EQ(db.execAndGet("SELECT count(DISTINCT cell) FROM ab_verdicts WHERE final = 1").getInt64(), 3);
  }

  // The fix the message names: Google Benchmark's negative filter leaves the benchmark out.
  std::vector<std::string> fixed = common;
  fixed.insert(fixed.end(), {"--", "--benchmark_filter=-^BM_NeedsData$"});
  Result f = Tare(fixed);
  EXPECT_TRUE(f.exit_code == 0 || f.exit_code == 1 || f.exit_code == 3) << f.out << f.err;
  nlohmann::json jf = Json();
  EXPECT_EQ(jf["comparisons"].size(), 2u) << jf.dump();
  EXPECT_TRUE(jf["cannot_be_measured"].empty());
  ExpectOutputsAgree(f);
  SQLite::Database db(store_, SQLite::OPEN_READONLY);
  EXPECT_EQ(db.execAndGet("SELECT count(*) FROM ab_cohorts").getInt64(), 2);
  EXPECT_EQ(
      db.execAndGet("SELECT count(*) FROM samples WHERE run_id = (SELECT min(run_id) FROM ab_cohorts)").getInt64(),
      3 + 2 * 18)
      << "the first cohort's samples are all still there";
}

// A head that aborts in BM_Parse where base runs: BROKEN in the head, a FAIL (exit 1), settled after
// three failures; its stderr told once. --cwd gives BM_NeedsData its file, so it is measured.
TEST_F(AbE2E, AHeadThatCrashesWhereBaseRunsIsABrokenHeadAndAFail) {
  std::filesystem::create_directories(dir_ + "/data");
  std::ofstream(dir_ + "/data/broken_bench_data.txt") << "data\n";
  Result r = Tare({"ab",
                   "--base",
                   BROKEN_BENCH_DIR "/broken_bench_base",
                   "--head",
                   BROKEN_BENCH_DIR "/broken_bench_crash",
                   "--null",
                   "--samples",
                   "6",
                   "--cap",
                   "6",
                   "--gbench-min-time",
                   "5ms",
                   "--cwd",
                   dir_ + "/data",
                   "--store",
                   store_,
                   "--json",
                   dir_ + "/result.json",
                   "--ledger",
                   dir_ + "/ledger.md",
                   "--quiet"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  ExpectOutputsAgree(r);
  nlohmann::json j = Json();
  std::map<std::string, nlohmann::json> cells;
  for (const auto& c : j["comparisons"]) cells[c["cell"]] = c;
  ASSERT_EQ(cells.size(), 3u) << j.dump();
  const auto& parse = cells.at("BM_Parse");
  EXPECT_EQ(parse["verdict"], "FAIL");
  EXPECT_EQ(parse["blocks"], 3) << "known broken after three failures of the head";
  EXPECT_EQ(parse["broken"]["arms"], nlohmann::json({"head"}));
  EXPECT_EQ(parse["broken"]["cannot_be_measured"], false);
  EXPECT_NE(parse["broken"]["stderr_tail"].get<std::string>().find("parser state corrupt"), std::string::npos);
  EXPECT_TRUE(j["cannot_be_measured"].empty());
  EXPECT_TRUE(cells.at("BM_NeedsData")["broken"].is_null()) << "--cwd gave it its data file";
  EXPECT_EQ(cells.at("BM_NeedsData")["blocks"], 6);
  EXPECT_EQ(cells.at("BM_Sum")["blocks"], 6);
  // Even with --quiet, the broken cell is said once at the end, with the fix.
  EXPECT_NE(r.err.find("BM_Parse: BROKEN in the head, a FAIL: head failed every sample (3 of 3) where base ran"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("to fix:"), std::string::npos) << r.err;
}

// A cohort with a broken cell, interrupted and resumed: the resumed run settles the broken cell
// again from its stored samples (it replays what AfterRound decided) instead of running it anew.
TEST_F(AbE2E, AResumedCohortKeepsItsBrokenCellSettled) {
  const std::string bench = BROKEN_BENCH_DIR "/broken_bench_base";
  std::vector<std::string> args = {"ab",
                                   "--base",
                                   bench,
                                   "--head",
                                   bench,
                                   "--null",
                                   "--samples",
                                   "20",
                                   "--cap",
                                   "20",
                                   "--gbench-min-time",
                                   "5ms",
                                   "--store",
                                   store_,
                                   "--json",
                                   dir_ + "/result.json"};
  pid_t pid = StartTare(args);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  // The first round (9 samples) settles the broken cell; interrupt in a later one.
  while (SampleCount() < 15 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  Result first = Collect(status);
  ASSERT_EQ(first.exit_code, 130) << first.err;

  args.insert(args.begin() + 1, "--resume");
  Result second = Tare(args);
  nlohmann::json j = Json();
  bool other_fail = false;
  for (const auto& c : j["comparisons"])
    other_fail = other_fail || (c["cell"] != "BM_NeedsData" && c["verdict"] == "FAIL");
  EXPECT_EQ(second.exit_code, other_fail ? 1 : 5) << second.err;
  EXPECT_EQ(j["state"], "complete");
  EXPECT_EQ(j["resumed"], 1);
  EXPECT_EQ(j["cannot_be_measured"], nlohmann::json({"BM_NeedsData"}));
  for (const auto& c : j["comparisons"]) {
    EXPECT_EQ(c["blocks"], c["cell"] == "BM_NeedsData" ? 1 : 20) << c.dump();
  }
  ExpectOutputsAgree(second);
  SQLite::Database db(store_, SQLite::OPEN_READONLY);
  EXPECT_EQ(db.execAndGet("SELECT count(*) FROM samples WHERE outcome != 'ok' AND outcome != 'interrupted'").getInt64(),
            3)
      << "the broken cell ran once, not again after the resume";
}

// Issue 26: a ledger for a pull-request comment stays under GitHub's 65,536 characters. 400 cells
// (allocation counts: the exact plan, one block each) make a ledger of about 200 KB: --ledger gets
// the outcome, the counts and what fits, and names the whole ledger it writes beside it; the job
// summary gets the whole ledger.
TEST_F(AbE2E, ALedgerOverACommentsLimitKeepsTheOutcomeAndWritesTheWholeBesideIt) {
  std::filesystem::copy_file("/bin/true", dir_ + "/base");
  std::filesystem::copy_file("/bin/true", dir_ + "/head");
  std::ofstream toml(dir_ + "/many.toml");
  toml << "name = \"many cells\"\ninstrument = \"mem\"\n[arms]\nbase = \"./base\"\nhead = \"./head\"\n";
  for (int i = 0; i < 400; ++i) toml << "[[cells]]\nname = \"c" << i << "\"\nargs = [\"x" << i << "\"]\n";
  toml.close();
  setenv("GITHUB_STEP_SUMMARY", (dir_ + "/summary.md").c_str(), 1);
  Result r = Tare(
      {"ab", dir_ + "/many.toml", "--store", store_, "--ledger", dir_ + "/pr.md", "--json", dir_ + "/result.json"});
  unsetenv("GITHUB_STEP_SUMMARY");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string pr = Slurp(dir_ + "/pr.md"), whole = Slurp(dir_ + "/pr.full.md"),
                    summary = Slurp(dir_ + "/summary.md");
  EXPECT_LE(pr.size(), 60000u);
  EXPECT_GT(whole.size(), 100000u);
  EXPECT_EQ(pr.find("## tare ab: many cells — **PASS**"), 0u) << pr.substr(0, 300);
  EXPECT_NE(pr.find("0 FAIL · 0 INCONCLUSIVE · 400 PASS — 400 cells"), std::string::npos) << pr.substr(0, 300);
  EXPECT_NE(pr.find("more PASS rows: in the whole ledger, `pr.full.md`, and in this job's summary._"),
            std::string::npos);
  EXPECT_NE(pr.find("- **Lock** `"), std::string::npos);
  for (int i = 0; i < 400; ++i) EXPECT_NE(whole.find("| `c" + std::to_string(i) + "` |"), std::string::npos) << i;
  EXPECT_EQ(whole.find("_… and "), std::string::npos) << "the whole ledger leaves nothing out";
  EXPECT_NE(summary.find(whole), std::string::npos) << "the job summary has the whole ledger";
  EXPECT_NE(r.err.find("over what a GitHub comment takes"), std::string::npos) << r.err;
  ExpectOutputsAgree(r);  // the whole ledger, on stdout
  // Issue 27 item 19: a campaign of many cells says what it will cost long before its first block of
  // 1200 samples ends.
  EXPECT_NE(r.err.find("tare: first 60 samples of the first block's 1200: "), std::string::npos) << r.err;
  EXPECT_LT(r.err.find("first 60 samples"), r.err.find("tare: first block: ")) << r.err;
  // A ledger that fits is written as it is, and nothing beside it.
  std::filesystem::remove(dir_ + "/pr.full.md");
  r = Tare({"ab", "--base", dir_ + "/base", "--head", dir_ + "/head", "--instrument", "mem", "--store", store_ + ".2",
            "--ledger", dir_ + "/pr.md", "--", "x"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/pr.full.md"));
  EXPECT_EQ(Slurp(dir_ + "/pr.md").find("_… and "), std::string::npos);
}

// Issue 26 item 5: a figure the program reports about itself is judged like any metric. The arms
// are shell scripts reporting a throughput: +10% is a supported gain where higher is better, -10% a
// FAIL; a head that stops reporting it fails every sample, which says why.
// A living suite (issue 42): the head adds BM_Added and renames BM_OldName to BM_NewName. What both
// have is judged; what only the head has is measured there (figures, no verdict); what only base has
// is listed. The exit status is the shared cells' (their verdicts are time's: 0, 1 or 3 — never the
// 2 of a refused campaign), and 4 with --strict-suite.
// The work tier (issue 42, methodology §5a): each cell first runs once under valgrind per arm. In
// same_work_{sorted,shuffled} both cells execute the same work — BM_Branchy's head sums the same bytes
// shuffled instead of sorted, several times slower on a real CPU (its branch mispredicts), the same
// instructions under valgrind; BM_Steady is unchanged. Both are judged on time against the same-work
// allowance (10%): BM_Branchy's slowdown is beyond it, so it still FAILs, and the cross-check says the
// layout advice does not apply; BM_Steady carries the reading on its metric. With the tier off, every
// cell is judged at the campaign's allowance and no tier note is written.
TEST_F(AbE2E, TheWorkTierJudgesSameWorkCellsAgainstWhatPlacementCanDo) {
  const std::string base = SAME_WORK_DIR "/same_work_sorted", head = SAME_WORK_DIR "/same_work_shuffled";
  Result r = Tare({"ab", "--base", base, "--head", head, "--samples", "10", "--cap", "10", "--store", store_, "--json",
                   dir_ + "/result.json"});
  // BM_Branchy's sorted base is itself bimodal here (its null interval reached -30%..+21% at 6 pairs),
  // so a loaded host can leave the +70% undecided: FAIL or INCONCLUSIVE, never a PASS.
  ASSERT_TRUE(r.exit_code == 1 || r.exit_code == 3) << r.exit_code << r.out << r.err;
  nlohmann::json j = Json();
  std::map<std::string, nlohmann::json> cells;
  for (const auto& c : j["comparisons"]) cells[c["cell"].get<std::string>()] = c;
  ASSERT_EQ(cells.size(), 2u) << j.dump();
  for (const auto& [name, c] : cells) {
    const auto& m = c["metrics"][0];
    EXPECT_EQ(m["allowance"], "10%") << name << ": " << m.dump();
    bool noted = false;
    for (const auto& reason : m["reasons"]) {
      noted = noted || reason.get<std::string>().find("the same work: instructions") != std::string::npos;
    }
    EXPECT_TRUE(noted) << name << ": " << m.dump();
  }
  const auto& branchy = cells.at("BM_Branchy");
  EXPECT_NE(branchy["verdict"], "PASS") << branchy.dump();
  EXPECT_GT(branchy["metrics"][0]["change"]["estimate"].get<double>(), 0.10) << branchy.dump();
  if (branchy["verdict"] == "FAIL") {
    const auto& x = branchy["cross_check"];
    ASSERT_TRUE(x.is_object()) << branchy.dump();
    EXPECT_NE(x["line"].get<std::string>().find("the same work, yet slower by more than placement does"),
              std::string::npos)
        << x.dump();
    EXPECT_EQ(x["line"].get<std::string>().find("--layouts"), std::string::npos) << x.dump();
  }
  EXPECT_NE(cells.at("BM_Steady")["verdict"], "FAIL");
  bool tier_note = false;
  for (const auto& n : j["notes"])
    tier_note = tier_note || n.get<std::string>().find("2 of 2 the same work") != std::string::npos;
  EXPECT_TRUE(tier_note) << j["notes"].dump();
  EXPECT_NE(r.err.find("work tier: 2 cells under valgrind before timing"), std::string::npos) << r.err;
  ExpectOutputsAgree(r);

  Result off = Tare({"ab", "--base", base, "--head", head, "--samples", "10", "--cap", "10", "--store",
                     dir_ + "/off.db", "--json", dir_ + "/result.json", "--same-work-allowance", "off"});
  // At 6 pairs and the noise cap the verdicts depend on the host: FAIL or INCONCLUSIVE, never refused.
  ASSERT_TRUE(off.exit_code == 1 || off.exit_code == 3) << off.exit_code << off.out << off.err;
  nlohmann::json o = Json();
  for (const auto& c : o["comparisons"]) EXPECT_EQ(c["metrics"][0]["allowance"], "noise") << c.dump();
  for (const auto& n : o["notes"]) EXPECT_EQ(n.get<std::string>().find("Work tier"), std::string::npos) << n;
  EXPECT_EQ(off.err.find("work tier"), std::string::npos) << off.err;

  Result bad = Tare({"ab", "--base", base, "--head", head, "--store", dir_ + "/bad.db", "--same-work-allowance", "10"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("--same-work-allowance"), std::string::npos) << bad.err;
}

// --instrument mem on an unmodified Google Benchmark binary counts the whole process, Google
// Benchmark's own allocations included. BM_Branchy's shuffled build is 2-3x slower with the same
// allocations per iteration: calibrating to a minimum time, Google Benchmark ran fewer rounds for it
// and allocated less (348 against 351), so base = shuffled, head = sorted read a faster head as
// +0.85% allocations, a FAIL (issue 42). With the count fixed, as under sim, both arms read the same.
TEST_F(AbE2E, MemOnAGoogleBenchmarkBinaryCountsTheSameBookkeepingInEveryArm) {
  Result r =
      Tare({"ab", "--base", SAME_WORK_DIR "/same_work_shuffled", "--head", SAME_WORK_DIR "/same_work_sorted",
            "--instrument", "mem", "--filter", "BM_Branchy", "--store", store_, "--json", dir_ + "/result.json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json j = Json();
  ASSERT_EQ(j["comparisons"].size(), 1u) << j.dump();
  bool allocs = false;
  for (const auto& m : j["comparisons"][0]["metrics"]) {
    if (m["metric"] != "mem.allocs") continue;
    allocs = true;
    EXPECT_EQ(m["change"]["estimate"].get<double>(), 0.0) << m.dump();
    EXPECT_EQ(m["verdict"], "PASS");
  }
  EXPECT_TRUE(allocs) << j.dump();
  EXPECT_NE(r.out.find("under mem every sample of Google Benchmark runs one timed iteration"), std::string::npos)
      << r.out;
  ExpectOutputsAgree(r);
}

TEST_F(AbE2E, ALivingSuiteJudgesWhatBothSidesHaveAndListsTheRest) {
  const std::string base = LIVING_SUITE_DIR "/living_suite_base", head = LIVING_SUITE_DIR "/living_suite_head";
  std::vector<std::string> args = {"ab",
                                   "--base",
                                   base,
                                   "--head",
                                   head,
                                   "--samples",
                                   "6",
                                   "--cap",
                                   "6",
                                   "--gbench-min-time",
                                   "5ms",
                                   "--store",
                                   store_,
                                   "--json",
                                   dir_ + "/result.json",
                                   "--ledger",
                                   dir_ + "/ledger.md",
                                   "--html",
                                   dir_ + "/page.html"};
  Result r = Tare(args);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.exit_code << r.out << r.err;
  nlohmann::json j = Json();
  std::set<std::string> cells;
  for (const auto& c : j["comparisons"]) cells.insert(c["cell"].get<std::string>());
  EXPECT_EQ(cells, (std::set<std::string>{"BM_Keep", "BM_Other"}));
  const auto& added = j["suite"]["new"];
  ASSERT_EQ(added.size(), 2u) << j["suite"].dump();
  EXPECT_EQ(added[0]["benchmark"], "BM_Added");
  EXPECT_EQ(added[1]["benchmark"], "BM_NewName");
  for (const auto& e : added) {
    EXPECT_EQ(e["heads"], nlohmann::json({"head"}));
    ASSERT_EQ(e["figures"].size(), 1u) << e.dump();
    const auto& f = e["figures"][0];
    EXPECT_EQ(f["metric"], "gb.cpu_time_ns");
    EXPECT_EQ(f["samples"], 5);
    EXPECT_GT(f["median"].get<double>(), 0);
    EXPECT_LE(f["min"].get<double>(), f["median"].get<double>());
    EXPECT_GE(f["max"].get<double>(), f["median"].get<double>());
  }
  // BM_Added spins four times as long as BM_NewName: the figures are each benchmark's own.
  EXPECT_GT(added[0]["figures"][0]["median"].get<double>(), 2 * added[1]["figures"][0]["median"].get<double>());
  EXPECT_EQ(j["suite"]["missing"], nlohmann::json::parse(R"([{"benchmark": "BM_OldName", "heads": ["head"]}])"));
  EXPECT_EQ(j["suite"]["ok"], true);
  EXPECT_EQ(j["lock"]["suite"].size(), 3u) << "locked before the first sample";

  const std::string ledger = Slurp(dir_ + "/ledger.md");
  EXPECT_NE(ledger.find("**SUITE CHANGED:** 2 benchmarks new (measured, no verdict), 1 missing (not compared)"),
            std::string::npos)
      << ledger;
  EXPECT_NE(ledger.find("### The suite changed"), std::string::npos);
  EXPECT_NE(ledger.find("| `BM_Added` | **new** | head (living_suite_head) | "), std::string::npos) << ledger;
  EXPECT_NE(ledger.find("| `BM_OldName` | **missing** | not in head (living_suite_head) | — |"), std::string::npos)
      << ledger;
  EXPECT_NE(r.err.find("the suite changed: 2 benchmarks new in head (BM_Added, BM_NewName)"), std::string::npos)
      << r.err;
  const std::string html = Slurp(dir_ + "/page.html");
  EXPECT_NE(html.find("The suite changed"), std::string::npos);
  EXPECT_NE(html.find("<code>BM_NewName</code>"), std::string::npos);
  ExpectOutputsAgree(r);

  // In the store: the new benchmarks' samples, under the head alone.
  SQLite::Database db(store_, SQLite::OPEN_READONLY);
  SQLite::Statement q(db,
                      "SELECT b.name, s.arm, count(*) FROM samples s JOIN benchmarks b ON b.id = s.benchmark_id "
                      "WHERE b.name IN ('BM_Added', 'BM_NewName', 'BM_OldName') GROUP BY b.name, s.arm");
  std::map<std::string, int64_t> stored;
  while (q.executeStep())
    stored[q.getColumn(0).getString() + " " + q.getColumn(1).getString()] = q.getColumn(2).getInt64();
  EXPECT_EQ(stored, (std::map<std::string, int64_t>{{"BM_Added head", 5}, {"BM_NewName head", 5}}));

  // A team that wants a changed suite to fail the gate.
  args.push_back("--strict-suite");
  Result strict = Tare(args);
  EXPECT_EQ(strict.exit_code, 4) << strict.out << strict.err;
  EXPECT_EQ(Json()["suite"]["ok"], false);
  EXPECT_NE(Slurp(dir_ + "/ledger.md").find("**SUITE CHANGED (--strict-suite: exit 4):**"), std::string::npos);
  ExpectOutputsAgree(strict);

  // Nothing in common is nothing to judge: refused before the first sample.
  std::filesystem::create_directories(dir_ + "/other");  // a store is created only in a directory that exists
  Result none = Tare({"ab", "--base", base, "--head", head, "--filter", "Name", "--store", dir_ + "/other/tare.db"});
  EXPECT_EQ(none.exit_code, 2) << none.out << none.err;
  EXPECT_NE(none.err.find("base and head have no benchmark in common"), std::string::npos) << none.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/other/tare.db")) << "nothing stored";
}

// A user counter one benchmark reports (issue 42): judged in the cells that report it, the others on
// the metrics they have (the default, CPU time, when they report none of the declared ones); a
// misspelled counter is refused before the first sample with the names that exist.
TEST_F(AbE2E, AUserCounterIsJudgedWhereItIsReportedAndATypoIsRefusedAtOnce) {
  const std::string base = LIVING_SUITE_DIR "/living_suite_base";
  const std::vector<std::string> common = {"ab",
                                           "--base",
                                           base,
                                           "--head",
                                           base,
                                           "--samples",
                                           "6",
                                           "--cap",
                                           "6",
                                           "--gbench-min-time",
                                           "5ms",
                                           "--store",
                                           store_,
                                           "--json",
                                           dir_ + "/result.json",
                                           "--ledger",
                                           dir_ + "/ledger.md"};
  std::vector<std::string> args = common;
  args.insert(args.end(), {"--metric", "gb.counter.spins"});
  Result r = Tare(args);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.exit_code << r.out << r.err;
  nlohmann::json j = Json();
  std::map<std::string, std::vector<std::string>> judged;  // cell -> its metrics
  for (const auto& c : j["comparisons"]) {
    for (const auto& m : c["metrics"]) judged[c["cell"]].push_back(m["metric"]);
  }
  EXPECT_EQ(judged["BM_Keep"], std::vector<std::string>{"gb.counter.spins"}) << j.dump();
  EXPECT_EQ(judged["BM_Other"], std::vector<std::string>{"gb.cpu_time_ns"})
      << "reports none of the declared: the default";
  for (const auto& c : j["comparisons"]) {
    if (c["cell"] == "BM_Keep") {
      EXPECT_EQ(c["verdict"], "PASS") << "the same count in every process: [0, 0]";
    }
  }
  const std::string ledger = Slurp(dir_ + "/ledger.md");
  EXPECT_NE(ledger.find("Metric gb.counter.spins: reported by 1 of the 3 cells (BM_Keep), judged there only."),
            std::string::npos)
      << ledger;
  EXPECT_NE(ledger.find("2 cells report none of the declared metrics"), std::string::npos) << ledger;
  ExpectOutputsAgree(r);

  // Declared beside CPU time: each cell judges what it reports.
  args = common;
  args.insert(args.end(), {"--metric", "gb.cpu_time_ns", "--metric", "gb.counter.spins"});
  r = Tare(args);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) << r.exit_code << r.out << r.err;
  judged.clear();
  j = Json();  // kept: a range over a temporary's member would dangle
  for (const auto& c : j["comparisons"]) {
    for (const auto& m : c["metrics"]) judged[c["cell"]].push_back(m["metric"]);
  }
  EXPECT_EQ(judged["BM_Keep"], (std::vector<std::string>{"gb.cpu_time_ns", "gb.counter.spins"}));
  EXPECT_EQ(judged["BM_Other"], std::vector<std::string>{"gb.cpu_time_ns"});
  ExpectOutputsAgree(r);

  // A typo: refused before anything is stored, with the counters that exist.
  std::filesystem::create_directories(dir_ + "/typo");
  args = {"ab", "--base", base, "--head", base, "--metric", "gb.counter.spin", "--store", dir_ + "/typo/tare.db"};
  Result typo = Tare(args);
  EXPECT_EQ(typo.exit_code, 2) << typo.out << typo.err;
  EXPECT_NE(typo.err.find("metric gb.counter.spin: none of the 3 benchmarks of the base executable"), std::string::npos)
      << typo.err;
  EXPECT_NE(typo.err.find("(the counters they report: gb.counter.spins)"), std::string::npos) << typo.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/typo/tare.db"));
}

TEST_F(AbE2E, AMetricTheProgramReportsAboutItselfIsJudged) {
  auto script = [&](const std::string& name, const std::string& body) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
  };
  const std::string base = script("base.sh", "printf '{\"throughput\": 1000}' > \"$TARE_METRICS_FILE\"");
  const std::string faster = script("faster.sh", "printf '{\"throughput\": 1100}' > \"$TARE_METRICS_FILE\"");
  const std::string slower = script("slower.sh", "printf '{\"throughput\": 900}' > \"$TARE_METRICS_FILE\"");
  const std::string silent = script("silent.sh", "printf '{\"latency\": 3}' > \"$TARE_METRICS_FILE\"");
  auto ab = [&](const std::string& head, const std::string& store) {
    return Tare({"ab", "--base", base, "--head", head, "--metric", "app.throughput=1%:higher", "--store", store,
                 "--json", dir_ + "/result.json", "--ledger", dir_ + "/ledger.md"});
  };
  Result r = ab(faster, store_ + ".faster");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json j = Json();
  const auto& m = j["comparisons"][0]["metrics"][0];
  EXPECT_EQ(m["metric"], "app.throughput");
  EXPECT_EQ(m["verdict"], "PASS") << m.dump();
  EXPECT_TRUE(m["supported_gain"].get<bool>()) << m.dump();
  EXPECT_NEAR(m["change"]["estimate"].get<double>(), 0.10, 1e-9) << m.dump();
  ExpectOutputsAgree(r);

  r = ab(slower, store_ + ".slower");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(Json()["comparisons"][0]["metrics"][0]["verdict"], "FAIL");
  EXPECT_NEAR(Json()["comparisons"][0]["metrics"][0]["change"]["estimate"].get<double>(), -0.10, 1e-9);
  ExpectOutputsAgree(r);

  r = ab(silent, store_ + ".silent");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::string ledger = Slurp(dir_ + "/ledger.md");
  EXPECT_NE(
      ledger.find(
          "app.throughput is judged, but the program's \\$TARE_METRICS_FILE has no \"throughput\" (it has: latency)"),
      std::string::npos)
      << ledger;
  ExpectOutputsAgree(r);
}

}  // namespace
