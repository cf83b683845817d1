#include "base/output_path.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace tare {
namespace {

namespace fs = std::filesystem;

class OutputPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "tare_output_path_" + std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ + "/store.db") << "x";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(OutputPathTest, AnEmptyPathOrANewFileInAnExistingDirectoryIsFine) {
  EXPECT_TRUE(CheckOutputPath("--json", "", {}).ok());
  EXPECT_TRUE(CheckOutputPath("--json", dir_ + "/out.json", {{dir_ + "/store.db", "the store"}}).ok());
}

TEST_F(OutputPathTest, ADirectoryIsRefusedWithAFileNameToGive) {
  Status s = CheckOutputPath("--json", dir_, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("is a directory; give a file name"), std::string::npos) << s.message();
}

TEST_F(OutputPathTest, AMissingDirectoryIsRefusedUnlessTareCreatesIt) {
  const std::string out = dir_ + "/missing/out.json";
  Status s = CheckOutputPath("--ledger", out, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("does not exist; create it first"), std::string::npos) << s.message();
  EXPECT_TRUE(CheckOutputPath("--ledger", out, {}, dir_ + "/missing").ok());
}

// The same file by another name: through a symlink, and through `..`.
TEST_F(OutputPathTest, AnOutputOnAKeptFileIsRefusedByAnyName) {
  fs::create_symlink(dir_ + "/store.db", dir_ + "/link.db");
  fs::create_directories(dir_ + "/sub");
  const std::vector<KeptFile> kept = {{dir_ + "/store.db", "the store"}};
  for (const std::string& alias : {dir_ + "/link.db", dir_ + "/sub/../store.db"}) {
    Status s = CheckOutputPath("-o", alias, kept);
    ASSERT_FALSE(s.ok()) << alias;
    EXPECT_NE(s.message().find("is the store"), std::string::npos) << s.message();
  }
  // A file that does not exist yet is compared by its resolved path.
  Status s = CheckOutputPath("-o", dir_ + "/sub/../new.json", {{dir_ + "/new.json", "the golden"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("is the golden"), std::string::npos) << s.message();
}

TEST_F(OutputPathTest, AnUnwritableDirectoryIsRefusedBeforeAnythingRuns) {
  if (geteuid() == 0) GTEST_SKIP() << "root may write any directory (access(2) says yes)";
  fs::create_directories(dir_ + "/ro");
  fs::permissions(dir_ + "/ro", fs::perms::owner_read | fs::perms::owner_exec);
  Status s = CheckOutputPath("--json", dir_ + "/ro/out.json", {});
  fs::permissions(dir_ + "/ro", fs::perms::owner_all);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot be written"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace tare
