// A store that cannot take more (issue 9 item 14), through the real tare binary on real files:
// a file size limit (`ulimit -f`: write(2) fails with EFBIG) and a full filesystem (a 1 MiB tmpfs
// in a user namespace: ENOSPC) stop `tare run` mid-run; the run must be finished as failed (never
// left `running`), the message must say why and how many samples were stored, and every sample
// stored before stays, in a database that passes PRAGMA integrity_check.
// A read-only store (file mode 0444, a read-only directory) is read by every command that only
// reads; a command that writes gets a clear error and changes nothing.
#include <SQLiteCpp/SQLiteCpp.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "../tare_process.h"
#include "base/files.h"
#include "base/sha256.h"

namespace {

using tare::e2e::Result;
namespace fs = std::filesystem;

class StoreFailureE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "tare_storefail_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // A store is created only in a directory that exists: the stores' directories of these tests.
    for (const char* d : {"s", "ro"}) fs::create_directories(dir_ + "/" + d);
  }
  void TearDown() override {
    // Read-only directories first made removable again.
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::recursive_directory_iterator(); ++it) {
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
    fs::remove_all(dir_, ec);
  }

  Result Tare(std::vector<std::string> args) { return tare::e2e::RunTare(TARE_BIN, dir_, std::move(args)); }

  // `script` through /bin/sh -c in dir_, with $TARE set; stdout and stderr captured.
  Result Shell(const std::string& script) {
    pid_t pid = fork();
    if (pid == 0) {
      if (!freopen((dir_ + "/out").c_str(), "w", stdout) || !freopen((dir_ + "/err").c_str(), "w", stderr)) _exit(97);
      if (chdir(dir_.c_str()) != 0) _exit(99);
      setenv("TARE", TARE_BIN, 1);
      execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
      _exit(98);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return tare::e2e::CollectTare(dir_, status);
  }

  // The samples stored per run id, and each run's status, read with SQLite itself.
  struct Stored {
    std::map<int64_t, int64_t> samples;
    std::map<int64_t, std::string> status;
    std::string integrity;
  };
  static Stored Read(const std::string& db_path) {
    SQLite::Database db(db_path, SQLite::OPEN_READONLY);
    Stored s;
    SQLite::Statement runs(db, "SELECT id, status FROM runs");
    while (runs.executeStep()) s.status[runs.getColumn(0).getInt64()] = runs.getColumn(1).getString();
    SQLite::Statement samples(db, "SELECT run_id, count(*) FROM samples GROUP BY run_id");
    while (samples.executeStep()) s.samples[samples.getColumn(0).getInt64()] = samples.getColumn(1).getInt64();
    s.integrity = db.execAndGet("PRAGMA integrity_check").getString();
    return s;
  }

  // "run 2 failed: 37 samples stored in ..." -> 37; -1 when the line is missing.
  static int64_t StoredCount(const std::string& err, int64_t run_id) {
    std::smatch m;
    const std::regex line("tare: run " + std::to_string(run_id) + " failed: ([0-9]+) samples stored in ");
    return std::regex_search(err, m, line) ? std::stoll(m[1]) : -1;
  }

  std::string dir_;
};

// RLIMIT_FSIZE: tare ignores SIGXFSZ (cli/main.cc), so the write past the limit fails with EFBIG
// instead of killing tare with the run left `running`. Finishing the run needs a checkpoint so the
// WAL starts over (SqliteConnection::FreeSpace). Without the fix: killed by SIGXFSZ (exit 153).
TEST_F(StoreFailureE2E, FileSizeLimitFinishesTheRunAsFailedAndKeepsEverySample) {
  ASSERT_EQ(Tare({"run", "-n", "2", "-w", "0", "-q", "--store", "s/tare.db", "/bin/true"}).exit_code, 0);
  // 400 blocks (of 512 bytes in dash, 1024 in bash): the store (about 150 KB) fits, its WAL fills
  // within the first samples; 5000 samples of /bin/true would need several MB.
  Result r = Shell("ulimit -f 400 && exec \"$TARE\" run -n 5000 -w 0 -q --store s/tare.db /bin/true");
  ASSERT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("a file size limit (`ulimit -f`)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("what was stored before this is kept"), std::string::npos) << r.err;
  const int64_t told = StoredCount(r.err, 2);
  ASSERT_GT(told, 0) << r.err;
  ASSERT_LT(told, 5000) << r.err;

  Stored s = Read(dir_ + "/s/tare.db");
  EXPECT_EQ(s.integrity, "ok");
  EXPECT_EQ(s.status[1], "complete");
  EXPECT_EQ(s.status[2], "failed") << "the run was not finished";
  EXPECT_EQ(s.samples[1], 2);
  EXPECT_EQ(s.samples[2], told) << r.err;
  // And tare reads it back: the failed run is listed and exported with every stored sample.
  Result runs = Tare({"runs", "--store", "s/tare.db"});
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_NE(runs.out.find("failed"), std::string::npos) << runs.out;
}

// A full filesystem (ENOSPC): a 1 MiB tmpfs mounted in a user and mount namespace, so no root is
// needed; it exists only inside that namespace, so the store is checked there (tare runs) and
// copied out. The run's last write needs space the disk no longer has: tare keeps a reserve file
// next to the store and frees it to finish the run. Without the fix the run stays `running`.
TEST_F(StoreFailureE2E, FullDiskFinishesTheRunAsFailedAndKeepsEverySample) {
  if (Shell("unshare --user --map-root-user --mount true").exit_code != 0) {
    GTEST_SKIP() << "user namespaces are not available here (unshare --user failed), so no tmpfs "
                    "can be mounted without root; the file size limit test covers the same path";
  }
  fs::create_directories(dir_ + "/mnt");
  fs::create_directories(dir_ + "/copy");
  Result r = Shell(
      "unshare --user --map-root-user --mount sh -c '"
      "mount -t tmpfs -o size=1M tmpfs mnt && cd mnt && mkdir s && "
      "\"$TARE\" run -n 2 -w 0 -q --store s/tare.db /bin/true || exit 90; "
      "\"$TARE\" run -n 5000 -w 0 -q --store s/tare.db /bin/true; echo \"rc=$?\" >&2; "
      "df -k . >&2; "
      "cp s/tare.db* ../copy/ || exit 91'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("rc=2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the disk is full"), std::string::npos) << r.err;
  const int64_t told = StoredCount(r.err, 2);
  ASSERT_GT(told, 0) << r.err;
  ASSERT_LT(told, 5000) << r.err;

  // The copy (database and WAL, as tare left them) opened by SQLite itself.
  Stored s = Read(dir_ + "/copy/tare.db");
  EXPECT_EQ(s.integrity, "ok");
  EXPECT_EQ(s.status[1], "complete");
  EXPECT_EQ(s.status[2], "failed") << "the run was not finished\n" << r.err;
  EXPECT_EQ(s.samples[1], 2);
  EXPECT_EQ(s.samples[2], told) << r.err;
}

// Issue 27 item 19: on a small disk the WAL, not the data, used to fill it — a 2 MiB disk was
// "full" after 74 samples with 188 KB stored, the WAL growing 4 MiB before SQLite copied it back.
// With little space free the store checkpoints every 64 pages: 2000 samples (about 1 MB) fit.
TEST_F(StoreFailureE2E, OnASmallDiskTheDataNotTheWalFillsIt) {
  if (Shell("unshare --user --map-root-user --mount true").exit_code != 0) {
    GTEST_SKIP() << "user namespaces are not available here (unshare --user failed), so no tmpfs can be mounted";
  }
  fs::create_directories(dir_ + "/mnt2");
  Result r = Shell(
      "unshare --user --map-root-user --mount sh -c '"
      "mount -t tmpfs -o size=2M tmpfs mnt2 && cd mnt2 && mkdir s && "
      "\"$TARE\" run -n 2000 -w 0 -q --store s/tare.db /bin/true; echo \"rc=$?\" >&2; "
      "sqlite3 s/tare.db \"SELECT count(*) FROM samples\" >&2'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("rc=0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\n2000\n"), std::string::npos) << "every sample stored: " << r.err;
}

// Runs tare as an unprivileged user when the test runs as root: root writes a 0444 file and a 0555
// directory regardless of their mode, so the store would not be read-only at all.
Result TareAsUser(const std::string& dir, std::vector<std::string> args) {
  args.insert(args.begin(), TARE_BIN);
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen((dir + "/out").c_str(), "w", stdout) || !freopen((dir + "/err").c_str(), "w", stderr)) _exit(97);
    if (chdir(dir.c_str()) != 0) _exit(99);
    if (geteuid() == 0 &&
        (setgroups(0, nullptr) != 0 || setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0)) {
      _exit(96);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(98);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return tare::e2e::CollectTare(dir, status);
}

void ExpectReadOnlyStoreIsReadable(const std::string& dir, const std::string& store) {
  auto digest = [&] { return tare::Sha256Hex(*tare::ReadFile(store)); };
  const std::string before = digest();
  const std::string true_sha = tare::Sha256Hex(*tare::ReadFile("/bin/true"));
  struct Case {
    std::vector<std::string> args;
    std::string output;  // a fragment of stdout ("" = only the exit status)
    int exit_code = 0;
  };
  const std::vector<Case> reads = {
      {{"runs", "--store", store}, "complete"},
      {{"export", "--store", store, "--run", "1"}, "\"schema\""},
      {{"compare", "--store", store, "1", "2"}, "run 1 -> run 2", 3},  // 3 samples each: INCONCLUSIVE
      {{"history", "--store", store, "/bin/true"}, "2 runs"},
      {{"variance", "--store", store}, ""},
      {{"report", "--store", store, "--run", "2", "-o", dir + "/outputs/r.html"}, ""},
      {{"bundle", "--store", store, "--run", "2", "-o", dir + "/outputs/b.tar.gz"}, ""},
      {{"spread", "--store", store, "--executable", true_sha.substr(0, 12)}, ""},
  };
  for (const Case& c : reads) {
    Result r = TareAsUser(dir, c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args[0] << ": " << r.err << r.out;
    EXPECT_EQ(r.err.find("read-only"), std::string::npos) << c.args[0] << ": " << r.err;
    if (!c.output.empty()) {
      EXPECT_NE(r.out.find(c.output), std::string::npos) << c.args[0] << ": " << r.out;
    }
  }
  EXPECT_TRUE(fs::exists(dir + "/outputs/r.html"));
  EXPECT_TRUE(fs::exists(dir + "/outputs/b.tar.gz"));
  // Writing is refused before anything is measured, saying why.
  for (std::vector<std::string> args :
       {std::vector<std::string>{"run", "-n", "1", "-w", "0", "--store", store, "/bin/true"},
        std::vector<std::string>{"import", "--store", store, dir + "/outputs/b.tar.gz"}}) {
    Result w = TareAsUser(dir, args);
    EXPECT_EQ(w.exit_code, 2) << args[0] << ": " << w.err;
    EXPECT_NE(w.err.find("is read-only"), std::string::npos) << args[0] << ": " << w.err;
  }
  EXPECT_EQ(digest(), before) << "the read-only store changed";
}

class ReadOnlyStoreE2E : public StoreFailureE2E {
 protected:
  // Two runs of /bin/true in dir_/ro/tare.db, and dir_/outputs writable by anyone.
  void MakeStore() {
    for (int i = 0; i < 2; ++i) {
      ASSERT_EQ(Tare({"run", "-n", "3", "-w", "0", "-q", "--store", "ro/tare.db", "/bin/true"}).exit_code, 0);
    }
    fs::create_directories(dir_ + "/outputs");
    fs::permissions(dir_ + "/outputs", fs::perms::all);
    fs::permissions(dir_, fs::perms::all);  // the unprivileged user writes out and err here
  }
};

TEST_F(ReadOnlyStoreE2E, AFileOfMode0444IsReadByEveryReadingCommand) {
  MakeStore();
  fs::permissions(dir_ + "/ro", fs::perms::all);
  fs::permissions(dir_ + "/ro/tare.db", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  ExpectReadOnlyStoreIsReadable(dir_, dir_ + "/ro/tare.db");
}

TEST_F(ReadOnlyStoreE2E, AStoreInAReadOnlyDirectoryIsReadByEveryReadingCommand) {
  MakeStore();
  // No -wal or -shm is left after tare's last close, and none can be created here.
  ASSERT_FALSE(fs::exists(dir_ + "/ro/tare.db-wal"));
  fs::permissions(dir_ + "/ro", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                    fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  ExpectReadOnlyStoreIsReadable(dir_, dir_ + "/ro/tare.db");
  EXPECT_FALSE(fs::exists(dir_ + "/ro/tare.db-wal"));
}

// Issue 27, item 9: an output tare may not write was found only after measuring (exit 2 "nothing
// measured", yet the run was stored: a CI retry stored it twice). As an unprivileged user, outputs
// in a directory of mode 0555 are refused before the first sample, naming the directory, and no
// store is created.
TEST_F(StoreFailureE2E, AnUnwritableOutputIsRefusedBeforeTheFirstSample) {
  fs::permissions(dir_, fs::perms::all);  // the unprivileged user writes the store, out and err here
  fs::create_directories(dir_ + "/locked");
  fs::permissions(dir_ + "/locked", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                        fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const std::string store = dir_ + "/tare.db";
  fs::copy_file("/bin/true", dir_ + "/head");
  const std::vector<std::vector<std::string>> cases = {
      {"run", "-n", "1", "-w", "0", "--store", store, "--json", dir_ + "/locked/run.json", "/bin/true"},
      {"run", "-n", "1", "-w", "0", "--store", store, "--export-markdown", dir_ + "/locked/r.md", "/bin/true"},
      {"ab", "--store", store, "--ledger", dir_ + "/locked/ledger.md", "--base", "/bin/true", "--head", dir_ + "/head"},
  };
  for (const auto& args : cases) {
    Result r = TareAsUser(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("the directory '" + dir_ + "/locked' is not writable"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(store)) << args[0] << ": a run was stored although its output could not be written";
  }
}

}  // namespace
