// Parsers for the CPU descriptions Linux exposes as text: /proc/cpuinfo and CPU lists such as
// "0-3,8-11" (/sys/devices/system/cpu/online, isolated, Cpus_allowed_list).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tare::env {

// /proc/cpuinfo as x86 Linux writes it. Identification fields are those of the first processor
// (all processors of a package report the same ones); empty when the architecture does not print
// them (arm64 has no "model name").
struct CpuInfo {
  std::string vendor;      // vendor_id: "GenuineIntel", "AuthenticAMD"
  std::string model_name;  // "AMD EPYC 9R45"
  std::string family;      // cpu family (decimal, as printed)
  std::string model;       // model
  std::string stepping;
  std::string microcode;           // "0x1000065"
  std::vector<std::string> flags;  // as listed for the first processor
  int logical_cpus = 0;            // "processor" entries: online logical CPUs
  int physical_cores = 0;          // distinct (physical id, core id) pairs; 0 when not printed
  int packages = 0;                // distinct physical ids; 0 when not printed
};

CpuInfo ParseCpuInfo(std::string_view text);

// CPU ids in a kernel CPU list ("0-3,8,10-11"), ascending. Whitespace is ignored; an empty list
// (e.g. /sys/devices/system/cpu/isolated with nothing isolated) gives none. Malformed parts are
// skipped rather than guessed at.
std::vector<int> ParseCpuList(std::string_view text);
// The kernel's compact form of ascending CPU ids: {0,1,2,3,8} -> "0-3,8"; {} -> "".
std::string FormatCpuList(const std::vector<int>& cpus);

}  // namespace tare::env
