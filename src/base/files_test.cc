#include "base/files.h"

#include <gtest/gtest.h>
#include <unistd.h>

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
