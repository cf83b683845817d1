#include "env/stability_checks.h"

#include <gtest/gtest.h>

#include "env/host_fingerprint.h"

namespace tare::env {
namespace {

HostFacts Facts(const std::string& machine, bool valgrind = false) {
  return ReadHostFacts(DirectoryHost(std::string(TARE_ENV_TESTDATA) + "/hosts/" + machine),
                       {.probe_valgrind = valgrind});
}

const StabilityCheck& Get(const std::vector<StabilityCheck>& checks, const std::string& name) {
  for (const auto& c : checks) {
    if (c.name == name) return c;
  }
  static StabilityCheck missing{"missing", CheckLevel::kOk, "no such check", ""};
  ADD_FAILURE() << "no check named " << name;
  return missing;
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(StabilityChecksTest, TunedBareMetalPassesEveryCheck) {
  auto checks = RunStabilityChecks(Facts("baremetal-tuned", true));
  std::vector<std::string> names;
  for (const auto& c : checks) {
    names.push_back(c.name);
    EXPECT_EQ(c.level, CheckLevel::kOk) << c.name << ": " << c.finding;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"governor", "turbo", "aslr", "load", "virtualized", "cpus",
                                             "perf_event_paranoid", "cgroup", "isolation", "smt", "valgrind"}));
  EXPECT_EQ(Get(checks, "isolation").finding, "CPUs 2-3 are isolated from the scheduler, nohz_full 2-3");
  EXPECT_EQ(Get(checks, "isolation").fix, "pin runs there: taskset -c 2-3 tare ...");
  EXPECT_EQ(Get(checks, "governor").finding, "scaling_governor is 'performance' on all 8 CPUs");
  EXPECT_TRUE(Has(Get(checks, "turbo").finding, "intel_pstate/no_turbo = 1"));
}

TEST(StabilityChecksTest, BusyTurboDesktopWarnsWithFixes) {
  auto checks = RunStabilityChecks(Facts("baremetal-turbo"));
  const auto& governor = Get(checks, "governor");
  EXPECT_EQ(governor.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(governor.finding, "'powersave' on 8 of 8 CPUs")) << governor.finding;
  EXPECT_EQ(governor.fix.rfind("sudo cpupower frequency-set -g performance", 0), 0u);

  const auto& turbo = Get(checks, "turbo");
  EXPECT_EQ(turbo.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(turbo.finding, "intel_pstate/no_turbo = 0"));
  EXPECT_TRUE(Has(turbo.fix, "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"));

  const auto& aslr = Get(checks, "aslr");
  EXPECT_EQ(aslr.level, CheckLevel::kInfo);
  EXPECT_TRUE(Has(aslr.finding, "tare turns it off per child for --instrument sim"));
  EXPECT_TRUE(Has(aslr.fix, "setarch -R"));
  EXPECT_TRUE(Has(aslr.fix, "sudo sysctl kernel.randomize_va_space=0"));

  const auto& load = Get(checks, "load");
  EXPECT_EQ(load.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(load.finding, "1-minute load average 3.10 is above 0.8 (0.1 x 8 CPUs)")) << load.finding;
  EXPECT_TRUE(Has(load.finding, "running now: cc1plus (pid 4242), my (odd) app (pid 777)")) << load.finding;

  EXPECT_EQ(Get(checks, "virtualized").level, CheckLevel::kOk);
  EXPECT_EQ(Get(checks, "cpus").level, CheckLevel::kOk);

  const auto& paranoid = Get(checks, "perf_event_paranoid");
  EXPECT_EQ(paranoid.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(paranoid.finding, "perf_event_paranoid = 2"));
  EXPECT_TRUE(Has(paranoid.fix, "sudo sysctl kernel.perf_event_paranoid=1"));
  EXPECT_TRUE(Has(paranoid.fix, "CAP_PERFMON"));

  EXPECT_EQ(Get(checks, "isolation").level, CheckLevel::kInfo);
  EXPECT_TRUE(Has(Get(checks, "isolation").fix, "isolcpus="));
  EXPECT_EQ(Get(checks, "smt").level, CheckLevel::kInfo);
}

TEST(StabilityChecksTest, XenContainerWarnsAboutVmBoostAndQuota) {
  auto checks = RunStabilityChecks(Facts("amd-boost-container", true));
  const auto& governor = Get(checks, "governor");
  EXPECT_EQ(governor.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(governor.finding, "'schedutil' on 2 of 4 CPUs")) << governor.finding;

  const auto& turbo = Get(checks, "turbo");
  EXPECT_EQ(turbo.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(turbo.finding, "cpufreq/boost = 1"));
  EXPECT_TRUE(Has(turbo.fix, "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost"));

  const auto& vm = Get(checks, "virtualized");
  EXPECT_EQ(vm.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(vm.finding, "the cpuinfo 'hypervisor' flag, /sys/hypervisor/type 'xen', product 'HVM domU'"))
      << vm.finding;
  EXPECT_TRUE(Has(vm.fix, "--instrument sim"));

  const auto& cgroup = Get(checks, "cgroup");
  EXPECT_EQ(cgroup.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(cgroup.finding, "1.5 CPUs (cpu.max 150000 100000 in /sys/fs/cgroup/system.slice)")) << cgroup.finding;

  const auto& paranoid = Get(checks, "perf_event_paranoid");
  EXPECT_TRUE(Has(paranoid.finding, "refused to unprivileged users"));

  EXPECT_EQ(Get(checks, "cpus").level, CheckLevel::kOk);  // exactly 4
  EXPECT_EQ(Get(checks, "load").level, CheckLevel::kOk);  // 0.10 <= 0.4
  EXPECT_EQ(Get(checks, "valgrind").level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(Get(checks, "valgrind").fix, "apt-get install -y valgrind"));
}

TEST(StabilityChecksTest, ThisMachinesSnapshot) {
  auto checks = RunStabilityChecks(Facts("firecracker-vm"));
  EXPECT_EQ(Get(checks, "governor").level, CheckLevel::kInfo);  // no cpufreq: nothing to set
  EXPECT_EQ(Get(checks, "turbo").level, CheckLevel::kInfo);
  EXPECT_EQ(Get(checks, "virtualized").level, CheckLevel::kWarn);
  const auto& cpus = Get(checks, "cpus");
  EXPECT_EQ(cpus.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(cpus.finding, "only 2 CPUs usable")) << cpus.finding;
  // 0.28 > 0.2 with nothing else runnable in the snapshot.
  const auto& load = Get(checks, "load");
  EXPECT_EQ(load.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(load.finding, "nothing else is running at this instant")) << load.finding;
  EXPECT_EQ(Get(checks, "cgroup").level, CheckLevel::kOk);
  EXPECT_EQ(Get(checks, "smt").level, CheckLevel::kOk);
}

TEST(StabilityChecksTest, EveryWarningCarriesAFix) {
  for (const char* machine : {"firecracker-vm", "baremetal-tuned", "baremetal-turbo", "amd-boost-container"}) {
    for (const auto& c : RunStabilityChecks(Facts(machine, true))) {
      EXPECT_FALSE(c.finding.empty()) << machine << " " << c.name;
      if (c.level == CheckLevel::kWarn) {
        EXPECT_FALSE(c.fix.empty()) << machine << " " << c.name;
      }
    }
  }
}

TEST(StabilityChecksTest, Thresholds) {
  HostFacts f;
  f.logical_cpus = 8;
  f.load1 = 0.8;  // exactly 0.1 x 8: not above
  f.load5 = f.load15 = 0;
  EXPECT_EQ(Get(RunStabilityChecks(f), "load").level, CheckLevel::kOk);
  f.load1 = 0.81;
  EXPECT_EQ(Get(RunStabilityChecks(f), "load").level, CheckLevel::kWarn);

  f.logical_cpus = 3;
  EXPECT_EQ(Get(RunStabilityChecks(f), "cpus").level, CheckLevel::kWarn);
  f.logical_cpus = 16;
  f.allowed_cpus = {0, 1};  // taskset -c 0-1
  const auto cpus = Get(RunStabilityChecks(f), "cpus");
  EXPECT_EQ(cpus.level, CheckLevel::kWarn);
  EXPECT_TRUE(Has(cpus.finding, "only 2 CPUs usable (16 online, 2 in this process's affinity)")) << cpus.finding;

  for (int level : {-1, 0, 1}) {
    f.perf_event_paranoid = level;
    EXPECT_EQ(Get(RunStabilityChecks(f), "perf_event_paranoid").level, CheckLevel::kOk) << level;
  }
  f.aslr = 0;
  EXPECT_EQ(Get(RunStabilityChecks(f), "aslr").level, CheckLevel::kOk);
}

}  // namespace
}  // namespace tare::env
