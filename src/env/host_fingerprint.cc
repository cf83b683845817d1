#include "env/host_fingerprint.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/sha256.h"
#include "env/printable.h"
#include "env/stability_checks.h"

namespace tare::env {
namespace {

constexpr char kUnknown[] = "unknown";

// Hard keys change the code that runs or the silicon it runs on: a result measured under one value
// says nothing exact about another. Soft keys describe the machine's state at the time: they explain
// noise and earn a warning, but the same machine passes through many of them.
const std::vector<KeySpec> kKeySpecs = {
    {"cpu.vendor", true, "CPU vendor", "/proc/cpuinfo vendor_id"},
    {"cpu.model_name", true, "CPU model", "/proc/cpuinfo model name"},
    {"cpu.family", true, "CPU family", "/proc/cpuinfo cpu family"},
    {"cpu.model", true, "CPU model number", "/proc/cpuinfo model"},
    {"cpu.stepping", true, "CPU stepping", "/proc/cpuinfo stepping"},
    {"cpu.microcode", true, "microcode revision", "/proc/cpuinfo microcode"},
    {"cpu.flags_sha256", true, "sha256 of the sorted CPU flag list (space-separated)", "/proc/cpuinfo flags"},
    {"cpu.logical", true, "online logical CPUs", "/proc/cpuinfo processor entries; /sys/devices/system/cpu/online"},
    {"cpu.cores", true, "physical cores", "/proc/cpuinfo (physical id, core id); sysfs topology"},
    {"cpu.caches", true, "cache sizes of cpu0", "/sys/devices/system/cpu/cpu0/cache/index*/{level,type,size}"},
    {"cpu.governor", false, "cpufreq governor of every CPU, summarised",
     "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor"},
    {"cpu.turbo", false, "turbo / boost", "/sys/devices/system/cpu/intel_pstate/no_turbo; cpufreq/boost"},
    {"cpu.smt", false, "simultaneous multithreading active", "/sys/devices/system/cpu/smt/active"},
    {"cpu.isolated", false, "isolated CPUs (isolcpus)", "/sys/devices/system/cpu/isolated; /proc/cmdline isolcpus="},
    {"cpu.nohz_full", false, "tickless CPUs (nohz_full)",
     "/sys/devices/system/cpu/nohz_full; /proc/cmdline nohz_full="},
    {"cpu.allowed", false, "CPUs this process may run on", "/proc/self/status Cpus_allowed_list"},
    {"os.kernel", true, "kernel release", "uname(2) release"},
    {"os.release", false, "distribution", "/etc/os-release PRETTY_NAME"},
    {"os.mitigations_sha256", false, "sha256 of the CPU vulnerability mitigation states",
     "/sys/devices/system/cpu/vulnerabilities/*"},
    {"os.aslr", false, "address space layout randomisation (0 off, 1 partial, 2 full)",
     "/proc/sys/kernel/randomize_va_space"},
    {"os.perf_event_paranoid", false, "who may open perf events", "/proc/sys/kernel/perf_event_paranoid"},
    {"os.loadavg", false, "load average over 1, 5, 15 minutes", "/proc/loadavg"},
    {"mem.total_bytes", false, "physical memory", "/proc/meminfo MemTotal"},  // not a metric: a field
    {"mem.available_bytes", false, "memory available without swapping", "/proc/meminfo MemAvailable"},  // not a metric
    {"cgroup.cpu_limit", false, "CPU quota of this process's cgroup (tightest level)",
     "cgroup v2 cpu.max; v1 cpu.cfs_quota_us / cpu.cfs_period_us"},
    {"host.hypervisor", true, "hypervisor: none, its type, or present",
     "/proc/cpuinfo hypervisor flag; /sys/hypervisor/type"},
    {"host.product", false, "machine product name", "/sys/class/dmi/id/product_name"},
    {"libc.version", true, "glibc version", "gnu_get_libc_version()"},
    {"libc.path", false, "the C library this process loaded", "dl_iterate_phdr, symlinks resolved"},
    {"libc.sha256", true, "sha256 of that C library", "the file at libc.path"},
    {"loader.path", false, "the dynamic loader this process runs under",
     "dl_iterate_phdr entry at getauxval(AT_BASE), symlinks resolved"},
    {"loader.sha256", true, "sha256 of that loader", "the file at loader.path"},
    {"valgrind.version", true, "valgrind version (only with the sim instrument)", "valgrind --version"},
    {"env.allocator", true, "allocator environment: MALLOC_* and GLIBC_TUNABLES only",
     "the process environment, filtered"},
};

std::string Or(const std::string& value, const char* fallback = kUnknown) { return value.empty() ? fallback : value; }

template <typename T>
std::string OrUnknown(const std::optional<T>& value) {
  return value ? fmt::format("{}", *value) : kUnknown;
}

std::string OnOff(const std::optional<bool>& value) { return value ? (*value ? "on" : "off") : kUnknown; }

std::string CpuListOrNone(const std::optional<std::vector<int>>& cpus) {
  if (!cpus) return kUnknown;
  return cpus->empty() ? "none" : FormatCpuList(*cpus);
}

std::string GovernorSummary(const std::map<std::string, int>& governors) {
  if (governors.empty()) return kUnknown;
  if (governors.size() == 1) return governors.begin()->first;
  std::string out;
  for (const auto& [name, count] : governors) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} ({})", name, count);
  }
  return out;
}

std::string FlagsDigest(std::vector<std::string> flags) {
  if (flags.empty()) return kUnknown;
  std::sort(flags.begin(), flags.end());
  flags.erase(std::unique(flags.begin(), flags.end()), flags.end());
  std::string joined;
  for (const auto& f : flags) {
    if (!joined.empty()) joined += ' ';
    joined += f;
  }
  return Sha256Hex(joined);
}

std::string CacheSummary(const std::vector<CacheLevel>& caches) {
  std::string out;
  for (const auto& c : caches) {
    if (!out.empty()) out += ", ";
    std::string name = c.name;
    name[0] = 'L';  // "l1d" -> "L1d"
    out += name + " " + c.size;
  }
  return Or(out);
}

std::string CgroupLimit(const CgroupCpuLimit& cgroup) {
  if (!cgroup.found) return kUnknown;
  if (!cgroup.cpus) return "none";
  return fmt::format("{:g} CPUs ({})", *cgroup.cpus, cgroup.setting);
}

std::string AllocatorEnv(const std::vector<std::pair<std::string, std::string>>& vars) {
  std::string out;
  for (const auto& [name, value] : vars) {
    if (!out.empty()) out += "; ";
    out += name + "=" + value;
  }
  return Or(out, "none");
}

}  // namespace

const std::vector<KeySpec>& FingerprintKeySpecs() { return kKeySpecs; }

bool IsHardKey(std::string_view key) {
  for (const auto& spec : kKeySpecs) {
    if (spec.key == key) return spec.hard;
  }
  return false;
}

Fingerprint FingerprintFromFacts(const HostFacts& f) {
  Fingerprint fp;
  auto add = [&fp](std::string_view key, std::string value) {
    fp.keys.push_back({std::string(key), Printable(value), IsHardKey(key)});
  };
  const CpuInfo& cpu = f.cpuinfo;
  add("cpu.vendor", Or(cpu.vendor));
  add("cpu.model_name", Or(cpu.model_name));
  add("cpu.family", Or(cpu.family));
  add("cpu.model", Or(cpu.model));
  add("cpu.stepping", Or(cpu.stepping));
  add("cpu.microcode", Or(cpu.microcode));
  add("cpu.flags_sha256", FlagsDigest(cpu.flags));
  add("cpu.logical", f.logical_cpus > 0 ? std::to_string(f.logical_cpus) : kUnknown);
  add("cpu.cores", f.physical_cores > 0 ? std::to_string(f.physical_cores) : kUnknown);
  add("cpu.caches", CacheSummary(f.caches));
  add("cpu.governor", GovernorSummary(f.governors));
  add("cpu.turbo", OnOff(f.turbo));
  add("cpu.smt", OnOff(f.smt_active));
  add("cpu.isolated", CpuListOrNone(f.isolated_cpus));
  add("cpu.nohz_full", CpuListOrNone(f.nohz_full_cpus));
  add("cpu.allowed", Or(FormatCpuList(f.allowed_cpus)));
  add("os.kernel", Or(f.kernel_release));
  add("os.release", Or(f.os_release));
  add("os.mitigations_sha256", Or(f.mitigations_digest));
  add("os.aslr", OrUnknown(f.aslr));
  add("os.perf_event_paranoid", OrUnknown(f.perf_event_paranoid));
  add("os.loadavg", f.load1 ? fmt::format("{:.2f} {:.2f} {:.2f}", *f.load1, *f.load5, *f.load15) : kUnknown);
  add("mem.total_bytes", OrUnknown(f.mem_total_bytes));          // not a metric: a fingerprint field
  add("mem.available_bytes", OrUnknown(f.mem_available_bytes));  // not a metric
  add("cgroup.cpu_limit", CgroupLimit(f.cgroup));
  add("host.hypervisor", Or(f.hypervisor));
  add("host.product", Or(f.product_name));
  add("libc.version", Or(f.glibc_version));
  add("libc.path", Or(f.libraries.libc_path));
  add("libc.sha256", Or(f.libc_sha256));
  add("loader.path", Or(f.libraries.loader_path));
  add("loader.sha256", Or(f.loader_sha256));
  if (f.valgrind_probed) add("valgrind.version", f.valgrind_version.value_or("not found"));
  add("env.allocator", AllocatorEnv(f.allocator_env));
  fp.checks = RunStabilityChecks(f);
  return fp;
}

Fingerprint CollectFingerprint(const Host& host, const FingerprintOptions& options) {
  return FingerprintFromFacts(ReadHostFacts(host, {.probe_valgrind = options.probe_valgrind}));
}

Fingerprint CollectFingerprint(const FingerprintOptions& options) {
  RealHost host;
  return CollectFingerprint(host, options);
}

}  // namespace tare::env
