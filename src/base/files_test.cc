#include "base/files.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace tare {
namespace {

// Regression (issue 9, item 16): a directory read as an empty file, so a directory given as the
// campaign file or golden got a message about empty content instead of saying what it is.
TEST(Files, ReadingADirectorySaysItIsADirectory) {
  const std::string dir = ::testing::TempDir() + "tare_files_test_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  auto r = ReadFile(dir);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("'" + dir + "' is a directory"), std::string::npos) << r.status().message();
  std::filesystem::remove_all(dir);
}

// Issue 9 item 15: a work directory per crash or SIGKILL was never cleaned.
TEST(Files, TempDirsOfDeadProcessesAreRemovedByTheNextOne) {
  const std::string root = ::testing::TempDir() + "tare_tmpdirs_" + std::to_string(getpid());
  std::filesystem::create_directories(root);
  setenv("TMPDIR", root.c_str(), 1);
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  waitpid(dead, nullptr, 0);  // reaped: the pid names no process now
  const std::string stale = root + "/tare-x-p" + std::to_string(dead) + "-AbCdEf";
  const std::string live = root + "/tare-x-p" + std::to_string(getpid()) + "-GhIjKl";
  const std::string other = root + "/tare-y-p" + std::to_string(dead) + "-MnOpQr";
  for (const auto& d : {stale, live, other}) {
    std::filesystem::create_directories(d + "/inside");
    std::ofstream(d + "/" + kOwnerLockFile) << "";  // nobody holds it
  }
  // live's owner holds its lock (this process, through a descriptor of its own).
  const int held = open((live + "/" + kOwnerLockFile).c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(held, 0);
  ASSERT_EQ(flock(held, LOCK_EX | LOCK_NB), 0);
  auto made = MakeTempDir("tare-x");
  close(held);
  unsetenv("TMPDIR");
  ASSERT_TRUE(made.ok()) << made.status().message();
  // The pid zero-padded to 7 digits (every pid Linux gives, up to 4,194,304): the name's length,
  // and the environment of every child told a path in it, do not change with the pid's digits.
  EXPECT_EQ(made->rfind(root + "/tare-x-p" + fmt::format("{:07}", getpid()) + "-", 0), 0u) << *made;
  EXPECT_EQ(made->size(), root.size() + std::string("/tare-x-p0000000-XXXXXX").size()) << *made;
  EXPECT_FALSE(std::filesystem::exists(stale)) << "the dead process's directory stays";
  EXPECT_TRUE(std::filesystem::exists(live)) << "a live process's directory was removed";
  EXPECT_TRUE(std::filesystem::exists(other)) << "another prefix's directory was removed";
  EXPECT_TRUE(std::filesystem::exists(*made + "/" + kOwnerLockFile));
  RemoveTree(*made);
  std::filesystem::remove_all(root);
}

// Issue 27, item 7: the reaper judged liveness with kill(pid, 0), so a tare in another PID
// namespace sharing TMPDIR (a container) lost its work directory mid-run: its pid named no process
// here. The owner's lock is what counts: a directory whose recorded pid is dead here but whose lock
// is held by a live process (another one, forked here to hold it) survives; one made by
// MakeTempDir in a process that then died (its lock released by the kernel) is reaped; one without
// a lock file is left alone while it is young (a tare between mkdtemp and its lock).
TEST(Files, AWorkDirectoryIsJudgedByItsOwnersLockNotItsPid) {
  const std::string root = ::testing::TempDir() + "tare_tmplocks_" + std::to_string(getpid());
  std::filesystem::create_directories(root);
  setenv("TMPDIR", root.c_str(), 1);
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  waitpid(dead, nullptr, 0);
  // "Another namespace": a recorded pid that names no process here, its owner alive and locking.
  const std::string foreign = root + "/tare-z-p" + std::to_string(dead) + "-FoReiG";
  std::filesystem::create_directories(foreign);
  std::ofstream(foreign + "/" + kOwnerLockFile) << "";
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t owner = fork();
  if (owner == 0) {
    const int fd = open((foreign + "/" + kOwnerLockFile).c_str(), O_RDONLY);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) _exit(1);
    (void)!write(ready[1], "x", 1);
    pause();
    _exit(0);
  }
  // A failed ASSERT below returns early: the paused owner would keep ctest's output pipe open, and
  // ctest would wait for its timeout instead of reporting the failure.
  struct KillOnExit {
    pid_t pid;
    ~KillOnExit() {
      if (pid > 0 && kill(pid, SIGKILL) == 0) waitpid(pid, nullptr, 0);
    }
  } owner_guard{owner};
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  // A directory of a tare that died: made by MakeTempDir in a child that exited without cleaning.
  pid_t crashed = fork();
  if (crashed == 0) {
    auto d = MakeTempDir("tare-z");
    _exit(d.ok() ? 0 : 1);
  }
  int status = 0;
  waitpid(crashed, &status, 0);
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const std::string crashed_dir_prefix = fmt::format("tare-z-p{:07}-", crashed);
  auto crashed_dirs = [&] {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(root))
      n += e.path().filename().string().rfind(crashed_dir_prefix, 0) == 0;
    return n;
  };
  ASSERT_EQ(crashed_dirs(), 1);
  const std::string young = root + "/tare-z-p" + std::to_string(dead) + "-YoUnG0";  // no lock file yet
  std::filesystem::create_directories(young);

  auto made = MakeTempDir("tare-z");
  ASSERT_TRUE(made.ok()) << made.status().message();
  EXPECT_TRUE(std::filesystem::exists(foreign)) << "a live owner's directory was removed (its pid is foreign)";
  EXPECT_EQ(crashed_dirs(), 0) << "the dead owner's directory stays";
  EXPECT_TRUE(std::filesystem::exists(young)) << "a directory without its lock yet was removed";
  // The lock of the one just made is held by this process: another reaper leaves it.
  pid_t second = fork();
  if (second == 0) {
    auto d = MakeTempDir("tare-z");
    _exit(d.ok() && std::filesystem::exists(*made) ? 0 : 1);
  }
  waitpid(second, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "a second tare removed this one's live directory";
  kill(owner, SIGKILL);
  waitpid(owner, nullptr, 0);
  owner_guard.pid = -1;
  // The owner is gone: its lock with it, and the next tare reaps the directory.
  auto again = MakeTempDir("tare-z");
  unsetenv("TMPDIR");
  EXPECT_FALSE(std::filesystem::exists(foreign)) << "a dead owner's directory stays";
  RemoveTree(*made);
  if (again.ok()) RemoveTree(*again);
  std::filesystem::remove_all(root);
}

// The lock is taken before the lock file has its name: with create-then-lock, a reaper could take
// the lock of a directory made an instant before and remove it (8 concurrent `tare run`s lost
// theirs in postgres_e2e). Many processes making and checking directories at once keep every one.
TEST(Files, ConcurrentTaresNeverReapEachOthersWorkDirectories) {
  const std::string root = ::testing::TempDir() + "tare_tmprace_" + std::to_string(getpid());
  std::filesystem::create_directories(root);
  setenv("TMPDIR", root.c_str(), 1);
  std::vector<pid_t> children;
  for (int c = 0; c < 8; ++c) {
    pid_t pid = fork();
    if (pid == 0) {
      for (int i = 0; i < 200; ++i) {
        auto d = MakeTempDir("tare-race");
        if (!d.ok()) _exit(2);
        usleep(200);
        if (!std::filesystem::exists(*d + "/" + kOwnerLockFile)) _exit(1);
        RemoveTree(*d);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a live work directory was reaped";
  }
  unsetenv("TMPDIR");
  std::filesystem::remove_all(root);
}

// Issue 27, item 11: a FIFO given as an input hung tare (the open waits for a writer), a device was
// read without end (`import /dev/zero` grew to 2.1 GB). Both are refused by name, at once; a
// regular file above the limit is refused naming the limit. The nodes are made in the test's own
// directory (mkfifo; mknod of a character device where this process may).
TEST(Files, InputsThatAreNotRegularFilesOrTooLargeAreRefusedAtOnce) {
  const std::string dir = ::testing::TempDir() + "tare_inputs_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto r = ReadFile(fifo);  // would block forever before
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("'" + fifo + "' is a FIFO (named pipe), not a regular file"), std::string::npos)
      << r.status().message();
  EXPECT_FALSE(CheckInputFile(fifo).ok());
  std::filesystem::create_symlink(fifo, dir + "/link");
  EXPECT_NE(ReadFile(dir + "/link").status().message().find("is a FIFO"), std::string::npos);
  EXPECT_NE(CheckInputFile(dir + "/missing").message().find("does not exist"), std::string::npos);
  const std::string zero = dir + "/zero";
  if (mknod(zero.c_str(), S_IFCHR | 0600, makedev(1, 5)) == 0) {  // /dev/zero's numbers
    auto z = ReadFile(zero);
    ASSERT_FALSE(z.ok());
    EXPECT_NE(z.status().message().find("is a character device"), std::string::npos) << z.status().message();
  }
  const std::string big = dir + "/big";
  std::ofstream(big) << std::string(1000, 'x');
  auto b = ReadFile(big, 999);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("larger than 999 bytes, the most tare reads of one input file"),
            std::string::npos)
      << b.status().message();
  EXPECT_EQ(ReadFile(big, 1000)->size(), 1000u);
  std::filesystem::remove_all(dir);
}

TEST(Files, WritesAndReadsBack) {
  const std::string path = ::testing::TempDir() + "tare_files_test_" + std::to_string(getpid()) + ".txt";
  ASSERT_TRUE(WriteFileAtomic(path, std::string("a\0\377b", 4)).ok());
  auto r = ReadFile(path);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, std::string("a\0\377b", 4));
  std::filesystem::remove(path);
}

// Issue 27 items 1 and 3: an output flag never replaces what is not a regular file, and its
// temporary file is not at a name someone could plant a link at.
class FileWrites : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "tare_file_writes_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(FileWrites, AFifoIsWrittenInPlaceAndStaysAFifo) {
  const std::string fifo = dir_ + "/out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] {  // ReadFile refuses a FIFO (item 11): read it as a shell's `cat` would
    const int fd = open(fifo.c_str(), O_RDONLY);
    char buf[256];
    for (ssize_t n; fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<size_t>(n));
    if (fd >= 0) close(fd);
  });
  ASSERT_TRUE(WriteFileAtomic(fifo, "through the pipe\n").ok());
  reader.join();
  EXPECT_EQ(got, "through the pipe\n");
  EXPECT_TRUE(std::filesystem::is_fifo(fifo)) << "replaced by a regular file";
}

TEST_F(FileWrites, ADeviceIsWrittenInPlace) {
  // /dev/null is a character device; a rename over it (as root) would destroy the system's.
  ASSERT_TRUE(WriteFileAtomic("/dev/null", "nothing").ok());
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  for (const auto& e : std::filesystem::directory_iterator("/dev")) {
    EXPECT_NE(e.path().filename().string().rfind("null.tmp.", 0), 0u) << "a temporary file beside it: " << e.path();
  }
}

TEST_F(FileWrites, ALinkIsFollowedAndKept) {
  const std::string target = dir_ + "/target.md";
  const std::string link = dir_ + "/ledger.md";
  { std::ofstream(target) << "old"; }
  std::filesystem::create_symlink(target, link);
  ASSERT_TRUE(WriteFileAtomic(link, "new").ok());
  EXPECT_TRUE(std::filesystem::is_symlink(link)) << "the link was replaced by a file";
  EXPECT_EQ(ReadFile(target).value(), "new");
}

TEST_F(FileWrites, TheStreamsAreTaresOwn) {
  testing::internal::CaptureStdout();
  ASSERT_TRUE(WriteFileAtomic("-", "to stdout\n").ok());
  ASSERT_TRUE(WriteFileAtomic("/dev/stdout", "again\n").ok());
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "to stdout\nagain\n");
  testing::internal::CaptureStderr();
  ASSERT_TRUE(WriteFileAtomic("/dev/stderr", "to stderr\n").ok());
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "to stderr\n");
}

TEST_F(FileWrites, APlantedLinkAtTheOldTemporaryNameIsNotFollowed) {
  const std::string victim = dir_ + "/victim";
  { std::ofstream(victim) << "keep me"; }
  const std::string out = dir_ + "/report.json";
  // The name the old code used: PATH.tmp.<pid>.
  std::filesystem::create_symlink(victim, out + ".tmp." + std::to_string(getpid()));
  ASSERT_TRUE(WriteFileAtomic(out, "{}").ok());
  EXPECT_EQ(ReadFile(victim).value(), "keep me");
  EXPECT_EQ(ReadFile(out).value(), "{}");
  EXPECT_TRUE(std::filesystem::is_regular_file(out));
}

TEST_F(FileWrites, ModesAreKeptOrTheUmasks) {
  const std::string fresh = dir_ + "/fresh.txt";
  const mode_t mask = ::umask(022);
  ASSERT_TRUE(WriteFileAtomic(fresh, "x").ok());
  ::umask(mask);
  struct stat st {};
  ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u) << "mkstemp's 0600 would hide a report from the team";
  ASSERT_EQ(::chmod(fresh.c_str(), 0640), 0);
  ASSERT_TRUE(WriteFileAtomic(fresh, "y").ok());
  ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u) << "an existing file keeps its mode";
  auto dir = WriteFileAtomic(dir_, "x");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.message().find("is a directory"), std::string::npos) << dir.message();
}

}  // namespace
}  // namespace tare
