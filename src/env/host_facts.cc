#include "env/host_facts.h"

#include <charconv>
#include <cstdlib>
#include <set>
#include <sstream>

#include "base/sha256.h"
#include "env/printable.h"

namespace tare::env {
namespace {

constexpr char kCpuDir[] = "/sys/devices/system/cpu";

std::string Trimmed(std::string s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::optional<std::string> ReadTrimmed(const Host& host, const std::string& path) {
  auto text = host.ReadFile(path);
  if (!text) return std::nullopt;
  return Trimmed(*text);
}

std::optional<int> ReadInt(const Host& host, const std::string& path) {
  auto text = ReadTrimmed(host, path);
  if (!text || text->empty()) return std::nullopt;
  int value = 0;
  auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || ptr != text->data() + text->size()) return std::nullopt;
  return value;
}

// "cpu0", "cpu17" -> true; "cpufreq", "cpuidle" -> false.
bool IsCpuDir(const std::string& name) {
  if (name.size() < 4 || name.rfind("cpu", 0) != 0) return false;
  for (size_t i = 3; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  return true;
}

std::string OsRelease(const Host& host) {
  auto text = host.ReadFile("/etc/os-release");
  if (!text) text = host.ReadFile("/usr/lib/os-release");
  if (!text) return "";
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("PRETTY_NAME=", 0) != 0) continue;
    std::string value = Trimmed(line.substr(12));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    return value;
  }
  return "";
}

// The value of `name=` on the kernel command line, stopping at "--" (what follows goes to init).
std::optional<std::string> KernelParameter(const std::string& cmdline, const std::string& name) {
  std::istringstream in(cmdline);
  for (std::string word; in >> word;) {
    if (word == "--") break;
    if (word.rfind(name + "=", 0) == 0) return word.substr(name.size() + 1);
  }
  return std::nullopt;
}

void ReadTopology(const Host& host, const std::vector<std::string>& cpu_dirs, HostFacts* f) {
  f->cpuinfo = ParseCpuInfo(host.ReadFile("/proc/cpuinfo").value_or(""));
  f->logical_cpus = f->cpuinfo.logical_cpus;
  if (f->logical_cpus == 0) {
    auto online = host.ReadFile(std::string(kCpuDir) + "/online");
    if (online) f->logical_cpus = static_cast<int>(ParseCpuList(*online).size());
  }
  f->physical_cores = f->cpuinfo.physical_cores;
  if (f->physical_cores == 0) {
    std::set<std::pair<std::string, std::string>> cores;
    for (const auto& cpu : cpu_dirs) {
      std::string topo = std::string(kCpuDir) + "/" + cpu + "/topology/";
      auto core = ReadTrimmed(host, topo + "core_id");
      auto package = ReadTrimmed(host, topo + "physical_package_id");
      if (core && package) cores.emplace(*package, *core);
    }
    f->physical_cores = static_cast<int>(cores.size());
  }
  std::string cache_dir = std::string(kCpuDir) + "/cpu0/cache";
  for (const auto& index : host.ListDir(cache_dir)) {
    if (index.rfind("index", 0) != 0) continue;
    std::string dir = cache_dir + "/" + index + "/";
    auto level = ReadTrimmed(host, dir + "level");
    auto type = ReadTrimmed(host, dir + "type");
    auto size = ReadTrimmed(host, dir + "size");
    if (!level || !type || !size) continue;
    std::string name = "l" + *level;
    if (*type == "Data") name += "d";
    else if (*type == "Instruction") name += "i";
    f->caches.push_back({name, *size});
  }
  std::istringstream status(host.ReadFile("/proc/self/status").value_or(""));
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Cpus_allowed_list:", 0) == 0) f->allowed_cpus = ParseCpuList(line.substr(18));
  }
}

void ReadFrequencyControls(const Host& host, const std::vector<std::string>& cpu_dirs, HostFacts* f) {
  for (const auto& cpu : cpu_dirs) {
    auto governor = ReadTrimmed(host, std::string(kCpuDir) + "/" + cpu + "/cpufreq/scaling_governor");
    if (governor && !governor->empty()) ++f->governors[*governor];
  }
  // intel_pstate has its own switch (no_turbo=1 means off); acpi-cpufreq and amd-pstate use
  // cpufreq/boost (1 means on), which newer kernels also offer per policy.
  if (auto no_turbo = ReadInt(host, std::string(kCpuDir) + "/intel_pstate/no_turbo")) {
    f->turbo = *no_turbo == 0;
    f->turbo_source = "intel_pstate/no_turbo";
  } else if (auto boost = ReadInt(host, std::string(kCpuDir) + "/cpufreq/boost")) {
    f->turbo = *boost != 0;
    f->turbo_source = "cpufreq/boost";
  } else {
    for (const auto& policy : host.ListDir(std::string(kCpuDir) + "/cpufreq")) {
      if (policy.rfind("policy", 0) != 0) continue;
      if (auto b = ReadInt(host, std::string(kCpuDir) + "/cpufreq/" + policy + "/boost")) {
        f->turbo = f->turbo.value_or(false) || *b != 0;
        f->turbo_source = "cpufreq/policy*/boost";
      }
    }
  }
  if (auto smt = ReadInt(host, std::string(kCpuDir) + "/smt/active")) f->smt_active = *smt != 0;
}

void ReadIsolation(const Host& host, HostFacts* f) {
  auto cmdline = host.ReadFile("/proc/cmdline");
  if (auto isolated = host.ReadFile(std::string(kCpuDir) + "/isolated")) {
    f->isolated_cpus = ParseCpuList(*isolated);
  } else if (cmdline) {
    // isolcpus=[flags,]cpu-list: ParseCpuList skips the flag words.
    f->isolated_cpus = ParseCpuList(KernelParameter(*cmdline, "isolcpus").value_or(""));
  }
  if (auto nohz = host.ReadFile(std::string(kCpuDir) + "/nohz_full")) {
    f->nohz_full_cpus = ParseCpuList(*nohz);  // "(null)" when unset: no CPUs
  } else if (cmdline) {
    f->nohz_full_cpus = ParseCpuList(KernelParameter(*cmdline, "nohz_full").value_or(""));
  }
}

void ReadLoadAndMemory(const Host& host, HostFacts* f) {
  if (auto loadavg = host.ReadFile("/proc/loadavg")) {
    std::istringstream in(*loadavg);
    double l1 = 0;
    double l5 = 0;
    double l15 = 0;
    if (in >> l1 >> l5 >> l15) {
      f->load1 = l1;
      f->load5 = l5;
      f->load15 = l15;
    }
  }
  std::istringstream meminfo(host.ReadFile("/proc/meminfo").value_or(""));
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream words(line);
    std::string name;
    uint64_t kib = 0;
    if (!(words >> name >> kib)) continue;
    if (name == "MemTotal:") f->mem_total_bytes = kib * 1024;  // meminfo's "kB" is KiB
    if (name == "MemAvailable:") f->mem_available_bytes = kib * 1024;
  }
}

void ReadVirtualization(const Host& host, HostFacts* f) {
  for (const auto& flag : f->cpuinfo.flags) {
    if (flag == "hypervisor") f->hypervisor_flag = true;
  }
  std::string type = ReadTrimmed(host, "/sys/hypervisor/type").value_or("");
  if (!type.empty()) f->hypervisor = type;
  else if (f->hypervisor_flag) f->hypervisor = "present";
  else if (!f->cpuinfo.flags.empty()) f->hypervisor = "none";
  // else: no x86 flags to go by (arm64), leave it unknown.
  f->product_name = ReadTrimmed(host, "/sys/class/dmi/id/product_name").value_or("");
}

std::string MitigationsDigest(const Host& host) {
  std::string dir = std::string(kCpuDir) + "/vulnerabilities";
  std::string lines;
  for (const auto& name : host.ListDir(dir)) {
    lines += name + ": " + ReadTrimmed(host, dir + "/" + name).value_or("unreadable") + "\n";
  }
  return lines.empty() ? "" : Sha256Hex(lines);
}

}  // namespace

bool LoadIsHigh(double load1, int logical_cpus) { return logical_cpus > 0 && load1 > 0.1 * logical_cpus; }

HostFacts ReadHostFacts(const Host& host, const FactOptions& options) {
  HostFacts f;
  std::vector<std::string> cpu_dirs;
  for (const auto& name : host.ListDir(kCpuDir)) {
    if (IsCpuDir(name)) cpu_dirs.push_back(name);
  }
  ReadTopology(host, cpu_dirs, &f);

  f.kernel_release = host.KernelRelease();
  f.os_release = OsRelease(host);
  f.mitigations_digest = MitigationsDigest(host);

  f.glibc_version = host.GlibcVersion();
  f.libraries = host.Libraries();
  if (!f.libraries.libc_path.empty()) {
    auto sha = host.FileSha256(f.libraries.libc_path);
    if (sha.ok()) f.libc_sha256 = *sha;
  }
  if (!f.libraries.loader_path.empty()) {
    auto sha = host.FileSha256(f.libraries.loader_path);
    if (sha.ok()) f.loader_sha256 = *sha;
  }
  if (options.probe_valgrind) {
    f.valgrind_probed = true;
    f.valgrind_version = host.ValgrindVersion();
  }

  ReadFrequencyControls(host, cpu_dirs, &f);
  f.aslr = ReadInt(host, "/proc/sys/kernel/randomize_va_space");
  ReadIsolation(host, &f);
  ReadLoadAndMemory(host, &f);
  f.cgroup = ReadCgroupCpuLimit(host);
  ReadVirtualization(host, &f);
  f.perf_event_paranoid = ReadInt(host, "/proc/sys/kernel/perf_event_paranoid");
  f.allocator_env = host.AllocatorEnv();

  if (f.load1 && LoadIsHigh(*f.load1, f.logical_cpus)) f.runnable_processes = RunnableProcesses(host, 5);
  return f;
}

std::vector<std::string> RunnableProcesses(const Host& host, size_t limit) {
  // /proc/<pid>/stat is "pid (comm) state ppid ...": comm may hold spaces and parentheses, so the
  // fields are the words after the last ')': state, ppid, ... num_threads (the 18th word, field 20
  // of proc(5)). A process is running if any of its threads is (the leader's own state says
  // nothing about its worker threads).
  struct Proc {
    std::string pid, comm, ppid;
    char state = '?';
    long threads = 0;  // 0: unknown (a short line), and its threads are read one by one
  };
  auto parse = [](const std::string& stat) {
    Proc p;
    const size_t open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return p;
    p.comm = stat.substr(open + 1, close - open - 1);
    std::istringstream words(stat.substr(close + 1));
    std::string state, word;
    if (!(words >> state) || state.size() != 1) return p;
    p.state = state[0];
    words >> p.ppid;
    for (int i = 2; i < 17; ++i) words >> word;  // up to num_threads, the word at index 17
    if (words >> word) std::from_chars(word.data(), word.data() + word.size(), p.threads);
    return p;
  };
  std::string self_pid;
  if (auto self = host.ReadFile("/proc/self/stat")) self_pid = self->substr(0, self->find(' '));

  // Every process first, then the verdicts: tare's own descendants (its spawn helper and what the
  // helper runs, the git that reads the provenance meanwhile) are not another load on the host, and
  // a child may be listed before its parent.
  std::vector<Proc> procs;
  for (const auto& pid : host.ListDir("/proc")) {
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || pid == self_pid) {
      continue;
    }
    auto stat = host.ReadFile("/proc/" + pid + "/stat");
    if (!stat) continue;  // exited while we looked
    Proc p = parse(*stat);
    p.pid = pid;
    procs.push_back(std::move(p));
  }
  std::set<std::string> mine;  // tare's children and grandchildren
  if (!self_pid.empty()) {
    for (const auto& p : procs) {
      if (p.ppid == self_pid) mine.insert(p.pid);
    }
    std::set<std::string> grandchildren;
    for (const auto& p : procs) {
      if (mine.count(p.ppid)) grandchildren.insert(p.pid);
    }
    mine.insert(grandchildren.begin(), grandchildren.end());
  }
  std::vector<std::string> runnable;
  for (const auto& p : procs) {
    if (runnable.size() >= limit) break;
    if (mine.count(p.pid)) continue;
    bool running = p.state == 'R';
    // A process of one thread is its leader, whose state is read already. Reading every thread's
    // stat cost ~4 ms of the ~7 this scan took on the VM of bench/README.md (85 threads of 66
    // processes, ~40 us a /proc read), on the fingerprint's path before every run on a busy host.
    if (!running && p.threads != 1) {
      for (const auto& tid : host.ListDir("/proc/" + p.pid + "/task")) {
        auto task_stat = host.ReadFile("/proc/" + p.pid + "/task/" + tid + "/stat");
        if (task_stat && parse(*task_stat).state == 'R') {
          running = true;
          break;
        }
      }
    }
    if (running) runnable.push_back(Printable(p.comm) + " (pid " + p.pid + ")");
  }
  return runnable;
}

}  // namespace tare::env
