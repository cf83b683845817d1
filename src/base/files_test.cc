#include "base/files.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/stat.h>

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
  EXPECT_NE(r.status().message().find("'" + dir + "' is a directory"), std::string::npos)
      << r.status().message();
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
  for (const auto& d : {stale, live, other}) std::filesystem::create_directories(d + "/inside");
  auto made = MakeTempDir("tare-x");
  unsetenv("TMPDIR");
  ASSERT_TRUE(made.ok()) << made.status().message();
  EXPECT_EQ(made->rfind(root + "/tare-x-p" + std::to_string(getpid()) + "-", 0), 0u) << *made;
  EXPECT_FALSE(std::filesystem::exists(stale)) << "the dead process's directory stays";
  EXPECT_TRUE(std::filesystem::exists(live)) << "a live process's directory was removed";
  EXPECT_TRUE(std::filesystem::exists(other)) << "another prefix's directory was removed";
  std::filesystem::remove_all(root);
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
  std::thread reader([&] { got = ReadFile(fifo).value(); });
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
