// The CPU bandwidth limit of this process's cgroup, the way the scheduler enforces it.
//
// cgroup v2: cpu.max ("max 100000" or "<quota_us> <period_us>") of this process's cgroup and of
// every ancestor up to the mount point; the tightest level wins, since a child can never run
// more than its parent allows. cgroup v1 (and hybrid hosts, where the cpu controller often still
// lives in v1): cpu.cfs_quota_us (-1 = none) over cpu.cfs_period_us, walked the same way. The
// cgroup directory is the mount point from /proc/self/mountinfo joined with this process's path
// from /proc/self/cgroup, relative to the mount's root (which is not "/" inside containers
// without a cgroup namespace).
#pragma once

#include <optional>
#include <string>

#include "env/host.h"

namespace tare::env {

struct CgroupCpuLimit {
  bool found = false;          // a cgroup hierarchy with a cpu controller was found
  std::optional<double> cpus;  // quota / period of the tightest level; nullopt = unlimited
  std::string setting;         // as written: "cpu.max 150000 100000", "cpu.cfs_quota_us 50000 / 100000"
  std::string directory;       // the cgroup directory whose setting is the tightest
};

CgroupCpuLimit ReadCgroupCpuLimit(const Host& host);

}  // namespace tare::env
