// Fuzzes the cgroup CPU-limit reader (src/env/cgroup_limit.h) over a crafted machine: the
// input is a set of files in `head`'s multi-file form,
//   ==> /proc/self/mountinfo <==
//   35 24 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw
//   ==> /proc/self/cgroup <==
//   0::/a/b
//   ==> /sys/fs/cgroup/a/cpu.max <==
//   200000 100000
// served by an in-memory Host. Container runtimes write these files, and paths inside them
// (mount roots, "..", deleted cgroups) are not what a parser expects; the reader must never
// crash or loop, and a limit it reports is a positive finite CPU count.
#include <cmath>
#include <map>
#include <string>

#include "env/cgroup_limit.h"
#include "env/host.h"
#include "fuzz_check.h"
#include "memory_host.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tare::fuzz::MemoryHost host(tare::fuzz::AsText(data, size));
  tare::env::CgroupCpuLimit limit = tare::env::ReadCgroupCpuLimit(host);
  if (limit.cpus) TARE_FUZZ_CHECK(std::isfinite(*limit.cpus) && *limit.cpus > 0);
  return 0;
}
