#include "proc/spawner.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

extern char** environ;

namespace tare::proc {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class SpawnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Spawner::Start();
    ASSERT_TRUE(s.ok()) << s.status().message();
    spawner_ = std::move(*s);
    dir_ = ::testing::TempDir() + "spawner_" + std::to_string(getpid());
    std::system(("mkdir -p " + dir_).c_str());
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  SpawnResult Run(std::vector<std::string> args, int64_t timeout_ns = 0) {
    SpawnRequest req;
    req.argv = {TEST_CHILD_PATH};
    req.argv.insert(req.argv.end(), args.begin(), args.end());
    req.env = {"PATH=/usr/bin:/bin"};
    req.stdout_path = dir_ + "/out";
    req.stderr_path = dir_ + "/err";
    req.timeout_ns = timeout_ns;
    req.perf_events = DefaultPerfEvents();
    auto r = spawner_->Run(req);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : SpawnResult{};
  }

  std::unique_ptr<Spawner> spawner_;
  std::string dir_;
};

TEST_F(SpawnerTest, RunsAProgramAndMeasuresIt) {
  SpawnResult r = Run({"spin", "50"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_GE(r.wall_ns, 50'000'000);
  EXPECT_GE(r.user_ns + r.sys_ns, 45'000'000);  // it burned 50 ms of CPU (rusage has 1-4 ms ticks)
  EXPECT_GT(r.peak_rss_bytes, 0);
  EXPECT_GT(r.minor_faults, 0);
  EXPECT_GT(r.start_unix_ns, 0);
  EXPECT_GE(r.end_unix_ns, r.start_unix_ns);
}

TEST_F(SpawnerTest, FinishLetsTheHelperExitAndRunThenFails) {
  ASSERT_TRUE(Run({"spin", "1"}).ok());
  const pid_t helper = spawner_->helper_pid();
  spawner_->Finish();
  // The helper sees its request pipe close and exits on its own; it stays our child until reaped.
  bool exited = false;
  for (int i = 0; i < 500 && !exited; ++i) {
    siginfo_t si{};
    exited = waitid(P_PID, static_cast<id_t>(helper), &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == helper;
    if (!exited) usleep(10'000);
  }
  EXPECT_TRUE(exited) << "the helper did not exit within 5 s of Finish";
  SpawnRequest req;
  req.argv = {TEST_CHILD_PATH};
  EXPECT_FALSE(spawner_->Run(req).ok());
  spawner_.reset();  // reaps it
  EXPECT_NE(kill(helper, 0), 0);
}

// The peak-RSS trap: Linux copies the parent's RSS high-water mark into a child at exec. This test
// process grows to 200 MB and then spawns a tiny child; its ru_maxrss must be its own (~1-3 MB),
// not ours. (Spawning /bin/true with posix_spawn from here would report ~205 MB.)
TEST_F(SpawnerTest, PeakRssIsTheChildsOwnEvenWhenTheParentIsLarge) {
  const size_t kBallast = 200u * 1024 * 1024;
  char* ballast = static_cast<char*>(std::malloc(kBallast));
  for (size_t i = 0; i < kBallast; i += 4096) ballast[i] = 1;
  // Control: spawned directly from this process, the same child inherits our high-water mark.
  // (If the kernel ever stops doing this, this line says so and the helper is no longer needed.)
  {
    pid_t pid = 0;
    char* argv[] = {const_cast<char*>(TEST_CHILD_PATH), const_cast<char*>("exit"), const_cast<char*>("0"), nullptr};
    ASSERT_EQ(posix_spawn(&pid, TEST_CHILD_PATH, nullptr, nullptr, argv, environ), 0);
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    EXPECT_GT(static_cast<double>(ru.ru_maxrss) * 1024, kBallast * 0.9)
        << "the kernel no longer copies the parent's RSS high-water mark at exec";
  }
  SpawnResult tiny = Run({"exit", "0"});
  ASSERT_TRUE(tiny.ok()) << tiny.Describe();
  EXPECT_LT(tiny.peak_rss_bytes, 16 * 1024 * 1024) << "parent's RSS leaked into the child figure";
  // A child of known size: 100 MiB touched, plus a small baseline.
  SpawnResult big = Run({"alloc", "100"});
  ASSERT_TRUE(big.ok()) << big.Describe();
  const double expected = 100.0 * 1024 * 1024;
  EXPECT_GT(big.peak_rss_bytes, expected * 0.98);
  EXPECT_LT(big.peak_rss_bytes, expected * 1.05);
  std::free(ballast);
}

// The helper runs each child with vfork, sharing its own pages until the child execs, and exec folds
// those into the child's ru_maxrss unless the child sheds them first (spawn_helper_main.cc, step 3).
// /bin/true's own peak (0.9-1.1 MiB, by sample) is below the helper's (~1.1-1.2 MiB): a fold would
// lift every figure to the helper's. Measured with the fork-only helper (TARE_SPAWN_FORK=1) and the
// default one, side by side: the default's smallest figures are /bin/true's smallest.
TEST_F(SpawnerTest, PeakRssOfAProgramSmallerThanTheHelperIsItsOwn) {
  auto rss = [&](Spawner& spawner, bool* all_known) {
    std::vector<int64_t> v;
    for (int i = 0; i < 25; ++i) {
      SpawnRequest req;
      req.argv = {"/bin/true"};
      auto r = spawner.Run(req);
      EXPECT_TRUE(r.ok() && r->ok());
      if (!r.ok()) break;
      if (r->peak_rss_floor_bytes > 0) *all_known = false;
      v.push_back(r->peak_rss_bytes);
    }
    std::sort(v.begin(), v.end());
    return v;
  };
  setenv("TARE_SPAWN_FORK", "1", 1);
  auto forking = Spawner::Start();
  unsetenv("TARE_SPAWN_FORK");
  ASSERT_TRUE(forking.ok()) << forking.status().message();
  bool known = true;
  const std::vector<int64_t> by_fork = rss(**forking, &known);
  const std::vector<int64_t> by_default = rss(*spawner_, &known);
  ASSERT_EQ(by_fork.size(), 25u);
  ASSERT_EQ(by_default.size(), 25u);
  EXPECT_TRUE(known) << "every /bin/true sample has a peak RSS";
  EXPECT_GT(by_fork.front(), 256 * 1024);
  EXPECT_LE(by_default.front(), by_fork[by_fork.size() / 2])
      << "smallest: " << by_default.front() << " bytes; fork's median: " << by_fork[by_fork.size() / 2];
  EXPECT_GE(by_default.front(), by_fork.front() * 9 / 10)
      << "smallest: " << by_default.front() << " bytes; fork's smallest: " << by_fork.front();
}

#ifdef TEST_TINY_PATH
// Below the pages the helper keeps at exec (~0.3-0.4 MiB) the figure could be the helper's: it is
// not given, and the result says below what.
TEST_F(SpawnerTest, APeakRssBelowTheHelpersOwnPagesIsNotGuessed) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizer build's helper forks (its copied pages set a floor of their own)";
#else
  SpawnRequest req;
  req.argv = {TEST_TINY_PATH};
  auto r = spawner_->Run(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_TRUE(r->ok()) << r->Describe();
  EXPECT_EQ(r->peak_rss_bytes, 0);
  EXPECT_GE(r->peak_rss_floor_bytes, 64 * 1024);
  EXPECT_LT(r->peak_rss_floor_bytes, 4 * 1024 * 1024);
  // A program above the floor still gets its own figure from the same helper: the first sample
  // sheds the helper's pages, the next ones need not (its peak is far above them) and are checked.
  for (int i = 0; i < 3; ++i) {
    SpawnResult big = Run({"alloc", "20"});
    ASSERT_TRUE(big.ok()) << big.Describe();
    EXPECT_EQ(big.peak_rss_floor_bytes, 0);
    EXPECT_GT(big.peak_rss_bytes, 20.0 * 1024 * 1024 * 0.98);
    EXPECT_LT(big.peak_rss_bytes, 20.0 * 1024 * 1024 + 8 * 1024 * 1024);
  }
#endif
}
#endif

// The helper runs on the CPU tare was on (spawner.h); every child gets tare's whole CPU set back.
TEST_F(SpawnerTest, TheChildGetsTaresCpuSetBackFromTheHelperBesideIt) {
  auto allowed = [](const std::string& status) {
    const size_t at = status.find("Cpus_allowed_list:");
    if (at == std::string::npos) return std::string();
    const size_t end = status.find('\n', at);
    std::string v = status.substr(at + 18, end - at - 18);
    v.erase(0, v.find_first_not_of(" \t"));
    return v;
  };
  const std::string ours = allowed(Slurp("/proc/self/status"));
  ASSERT_FALSE(ours.empty());
  SpawnRequest req;
  req.argv = {"/bin/cat", "/proc/self/status"};
  req.stdout_path = dir_ + "/status";
  auto r = spawner_->Run(req);
  ASSERT_TRUE(r.ok() && r->ok());
  EXPECT_EQ(allowed(Slurp(dir_ + "/status")), ours);
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  const std::string helper = allowed(Slurp("/proc/" + std::to_string(spawner_->helper_pid()) + "/status"));
  if (CPU_COUNT(&set) >= 2) {
    EXPECT_EQ(helper.find_first_of(",-"), std::string::npos) << "the helper runs on one CPU: " << helper;
  } else {
    EXPECT_EQ(helper, ours);
  }
}

TEST_F(SpawnerTest, ReportsExitStatusAndSignals) {
  SpawnResult r = Run({"exit", "3"});
  EXPECT_TRUE(r.started);
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.Describe(), "exit status 3");

  SpawnResult c = Run({"crash"});
  EXPECT_FALSE(c.exited);
  EXPECT_EQ(c.term_signal, SIGSEGV);
  EXPECT_NE(c.Describe().find("signal 11"), std::string::npos);
}

TEST_F(SpawnerTest, TimeoutKillsTheWholeProcessGroup) {
  auto t0 = std::chrono::steady_clock::now();
  SpawnResult r = Run({"family-sleep", "30"}, /*timeout_ns=*/300'000'000);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.term_signal, SIGKILL);
  EXPECT_LT(secs, 5.0);
  EXPECT_NE(r.Describe().find("timed out"), std::string::npos);
  // The grandchild was in the same group: nothing of ours may still be sleeping.
  usleep(100000);
  int found = std::system("pgrep -f 'proc_test_child family-slee[p] 30' >/dev/null");
  EXPECT_NE(WEXITSTATUS(found), 0) << "a grandchild survived the timeout";
}

// Issue 9 item 15: a grandchild that left the process group (setsid) survived the timeout kill.
// The helper is a child subreaper: orphans of the sample become its children, and it ends them.
TEST_F(SpawnerTest, TimeoutAlsoEndsDescendantsThatLeftTheProcessGroup) {
  SpawnResult r = Run({"escape-sleep", "31"}, /*timeout_ns=*/300'000'000);
  EXPECT_TRUE(r.timed_out);
  usleep(100000);
  int found = std::system("pgrep -f 'proc_test_child escape-slee[p] 31' >/dev/null");
  EXPECT_NE(WEXITSTATUS(found), 0) << "a grandchild in its own session survived the timeout";
  // And a sample that exits normally leaves no daemon behind either: the sample's own process is
  // reaped at once, its daemon (orphaned to the helper) is ended before the answer.
  SpawnResult quick = Run({"daemon-exit", "32"});
  EXPECT_TRUE(quick.ok()) << quick.Describe();
  int left = std::system("pgrep -f 'proc_test_child daemon-exi[t] 32' >/dev/null");
  EXPECT_NE(WEXITSTATUS(left), 0) << "a daemon the sample started outlived it";
  // The next sample, with nothing left over, is measured as usual.
  EXPECT_TRUE(Run({"exit", "0"}).ok());
}

TEST_F(SpawnerTest, CapturesOutputAndPassesEnvCwdAndResultFd) {
  SpawnResult p = Run({"print", "hello"});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(Slurp(dir_ + "/out"), "hello\n");
  EXPECT_EQ(Slurp(dir_ + "/err"), "err:hello\n");

  SpawnRequest req;
  req.argv = {TEST_CHILD_PATH, "env", "TARE_X"};
  req.env = {"TARE_X=42"};
  req.stdout_path = dir_ + "/env";
  ASSERT_TRUE(spawner_->Run(req).ok());
  EXPECT_EQ(Slurp(dir_ + "/env"), "42\n");

  req.argv = {TEST_CHILD_PATH, "pwd"};
  req.cwd = "/tmp";
  req.stdout_path = dir_ + "/pwd";
  ASSERT_TRUE(spawner_->Run(req).ok());
  EXPECT_EQ(Slurp(dir_ + "/pwd"), "/tmp\n");

  req.argv = {TEST_CHILD_PATH, "fdwrite", "7", "{\"x\":1}"};
  req.cwd = "";
  req.result_fd = 7;
  req.result_path = dir_ + "/result";
  auto r = spawner_->Run(req);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->ok()) << r->Describe();
  EXPECT_EQ(Slurp(dir_ + "/result"), "{\"x\":1}\n");
}

// The helper keeps output files open from one request to the next and empties them instead of
// re-creating them: a shorter second output must not show the end of the first, a file deleted in
// between (tare removes result files) is created afresh, and the byte counts match the files.
TEST_F(SpawnerTest, ReusedOutputFilesHoldOnlyTheLatestRequest) {
  SpawnResult first = Run({"print", "a-long-first-line"});
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first.stdout_bytes, 18);
  EXPECT_EQ(first.stderr_bytes, 22);
  SpawnResult second = Run({"print", "x"});
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(Slurp(dir_ + "/out"), "x\n");
  EXPECT_EQ(Slurp(dir_ + "/err"), "err:x\n");
  EXPECT_EQ(second.stdout_bytes, 2);
  SpawnResult quiet = Run({"exit", "0"});
  EXPECT_EQ(Slurp(dir_ + "/out"), "");
  EXPECT_EQ(quiet.stdout_bytes, 0);
  EXPECT_EQ(quiet.stderr_bytes, 0);
  ASSERT_EQ(std::remove((dir_ + "/out").c_str()), 0);
  SpawnResult again = Run({"print", "y"});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(Slurp(dir_ + "/out"), "y\n");

  SpawnRequest req;
  req.argv = {TEST_CHILD_PATH, "fdwrite", "7", "second"};
  req.result_fd = 7;
  req.result_path = dir_ + "/result";
  ASSERT_TRUE(spawner_->Run(req).ok());
  req.argv = {TEST_CHILD_PATH, "exit", "0"};
  ASSERT_TRUE(spawner_->Run(req).ok());
  EXPECT_EQ(Slurp(dir_ + "/result"), "") << "a result file must not outlive its request";
}

TEST_F(SpawnerTest, AnOutputFileThatCannotBeOpenedIsNamed) {
  SpawnRequest req;
  req.argv = {TEST_CHILD_PATH, "exit", "0"};
  req.stdout_path = dir_ + "/no-such-dir/out";
  auto r = spawner_->Run(req);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->started);
  EXPECT_NE(r->spawn_error.find("no-such-dir/out"), std::string::npos) << r->spawn_error;
  EXPECT_NE(r->spawn_error.find("stdout"), std::string::npos) << r->spawn_error;
  EXPECT_TRUE(Run({"exit", "0"}).ok());
}

TEST_F(SpawnerTest, ExecFailureIsAResultNotAnError) {
  SpawnRequest req;
  req.argv = {dir_ + "/no-such-program"};
  auto r = spawner_->Run(req);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->started);
  EXPECT_NE(r->spawn_error.find("No such file"), std::string::npos) << r->spawn_error;
  // The helper keeps working afterwards.
  EXPECT_TRUE(Run({"exit", "0"}).ok());
}

// Software events work on every Linux host we support; hardware events are either counted or
// carry a one-line reason (this project's CI VM has none). Never a silent blank.
TEST_F(SpawnerTest, PerfCountersAreReadOrExplained) {
  SpawnResult r = Run({"spin", "30"});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.perf.size(), DefaultPerfEvents().size());
  for (const auto& p : r.perf) {
    EXPECT_TRUE(p.value.has_value() != !p.unavailable.empty()) << p.event << ": " << p.unavailable;
    if (p.event == "task-clock" && p.value) {
      EXPECT_GT(*p.value, 29e6) << "task-clock should cover the 30 ms of CPU the child burned";
    }
    if (!p.value) {
      EXPECT_EQ(p.unavailable.find('\n'), std::string::npos);
      EXPECT_EQ(p.unavailable.rfind(p.event, 0), 0u) << "reason names the event: " << p.unavailable;
    }
  }
}

// Counters are opened per request and inherited by that child only: a second child's counts are
// its own, not a running total, and a child's CPU time shows in them.
TEST_F(SpawnerTest, PerfCountersCountEachChildOnItsOwn) {
  auto task_clock = [](const SpawnResult& r) -> double {
    for (const auto& p : r.perf) {
      if (p.event == "task-clock" && p.value) return *p.value;
    }
    return -1;
  };
  SpawnResult a = Run({"spin", "40"});
  SpawnResult b = Run({"spin", "40"});
  ASSERT_TRUE(a.ok() && b.ok());
  if (task_clock(a) < 0) GTEST_SKIP() << "task-clock cannot be opened on this host";
  EXPECT_GT(task_clock(b), 39e6);
  EXPECT_LT(task_clock(b), 70e6) << "the second child's task-clock includes the first one's";
  SpawnResult tiny = Run({"exit", "0"});
  ASSERT_TRUE(tiny.ok());
  EXPECT_LT(task_clock(tiny), 20e6);
}

TEST_F(SpawnerTest, InterruptStopsTheChild) {
  InstallInterruptHandler();
  pid_t self = getpid();
  std::thread([self] {
    usleep(300000);
    kill(self, SIGINT);
  }).detach();
  auto t0 = std::chrono::steady_clock::now();
  SpawnResult r = Run({"sleep", "30"});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.interrupted);
  EXPECT_TRUE(Interrupted());
  EXPECT_LT(secs, 5.0);
  ClearInterruptForTest();
  signal(SIGINT, SIG_DFL);
}

}  // namespace
}  // namespace tare::proc
