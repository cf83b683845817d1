#include "env/cpuinfo.h"

#include <gtest/gtest.h>

#include "base/files.h"

namespace tare::env {
namespace {

std::string Testdata(const std::string& rel) {
  auto text = ReadFile(std::string(TARE_ENV_TESTDATA) + "/" + rel);
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.ok() ? *text : "";
}

TEST(CpuInfoTest, ParsesThisMachinesSnapshot) {
  // src/env/testdata/hosts/firecracker-vm is a copy of the build VM's /proc (snapshot_host.sh).
  CpuInfo info = ParseCpuInfo(Testdata("hosts/firecracker-vm/proc/cpuinfo"));
  EXPECT_EQ(info.vendor, "AuthenticAMD");
  EXPECT_EQ(info.model_name, "AMD EPYC");
  EXPECT_EQ(info.family, "25");
  EXPECT_EQ(info.model, "17");
  EXPECT_EQ(info.stepping, "1");
  EXPECT_EQ(info.microcode, "0x1000065");
  EXPECT_EQ(info.logical_cpus, 2);
  EXPECT_EQ(info.physical_cores, 2);
  EXPECT_EQ(info.packages, 1);
  ASSERT_FALSE(info.flags.empty());
  EXPECT_EQ(info.flags.front(), "fpu");
  EXPECT_EQ(info.flags.back(), "fsrm");
  EXPECT_NE(std::find(info.flags.begin(), info.flags.end(), "hypervisor"), info.flags.end());
}

TEST(CpuInfoTest, CountsCoresNotThreadsWhenSmtIsOn) {
  // 8 logical CPUs on 4 cores: core ids 0-3 each appear twice.
  CpuInfo info = ParseCpuInfo(Testdata("hosts/baremetal-turbo/proc/cpuinfo"));
  EXPECT_EQ(info.logical_cpus, 8);
  EXPECT_EQ(info.physical_cores, 4);
  EXPECT_EQ(info.model_name, "Intel(R) Core(TM) i7-10700 CPU @ 2.90GHz");
}

TEST(CpuInfoTest, ArmStyleCpuinfoLeavesX86FieldsEmpty) {
  CpuInfo info = ParseCpuInfo(
      "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm\nCPU implementer\t: 0x41\n\n"
      "processor\t: 1\nBogoMIPS\t: 50.00\n\n");
  EXPECT_EQ(info.logical_cpus, 2);
  EXPECT_EQ(info.physical_cores, 0);
  EXPECT_EQ(info.model_name, "");
  EXPECT_TRUE(info.flags.empty());
}

TEST(CpuInfoTest, EmptyInputIsNoCpus) {
  CpuInfo info = ParseCpuInfo("");
  EXPECT_EQ(info.logical_cpus, 0);
  EXPECT_EQ(info.vendor, "");
}

TEST(CpuListTest, ParsesKernelCpuLists) {
  EXPECT_EQ(ParseCpuList("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(ParseCpuList("0"), (std::vector<int>{0}));
  EXPECT_EQ(ParseCpuList("\n"), (std::vector<int>{}));
  EXPECT_EQ(ParseCpuList("(null)\n"), (std::vector<int>{}));
  // isolcpus= flags are words, not CPUs.
  EXPECT_EQ(ParseCpuList("managed_irq,domain,2-3"), (std::vector<int>{2, 3}));
  EXPECT_EQ(ParseCpuList("3-1,x-2,5"), (std::vector<int>{5}));
  EXPECT_EQ(ParseCpuList("0-999999999"), (std::vector<int>{}));
}

TEST(CpuListTest, FormatsCompactly) {
  EXPECT_EQ(FormatCpuList({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(FormatCpuList({5}), "5");
  EXPECT_EQ(FormatCpuList({}), "");
  EXPECT_EQ(FormatCpuList(ParseCpuList("0-63")), "0-63");
}

}  // namespace
}  // namespace tare::env
