// Fingerprints of crafted and snapshotted machines, served by DirectoryHost from
// src/env/testdata/hosts/ (see the README there for what each machine is).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "base/files.h"
#include "base/sha256.h"
#include "env/host_fingerprint.h"
#include "env/fingerprint_json.h"

namespace tare::env {
namespace {

DirectoryHost MachineDir(const std::string& name) {
  return DirectoryHost(std::string(TARE_ENV_TESTDATA) + "/hosts/" + name);
}

Fingerprint Collect(const std::string& name, bool valgrind = false) {
  return CollectFingerprint(MachineDir(name), {.probe_valgrind = valgrind});
}

const FingerprintKey* Find(const Fingerprint& fp, const std::string& key) {
  for (const auto& k : fp.keys) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

TEST(HostFactsTest, ThisMachinesSnapshot) {
  Fingerprint fp = Collect("firecracker-vm");
  EXPECT_EQ(fp.Get("cpu.vendor"), "AuthenticAMD");
  EXPECT_EQ(fp.Get("cpu.model_name"), "AMD EPYC");
  EXPECT_EQ(fp.Get("cpu.family"), "25");
  EXPECT_EQ(fp.Get("cpu.model"), "17");
  EXPECT_EQ(fp.Get("cpu.stepping"), "1");
  EXPECT_EQ(fp.Get("cpu.microcode"), "0x1000065");
  EXPECT_EQ(fp.Get("cpu.logical"), "2");
  EXPECT_EQ(fp.Get("cpu.cores"), "2");
  EXPECT_EQ(fp.Get("cpu.caches"), "L1d 32K, L1i 32K, L2 1024K, L3 32768K");
  EXPECT_EQ(fp.Get("cpu.governor"), "unknown");  // no cpufreq in this VM
  EXPECT_EQ(fp.Get("cpu.turbo"), "unknown");
  EXPECT_EQ(fp.Get("cpu.smt"), "off");
  EXPECT_EQ(fp.Get("cpu.isolated"), "none");
  EXPECT_EQ(fp.Get("cpu.nohz_full"), "none");  // no sysfs file, and not on the command line
  EXPECT_EQ(fp.Get("cpu.allowed"), "0-1");
  EXPECT_EQ(fp.Get("os.kernel"), "6.18.44-fc-v669");
  EXPECT_EQ(fp.Get("os.release"), "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(fp.Get("os.aslr"), "2");
  EXPECT_EQ(fp.Get("os.perf_event_paranoid"), "2");
  EXPECT_EQ(fp.Get("os.loadavg"), "0.28 0.27 0.13");
  EXPECT_EQ(fp.Get("mem.total_bytes"), std::to_string(24684084ull * 1024));
  EXPECT_EQ(fp.Get("mem.available_bytes"), std::to_string(24320464ull * 1024));
  EXPECT_EQ(fp.Get("cgroup.cpu_limit"), "none");
  EXPECT_EQ(fp.Get("host.hypervisor"), "present");
  EXPECT_EQ(fp.Get("host.product"), "unknown");
  EXPECT_EQ(fp.Get("libc.version"), "2.36");
  EXPECT_EQ(fp.Get("libc.path"), "/lib/libc.so.6");
  EXPECT_EQ(fp.Get("libc.sha256"), Sha256Hex("stand-in for libc (firecracker-vm)\n"));
  EXPECT_EQ(fp.Get("loader.sha256"), Sha256Hex("stand-in for the loader (firecracker-vm)\n"));
  EXPECT_EQ(fp.Get("env.allocator"), "MALLOC_ARENA_MAX=4");
  EXPECT_EQ(Find(fp, "valgrind.version"), nullptr) << "valgrind is only probed on request";
}

TEST(HostFactsTest, FlagsDigestIsSha256OfTheSortedFlagList) {
  // Computed independently with coreutils, in hosts/firecracker-vm:
  //   grep -m1 ^flags proc/cpuinfo | cut -d: -f2 | tr ' ' '\n' | sed '/^$/d' | LC_ALL=C sort -u |
  //   tr '\n' ' ' | sed 's/ $//' | sha256sum
  Fingerprint fp = Collect("firecracker-vm");
  EXPECT_EQ(fp.Get("cpu.flags_sha256"), "6a93d771884cba54d837828ce732aaad0bec1243d7fa6d288a3359b8166e7e4a");
}

TEST(HostFactsTest, TunedBareMetal) {
  Fingerprint fp = Collect("baremetal-tuned");
  EXPECT_EQ(fp.Get("cpu.vendor"), "GenuineIntel");
  EXPECT_EQ(fp.Get("cpu.logical"), "8");
  EXPECT_EQ(fp.Get("cpu.cores"), "8");
  EXPECT_EQ(fp.Get("cpu.governor"), "performance");
  EXPECT_EQ(fp.Get("cpu.turbo"), "off");
  EXPECT_EQ(fp.Get("cpu.smt"), "off");
  EXPECT_EQ(fp.Get("cpu.isolated"), "2-3");
  EXPECT_EQ(fp.Get("cpu.nohz_full"), "2-3");
  EXPECT_EQ(fp.Get("os.aslr"), "0");
  EXPECT_EQ(fp.Get("cgroup.cpu_limit"), "none");
  EXPECT_EQ(fp.Get("host.hypervisor"), "none");
  EXPECT_EQ(fp.Get("host.product"), "PowerEdge R650");
  EXPECT_EQ(fp.Get("env.allocator"), "none");
}

TEST(HostFactsTest, BusyTurboDesktop) {
  Fingerprint fp = Collect("baremetal-turbo");
  EXPECT_EQ(fp.Get("cpu.logical"), "8");
  EXPECT_EQ(fp.Get("cpu.cores"), "4");
  EXPECT_EQ(fp.Get("cpu.governor"), "powersave");
  EXPECT_EQ(fp.Get("cpu.turbo"), "on");
  EXPECT_EQ(fp.Get("cpu.smt"), "on");
  EXPECT_EQ(fp.Get("cpu.isolated"), "none");
  EXPECT_EQ(fp.Get("cpu.nohz_full"), "none");  // sysfs says "(null)"
  EXPECT_EQ(fp.Get("os.loadavg"), "3.10 2.05 1.20");
  EXPECT_EQ(fp.Get("env.allocator"), "GLIBC_TUNABLES=glibc.malloc.tcache_count=0; MALLOC_ARENA_MAX=2");
}

TEST(HostFactsTest, XenGuestInALimitedContainer) {
  Fingerprint fp = Collect("amd-boost-container");
  EXPECT_EQ(fp.Get("cpu.governor"), "performance (2), schedutil (2)");
  EXPECT_EQ(fp.Get("cpu.turbo"), "on");
  EXPECT_EQ(fp.Get("cpu.smt"), "unknown");
  EXPECT_EQ(fp.Get("cpu.isolated"), "none");  // no sysfs file; the command line has no isolcpus=
  EXPECT_EQ(fp.Get("cgroup.cpu_limit"), "1.5 CPUs (cpu.max 150000 100000)");
  EXPECT_EQ(fp.Get("host.hypervisor"), "xen");
  EXPECT_EQ(fp.Get("host.product"), "HVM domU");
  EXPECT_EQ(fp.Get("os.kernel"), "6.1.0-18-cloud-amd64");
  EXPECT_EQ(fp.Get("env.allocator"), "MALLOC_CONF=narenas:1");
}

TEST(HostFactsTest, ValgrindOnRequest) {
  Fingerprint with = Collect("baremetal-tuned", /*valgrind=*/true);
  const FingerprintKey* key = Find(with, "valgrind.version");
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(key->value, "valgrind-3.19.0");
  EXPECT_TRUE(key->hard);
  EXPECT_EQ(Collect("amd-boost-container", true).Get("valgrind.version"), "not found");
}

TEST(HostFactsTest, SecretsInOtherVariablesNeverAppear) {
  // Each machine's _process/environ plants a secret next to the allocator's variables.
  for (const char* name : {"firecracker-vm", "baremetal-tuned", "baremetal-turbo"}) {
    std::string json = FingerprintToJson(Collect(name, true)).dump();
    EXPECT_EQ(json.find("hunter2"), std::string::npos) << name;
    EXPECT_EQ(json.find("planted"), std::string::npos) << name;
    EXPECT_EQ(json.find("GITHUB_TOKEN"), std::string::npos) << name;
    EXPECT_EQ(json.find("AWS_SECRET"), std::string::npos) << name;
    EXPECT_EQ(json.find("LD_PRELOAD"), std::string::npos) << name;
    EXPECT_EQ(json.find("MALLOCX"), std::string::npos) << name;  // not MALLOC_*: not the allocator's
    EXPECT_EQ(json.find("PATH="), std::string::npos) << name;
  }
}

TEST(HostFactsTest, AllocatorEnvironmentFilter) {
  auto kept = AllocatorEnvironment({"SECRET=x", "MALLOC_PERTURB_=165", "GLIBC_TUNABLES=a=1", "GLIBC_TUNABLESX=no",
                                    "MALLOC=no", "malloc_arena_max=no", "MALLOC_ARENA_MAX=2", "junk-without-equals"});
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[0], (std::pair<std::string, std::string>{"GLIBC_TUNABLES", "a=1"}));
  EXPECT_EQ(kept[1], (std::pair<std::string, std::string>{"MALLOC_ARENA_MAX", "2"}));
  EXPECT_EQ(kept[2], (std::pair<std::string, std::string>{"MALLOC_PERTURB_", "165"}));
}

TEST(HostFactsTest, EveryMachineHasTheSameKeysInTheSameOrder) {
  std::vector<std::string> reference;
  for (const auto& k : Collect("firecracker-vm").keys) reference.push_back(k.key);
  for (const char* name : {"baremetal-tuned", "baremetal-turbo", "amd-boost-container"}) {
    std::vector<std::string> keys;
    for (const auto& k : Collect(name).keys) keys.push_back(k.key);
    EXPECT_EQ(keys, reference) << name;
  }
  // And exactly the documented ones, with their documented class.
  std::vector<std::string> specs;
  for (const auto& s : FingerprintKeySpecs()) {
    if (s.key != "valgrind.version") specs.emplace_back(s.key);
  }
  EXPECT_EQ(reference, specs);
  for (const auto& k : Collect("baremetal-tuned", true).keys) EXPECT_EQ(k.hard, IsHardKey(k.key)) << k.key;
}

TEST(HostFactsTest, EmptyMachineSaysUnknownInsteadOfFailing) {
  Fingerprint fp = CollectFingerprint(DirectoryHost("/nonexistent-tare-root"), {});
  EXPECT_EQ(fp.Get("cpu.model_name"), "unknown");
  EXPECT_EQ(fp.Get("cpu.logical"), "unknown");
  EXPECT_EQ(fp.Get("libc.sha256"), "unknown");
  EXPECT_EQ(fp.Get("cgroup.cpu_limit"), "unknown");
  EXPECT_EQ(fp.Get("host.hypervisor"), "unknown");
  EXPECT_EQ(fp.Get("env.allocator"), "none");
  EXPECT_FALSE(fp.checks.empty());
}

TEST(HostFactsTest, RunnableProcessesNamesRunningThreadsButNotTareOrWhatItRuns) {
  // tare is pid 5000; its spawn helper (5001), a git reading the provenance (5002) and a program
  // the helper runs (5003) run too.
  auto running = RunnableProcesses(MachineDir("baremetal-turbo"), 10);
  // /proc is listed as sorted names: "100" < "4242" < "5000" < ... < "5003" < "777".
  EXPECT_EQ(running, (std::vector<std::string>{"cc1plus (pid 4242)", "my (odd) app (pid 777)"}));
  EXPECT_EQ(RunnableProcesses(MachineDir("baremetal-turbo"), 1).size(), 1u);
}

// Counts the reads of a thread's stat (/proc/PID/task/TID/stat).
class CountingHost : public DirectoryHost {
 public:
  using DirectoryHost::DirectoryHost;
  std::optional<std::string> ReadFile(const std::string& path) const override {
    if (path.find("/task/") != std::string::npos) task_reads.push_back(path);
    return DirectoryHost::ReadFile(path);
  }
  mutable std::vector<std::string> task_reads;
};

TEST(HostFactsTest, RunnableProcessesReadsThreadsOnlyOfProcessesWithMoreThanOne) {
  // sshd (100) sleeps with num_threads 1 in its stat: its leader is all of it. "my (odd) app" (777)
  // sleeps with 2 threads, one of them running. cc1plus (4242) has a short stat line (no thread
  // count) but is running itself.
  CountingHost host(std::string(TARE_ENV_TESTDATA) + "/hosts/baremetal-turbo");
  auto running = RunnableProcesses(host, 10);
  EXPECT_EQ(running, (std::vector<std::string>{"cc1plus (pid 4242)", "my (odd) app (pid 777)"}));
  for (const auto& path : host.task_reads) EXPECT_EQ(path.find("/proc/100/"), std::string::npos) << path;
  EXPECT_FALSE(host.task_reads.empty());  // 777's threads were read
}

TEST(HostFactsTest, HardDigestSeparatesMachinesButNotMoments) {
  Fingerprint a = Collect("baremetal-tuned");
  Fingerprint b = Collect("baremetal-turbo");
  EXPECT_NE(a.HardDigest(), b.HardDigest());
  // Soft keys (load, governor) do not enter the digest.
  Fingerprint a2 = a;
  for (auto& k : a2.keys) {
    if (k.key == "os.loadavg") k.value = "9.99 9.99 9.99";
    if (k.key == "cpu.governor") k.value = "powersave";
  }
  EXPECT_EQ(a.HardDigest(), a2.HardDigest());
}

}  // namespace
}  // namespace tare::env

namespace tare::env {
namespace {

TEST(FingerprintDocsTest, DocsListEveryKeyWithItsClassAndEveryCheck) {
  auto doc = ReadFile(TARE_ENV_DOCS);
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  for (const auto& spec : FingerprintKeySpecs()) {
    std::string row = fmt::format("| `{}` | {} |", spec.key, spec.hard ? "hard" : "soft");
    EXPECT_NE(doc->find(row), std::string::npos) << "docs/fingerprint.md lacks the row " << row;
  }
  Fingerprint fp = CollectFingerprint(DirectoryHost(std::string(TARE_ENV_TESTDATA) + "/hosts/baremetal-turbo"),
                                      {.probe_valgrind = true});
  for (const auto& check : fp.checks) {
    EXPECT_NE(doc->find("| `" + check.name + "` |"), std::string::npos) << check.name;
  }
}

}  // namespace
}  // namespace tare::env
