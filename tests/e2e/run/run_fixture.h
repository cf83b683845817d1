// The fixture of `tare run`'s end-to-end suites: a fresh directory per test with the store in it,
// the real binary (TARE_BIN) run there, and the latest run read back from the SQLite file.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../tare_process.h"
#include "store/store.h"

namespace tare::e2e {

class RunFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = ::testing::TempDir() + "tare_e2e_" + std::to_string(getpid()) + "_" + info->test_suite_name() + "_" +
           info->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    // A store is created only in a directory that exists (store.h): the test's, made here.
    std::filesystem::create_directories(dir_ + "/store");
    store_ = dir_ + "/store/tare.db";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs tare with argv (no shell), capturing stdout and stderr.
  Result Tare(std::vector<std::string> args) {
    pid_t pid = StartTare(std::move(args));
    int status = 0;
    waitpid(pid, &status, 0);
    return Collect(status);
  }
  pid_t StartTare(std::vector<std::string> args) { return tare::e2e::StartTare(TARE_BIN, dir_, std::move(args)); }
  Result Collect(int status) { return tare::e2e::CollectTare(dir_, status); }

  tare::RunData LoadLatest() {
    auto store = tare::store::Store::Open(store_);
    EXPECT_TRUE(store.ok()) << store.status().message();
    auto id = (*store)->ResolveRun("latest");
    EXPECT_TRUE(id.ok()) << id.status().message();
    auto data = (*store)->LoadRun(*id);
    EXPECT_TRUE(data.ok());
    return *data;
  }

  std::string dir_;
  std::string store_;
};

}  // namespace tare::e2e
