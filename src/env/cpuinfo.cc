#include "env/cpuinfo.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>
#include <utility>

namespace tare::env {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

bool ParseInt(std::string_view s, int* out) {
  s = Trim(s);
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

CpuInfo ParseCpuInfo(std::string_view text) {
  CpuInfo info;
  std::set<std::pair<std::string, std::string>> cores;
  std::set<std::string> packages;
  std::string physical_id;
  std::string core_id;
  bool first = true;  // still inside the first processor's block
  auto end_block = [&] {
    if (!core_id.empty()) cores.emplace(physical_id, core_id);
    if (!physical_id.empty()) packages.insert(physical_id);
    physical_id.clear();
    core_id.clear();
  };

  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = Trim(line.substr(0, colon));
    std::string_view value = Trim(line.substr(colon + 1));
    if (key == "processor") {
      if (info.logical_cpus > 0) {
        first = false;
        end_block();
      }
      ++info.logical_cpus;
    } else if (key == "physical id") {
      physical_id = value;
    } else if (key == "core id") {
      core_id = value;
    } else if (first) {
      if (key == "vendor_id") info.vendor = value;
      else if (key == "model name") info.model_name = value;
      else if (key == "cpu family") info.family = value;
      else if (key == "model") info.model = value;
      else if (key == "stepping") info.stepping = value;
      else if (key == "microcode") info.microcode = value;
      else if (key == "flags") {
        std::istringstream words{std::string(value)};
        for (std::string flag; words >> flag;) info.flags.push_back(flag);
      }
    }
  }
  end_block();
  info.physical_cores = static_cast<int>(cores.size());
  info.packages = static_cast<int>(packages.size());
  return info;
}

std::vector<int> ParseCpuList(std::string_view text) {
  std::set<int> cpus;
  std::string cleaned;
  for (char c : text) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') cleaned += c;
  }
  std::string_view rest = cleaned;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    size_t dash = part.find('-');
    int lo = 0;
    int hi = 0;
    if (dash == std::string_view::npos) {
      if (!ParseInt(part, &lo)) continue;
      hi = lo;
    } else if (!ParseInt(part.substr(0, dash), &lo) || !ParseInt(part.substr(dash + 1), &hi)) {
      continue;
    }
    // CONFIG_NR_CPUS tops out at 8192 today; a range past 65535 is garbage, not a machine.
    if (lo < 0 || hi < lo || hi > 65535) continue;
    for (int cpu = lo; cpu <= hi; ++cpu) cpus.insert(cpu);
  }
  return {cpus.begin(), cpus.end()};
}

std::string FormatCpuList(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace tare::env
