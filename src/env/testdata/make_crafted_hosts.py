#!/usr/bin/env python3
"""Writes the crafted host snapshots under hosts/ (the real one, firecracker-vm, comes from
snapshot_host.sh). Each is a small, plausible machine for one set of stability findings; what the
tests expect of each is in README.md. Re-run after editing: python3 make_crafted_hosts.py"""
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))

INTEL_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts "
               "acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc "
               "arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc cpuid aperfmperf pni "
               "pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid "
               "dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand "
               "lahf_lm abm 3dnowprefetch cpuid_fault epb intel_pt ssbd mba ibrs ibpb stibp "
               "ibrs_enhanced tpr_shadow flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 hle "
               "avx2 smep bmi2 erms invpcid rtm cqm rdt_a avx512f avx512dq rdseed adx smap "
               "avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec "
               "xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local split_lock_detect "
               "wbnoinvd dtherm ida arat pln pts avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes "
               "vpclmulqdq avx512_vnni avx512_bitalg tme avx512_vpopcntdq la57 rdpid fsrm md_clear "
               "pconfig flush_l1d arch_capabilities")
AMD_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx "
             "fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good "
             "nopl nonstop_tsc cpuid extd_apicid aperfmperf pni pclmulqdq monitor ssse3 fma cx16 "
             "pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand hypervisor lahf_lm "
             "cmp_legacy cr8_legacy abm sse4a misalignsse 3dnowprefetch topoext perfctr_core "
             "invpcid_single ssbd ibrs ibpb stibp vmmcall fsgsbase bmi1 avx2 smep bmi2 erms "
             "invpcid rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves clzero "
             "xsaveerptr rdpru wbnoinvd arat npt nrip_save vaes vpclmulqdq rdpid fsrm")


def write(root, path, text):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def cpuinfo(cpus, vendor, family, model, name, stepping, microcode, flags, cores_per_package, smt):
    blocks = []
    for cpu in cpus:
        core = cpu % cores_per_package if smt else cpu
        blocks.append(
            f"processor\t: {cpu}\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: {model}\n"
            f"model name\t: {name}\nstepping\t: {stepping}\nmicrocode\t: {microcode}\n"
            f"cpu MHz\t\t: 2900.000\ncache size\t: 30720 KB\nphysical id\t: 0\n"
            f"siblings\t: {len(cpus)}\ncore id\t\t: {core}\ncpu cores\t: {cores_per_package}\n"
            f"apicid\t\t: {cpu}\nfpu\t\t: yes\nflags\t\t: {flags}\nbogomips\t: 5800.00\n"
            f"clflush size\t: 64\ncache_alignment\t: 64\naddress sizes\t: 46 bits physical, 57 bits virtual\n"
            f"power management:\n\n")
    return "".join(blocks)


def common(root, cpus, caches, kernel, glibc):
    cpu = "/sys/devices/system/cpu"
    write(root, f"{cpu}/online", f"0-{len(cpus) - 1}\n")
    for i, (level, kind, size) in enumerate(caches):
        write(root, f"{cpu}/cpu0/cache/index{i}/level", f"{level}\n")
        write(root, f"{cpu}/cpu0/cache/index{i}/type", f"{kind}\n")
        write(root, f"{cpu}/cpu0/cache/index{i}/size", f"{size}\n")
    for name, state in [("meltdown", "Not affected"), ("spectre_v1", "Mitigation: usercopy/swapgs barriers"),
                        ("spectre_v2", "Mitigation: Enhanced / Automatic IBRS")]:
        write(root, f"{cpu}/vulnerabilities/{name}", state + "\n")
    write(root, "/etc/os-release", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\n'
          'VERSION_ID="12"\nID=debian\n')
    write(root, "/proc/sys/kernel/osrelease", kernel + "\n")
    write(root, "/_process/kernel_release", kernel + "\n")
    write(root, "/_process/glibc_version", glibc + "\n")
    write(root, "/_process/libc_path", "/usr/lib/x86_64-linux-gnu/libc.so.6\n")
    write(root, "/_process/loader_path", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2\n")
    write(root, "/usr/lib/x86_64-linux-gnu/libc.so.6", f"stand-in for libc {glibc}\n")
    write(root, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", f"stand-in for the loader {glibc}\n")
    write(root, "/proc/meminfo", "MemTotal:       65536000 kB\nMemFree:        60000000 kB\n"
          "MemAvailable:   62000000 kB\nBuffers:          100000 kB\n")


def cgroup_v2(root, path, limits):
    """limits: {cgroup dir relative to the mount: cpu.max contents}"""
    write(root, "/proc/self/mountinfo",
          "35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 "
          "rw,nsdelegate,memory_recursiveprot\n")
    write(root, "/proc/self/cgroup", f"0::{path}\n")
    for rel, value in limits.items():
        write(root, f"/sys/fs/cgroup{rel}/cpu.max", value + "\n")


def baremetal_tuned(root):
    """Bare metal tuned for measuring: performance governor, turbo off, ASLR off, CPUs 2-3 isolated
    with nohz_full, SMT off, perf_event_paranoid 1, no cgroup quota. Every check is ok."""
    cpus = list(range(8))
    write(root, "/proc/cpuinfo", cpuinfo(cpus, "GenuineIntel", 6, 106, "Intel(R) Xeon(R) Gold 6330 CPU @ 2.00GHz",
                                         6, "0xd0003a5", INTEL_FLAGS, 8, smt=False))
    common(root, cpus, [(1, "Data", "48K"), (1, "Instruction", "32K"), (2, "Unified", "1280K"),
                        (3, "Unified", "43008K")], "6.1.0-18-amd64", "2.36")
    cpu = "/sys/devices/system/cpu"
    for c in cpus:
        write(root, f"{cpu}/cpu{c}/cpufreq/scaling_governor", "performance\n")
        write(root, f"{cpu}/cpu{c}/topology/core_id", f"{c}\n")
        write(root, f"{cpu}/cpu{c}/topology/physical_package_id", "0\n")
    write(root, f"{cpu}/intel_pstate/no_turbo", "1\n")
    write(root, f"{cpu}/smt/active", "0\n")
    write(root, f"{cpu}/smt/control", "off\n")
    write(root, f"{cpu}/isolated", "2-3\n")
    write(root, f"{cpu}/nohz_full", "2-3\n")
    write(root, "/proc/cmdline", "BOOT_IMAGE=/vmlinuz-6.1.0-18-amd64 root=UUID=0000 ro quiet "
          "isolcpus=managed_irq,domain,2-3 nohz_full=2-3 rcu_nocbs=2-3\n")
    write(root, "/proc/sys/kernel/randomize_va_space", "0\n")
    write(root, "/proc/sys/kernel/perf_event_paranoid", "1\n")
    write(root, "/proc/loadavg", "0.04 0.06 0.01 1/412 23877\n")
    write(root, "/proc/self/status", "Name:\ttare\nPid:\t23877\nCpus_allowed_list:\t0-7\n")
    write(root, "/proc/self/stat", "23877 (tare) R 1 23877\n")
    cgroup_v2(root, "/user.slice/user-1000.slice/session-3.scope",
              {"/user.slice": "max 100000", "/user.slice/user-1000.slice": "max 100000",
               "/user.slice/user-1000.slice/session-3.scope": "max 100000"})
    write(root, "/sys/class/dmi/id/product_name", "PowerEdge R650\n")
    write(root, "/_process/environ", "PATH=/usr/bin:/bin\nGITHUB_TOKEN=ghp_planted_secret_never_print\n")
    write(root, "/_process/valgrind_version", "valgrind-3.19.0\n")


def baremetal_turbo(root):
    """A busy desktop: powersave governor, intel_pstate turbo on, ASLR on, SMT on, no isolated
    CPUs, perf_event_paranoid 2, load 3.1 on 8 CPUs with a compiler running, allocator tunables
    set (and a planted secret that must never appear)."""
    cpus = list(range(8))
    write(root, "/proc/cpuinfo", cpuinfo(cpus, "GenuineIntel", 6, 165, "Intel(R) Core(TM) i7-10700 CPU @ 2.90GHz",
                                         5, "0xf8", INTEL_FLAGS, 4, smt=True))
    common(root, cpus, [(1, "Data", "32K"), (1, "Instruction", "32K"), (2, "Unified", "256K"),
                        (3, "Unified", "16384K")], "6.1.0-18-amd64", "2.36")
    cpu = "/sys/devices/system/cpu"
    for c in cpus:
        write(root, f"{cpu}/cpu{c}/cpufreq/scaling_governor", "powersave\n")
    write(root, f"{cpu}/intel_pstate/no_turbo", "0\n")
    write(root, f"{cpu}/smt/active", "1\n")
    write(root, f"{cpu}/isolated", "\n")
    write(root, f"{cpu}/nohz_full", "(null)\n")
    write(root, "/proc/cmdline", "BOOT_IMAGE=/vmlinuz-6.1.0-18-amd64 root=UUID=0000 ro quiet splash\n")
    write(root, "/proc/sys/kernel/randomize_va_space", "2\n")
    write(root, "/proc/sys/kernel/perf_event_paranoid", "2\n")
    write(root, "/proc/loadavg", "3.10 2.05 1.20 4/913 5000\n")
    write(root, "/proc/self/status", "Name:\ttare\nPid:\t5000\nCpus_allowed_list:\t0-7\n")
    write(root, "/proc/self/stat", "5000 (tare) R 1 5000\n")
    write(root, "/proc/5000/stat", "5000 (tare) R 1 5000\n")                   # this process: skipped
    write(root, "/proc/4242/stat", "4242 (cc1plus) R 4200 4242\n")             # running
    write(root, "/proc/777/stat", "777 (my (odd) app) S 1 777\n")               # leader sleeps...
    write(root, "/proc/777/task/777/stat", "777 (my (odd) app) S 1 777\n")
    write(root, "/proc/777/task/779/stat", "779 (worker) R 1 777\n")            # ...a thread runs
    write(root, "/proc/100/stat", "100 (sshd) S 1 100\n")                       # sleeping
    write(root, "/proc/100/task/100/stat", "100 (sshd) S 1 100\n")
    cgroup_v2(root, "/user.slice", {"/user.slice": "max 100000"})
    write(root, "/_process/environ",
          "PATH=/usr/bin:/bin\nAWS_SECRET_ACCESS_KEY=planted-secret-never-print\n"
          "MALLOC_ARENA_MAX=2\nGLIBC_TUNABLES=glibc.malloc.tcache_count=0\nMALLOCX=not-allocator\n"
          "LD_PRELOAD=/opt/secret/libx.so\n")
    write(root, "/_process/valgrind_version", "valgrind-3.19.0\n")


def amd_boost_container(root):
    """A Xen guest running tare in a container: cpufreq boost on, mixed governors, ASLR partial,
    perf_event_paranoid 3 (Debian), a cgroup v2 quota whose parent is tighter than the leaf, no
    SMT information, no valgrind."""
    cpus = list(range(4))
    write(root, "/proc/cpuinfo", cpuinfo(cpus, "AuthenticAMD", 25, 1, "AMD EPYC 7R13 Processor", 1,
                                         "0xa0011d1", AMD_FLAGS, 4, smt=False))
    common(root, cpus, [(1, "Data", "32K"), (1, "Instruction", "32K"), (2, "Unified", "512K"),
                        (3, "Unified", "32768K")], "6.1.0-18-cloud-amd64", "2.36")
    cpu = "/sys/devices/system/cpu"
    for c, governor in zip(cpus, ["schedutil", "schedutil", "performance", "performance"]):
        write(root, f"{cpu}/cpu{c}/cpufreq/scaling_governor", governor + "\n")
    write(root, f"{cpu}/cpufreq/boost", "1\n")
    write(root, "/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/xvda1 ro console=hvc0\n")
    write(root, "/proc/sys/kernel/randomize_va_space", "1\n")
    write(root, "/proc/sys/kernel/perf_event_paranoid", "3\n")
    write(root, "/proc/loadavg", "0.10 0.20 0.30 1/120 77\n")
    write(root, "/proc/self/status", "Name:\ttare\nPid:\t77\nCpus_allowed_list:\t0-3\n")
    write(root, "/proc/self/stat", "77 (tare) R 1 77\n")
    cgroup_v2(root, "/system.slice/docker-abc123.scope",
              {"/system.slice": "150000 100000", "/system.slice/docker-abc123.scope": "250000 100000"})
    write(root, "/sys/hypervisor/type", "xen\n")
    write(root, "/sys/class/dmi/id/product_name", "HVM domU\n")
    write(root, "/_process/environ", "PATH=/usr/bin:/bin\nMALLOC_CONF=narenas:1\n")


for name, build in [("baremetal-tuned", baremetal_tuned), ("baremetal-turbo", baremetal_turbo),
                    ("amd-boost-container", amd_boost_container)]:
    root = os.path.join(HERE, "hosts", name)
    shutil.rmtree(root, ignore_errors=True)
    build(root)
