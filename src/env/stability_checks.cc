#include "env/stability_checks.h"

#include <fmt/format.h>

#include <algorithm>

namespace tare::env {
namespace {

StabilityCheck Check(std::string name, CheckLevel level, std::string finding, std::string fix = "") {
  return {std::move(name), level, std::move(finding), std::move(fix)};
}

std::string Join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

StabilityCheck Governor(const HostFacts& f) {
  if (f.governors.empty()) {
    return Check("governor", CheckLevel::kInfo,
                 "no cpufreq governor is exposed (no /sys/devices/system/cpu/cpu*/cpufreq; usual in "
                 "VMs): the clock is the hypervisor's or firmware's to set",
                 "nothing to set here; on bare metal load a cpufreq driver, then "
                 "sudo cpupower frequency-set -g performance");
  }
  int total = 0;
  for (const auto& [name, count] : f.governors) total += count;
  auto performance = f.governors.find("performance");
  if (performance != f.governors.end() && performance->second == total) {
    return Check("governor", CheckLevel::kOk, fmt::format("scaling_governor is 'performance' on all {} CPUs", total));
  }
  std::vector<std::string> others;
  for (const auto& [name, count] : f.governors) {
    if (name != "performance") others.push_back(fmt::format("'{}' on {} of {} CPUs", name, count, total));
  }
  return Check("governor", CheckLevel::kWarn,
               fmt::format("scaling_governor is {}: the clock follows the load, so the first "
                           "iterations and short benchmarks run slower and vary more",
                           Join(others, ", ")),
               "sudo cpupower frequency-set -g performance   (restore later with -g <previous>)");
}

StabilityCheck Turbo(const HostFacts& f) {
  if (!f.turbo) {
    return Check("turbo", CheckLevel::kInfo,
                 "no turbo switch is exposed (neither intel_pstate/no_turbo nor cpufreq/boost; usual "
                 "in VMs): boost is the hypervisor's or firmware's to decide",
                 "nothing to set here; on bare metal without either switch, disable turbo/boost in "
                 "the firmware setup");
  }
  std::string setting = f.turbo_source == "intel_pstate/no_turbo"
                            ? fmt::format("intel_pstate/no_turbo = {}", *f.turbo ? 0 : 1)
                            : fmt::format("{} = {}", f.turbo_source, *f.turbo ? 1 : 0);
  if (!*f.turbo) return Check("turbo", CheckLevel::kOk, fmt::format("turbo is off ({})", setting));
  std::string fix;
  if (f.turbo_source == "intel_pstate/no_turbo") {
    fix =
        "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo   (intel_pstate; "
        "write 0 to turn it back on)";
  } else if (f.turbo_source == "cpufreq/boost") {
    fix =
        "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost   (acpi-cpufreq / amd-pstate; "
        "write 1 to turn it back on)";
  } else {
    fix =
        "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/policy*/boost   (per-policy boost; "
        "write 1 to turn it back on)";
  }
  return Check("turbo", CheckLevel::kWarn,
               fmt::format("turbo is on ({}): the clock rises and falls with temperature and with how "
                           "many cores are busy, so the same code takes different times run to run",
                           setting),
               fix);
}

StabilityCheck Aslr(const HostFacts& f) {
  if (!f.aslr) {
    return Check("aslr", CheckLevel::kInfo, "/proc/sys/kernel/randomize_va_space is unreadable");
  }
  if (*f.aslr == 0) {
    return Check("aslr", CheckLevel::kOk, "ASLR is off (randomize_va_space = 0)");
  }
  return Check("aslr", CheckLevel::kInfo,
               fmt::format("ASLR is on (randomize_va_space = {}): stack, heap and library addresses "
                           "change every run, which moves alignment and cache-set use between "
                           "samples; tare turns it off per child for --instrument sim, other "
                           "instruments measure with it on",
                           *f.aslr),
               "per command: setarch -R <command> (what sim does); system-wide: sudo sysctl "
               "kernel.randomize_va_space=0 (weakens security; restore with =2)");
}

StabilityCheck Load(const HostFacts& f) {
  if (!f.load1 || f.logical_cpus <= 0) {
    return Check("load", CheckLevel::kInfo, "the load average is unreadable (/proc/loadavg)");
  }
  double threshold = 0.1 * f.logical_cpus;
  if (!LoadIsHigh(*f.load1, f.logical_cpus)) {
    return Check("load", CheckLevel::kOk,
                 fmt::format("1-minute load average {:.2f} is at most {:g} (0.1 x {} CPUs)", *f.load1, threshold,
                             f.logical_cpus));
  }
  std::string running = f.runnable_processes.empty()
                            ? "nothing else is running at this instant (a burst, or work that just ended)"
                            : "running now: " + Join(f.runnable_processes, ", ");
  return Check("load", CheckLevel::kWarn,
               fmt::format("1-minute load average {:.2f} is above {:g} (0.1 x {} CPUs): other work "
                           "competes with the benchmark for CPU time and caches; {}",
                           *f.load1, threshold, f.logical_cpus, running),
               "wait for it to finish or stop it (top -o %CPU shows what is busy), then measure");
}

StabilityCheck Virtualized(const HostFacts& f) {
  if (f.hypervisor.empty()) {
    return Check("virtualized", CheckLevel::kInfo,
                 "cannot tell whether this is a VM (no x86 cpuinfo flags, no /sys/hypervisor/type)");
  }
  if (f.hypervisor == "none") {
    return Check("virtualized", CheckLevel::kOk, "bare metal: no hypervisor flag in /proc/cpuinfo");
  }
  std::vector<std::string> evidence;
  if (f.hypervisor_flag) evidence.push_back("the cpuinfo 'hypervisor' flag");
  if (f.hypervisor != "present") evidence.push_back("/sys/hypervisor/type '" + f.hypervisor + "'");
  if (!f.product_name.empty()) evidence.push_back("product '" + f.product_name + "'");
  return Check("virtualized", CheckLevel::kWarn,
               fmt::format("running in a virtual machine ({}): steal time, shared caches and other "
                           "tenants make timings noisier than on bare metal",
                           Join(evidence, ", ")),
               "take more samples and compare only runs from the same host type; prefer "
               "--instrument sim, whose instruction counts do not depend on the host's timing");
}

StabilityCheck Cpus(const HostFacts& f) {
  if (f.logical_cpus <= 0) return Check("cpus", CheckLevel::kInfo, "the number of CPUs is unknown");
  int usable = f.logical_cpus;
  std::string detail = fmt::format("{} online", f.logical_cpus);
  if (!f.allowed_cpus.empty() && static_cast<int>(f.allowed_cpus.size()) < usable) {
    usable = static_cast<int>(f.allowed_cpus.size());
    detail += fmt::format(", {} in this process's affinity", usable);
  }
  if (usable >= 4) {
    return Check("cpus", CheckLevel::kOk, fmt::format("{} CPUs usable ({})", usable, detail));
  }
  return Check("cpus", CheckLevel::kWarn,
               fmt::format("only {} CPU{} usable ({}): tare, the benchmark and the system compete "
                           "for them, so timings pick up tare's own work",
                           usable, usable == 1 ? "" : "s", detail),
               "measure on a machine with at least 4 CPUs, or keep the others idle and pin the "
               "benchmark to one CPU (taskset -c <cpu> tare ...)");
}

StabilityCheck PerfEventParanoid(const HostFacts& f) {
  if (!f.perf_event_paranoid) {
    return Check("perf_event_paranoid", CheckLevel::kInfo,
                 "/proc/sys/kernel/perf_event_paranoid is absent: this kernel has no perf events, "
                 "so hardware and software counters are unavailable",
                 "use a kernel built with CONFIG_PERF_EVENTS, or --instrument sim for instruction counts");
  }
  int level = *f.perf_event_paranoid;
  if (level <= 1) {
    return Check("perf_event_paranoid", CheckLevel::kOk,
                 fmt::format("perf_event_paranoid = {}: counters can be opened on child processes", level));
  }
  std::string finding = level == 2 ? "perf_event_paranoid = 2: without CAP_PERFMON only user-space events can be "
                                     "counted; hardware counters that include kernel time need <= 1"
                                   : fmt::format(
                                         "perf_event_paranoid = {}: perf_event_open is refused to unprivileged "
                                         "users (Debian's level 3), so no counters at all without CAP_PERFMON",
                                         level);
  return Check("perf_event_paranoid", CheckLevel::kWarn, finding,
               "sudo sysctl kernel.perf_event_paranoid=1 (persist in /etc/sysctl.d/), or grant "
               "CAP_PERFMON: sudo setcap cap_perfmon+ep \"$(command -v tare)\"");
}

StabilityCheck Cgroup(const HostFacts& f) {
  if (!f.cgroup.found) {
    return Check("cgroup", CheckLevel::kInfo,
                 "no cgroup CPU controller found for this process (/proc/self/cgroup, mountinfo)");
  }
  if (!f.cgroup.cpus) {
    return Check("cgroup", CheckLevel::kOk, "no CPU quota on this process's cgroup or its parents");
  }
  return Check("cgroup", CheckLevel::kWarn,
               fmt::format("this process's cgroup may use {:g} CPUs ({} in {}): a benchmark that "
                           "bursts past the quota is paused until the next period, which shows up "
                           "as long, rare outliers",
                           *f.cgroup.cpus, f.cgroup.setting, f.cgroup.directory),
               "run outside the limited cgroup (e.g. without docker --cpus or systemd CPUQuota=), or "
               "raise the quota above the number of CPUs the benchmark uses");
}

StabilityCheck Isolation(const HostFacts& f) {
  if (!f.isolated_cpus) {
    return Check("isolation", CheckLevel::kInfo, "cannot tell whether any CPUs are isolated");
  }
  if (!f.isolated_cpus->empty()) {
    std::string cpus = FormatCpuList(*f.isolated_cpus);
    std::string nohz =
        f.nohz_full_cpus && !f.nohz_full_cpus->empty() ? ", nohz_full " + FormatCpuList(*f.nohz_full_cpus) : "";
    return Check("isolation", CheckLevel::kOk, fmt::format("CPUs {} are isolated from the scheduler{}", cpus, nohz),
                 fmt::format("pin runs there: taskset -c {} tare ...", cpus));
  }
  return Check("isolation", CheckLevel::kInfo,
               "no CPUs are isolated: the scheduler may put other tasks and interrupts on the "
               "benchmark's CPU",
               "for the quietest runs boot with isolcpus=<cpus> nohz_full=<cpus> rcu_nocbs=<cpus> and "
               "pin runs there with taskset -c <cpus>");
}

StabilityCheck Smt(const HostFacts& f) {
  if (!f.smt_active) {
    return Check("smt", CheckLevel::kInfo, "SMT state unknown (/sys/devices/system/cpu/smt/active)");
  }
  if (!*f.smt_active) return Check("smt", CheckLevel::kOk, "SMT is off: no sibling hyperthreads");
  return Check("smt", CheckLevel::kInfo,
               "SMT is on: work on a sibling hyperthread shares the benchmark core's caches and "
               "execution units",
               "echo off | sudo tee /sys/devices/system/cpu/smt/control, or keep the sibling idle");
}

StabilityCheck Valgrind(const HostFacts& f) {
  if (f.valgrind_version) {
    return Check("valgrind", CheckLevel::kOk, fmt::format("{} found: --instrument sim can run", *f.valgrind_version));
  }
  return Check("valgrind", CheckLevel::kWarn,
               "valgrind was not found on PATH (or `valgrind --version` failed): --instrument sim "
               "cannot run",
               "sudo apt-get install -y valgrind");
}

}  // namespace

std::vector<StabilityCheck> RunStabilityChecks(const HostFacts& f) {
  std::vector<StabilityCheck> checks = {Governor(f),          Turbo(f),  Aslr(f),      Load(f), Virtualized(f), Cpus(f),
                                        PerfEventParanoid(f), Cgroup(f), Isolation(f), Smt(f)};
  if (f.valgrind_probed) checks.push_back(Valgrind(f));
  return checks;
}

const char* CheckLevelName(CheckLevel level) {
  switch (level) {
    case CheckLevel::kOk:
      return "ok";
    case CheckLevel::kWarn:
      return "warn";
    case CheckLevel::kInfo:
      return "info";
  }
  return "info";
}

}  // namespace tare::env
