// The fingerprint of the machine running the test, checked against independent readings of the
// same facts (uname, sysconf, sched_getaffinity, /proc/self/maps). Holds on any Linux host.
#include <gnu/libc-version.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "base/files.h"
#include "base/sha256.h"
#include "env/executable_info.h"
#include "env/host_fingerprint.h"
#include "env/fingerprint_json.h"

namespace tare::env {
namespace {

// The path of the first mapping in /proc/self/maps whose file name satisfies `match`. The kernel
// prints the file it actually mapped, symlinks already resolved.
std::string MappedFile(bool (*match)(const std::string&)) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    size_t slash = line.find('/');
    if (slash == std::string::npos) continue;
    std::string path = line.substr(slash);
    std::string base = path.substr(path.rfind('/') + 1);
    if (match(base)) return path;
  }
  return "";
}

class RealHostTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { fp_ = new Fingerprint(CollectFingerprint({})); }
  static void TearDownTestSuite() { delete fp_; }
  static Fingerprint* fp_;
};
Fingerprint* RealHostTest::fp_ = nullptr;

TEST_F(RealHostTest, CpuCountsMatchTheKernel) {
  int logical = std::stoi(fp_->Get("cpu.logical"));
  EXPECT_GE(logical, 1);
  EXPECT_EQ(logical, sysconf(_SC_NPROCESSORS_ONLN));
  if (fp_->Get("cpu.cores") != "unknown") {
    int cores = std::stoi(fp_->Get("cpu.cores"));
    EXPECT_GE(cores, 1);
    EXPECT_LE(cores, logical);
  }
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(static_cast<int>(ParseCpuList(fp_->Get("cpu.allowed")).size()), CPU_COUNT(&set));
}

TEST_F(RealHostTest, KernelReleaseIsUname) {
  struct utsname u;
  ASSERT_EQ(uname(&u), 0);
  EXPECT_EQ(fp_->Get("os.kernel"), u.release);
  EXPECT_EQ(fp_->Get("os.kernel"), ReadFirstLine("/proc/sys/kernel/osrelease").value_or("?"));
}

TEST_F(RealHostTest, LibcIsTheFileActuallyMapped) {
  EXPECT_EQ(fp_->Get("libc.version"), gnu_get_libc_version());
  std::string mapped =
      MappedFile([](const std::string& base) { return base.rfind("libc.so", 0) == 0 || base.rfind("libc-", 0) == 0; });
  ASSERT_FALSE(mapped.empty()) << "no libc in /proc/self/maps";
  EXPECT_EQ(fp_->Get("libc.path"), mapped);
  auto sha = Sha256File(mapped);
  ASSERT_TRUE(sha.ok());
  EXPECT_EQ(fp_->Get("libc.sha256"), *sha);
}

TEST_F(RealHostTest, LoaderIsThisProgramsInterpreter) {
  // Independent route: PT_INTERP of our own executable, resolved, and also mapped.
  auto self = DescribeExecutable("/proc/self/exe");
  ASSERT_TRUE(self.ok()) << self.status().ToString();
  ASSERT_FALSE(self->interpreter.empty());
  std::string resolved = std::filesystem::canonical(self->interpreter).string();
  EXPECT_EQ(fp_->Get("loader.path"), resolved);
  auto sha = Sha256File(resolved);
  ASSERT_TRUE(sha.ok());
  EXPECT_EQ(fp_->Get("loader.sha256"), *sha);
  EXPECT_NE(fp_->Get("loader.sha256"), fp_->Get("libc.sha256"));
}

TEST_F(RealHostTest, SysctlsAndMemory) {
  EXPECT_EQ(fp_->Get("os.aslr"), ReadFirstLine("/proc/sys/kernel/randomize_va_space").value_or("unknown"));
  EXPECT_EQ(fp_->Get("os.perf_event_paranoid"),
            ReadFirstLine("/proc/sys/kernel/perf_event_paranoid").value_or("unknown"));
  uint64_t total = std::stoull(fp_->Get("mem.total_bytes"));
  uint64_t available = std::stoull(fp_->Get("mem.available_bytes"));
  uint64_t pages = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(total, pages) << "MemTotal and sysconf disagree";
  EXPECT_LE(available, total);
  EXPECT_TRUE(std::regex_match(fp_->Get("os.loadavg"), std::regex(R"(\d+\.\d\d \d+\.\d\d \d+\.\d\d)")))
      << fp_->Get("os.loadavg");
}

TEST_F(RealHostTest, HypervisorAgreesWithCpuinfo) {
  std::string cpuinfo = ReadFile("/proc/cpuinfo").value();
  bool flag = std::regex_search(cpuinfo, std::regex(R"(\bflags\s*:.*\bhypervisor\b)"));
  if (flag) {
    EXPECT_NE(fp_->Get("host.hypervisor"), "none");
  }
  if (!flag && cpuinfo.find("flags") != std::string::npos && !std::filesystem::exists("/sys/hypervisor/type")) {
    EXPECT_EQ(fp_->Get("host.hypervisor"), "none");
  }
}

TEST_F(RealHostTest, EveryKeyHasAValueAndEveryCheckAFinding) {
  EXPECT_EQ(fp_->keys.size(), FingerprintKeySpecs().size() - 1);  // all but valgrind.version
  for (const auto& k : fp_->keys) EXPECT_FALSE(k.value.empty()) << k.key;
  EXPECT_EQ(fp_->checks.size(), 10u);
  for (const auto& c : fp_->checks) EXPECT_FALSE(c.finding.empty()) << c.name;
}

TEST(RealHostEnvTest, OnlyTheAllocatorsVariablesAreRecorded) {
  setenv("TARE_TEST_SECRET_TOKEN", "s3cr3t-b4a7e1-never-in-output", 1);
  setenv("MALLOC_ARENA_MAX", "3", 1);
  Fingerprint fp = CollectFingerprint({});
  std::string json = FingerprintToJson(fp).dump();
  unsetenv("TARE_TEST_SECRET_TOKEN");
  unsetenv("MALLOC_ARENA_MAX");
  EXPECT_EQ(json.find("s3cr3t-b4a7e1"), std::string::npos);
  EXPECT_EQ(json.find("TARE_TEST_SECRET_TOKEN"), std::string::npos);
  EXPECT_NE(fp.Get("env.allocator").find("MALLOC_ARENA_MAX=3"), std::string::npos) << fp.Get("env.allocator");
}

TEST(RealHostEnvTest, FingerprintingIsFastAndSpawnsNothing) {
  // A fake `valgrind` first on PATH records every start; without --sim it must never run.
  auto dir = MakeTempDir("tare-env-test");
  ASSERT_TRUE(dir.ok());
  std::string marker = *dir + "/started";
  ASSERT_TRUE(
      WriteFileAtomic(*dir + "/valgrind", "#!/bin/sh\necho started >> " + marker + "\necho valgrind-9.9.9-fake\n")
          .ok());
  std::filesystem::permissions(*dir + "/valgrind", std::filesystem::perms::owner_all);
  std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
  setenv("PATH", (*dir + ":" + old_path).c_str(), 1);

  auto start = std::chrono::steady_clock::now();
  Fingerprint fp = CollectFingerprint({});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(std::filesystem::exists(marker)) << "fingerprinting spawned valgrind without --sim";
  // Typically a few milliseconds (most of it hashing libc); 1 s leaves room for a loaded CI box.
  EXPECT_LT(seconds, 1.0);

  Fingerprint sim = CollectFingerprint({.probe_valgrind = true});
  setenv("PATH", old_path.c_str(), 1);
  EXPECT_TRUE(std::filesystem::exists(marker));
  EXPECT_EQ(sim.Get("valgrind.version"), "valgrind-9.9.9-fake");
  RemoveTree(*dir);
}

TEST(RealHostEnvTest, RealValgrindVersion) {
  if (!ResolveExecutable("valgrind").ok()) GTEST_SKIP() << "valgrind is not installed";
  Fingerprint fp = CollectFingerprint({.probe_valgrind = true});
  EXPECT_TRUE(std::regex_match(fp.Get("valgrind.version"), std::regex(R"(valgrind-\d+\.\d+.*)")))
      << fp.Get("valgrind.version");
}

TEST(RealHostEnvTest, MissingValgrindIsDataNotACrash) {
  std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
  setenv("PATH", "/nonexistent-tare-dir", 1);
  Fingerprint fp = CollectFingerprint({.probe_valgrind = true});
  setenv("PATH", old_path.c_str(), 1);
  EXPECT_EQ(fp.Get("valgrind.version"), "not found");
}

}  // namespace
}  // namespace tare::env
