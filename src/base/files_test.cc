#include "base/files.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

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

}  // namespace
}  // namespace tare
