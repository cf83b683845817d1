#include "env/cgroup_limit.h"

#include <fmt/format.h>

#include <charconv>
#include <sstream>
#include <vector>

namespace tare::env {
namespace {

struct Mount {
  std::string root;  // the path inside the cgroup filesystem mounted here
  std::string mount_point;
  std::string fs_type;  // "cgroup2" or "cgroup"
  std::string super_options;
};

// mountinfo escapes space, tab, newline and backslash as \ooo octal.
std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      int value = 0;
      bool octal = true;
      for (size_t j = 1; j <= 3; ++j) {
        char c = s[i + j];
        if (c < '0' || c > '7') octal = false;
        value = value * 8 + (c - '0');
      }
      if (octal) {
        out += static_cast<char>(value);
        i += 3;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

std::vector<Mount> CgroupMounts(const Host& host) {
  std::vector<Mount> mounts;
  std::istringstream in(host.ReadFile("/proc/self/mountinfo").value_or(""));
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::vector<std::string> parts;
    for (std::string f; fields >> f;) parts.push_back(f);
    size_t dash = 0;
    while (dash < parts.size() && parts[dash] != "-") ++dash;
    if (dash < 6 || dash + 2 >= parts.size()) continue;
    Mount m{Unescape(parts[3]), Unescape(parts[4]), parts[dash + 1], dash + 3 < parts.size() ? parts[dash + 3] : ""};
    if (m.fs_type == "cgroup2" || m.fs_type == "cgroup") mounts.push_back(std::move(m));
  }
  return mounts;
}

bool HasToken(const std::string& list, const std::string& token) {
  std::istringstream in(list);
  for (std::string t; std::getline(in, t, ',');) {
    if (t == token) return true;
  }
  return false;
}

// The directory of `cgroup_path` under a mount of the hierarchy; "" if the path lies outside.
std::string CgroupDirectory(const Mount& m, const std::string& cgroup_path) {
  std::string rel = cgroup_path;
  if (m.root != "/") {
    if (rel.rfind(m.root, 0) != 0) return "";
    rel = rel.substr(m.root.size());
  }
  while (!rel.empty() && rel.back() == '/') rel.pop_back();
  if (!rel.empty() && rel.front() != '/') rel = "/" + rel;
  return m.mount_point + rel;
}

std::string Parent(const std::string& dir) {
  size_t slash = dir.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : dir.substr(0, slash);
}

bool ParseLong(const std::string& s, long long* out) {
  std::string t;
  for (char c : s) {
    if (c != '\n' && c != ' ') t += c;
  }
  if (t.empty()) return false;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), *out);
  return ec == std::errc() && ptr == t.data() + t.size();
}

void Tighten(CgroupCpuLimit* limit, double cpus, std::string setting, const std::string& dir) {
  if (!limit->cpus || cpus < *limit->cpus) {
    limit->cpus = cpus;
    limit->setting = std::move(setting);
    limit->directory = dir;
  }
}

// Walks from `dir` up to the mount point, applying `read_level` at each directory.
template <typename ReadLevel>
void WalkUp(const std::string& dir, const std::string& mount_point, ReadLevel read_level) {
  std::string d = dir;
  for (int depth = 0; depth < 64; ++depth) {
    read_level(d);
    if (d == mount_point || d.size() <= mount_point.size()) break;
    d = Parent(d);
  }
}

}  // namespace

CgroupCpuLimit ReadCgroupCpuLimit(const Host& host) {
  CgroupCpuLimit limit;
  std::vector<Mount> mounts = CgroupMounts(host);
  std::istringstream in(host.ReadFile("/proc/self/cgroup").value_or(""));
  for (std::string line; std::getline(in, line);) {
    // hierarchy-id:controller-list:path; v2 is "0::/path".
    size_t c1 = line.find(':');
    size_t c2 = c1 == std::string::npos ? std::string::npos : line.find(':', c1 + 1);
    if (c2 == std::string::npos) continue;
    std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
    std::string path = line.substr(c2 + 1);
    bool v2 = line.substr(0, c1) == "0" && controllers.empty();
    if (!v2 && !HasToken(controllers, "cpu")) continue;
    for (const Mount& m : mounts) {
      if (v2 ? m.fs_type != "cgroup2" : (m.fs_type != "cgroup" || !HasToken(m.super_options, "cpu"))) {
        continue;
      }
      std::string dir = CgroupDirectory(m, path);
      if (dir.empty()) continue;
      WalkUp(dir, m.mount_point, [&](const std::string& d) {
        if (v2) {
          auto max = host.ReadFile(d + "/cpu.max");
          if (!max) return;  // the root cgroup, or cpu controller not enabled here
          limit.found = true;
          std::istringstream words(*max);
          std::string quota;
          std::string period;
          words >> quota >> period;
          long long quota_us = 0;
          long long period_us = 0;
          // The kernel never holds a quota below 1 ms; 0 or a negative one is not a limit of
          // zero CPUs but a file that is not what the kernel writes (tests/fuzz/crashes/cgroup).
          if (quota == "max" || !ParseLong(quota, &quota_us) || !ParseLong(period, &period_us) || quota_us <= 0 ||
              period_us <= 0) {
            return;
          }
          Tighten(&limit, static_cast<double>(quota_us) / static_cast<double>(period_us),
                  fmt::format("cpu.max {} {}", quota, period), d);
        } else {
          auto quota = host.ReadFile(d + "/cpu.cfs_quota_us");
          auto period = host.ReadFile(d + "/cpu.cfs_period_us");
          if (!quota || !period) return;
          limit.found = true;
          long long quota_us = 0;
          long long period_us = 0;
          if (!ParseLong(*quota, &quota_us) || !ParseLong(*period, &period_us) || quota_us <= 0 || period_us <= 0) {
            return;  // -1 = no limit at this level; 0 ("-0") is not a setting the kernel accepts
          }
          Tighten(&limit, static_cast<double>(quota_us) / static_cast<double>(period_us),
                  fmt::format("cpu.cfs_quota_us {} / cpu.cfs_period_us {}", quota_us, period_us), d);
        }
      });
      break;  // one mount per hierarchy is enough (bind mounts show the same files)
    }
  }
  return limit;
}

}  // namespace tare::env
