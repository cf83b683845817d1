// Bad input through the real tare binary (issue 9): every case exits 2 with a message naming the
// flag or file, before anything is measured, and leaves what is already stored byte for byte as
// it was. Also: bytes that are not UTF-8 in a child's output and in tare's own argv are stored and
// exported (as U+FFFD) instead of aborting tare.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../tare_process.h"
#include "base/files.h"
#include "base/sha256.h"

namespace {

using tare::e2e::Result;
namespace fs = std::filesystem;

class BadInputE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "tare_bad_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::create_directories(dir_ + "/store");  // a store is created only in a directory that exists
    store_ = dir_ + "/store/tare.db";
  }
  void TearDown() override { fs::remove_all(dir_); }

  Result Tare(std::vector<std::string> args) { return tare::e2e::RunTare(TARE_BIN, dir_, std::move(args)); }

  // sha256 of the store's file; "" when there is none.
  std::string StoreDigest() {
    auto bytes = tare::ReadFile(store_);
    return bytes.ok() ? tare::Sha256Hex(*bytes) : "";
  }

  std::string dir_;
  std::string store_;
};

struct Case {
  std::vector<std::string> args;
  std::string message;  // must appear in stderr
};

TEST_F(BadInputE2E, EveryCaseExitsTwoNamesTheFlagAndLeavesTheStoreAsItWas) {
  ASSERT_EQ(Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "/bin/true"}).exit_code, 0);
  const std::string before = StoreDigest();
  ASSERT_FALSE(before.empty());
  fs::create_directories(dir_ + "/a_dir");
  const std::string head = dir_ + "/head";
  fs::copy_file("/bin/true", head);
  { std::ofstream(dir_ + "/campaign.toml") << "[arms]\nbase = \"/bin/true\"\nhead = \"" << head << "\"\n"; }
  { std::ofstream(dir_ + "/tare.toml") << "[compare]\nthreshold = \"5%\"\n"; }

  const std::vector<Case> cases = {
      // Issue 27, item 8: an output never replaces a program the run executes or the thresholds read.
      {{"run", "--store", store_, "--json", head, head}, "is a program the run executes"},
      {{"run", "--store", store_, "--json", head, "--prepare", "./head", "/bin/true"}, "is a program the run executes"},
      {{"compare", "--store", store_, "1", "1", "-o", "tare.toml"}, "is the thresholds file"},
      // Item 13: numbers.
      {{"run", "--store", store_, "--samples", "-1", "/bin/true"}, "--samples"},
      {{"run", "--store", store_, "--warmup", "-1", "/bin/true"}, "--warmup"},
      {{"run", "--store", store_, "--iterations", "0", "/bin/true"}, "--iterations"},
      {{"run", "--store", store_, "--timeout", "0", "/bin/true"}, "--timeout"},
      {{"run", "--store", store_, "--timeout", "1e99s", "/bin/true"}, "7 days"},
      {{"run", "--store", store_, "--shell", ""}, "--shell"},
      // Issue 27, item 19: an empty untimed command is refused, not taken for "none".
      {{"run", "--store", store_, "--prepare", "", "/bin/true"}, "--prepare: is empty: give a command"},
      {{"run", "--store", store_, "--setup", " ", "/bin/true"}, "--setup: is empty"},
      {{"run", "--store", store_, "--conclude", "", "/bin/true"}, "--conclude: is empty"},
      {{"ab", "--store", store_, "--seed", "-1", "--base", "/bin/true", "--head", head}, "--seed"},
      {{"ab", "--store", store_, "--timeout", "1e99s", "--base", "/bin/true", "--head", head}, "--timeout"},
      {{"runs", "--store", store_, "--limit", "-1"}, "--limit"},
      // Items 5 and 12: output paths, refused before the first sample.
      {{"run", "--store", store_, "--json", store_, "/bin/true"}, "is the store"},
      {{"run", "--store", store_, "--json", dir_ + "/store/../store/tare.db-wal", "/bin/true"}, "write-ahead log"},
      {{"run", "--store", store_, "--json", dir_ + "/a_dir", "/bin/true"}, "is a directory"},
      {{"run", "--store", store_, "--json", dir_ + "/missing/out.json", "/bin/true"}, "does not exist"},
      {{"export", "--store", store_, "-o", store_}, "is the store"},
      {{"export", "--store", store_, "-o", dir_ + "/a_dir"}, "is a directory"},
      {{"ab", "--store", store_, "--ledger", store_, "--base", "/bin/true", "--head", head}, "is the store"},
      {{"ab", "--store", store_, "--json", store_ + "-shm", "--base", "/bin/true", "--head", head}, "--json"},
      {{"ab", "--store", store_, "--ledger", dir_ + "/campaign.toml", dir_ + "/campaign.toml"}, "the campaign file"},
      {{"ab", "--store", store_, "--json", head, "--base", "/bin/true", "--head", head}, "head executable"},
      // Item 16: messages.
      {{"bogus"}, "unknown subcommand 'bogus'; the subcommands are: run"},
      {{"ab", "--store", store_, "--head", head}, "--base is required"},
      {{"ab", "--store", store_, "--base", dir_ + "/a_dir", "--head", head},
       "--base '" + dir_ + "/a_dir' is a directory"},
      {{"ab", "--store", store_, dir_ + "/a_dir"}, "is a directory"},
      // Issue 13: a tare flag after the target is ambiguous without `--`.
      {{"run", "--store", store_, "sort", "f", "-n", "2"}, "'-n' after the target 'sort' is also an option"},
      {{"run", "--store", store_, "/bin/true", "--samples=3"}, "put `--` before the target"},
      // Issue 11: provenance flags.
      {{"run", "--store", store_, "--commit", "xyz", "/bin/true"}, "--commit 'xyz' is not a commit id"},
      {{"run", "--store", store_, "--tag", "novalue", "/bin/true"}, "--tag 'novalue' is not KEY=VALUE"},
      {{"ab", "--store", store_, "--tag", "k=1", "--tag", "k=2", "--base", "/bin/true", "--head", head}, "given twice"},
  };
  for (const Case& c : cases) {
    std::string shown;
    for (const auto& a : c.args) shown += a + " ";
    Result r = Tare(c.args);
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << shown << "\n" << r.err;
    EXPECT_EQ(StoreDigest(), before) << shown << ": the store changed";
  }
  EXPECT_TRUE(fs::is_directory(dir_ + "/a_dir"));
  EXPECT_FALSE(fs::exists(dir_ + "/missing"));
}

// The bad-input suite of issue 9 ("Keep finding them"): every subcommand of `tare --help` against
// the classes of the issue — bad numbers, missing or wrongly typed paths, output paths that are the
// store, unknown flags, metrics and subcommands, hostile names — each exiting 2 with a message that
// names the problem, with the store's file byte for byte as it was. Cases marked "found here" were
// defects this suite found (exit 0 or 70 before).
TEST_F(BadInputE2E, EverySubcommandRefusesBadInputAndLeavesTheStoreAsItWas) {
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(Tare({"run", "-n", "2", "-w", "0", "-q", "--store", store_, "/bin/true"}).exit_code, 0);
  }
  const std::string before = StoreDigest();
  ASSERT_FALSE(before.empty());
  const std::string d = dir_ + "/";
  fs::create_directories(d + "a_dir");
  fs::copy_file("/bin/true", d + "head");
  { std::ofstream(d + "bad.json") << "{\"x\":"; }
  { std::ofstream(d + "bad.toml") << "not toml [[["; }
  { std::ofstream(d + "bad.tar.gz") << "garbage"; }
  { std::ofstream(d + "not_golden") << "x\n"; }
  const std::string hostile = "./\x1b]0;pwn\x07";  // OSC: retitles a terminal if printed raw
  const std::string S = store_;

  const std::vector<Case> cases = {
      // run
      {{"run", "--store", S, "--samples", "abc", "/bin/true"}, "--samples: 'abc' is not a whole number"},
      {{"run", "--store", S, "--samples", "99999999999999999999", "/bin/true"}, "--samples"},
      {{"run", "--store", S, "--filter", "(", "/bin/true"}, "--filter '(' is not a valid regular expression"},
      {{"run", "--store", S, "--filter", "nomatch", "/bin/true"}, "matches none of the 1 benchmarks"},
      {{"run", "--store", S, "./missing"}, "'./missing' does not exist"},
      {{"run", "--store", S, "./a_dir"}, "is a directory, not a program"},
      {{"run", "--store", S, "./bad.json"}, "is not executable"},
      {{"run", "--store", S, hostile}, "\\x1b]0;pwn\\x07' does not exist"},
      {{"run", "--store", S, "--metrics", "nosuch", "/bin/true"}, "--metrics: 'nosuch' is not measured"},
      {{"run", "--store", S, "--instrument", "bogus", "/bin/true"}, "unknown instrument 'bogus'"},
      {{"run", "--store", S, "--kind", "bogus", "/bin/true"}, "unknown target kind 'bogus'"},
      {{"run", "--store", S, "--bogus", "/bin/true"}, "unknown flag '--bogus' for `tare run`"},
      {{"run", "--store", S, "--export-markdown", S, "/bin/true"}, "is the store"},
      {{"run", "--store", S, "--export-csv", S + "-wal", "/bin/true"}, "write-ahead log"},
      {{"run", "--store", S, "--env", "NOEQUALS", "/bin/true"}, "--env 'NOEQUALS' must look like KEY=VALUE"},
      {{"run", "--store", S, "--timeout", "-5s", "/bin/true"}, "--timeout: '-5s' is not a duration"},
      {{"run", "--store", S, "--command", ""}, "the command is empty"},
      {{"run", "--store", S, "--parameter-scan", "n", "5", "1", "--", "/bin/echo", "{n}"}, "HI 1 is below LO 5"},
      {{"run", "--store", S, "--parameter-scan", "n", "1", "1e12", "--", "/bin/echo", "{n}"}, "at most 1000"},
      {{"run", "--store", d + "a_dir", "/bin/true"}, "cannot open the store"},
      {{"run", "--store", d + "bad.json", "/bin/true"}, "file is not a database"},
      // ab, --plan included
      {{"ab", "--store", S, "--base", "./missing", "--head", "head"}, "missing' does not exist"},
      {{"ab", "--store", S, "--base", "/bin/true", "--head", "head", "--cap", "-5"}, "sampling.cap = -5"},
      {{"ab", "--store", S, "--base", "/bin/true", "--head", "head", "--cap", "99999999999"}, "more than 10000 pairs"},
      {{"ab", "--store", S, "--base", "/bin/true", "--head", "head", "--initial", "0"}, "sampling.initial = 0"},
      {{"ab", "--store", S, "--base", "/bin/true", "--head", "head", "--layouts", "100000"}, "outside 1..8"},
      {{"ab", "--store", S, "--base", "/bin/true", "--head", "head", "--metric", "nosuch"},
       "metric 'nosuch' is not measured"},
      {{"ab", "--store", S, "--base", "/bin/true", "--head", "head", "--budget", "-1s"}, "--budget"},
      {{"ab", "--store", S, "--base", "/bin/true", "--head", "head", "--resume"}, "holds no interrupted cohort"},
      {{"ab", "--store", S, "--base", "/bin/true", "--head", "head", "--html", S}, "is the store"},
      {{"ab", "--store", S, d + "bad.toml"}, "not valid TOML"},
      {{"ab", "--store", S, "./missing.toml"}, "cannot open './missing.toml'"},
      {{"ab", "--store", S, "--plan", "--base", "/bin/true", "--head", "./missing"},
       "missing' does not exist"},  // found here
      {{"ab", "--store", S, "--plan", "--base", "/bin/true", "--head", "head", "--json", S}, "is the store"},
      {{"ab", "--store", S, "--plan", "--pilot", "2", "--base", "/bin/true", "--head", "head"},
       "--pilot 2 is out of range"},
      // compare, history, variance, runs
      {{"compare", "--store", S, "1", "99"}, "run 99 is not in the store"},
      {{"compare", "--store", S, "1", "banana"}, "'banana' names no run"},
      {{"compare", "--store", S, "1"}, "HEAD is required"},
      {{"compare", "--store", S, "1", "1"}, "are the same run"},
      {{"compare", "--store", S, "1", "2", "--metric", "nosuch"}, "--metric 'nosuch' is in neither run"},
      {{"compare", "--store", S, "1", "2", "--format", "bogus"}, "--format 'bogus' is not one of"},
      {{"compare", "--store", S, "1", "2", "--threshold", "abc"}, "--threshold 'abc' is not a threshold"},
      {{"compare", "--store", S, "1", "2", "--config", d + "a_dir"}, "is not a file"},
      {{"compare", "--store", d + "nostore.db", "1", "2"}, "no store at"},
      {{"history", "--store", S, "nosuchbench"}, "measured a benchmark named 'nosuchbench'"},
      {{"history", "--store", S, "/bin/true", "--metric", "nosuch"}, "has 'nosuch' of '/bin/true'"},
      {{"history", "--store", S, "/bin/true", "--limit", "0"}, "--limit: '0' is not a whole number"},
      {{"history", "--store", S}, "BENCH is required"},
      {{"variance", "--store", S, "99"}, "run 99 is not in the store"},
      {{"variance", "--store", S, "1", "--format", "bogus"}, "--format 'bogus'"},
      {{"runs", "--store", S, "--limit", "abc"}, "--limit: 'abc'"},
      {{"runs", "--store", S, "extra"}, "not expected: extra"},
      {{"runs", "--store", d + "nostore.db"}, "no store at"},
      // export, import, bundle, replay, spread, merge, push
      {{"export", "--store", S, "--run", "99"}, "run 99 is not in the store"},
      {{"export", "--store", S, "--format", "csv"}, "--format csv is not supported"},
      {{"export", "--store", S, "-o", S + "-shm"}, "shared-memory index"},
      {{"export", "--store", S, "-o", d + "missing_dir/x.json"}, "does not exist"},
      {{"import", "--store", S, d + "bad.json"},
       "is neither a `tare export` JSON document nor a bundle (`tare bundle`) (the file: not valid JSON at byte 6 ("},
      {{"import", "--store", S, d + "missing.json"}, "does not exist"},
      {{"import", "--store", S, d + "a_dir"}, "is a directory"},
      {{"import", "--store", S, S}, "is neither a `tare export` JSON document nor a bundle"},
      {{"bundle", "--store", S, "--run", "99", "-o", d + "b.tar.gz"}, "run 99 is not in the store"},
      {{"bundle", "--store", S, "-o", S}, "is the store"},
      {{"bundle", "--store", S, "-o", d + "a_dir"}, "is a directory"},
      {{"bundle", "--store", S}, "-o FILE is required"},
      {{"bundle", "bogus"}, "unknown subcommand 'bogus' of `tare bundle`; its subcommands are: verify"},
      {{"bundle", "verify", d + "bad.tar.gz"}, "is not a tare bundle"},
      {{"bundle", "verify", d + "missing.tar.gz"}, "does not exist"},
      {{"bundle", "verify", d + "a_dir"}, "is a directory"},
      {{"replay", "--store", S, d + "bad.tar.gz"}, "nothing was run"},
      {{"replay", "--store", S, d + "missing.tar.gz"}, "does not exist"},
      {{"spread", "--store", S, "--executable", "zz"}, "'zz' is not a sha256"},
      {{"spread", "--store", S, "--executable", "0000000000000000"}, "no run in store"},
      {{"spread", "--store", S}, "give one of --executable SHA256 or --lock SHA256"},
      {{"merge", S, d + "missing.db"}, "no store at"},
      {{"merge", S, S}, "is both OUT and an input"},
      {{"merge", S, d + "bad.json"}, "file is not a database"},
      {{"push", "--store", S, "--to", S}, "is the local store itself"},
      {{"push", "--store", S, "--to", d + "out.db", "--since", "yesterday"}, "--since 'yesterday' is not a date"},
      {{"push", "--store", S, "--to", d + "out.db", "--run", "99"}, "run 99 is not in the store"},
      {{"push", "--store", S, "--to", "postgresql://nobody@/x?host=/nonexistent"}, "cannot connect to the store"},
      // attribute, report
      {{"attribute", "--store", S, d + "missing1", d + "missing2"}, "does not exist"},
      {{"attribute", "--store", S, d + "bad.json", d + "bad.json"}, "is not a callgrind profile"},
      {{"attribute", "--store", S, "--run", "1"}, "not a `tare ab` cohort"},
      {{"attribute", "--store", S, "--top", "0", d + "bad.json", d + "bad.json"}, "--top: '0'"},
      {{"attribute", "--store", S, "--base-run", "1"}, "give both --base-run and --head-run"},
      {{"report", "--store", S, "--run", "99"}, "run 99 is not in the store"},
      {{"report", "--store", S, "--run", "1", "-o", S}, "is the store"},
      {{"report", "--store", S, "--run", "1", "-o", d + "a_dir"}, "is a directory"},
      {{"report", "--store", S, "--compare", "1", "2", "--metric", "nosuch"}, "--metric 'nosuch' is in neither run"},
      {{"report", "--store", S}, "name one thing to report"},
      {{"report", "--store", S, "--history", "nosuch"}, "named 'nosuch'"},
      // oracle, env
      {{"oracle", "bogus"}, "unknown subcommand 'bogus' of `tare oracle`; its subcommands are: check"},  // found here
      {{"oracle", "check", "--golden", d + "missing.golden", "--", "/bin/true"}, "create the golden with"},
      {{"oracle", "check", "--golden", d + "a_dir", "--", "/bin/true"}, "is a directory"},
      {{"oracle", "check", "--golden", d + "not_golden", "--", "/bin/echo", "x"}, "is not a tare oracle golden"},
      {{"oracle", "check", "--golden", d + "not_golden", "--trials", "0", "--", "/bin/true"},
       "--trials 0 must be a positive odd number"},
      {{"oracle", "check", "--golden", d + "not_golden", "--trials", "abc", "--", "/bin/true"},
       "--trials: 'abc' is not a value this option takes"},  // found here
      {{"oracle", "check", "--golden", d + "not_golden", "--trials", "1000001", "--", "/bin/true"},
       "is more than 100000 trials"},
      {{"oracle", "check", "--golden", d + "not_golden", "--quarantine", d + "a_dir", "--", "/bin/true"},
       "is a directory"},
      {{"oracle", "check", "--accept", "--golden", d + "new.golden", "--", "./missing"}, "does not exist"},
      {{"oracle", "check", "--accept", "--golden", d + "new.golden", "--timeout", "1e99s", "--", "/bin/true"},
       "longer than 7 days"},
      {{"oracle", "stability", "--trials", "-1", "--", "/bin/true"}, "--trials -1 must be at least 1"},
      {{"oracle", "stability", "--trials", "1000000000", "--", "/bin/true"},
       "--trials 1000000000 is more than 100000"},  // found here: bad_alloc, exit 70
      {{"oracle", "counters", "--golden", d + "a_dir", "--", "/bin/true"}, "is a directory"},
      {{"env", "--bogus"}, "unknown flag '--bogus' for `tare env`"},
      {{"env", "--json", "extra"}, "not expected: extra"},
      {{"bogus\x1b[2J"}, "unknown subcommand 'bogus\\x1b[2J'"},
  };
  for (const Case& c : cases) {
    std::string shown;
    for (const auto& a : c.args) shown += a + " ";
    Result r = Tare(c.args);
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << shown << "\n" << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << shown << ": a raw ESC reached stderr";
    EXPECT_EQ(StoreDigest(), before) << shown << ": the store changed";
    EXPECT_FALSE(fs::exists(d + ".tare/oracle")) << shown << ": an oracle run directory was made for bad input";
    fs::remove_all(d + ".tare/oracle");
  }
  // Nothing was created where the bad input pointed.
  EXPECT_FALSE(fs::exists(d + "nostore.db"));
  EXPECT_FALSE(fs::exists(d + "out.db"));
  EXPECT_FALSE(fs::exists(d + "b.tar.gz"));
  EXPECT_FALSE(fs::exists(d + "missing_dir"));
  EXPECT_FALSE(fs::exists(d + "new.golden"));
}

// Issue 9 item 3 / docs/cli.md: tare's own installation broken — the spawn helper missing — is the
// internal-error status 70, not bad input; a TARE_SPAWN_HELPER that names no program is bad input.
// Issue 27, item 2: a password in a PostgreSQL store URL (user info or ?password=) is never printed,
// and no directory is named after the URL (arm copies, ledgers go to .tare/ for a server store).
// No server is needed: every command fails to connect, and that is where the password leaked.
TEST_F(BadInputE2E, AStorePasswordIsNeverPrintedNorMadeADirectory) {
  const std::string url = "postgresql://ci:s3cretA@/tare?host=/nonexistent&password=s3cretB";
  const std::string head = dir_ + "/head";
  fs::copy_file("/bin/true", head);
  const std::vector<std::vector<std::string>> commands = {
      {"run", "-n", "1", "-w", "0", "--store", url, "/bin/true"},
      {"run", "-n", "1", "-w", "0", "--store=" + url, "/bin/true"},
      {"ab", "--store", url, "--base", "/bin/true", "--head", head},
      {"ab", "--store", url, "--resume", "--base", "/bin/true", "--head", head},
      {"runs", "--store", url},
      {"shards", "--store", url},
      {"push", "--store", url, "--to", url},
  };
  for (const auto& args : commands) {
    Result r = Tare(args);
    const std::string said = r.out + r.err;
    EXPECT_NE(r.exit_code, 0) << args[0] << ": " << said;
    EXPECT_EQ(said.find("s3cret"), std::string::npos) << args[0] << ": " << said;
  }
  Result connect = Tare({"runs", "--store", url});
  EXPECT_NE(connect.err.find("postgresql://ci:***@/tare?host=/nonexistent&password=***"), std::string::npos)
      << connect.err;
  for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find("s3cret"), std::string::npos) << entry.path();
    EXPECT_EQ(name.find("postgres"), std::string::npos) << entry.path();
  }
}

// Issue 27, item 10: output that cannot be written is an error with its cause (exit 2), not a
// success and not an internal error. /dev/full takes every open and fails every write (ENOSPC).
TEST_F(BadInputE2E, AStandardOutputThatCannotBeWrittenIsAnError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this host";
  ASSERT_EQ(Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "/bin/true"}).exit_code, 0);
  const std::string before = StoreDigest();
  const std::string store = " --store '" + store_ + "'";
  for (const std::string& args :
       std::vector<std::string>{"runs" + store, "export --run 1" + store, "history /bin/true" + store, "env --json",
                                "env", "compare 1 1" + store, "--help"}) {
    const std::string err = dir_ + "/err.txt";
    const std::string cmd = "'" + std::string(TARE_BIN) + "' " + args + " >/dev/full 2>'" + err + "'";
    const int rc = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(rc)) << args;
    const std::string said = tare::e2e::Slurp(err);
    EXPECT_EQ(WEXITSTATUS(rc), 2) << args << ": " << said;
    if (args.rfind("compare", 0) != 0) {  // compare is refused before it prints: its own message
      // The cause when stdio kept it (a short output leaves only stdout's error flag).
      EXPECT_NE(said.find("cannot write to standard output"), std::string::npos) << args << ": " << said;
    }
    EXPECT_EQ(said.find("internal error"), std::string::npos) << args << ": " << said;
  }
  EXPECT_EQ(StoreDigest(), before);
}

// Issue 27, items 11, 13, 15 and 19: inputs that are not regular files (a FIFO hung every reader,
// a device was read without end), a NUL in a campaign, a store path that is a FIFO or a device, a
// damaged store. Each exits 2 at once, naming the file, and changes nothing stored. The FIFO and
// the device are made in the test's own directory (mknod where this process may), never in /dev.
TEST_F(BadInputE2E, NodesNulsAndADamagedStoreAreRefusedByName) {
  ASSERT_EQ(Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "/bin/true"}).exit_code, 0);
  const std::string before = StoreDigest();
  const std::string d = dir_ + "/";
  ASSERT_EQ(mkfifo((d + "fifo").c_str(), 0600), 0);
  const bool have_device = mknod((d + "zero").c_str(), S_IFCHR | 0600, makedev(1, 5)) == 0;  // /dev/zero's numbers
  { std::ofstream(d + "not_golden") << "x\n"; }
  { std::ofstream(d + "nul.toml") << "args = [\"a\\u0000b\"]\n[arms]\nbase = \"/bin/true\"\nhead = \"/bin/true\"\n"; }
  const std::string S = store_;
  std::vector<Case> cases = {
      {{"ab", "--store", S, d + "fifo"}, "is a FIFO (named pipe), not a regular file"},
      {{"import", "--store", S, d + "fifo"}, "is a FIFO"},
      {{"bundle", "verify", d + "fifo"}, "is a FIFO"},
      {{"replay", "--store", S, d + "fifo"}, "is a FIFO"},
      {{"attribute", d + "fifo", d + "fifo"}, "is a FIFO"},
      {{"oracle", "check", "--golden", d + "fifo", "--", "/bin/true"}, "is a FIFO"},
      {{"oracle", "check", "--golden", d + "not_golden", "--quarantine", d + "fifo", "--", "/bin/echo", "x"},
       "is a FIFO"},
      {{"compare", "--store", S, "1", "1", "--config", d + "fifo"}, "fifo"},
      {{"run", "--store", S, "--json", d + "o.json", d + "fifo"}, "is a FIFO (named pipe), not a program"},
      {{"ab", "--store", S, d + "nul.toml"}, "nul.toml:1: args[0]: 'a\\x00b' holds a NUL byte"},
      {{"run", "-n", "1", "--store", d + "fifo", "/bin/true"}, "cannot open the store '" + d + "fifo': it is a FIFO"},
  };
  if (have_device) {
    cases.push_back({{"import", "--store", S, d + "zero"}, "is a character device, not a regular file"});
    cases.push_back({{"ab", "--store", S, d + "zero"}, "is a character device"});
    cases.push_back({{"runs", "--store", d + "zero"}, "it is a character device, not a file"});
  }
  for (const Case& c : cases) {
    std::string shown;
    for (const auto& a : c.args) shown += a + " ";
    Result r = Tare(c.args);  // before: hung on the FIFO, or read /dev/zero until memory ran out
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << shown << "\n" << r.err;
    EXPECT_EQ(StoreDigest(), before) << shown << ": the store changed";
  }
  EXPECT_FALSE(fs::exists(d + "fifo-journal")) << "SQLite opened the FIFO as a store";
  EXPECT_FALSE(fs::exists(d + "zero-journal"));
  EXPECT_FALSE(fs::exists(d + "o.json"));

  // Item 19: a `tare ab` whose store cannot be opened (a text file; a server that does not answer)
  // leaves no arm-copy directory behind (bin/.lock beside the text file, .tare/bin for the URL).
  { std::ofstream(d + "notes.txt") << "not a store\n"; }
  fs::copy_file("/bin/true", d + "head");
  Result text = Tare({"ab", "--store", "notes.txt", "--base", "/bin/true", "--head", "head"});
  EXPECT_EQ(text.exit_code, 2) << text.err;
  EXPECT_FALSE(fs::exists(d + "bin")) << text.err;
  Result pg =
      Tare({"ab", "--store", "postgresql://nobody@/x?host=/nonexistent", "--base", "/bin/true", "--head", "head"});
  EXPECT_EQ(pg.exit_code, 2) << pg.err;
  EXPECT_FALSE(fs::exists(d + ".tare")) << pg.err;

  // Item 13: a damaged store takes no new run. Page 2 of the file is the root of a table; a
  // b-tree page type that does not exist fails SQLite's quick_check.
  Result closed = Tare({"runs", "--store", S});
  ASSERT_EQ(closed.exit_code, 0) << closed.err;
  ASSERT_FALSE(fs::exists(S + "-wal")) << "the WAL is checkpointed into the file on close";
  std::string bytes = *tare::ReadFile(S);
  ASSERT_GT(bytes.size(), 3 * 4096u);
  bytes[4096] = '\x7f';
  { std::ofstream(S, std::ios::binary | std::ios::trunc) << bytes; }
  fs::remove(S + "-reserve");
  const std::string damaged = StoreDigest();
  Result r = Tare({"run", "-n", "1", "-w", "0", "--store", S, "/bin/true"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is damaged (SQLite's quick_check: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(".recover | sqlite3 repaired.db"), std::string::npos) << r.err;
  EXPECT_EQ(StoreDigest(), damaged) << "the damaged store was written";
  // Item 19: a command that only reads leaves no PATH-reserve beside it (a 256 KiB stray).
  Tare({"runs", "--store", S});
  EXPECT_FALSE(fs::exists(S + "-reserve"));
}

TEST_F(BadInputE2E, AMissingSpawnHelperExitsWithTheInternalErrorStatus) {
  fs::create_directories(dir_ + "/bin");
  fs::copy_file(TARE_BIN, dir_ + "/bin/tare");  // without tare-spawn-helper beside it
  Result r =
      tare::e2e::RunTare(dir_ + "/bin/tare", dir_, {"run", "-n", "1", "-w", "0", "--store", store_, "/bin/true"});
  EXPECT_EQ(r.exit_code, 70) << r.err;
  EXPECT_NE(r.err.find("the spawn helper"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is missing"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(store_)) << "nothing is stored before the helper starts";

  setenv("TARE_SPAWN_HELPER", (dir_ + "/no-such-helper").c_str(), 1);
  Result e = Tare({"run", "-n", "1", "-w", "0", "--store", store_, "/bin/true"});
  unsetenv("TARE_SPAWN_HELPER");
  EXPECT_EQ(e.exit_code, 2) << e.err;
  EXPECT_NE(e.err.find("TARE_SPAWN_HELPER '" + dir_ + "/no-such-helper' is not an executable file"), std::string::npos)
      << e.err;
}

// Item 2: a child's stderr, an argv element and an --env value that are not UTF-8. nlohmann's
// dump() threw type_error 316 (exit 134) in `run --json` and in every later `export` of the run.
// The store keeps argv and options as JSON (each invalid byte replaced by U+FFFD) and the stderr
// tail byte for byte; tare.run/2 carries a tail that is not UTF-8 as {"base64"} (docs/json.md).
TEST_F(BadInputE2E, BytesThatAreNotUtf8AreStoredAndExportedSafely) {
  const std::string bad = "x\377\376y";
  Result r = Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "--json", dir_ + "/run.json", "--env",
                   "TARE_ODD=" + bad, "--", "/bin/sh", "-c", "printf 'x\\377y' >&2; exit 3", bad});
  ASSERT_EQ(r.exit_code, 1) << r.err;  // the sample failed (exit 3): stored with its stderr
  auto run_json = nlohmann::json::parse(tare::e2e::Slurp(dir_ + "/run.json"));
  Result e = Tare({"export", "--store", store_});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  auto doc = nlohmann::json::parse(e.out);
  // export adds what `run --json` leaves out (kept profiles, a cohort's campaign); the rest is equal.
  nlohmann::json common = doc;
  common.erase("artifacts");
  common.erase("campaign");
  EXPECT_EQ(common, run_json);
  const std::string replaced = "x\xEF\xBF\xBD\xEF\xBF\xBDy";  // each invalid byte -> U+FFFD
  EXPECT_EQ(doc["run"]["command_line"].back(), replaced) << doc["run"]["command_line"].dump();
  const auto& sample = doc["benchmarks"][0]["samples"][0];
  EXPECT_EQ(sample["stderr_tail"]["base64"], "eP95") << sample.dump();  // x \377 y, exactly
  EXPECT_NE(doc["run"]["options"].dump().find(replaced), std::string::npos) << doc["run"]["options"].dump();
}

}  // namespace
