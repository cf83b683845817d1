// `tare oracle` through its command-line layer: argv in, exit status and stdout out, with real
// processes of the oracle fixture. Pins for each case the exit status (the contract CI scripts rely
// on) and how many processes the fixture counted.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/files.h"
#include "cli/commands.h"

namespace tare::cli {
namespace {

namespace fs = std::filesystem;

class OracleCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = MakeTempDir("oracle-cli");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
  }
  void TearDown() override { RemoveTree(dir_); }

  // Runs `tare oracle ARGS...` in-process; returns the exit status and keeps stdout in out_.
  int Tare(std::vector<std::string> args) {
    CLI::App app{"tare"};
    int exit_code = 0;
    AddOracleCommand(app, &exit_code);
    args.insert(args.begin(), "oracle");
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    ::testing::internal::CaptureStdout();
    int status;
    try {
      app.parse(reversed);
      status = exit_code;
    } catch (const CLI::ParseError& e) {
      status = e.get_exit_code() == 0 ? 0 : 2;  // what main does with a ParseError
      if (status != 0) std::fprintf(stderr, "parse error: %s\n", e.what());
    }
    out_ = ::testing::internal::GetCapturedStdout();
    return status;
  }

  std::vector<std::string> Fixture(const std::string& mode, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {"--", ORACLE_FIXTURE_PATH, "--counter", dir_ + "/count", "--mode", mode};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
  }
  std::vector<std::string> Args(std::vector<std::string> head, const std::vector<std::string>& cmd) {
    head.insert(head.end(), cmd.begin(), cmd.end());
    return head;
  }
  int Ran() {
    std::ifstream in(dir_ + "/count");
    int lines = 0;
    std::string line;
    while (std::getline(in, line)) ++lines;
    fs::remove(dir_ + "/count");
    return lines;
  }
  std::string RunDir() { return fmt::format("{}/run{}", dir_, ++runs_); }
  void Accept() {
    golden_ = dir_ + "/trace.golden";
    ASSERT_EQ(
        Tare(Args({"check", "--accept", "-g", golden_, "--run-dir", RunDir()}, Fixture("marginal", {"--p", "1"}))), 0)
        << out_;
    ASSERT_EQ(Ran(), 9);
  }

  std::string dir_, golden_, out_;
  int runs_ = 0;
};

TEST_F(OracleCliTest, CheckExitStatusesAndProcessCounts) {
  Accept();
  struct Case {
    const char* name;
    std::vector<std::string> command;
    int exit_status;
    int processes;
  };
  const std::vector<Case> cases = {
      {"deterministic, but lacks the pinned spot", Fixture("stable", {"--out", "{report}"}), 1, 18},
      {"pinned spot always there", Fixture("marginal", {"--p", "1"}), 0, 9},
      {"marginal, absorbed by the retry", Fixture("marginal", {"--p", "0.6", "--seed", "8"}), 0, 18},
      {"real change", Fixture("changed"), 1, 18},
      {"header differs between trials", Fixture("header-drift"), 3, 9},
      {"header differs from the golden", Fixture("header-changed"), 1, 9},
      {"missing report", Fixture("no-report", {"--out", "{report}"}), 2, 1},
      {"empty stdout", Fixture("no-report"), 2, 1},
      {"crash on the 3rd process", Fixture("crash", {"--crash-at", "3"}), 2, 3},
      {"non-zero exit", Fixture("fail"), 2, 1},
  };
  for (const Case& c : cases) {
    const std::string run_dir = RunDir();
    int status = Tare(Args({"check", "--golden", golden_, "--run-dir", run_dir}, c.command));
    EXPECT_EQ(status, c.exit_status) << c.name << "\n" << out_;
    EXPECT_EQ(Ran(), c.processes) << c.name;
    if (c.exit_status != 2) {
      // The report is printed, names the run directory, and is kept there too.
      EXPECT_NE(out_.find("raw output  " + run_dir), std::string::npos) << c.name << out_;
      auto kept = ReadFile(run_dir + "/report.txt");
      ASSERT_TRUE(kept.ok()) << c.name;
      EXPECT_EQ(*kept, out_);
    }
  }
}

TEST_F(OracleCliTest, RetriesAndTrialsFlagsChangeTheCount) {
  Accept();
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "-n", "5", "-r", "2", "--run-dir", RunDir()}, Fixture("changed"))), 1);
  EXPECT_EQ(Ran(), 15);
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--retries", "0", "--run-dir", RunDir()},
                      Fixture("marginal", {"--p", "0.6", "--seed", "8"}))),
            1);
  EXPECT_EQ(Ran(), 9);
}

TEST_F(OracleCliTest, UsageErrorsRunNothingAndLeaveNoRunDirectory) {
  Accept();
  const std::string run_dir = dir_ + "/unused";
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--trials", "8", "--run-dir", run_dir}, Fixture("stable"))), 2);
  EXPECT_EQ(Tare(Args({"check", "-g", dir_ + "/absent.golden", "--run-dir", run_dir}, Fixture("stable"))), 2);
  EXPECT_EQ(Tare({"check", "-g", golden_, "--run-dir", run_dir}), 2);            // no command
  EXPECT_EQ(Tare(Args({"check", "--run-dir", run_dir}, Fixture("stable"))), 2);  // no --golden
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--run-dir", run_dir}, {"--", "./no/such/program"})), 2);
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--timeout", "soon", "--run-dir", run_dir}, Fixture("stable"))), 2);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--bogus", "--run-dir", run_dir}, Fixture("stable"))), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("unknown option '--bogus'"), std::string::npos);
  // A quarantine entry without a reason is refused before anything runs.
  { std::ofstream(dir_ + "/q.txt") << "tare-oracle-quarantine v1\nitem: Bench.RefLoop.lua:32 JFUNCF\n"; }
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "-q", dir_ + "/q.txt", "--run-dir", run_dir}, Fixture("stable"))), 2);
  EXPECT_EQ(Ran(), 0);
  EXPECT_FALSE(fs::exists(run_dir));
  // A non-empty --run-dir is refused: trials of two runs never mix.
  fs::create_directories(run_dir + "/old");
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--run-dir", run_dir}, Fixture("stable"))), 2);
  EXPECT_EQ(Ran(), 0);
}

TEST_F(OracleCliTest, QuarantineWithReasonsAbsorbsTheMarginalSpot) {
  Accept();
  {
    std::ofstream(dir_ + "/q.txt") << "tare-oracle-quarantine v1\nitem: Bench.RefLoop.lua:32 JFUNCF\n"
                                      "reason: counter aliasing after the line shift (p ~ 0.6-0.85)\n";
  }
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "-q", dir_ + "/q.txt", "--retries", "0", "--run-dir", RunDir()},
                      Fixture("marginal", {"--p", "0.6", "--seed", "8"}))),
            0)
      << out_;
  EXPECT_EQ(Ran(), 9);
  EXPECT_NE(out_.find("reason: counter aliasing"), std::string::npos) << out_;
}

TEST_F(OracleCliTest, ReportFlagNamesAFileTheCommandWrites) {
  Accept();
  const std::string report = dir_ + "/trace.txt";
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--report", report, "--run-dir", RunDir()},
                      Fixture("marginal", {"--p", "1", "--out", report}))),
            0)
      << out_;
  EXPECT_EQ(Ran(), 9);
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--report", report, "--run-dir", RunDir()}, Fixture("no-report"))), 2);
  EXPECT_EQ(Ran(), 1);
}

// Regression (issue 9, item 4): --report PATH was removed before every trial, whatever it was: an
// empty directory, the golden, the store. Something already at PATH is now refused before the
// first trial and left exactly as it was.
TEST_F(OracleCliTest, ReportPathThatAlreadyExistsIsRefusedAndLeftAlone) {
  Accept();
  const std::string golden_bytes = *ReadFile(golden_);
  const std::string empty_dir = dir_ + "/empty_dir";
  fs::create_directories(empty_dir);
  const std::string precious = dir_ + "/precious.db";
  { std::ofstream(precious) << "not tare's"; }
  for (const std::string& path : {empty_dir, golden_, precious}) {
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--report", path, "--run-dir", RunDir()},
                        Fixture("marginal", {"--p", "1", "--out", path}))),
              2)
        << path;
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("--report '" + path + "' already exists"), std::string::npos) << err;
    EXPECT_EQ(Ran(), 0) << path;
  }
  EXPECT_TRUE(fs::is_directory(empty_dir));
  EXPECT_EQ(*ReadFile(golden_), golden_bytes);
  EXPECT_EQ(*ReadFile(precious), "not tare's");
  // A path that does not exist works, and tare moves each trial's report away again.
  const std::string fresh = dir_ + "/fresh.report";
  EXPECT_EQ(Tare(Args({"check", "-g", golden_, "--report", fresh, "--run-dir", RunDir()},
                      Fixture("marginal", {"--p", "1", "--out", fresh}))),
            0)
      << out_;
  EXPECT_EQ(Ran(), 9);
  EXPECT_FALSE(fs::exists(fresh));
}

// Regression (issue 9, items 12 and 13): --accept with a golden that cannot be written ran every
// trial first; --timeout 1e99s wrapped to no limit. Both are refused before anything runs.
TEST_F(OracleCliTest, BadGoldenOrTimeoutIsRefusedBeforeTheFirstTrial) {
  const std::string run_dir = dir_ + "/unused";
  const std::string quarantine = dir_ + "/q.txt";
  { std::ofstream(quarantine) << "tare-oracle-quarantine v1\n"; }
  fs::create_directories(dir_ + "/a_dir");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"check", "--accept", "-g", dir_ + "/missing/g.golden"}, "does not exist"},
      {{"check", "--accept", "-g", dir_ + "/a_dir"}, "is a directory"},
      {{"check", "--accept", "-g", quarantine, "-q", quarantine}, "the quarantine file"},
      {{"counters", "--accept", "-g", dir_ + "/missing/c.golden"}, "does not exist"},
      {{"check", "-g", dir_ + "/a_dir"}, "is a directory"},
      // --accept: the golden need not exist yet (without it, a missing golden is said first).
      {{"check", "--accept", "-g", dir_ + "/g", "--timeout", "1e99s"}, "7 days"},
      {{"check", "--accept", "-g", dir_ + "/g", "--timeout", "0"}, "--timeout"},
      {{"check", "-g", dir_ + "/g", "--timeout", "0"}, "create the golden with"},
  };
  for (const auto& [flags, message] : cases) {
    std::vector<std::string> args = flags;
    args.insert(args.end(), {"--run-dir", run_dir});
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(Tare(Args(args, Fixture("stable"))), 2) << message;
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(message), std::string::npos) << err;
    EXPECT_EQ(Ran(), 0) << message;
    EXPECT_FALSE(fs::exists(run_dir)) << message;
  }
  EXPECT_TRUE(fs::is_directory(dir_ + "/a_dir"));
}

TEST_F(OracleCliTest, StabilityFlagsTheMarginalSpot) {
  Accept();
  const std::string run_dir = RunDir();
  EXPECT_EQ(Tare(Args({"stability", "--trials", "60", "--golden", golden_, "--run-dir", run_dir},
                      Fixture("marginal", {"--p", "0.6", "--seed", "8"}))),
            1)
      << out_;
  EXPECT_EQ(Ran(), 60);
  EXPECT_NE(out_.find("MARGINAL"), std::string::npos) << out_;
  EXPECT_NE(out_.find("item: Bench.RefLoop.lua:32 JFUNCF\nreason: p ≈"), std::string::npos) << out_;
  EXPECT_TRUE(fs::exists(run_dir + "/suggested-quarantine.txt"));
  EXPECT_TRUE(fs::exists(run_dir + "/trials/trial-60.stdout"));

  // Solid items only: 0. Header drift: 3.
  EXPECT_EQ(Tare(Args({"stability", "--trials", "30", "--run-dir", RunDir()}, Fixture("stable"))), 0) << out_;
  EXPECT_EQ(Ran(), 30);
  EXPECT_EQ(Tare(Args({"stability", "--trials", "9", "--run-dir", RunDir()}, Fixture("header-drift"))), 3) << out_;
  EXPECT_EQ(Ran(), 9);
}

TEST_F(OracleCliTest, CountersExitStatuses) {
  const std::string golden = dir_ + "/census.golden";
  EXPECT_EQ(Tare(Args({"counters", "--accept", "-g", golden, "--run-dir", RunDir()}, Fixture("counters"))), 0);
  EXPECT_EQ(Ran(), 2);
  EXPECT_EQ(Tare(Args({"counters", "-g", golden, "--run-dir", RunDir()}, Fixture("counters"))), 0);
  EXPECT_EQ(Ran(), 2);
  EXPECT_EQ(Tare(Args({"counters", "-g", golden, "--run-dir", RunDir()}, Fixture("counters-changed"))), 1);
  EXPECT_EQ(Ran(), 2);
  EXPECT_NE(out_.find("+     2| instructions 1234571"), std::string::npos) << out_;
  EXPECT_EQ(Tare(Args({"counters", "-g", golden, "--run-dir", RunDir()}, Fixture("counters-unstable"))), 3);
  EXPECT_EQ(Ran(), 2);
  EXPECT_EQ(Tare(Args({"counters", "-g", golden, "--run-dir", RunDir()}, Fixture("crash", {"--crash-at", "2"}))), 2);
  EXPECT_EQ(Ran(), 2);
  // A vote golden is not a counters golden.
  Accept();
  EXPECT_EQ(Tare(Args({"counters", "-g", golden_, "--run-dir", RunDir()}, Fixture("counters"))), 2);
  EXPECT_EQ(Ran(), 0);
}

TEST_F(OracleCliTest, CommandArgumentsPassThroughUntouched) {
  // Flags after the program belong to it, with or without `--`.
  golden_ = dir_ + "/g";
  std::vector<std::string> no_dashes = {"check",  "--accept",          "-g",        golden_,         "--run-dir",
                                        RunDir(), ORACLE_FIXTURE_PATH, "--counter", dir_ + "/count", "--mode",
                                        "stable"};
  EXPECT_EQ(Tare(no_dashes), 0) << out_;
  EXPECT_EQ(Ran(), 9);
}

TEST_F(OracleCliTest, DefaultRunDirectoryIsUnderDotTare) {
  Accept();
  const fs::path old_cwd = fs::current_path();
  fs::current_path(dir_);
  int status = Tare(Args({"check", "-g", golden_}, Fixture("marginal", {"--p", "1"})));
  fs::current_path(old_cwd);
  EXPECT_EQ(status, 0) << out_;
  ASSERT_TRUE(fs::exists(dir_ + "/.tare/oracle"));
  int dirs = 0;
  for (const auto& entry : fs::directory_iterator(dir_ + "/.tare/oracle")) {
    ++dirs;
    // 20240611T153012Z
    EXPECT_EQ(entry.path().filename().string().size(), 16u) << entry.path();
    EXPECT_TRUE(fs::exists(entry.path() / "attempt-1" / "trial-01.stdout"));
    EXPECT_TRUE(fs::exists(entry.path() / "report.txt"));
  }
  EXPECT_EQ(dirs, 1);
}

TEST_F(OracleCliTest, HelpDocumentsTheExitStatuses) {
  EXPECT_EQ(Tare({"check", "--help"}), 0);
  CLI::App app{"tare"};
  int exit_code = 0;
  AddOracleCommand(app, &exit_code);
  std::string help = app.get_subcommand("oracle")->get_subcommand("check")->help();
  EXPECT_NE(help.find("Exit status: 0 match"), std::string::npos) << help;
  EXPECT_NE(help.find("3 nondeterministic"), std::string::npos) << help;
  EXPECT_NE(help.find(".tare/oracle/"), std::string::npos) << help;
}

}  // namespace
}  // namespace tare::cli
