#include "env/cgroup_limit.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "base/files.h"

namespace tare::env {
namespace {

// A throwaway host tree for cgroup layouts the snapshots do not cover.
class CgroupTree : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = MakeTempDir("tare-cgroup-test");
    ASSERT_TRUE(dir.ok()) << dir.status().ToString();
    root_ = *dir;
  }
  void TearDown() override { RemoveTree(root_); }
  void Write(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(root_ + path).parent_path());
    ASSERT_TRUE(WriteFileAtomic(root_ + path, text).ok());
  }
  std::string root_;
};

TEST_F(CgroupTree, V1InsideDockerUsesTheMountRoot) {
  // Docker without a cgroup namespace: the process's path is /docker/abc, and that directory is
  // itself what is mounted at /sys/fs/cgroup/cpu,cpuacct.
  Write("/proc/self/mountinfo",
        "30 25 0:26 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct\n"
        "31 25 0:27 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n");
  Write("/proc/self/cgroup", "5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n");
  Write("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "50000\n");
  Write("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  CgroupCpuLimit limit = ReadCgroupCpuLimit(DirectoryHost(root_));
  EXPECT_TRUE(limit.found);
  ASSERT_TRUE(limit.cpus.has_value());
  EXPECT_DOUBLE_EQ(*limit.cpus, 0.5);
  EXPECT_EQ(limit.setting, "cpu.cfs_quota_us 50000 / cpu.cfs_period_us 100000");
  EXPECT_EQ(limit.directory, "/sys/fs/cgroup/cpu,cpuacct");
}

TEST_F(CgroupTree, V1WithoutQuotaIsUnlimited) {
  Write("/proc/self/mountinfo", "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n");
  Write("/proc/self/cgroup", "1:cpu:/\n0::/\n");
  Write("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n");
  Write("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n");
  CgroupCpuLimit limit = ReadCgroupCpuLimit(DirectoryHost(root_));
  EXPECT_TRUE(limit.found);
  EXPECT_FALSE(limit.cpus.has_value());
}

TEST_F(CgroupTree, V2TightestAncestorWins) {
  Write("/proc/self/mountinfo", "35 24 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
  Write("/proc/self/cgroup", "0::/a/b/c\n");
  Write("/sys/fs/cgroup/a/cpu.max", "max 100000\n");
  Write("/sys/fs/cgroup/a/b/cpu.max", "200000 100000\n");
  Write("/sys/fs/cgroup/a/b/c/cpu.max", "300000 50000\n");  // 6 CPUs, looser than b's 2
  CgroupCpuLimit limit = ReadCgroupCpuLimit(DirectoryHost(root_));
  ASSERT_TRUE(limit.cpus.has_value());
  EXPECT_DOUBLE_EQ(*limit.cpus, 2.0);
  EXPECT_EQ(limit.setting, "cpu.max 200000 100000");
  EXPECT_EQ(limit.directory, "/sys/fs/cgroup/a/b");
}

TEST_F(CgroupTree, MountPointWithEscapedSpace) {
  Write("/proc/self/mountinfo", "35 24 0:30 / /mnt/my\\040cgroup rw - cgroup2 cgroup2 rw\n");
  Write("/proc/self/cgroup", "0::/x\n");
  Write("/mnt/my cgroup/x/cpu.max", "25000 100000\n");
  CgroupCpuLimit limit = ReadCgroupCpuLimit(DirectoryHost(root_));
  ASSERT_TRUE(limit.cpus.has_value());
  EXPECT_DOUBLE_EQ(*limit.cpus, 0.25);
}

// Found by tests/fuzz/cgroup_fuzz.cc (tests/fuzz/crashes/cgroup/): a quota of 0 ("-0") or below
// was reported as a limit of 0 (or fewer) CPUs. The kernel never holds such a quota; a level that
// shows one sets no limit.
TEST_F(CgroupTree, ZeroOrNegativeQuotaIsNoLimit) {
  Write("/proc/self/mountinfo", "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n");
  Write("/proc/self/cgroup", "1:cpu:/\n");
  Write("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-0\n");
  Write("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n");
  CgroupCpuLimit v1 = ReadCgroupCpuLimit(DirectoryHost(root_));
  EXPECT_TRUE(v1.found);
  EXPECT_FALSE(v1.cpus.has_value()) << *v1.cpus;

  Write("/proc/self/mountinfo", "35 24 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
  Write("/proc/self/cgroup", "0::/a\n");
  Write("/sys/fs/cgroup/a/cpu.max", "-50000 100000\n");
  CgroupCpuLimit v2 = ReadCgroupCpuLimit(DirectoryHost(root_));
  EXPECT_TRUE(v2.found);
  EXPECT_FALSE(v2.cpus.has_value()) << *v2.cpus;
}

TEST_F(CgroupTree, NothingReadableIsNotFound) {
  CgroupCpuLimit limit = ReadCgroupCpuLimit(DirectoryHost(root_));
  EXPECT_FALSE(limit.found);
  EXPECT_FALSE(limit.cpus.has_value());
}

TEST(CgroupSnapshotTest, HybridHostFallsBackToV1) {
  // This build VM: cgroup2 is mounted at /sys/fs/cgroup/unified without a cpu controller; cpu is
  // a v1 hierarchy with cfs_quota_us = -1.
  CgroupCpuLimit limit = ReadCgroupCpuLimit(DirectoryHost(std::string(TARE_ENV_TESTDATA) + "/hosts/firecracker-vm"));
  EXPECT_TRUE(limit.found);
  EXPECT_FALSE(limit.cpus.has_value());
}

}  // namespace
}  // namespace tare::env
