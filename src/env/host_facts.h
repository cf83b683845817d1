// HostFacts: what the machine says about itself, read once through a Host and kept typed. The
// fingerprint's keys (fingerprint.h) and the stability checks (stability_checks.h) are both
// derived from one HostFacts, so they can never disagree about what was seen.
//
// Reading is cheap (a few hundred small /proc and /sys files, sha256 of libc and the loader: a few
// milliseconds) and spawns nothing unless `probe_valgrind` is set.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "env/cgroup_limit.h"
#include "env/cpuinfo.h"
#include "env/host.h"

namespace tare::env {

struct CacheLevel {
  std::string name;  // "l1d", "l1i", "l2", "l3"
  std::string size;  // as sysfs prints it: "32K", "1024K"
};

struct HostFacts {
  CpuInfo cpuinfo;
  int logical_cpus = 0;            // online CPUs (cpuinfo, else /sys/devices/system/cpu/online)
  int physical_cores = 0;          // cpuinfo (physical id, core id), else sysfs topology; 0 = unknown
  std::vector<CacheLevel> caches;  // of cpu0, from /sys/devices/system/cpu/cpu0/cache
  std::vector<int> allowed_cpus;   // this process's affinity (Cpus_allowed_list)

  std::string kernel_release;
  std::string os_release;          // PRETTY_NAME from /etc/os-release
  std::string mitigations_digest;  // sha256 of "name: state" lines of cpu/vulnerabilities; "" if none

  std::string glibc_version;
  LoadedLibraries libraries;
  std::string libc_sha256;  // "" when the file could not be hashed
  std::string loader_sha256;

  bool valgrind_probed = false;
  std::optional<std::string> valgrind_version;  // nullopt: probed and not found

  std::map<std::string, int> governors;  // scaling_governor -> number of CPUs using it
  std::optional<bool> turbo;             // nullopt: the host exposes no switch
  std::string turbo_source;              // "intel_pstate/no_turbo", "cpufreq/boost"
  std::optional<bool> smt_active;
  std::optional<int> aslr;                        // randomize_va_space: 0 off, 1 partial, 2 full
  std::optional<std::vector<int>> isolated_cpus;  // nullopt: unknown; empty: none
  std::optional<std::vector<int>> nohz_full_cpus;
  std::optional<double> load1;
  std::optional<double> load5;
  std::optional<double> load15;
  std::optional<uint64_t> mem_total_bytes;
  std::optional<uint64_t> mem_available_bytes;
  CgroupCpuLimit cgroup;
  std::string hypervisor;        // "none", the /sys/hypervisor/type ("xen"), or "present"
  bool hypervisor_flag = false;  // cpuinfo "hypervisor" flag
  std::string product_name;      // DMI product name; "" when unreadable
  std::optional<int> perf_event_paranoid;
  std::vector<std::pair<std::string, std::string>> allocator_env;

  // Only read when the load check fires: "name (pid N)" of processes with a running thread, other
  // than this one, at the moment of reading.
  std::vector<std::string> runnable_processes;
};

struct FactOptions {
  bool probe_valgrind = false;  // spawns `valgrind --version`
};

HostFacts ReadHostFacts(const Host& host, const FactOptions& options);

// The load check's threshold: the 1-minute load average above 0.1 per online CPU means something
// else wants CPU time often enough to land on the benchmark's core.
bool LoadIsHigh(double load1, int logical_cpus);

// Processes with a thread in state R ("name (pid N)"), excluding this process, at most `limit`.
std::vector<std::string> RunnableProcesses(const Host& host, size_t limit);

}  // namespace tare::env
