#!/bin/sh
# Copies the files tare's fingerprint reads from this machine into hosts/<name>/, in the layout
# DirectoryHost serves (src/env/host.h). Review the copy before committing: /proc/cmdline is cut at "--",
# mountinfo keeps only cgroup mounts; the environment is NOT copied (_process/environ is written
# by hand, with a planted secret the tests check never leaks).
#   usage: src/env/testdata/snapshot_host.sh <name>
set -eu
name=${1:?usage: snapshot_host.sh <name>}
dest=$(dirname "$0")/hosts/$name
mkdir -p "$dest"

copy() {  # copy PATH if readable, keeping its directory structure
  for p in "$@"; do
    [ -r "$p" ] && [ -f "$p" ] || continue
    mkdir -p "$dest$(dirname "$p")"
    cat "$p" > "$dest$p" 2>/dev/null || rm -f "$dest$p"
  done
}

copy /proc/cpuinfo /proc/meminfo /proc/loadavg /etc/os-release \
     /proc/sys/kernel/osrelease /proc/sys/kernel/randomize_va_space \
     /proc/sys/kernel/perf_event_paranoid /proc/self/cgroup \
     /sys/hypervisor/type /sys/class/dmi/id/product_name
# Only the kernel's own parameters (what follows "--" goes to init), and only the mounts the
# fingerprint reads (cgroup hierarchies).
sed 's/ -- .*//' /proc/cmdline > "$dest/proc/cmdline"
grep -E ' - cgroup2? ' /proc/self/mountinfo > "$dest/proc/self/mountinfo"
mkdir -p "$dest/proc/self"
grep -E '^(Name|Pid|Cpus_allowed_list):' /proc/self/status > "$dest/proc/self/status"
echo "$$ (snapshot) S" > "$dest/proc/self/stat"
cpu=/sys/devices/system/cpu
copy $cpu/online $cpu/isolated $cpu/nohz_full $cpu/smt/active $cpu/smt/control \
     $cpu/intel_pstate/no_turbo $cpu/cpufreq/boost $cpu/vulnerabilities/*
for c in $cpu/cpu[0-9]*; do
  copy $c/topology/core_id $c/topology/physical_package_id $c/cpufreq/scaling_governor
done
for i in $cpu/cpu0/cache/index*; do copy $i/level $i/type $i/size; done
# cgroup settings along this process's paths (v2 and v1 cpu)
for f in $(find /sys/fs/cgroup -maxdepth 3 \( -name cpu.max -o -name cpu.cfs_quota_us -o -name cpu.cfs_period_us \) 2>/dev/null); do
  copy "$f"
done
mkdir -p "$dest/_process" "$dest/lib"
uname -r > "$dest/_process/kernel_release"
getconf GNU_LIBC_VERSION | awk '{print $2}' > "$dest/_process/glibc_version"
echo /lib/libc.so.6 > "$dest/_process/libc_path"
echo /lib/ld-linux-x86-64.so.2 > "$dest/_process/loader_path"
echo "stand-in for libc ($name)" > "$dest/lib/libc.so.6"
echo "stand-in for the loader ($name)" > "$dest/lib/ld-linux-x86-64.so.2"
if command -v valgrind >/dev/null; then valgrind --version > "$dest/_process/valgrind_version"; fi
