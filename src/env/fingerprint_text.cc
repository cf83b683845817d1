#include "env/fingerprint_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>
#include <vector>

#include "base/units.h"
#include "env/stability_checks.h"

namespace tare::env {
namespace {

struct Group {
  std::string_view prefix;  // the key's first dotted component
  std::string_view title;
};

constexpr Group kGroups[] = {
    {"cpu", "CPU"},
    {"os", "Operating system"},
    {"mem", "Memory"},
    {"cgroup", "Limits"},
    {"host", "Machine"},
    {"libc", "C library and loader"},
    {"loader", "C library and loader"},
    {"valgrind", "Tools"},
    {"env", "Environment"},
};

std::string_view TitleOf(std::string_view key) {
  std::string_view prefix = key.substr(0, key.find('.'));
  for (const auto& g : kGroups) {
    if (g.prefix == prefix) return g.title;
  }
  return "Other";
}

// Byte counts read better with a unit: "23.5 GiB (25276502016)".
std::string Display(const FingerprintKey& k) {
  std::string_view key = k.key;
  if (key.size() > 6 && key.substr(key.size() - 6) == "_bytes") {
    uint64_t bytes = 0;
    auto [ptr, ec] = std::from_chars(k.value.data(), k.value.data() + k.value.size(), bytes);
    if (ec == std::errc() && ptr == k.value.data() + k.value.size()) {
      return fmt::format("{} ({})", FormatBytes(static_cast<double>(bytes)), k.value);
    }
  }
  return k.value;
}

}  // namespace

std::string FormatFingerprintText(const Fingerprint& fp) {
  size_t width = 0;
  for (const auto& k : fp.keys) width = std::max(width, k.key.size());
  for (const auto& c : fp.checks) width = std::max(width, c.name.size());

  std::string out = fmt::format(
      "Host fingerprint (hard digest {})\n"
      "  * marks a hard key: results measured under different hard values are never pooled\n",
      fp.HardDigest().substr(0, 16));

  // Groups in order of first appearance; keys keep their order within a group.
  std::vector<std::string_view> titles;
  for (const auto& k : fp.keys) {
    std::string_view t = TitleOf(k.key);
    if (std::find(titles.begin(), titles.end(), t) == titles.end()) titles.push_back(t);
  }
  for (std::string_view title : titles) {
    out += fmt::format("\n{}\n", title);
    for (const auto& k : fp.keys) {
      if (TitleOf(k.key) != title) continue;
      out += fmt::format("  {} {:<{}}  {}\n", k.hard ? '*' : ' ', k.key, width, Display(k));
    }
  }

  if (!fp.checks.empty()) {
    int warnings = 0;
    for (const auto& c : fp.checks) warnings += c.level == CheckLevel::kWarn ? 1 : 0;
    out += fmt::format("\nStability checks ({} warning{})\n", warnings, warnings == 1 ? "" : "s");
    for (const auto& c : fp.checks) {
      out += fmt::format("  {:<4}  {:<{}}  {}\n", CheckLevelName(c.level), c.name, width, c.finding);
      if (!c.fix.empty()) out += fmt::format("        {:<{}}  fix: {}\n", "", width, c.fix);
    }
  }
  return out;
}

}  // namespace tare::env
