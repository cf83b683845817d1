#include "cli/invocation.h"

#include <CLI/CLI.hpp>

#include <algorithm>

namespace tare::cli {

namespace {
std::vector<std::string>& InvocationStorage() {
  static std::vector<std::string> argv;
  return argv;
}
}  // namespace

void SetInvocation(int argc, char** argv) { InvocationStorage().assign(argv, argv + argc); }
const std::vector<std::string>& Invocation() { return InvocationStorage(); }

SplitArgs SplitAtTarget(const std::vector<std::string>& argv, size_t first,
                        const std::vector<std::string>& value_options) {
  SplitArgs out;
  out.tare.assign(argv.begin(), argv.begin() + static_cast<std::ptrdiff_t>(std::min(first, argv.size())));
  size_t i = first;
  while (i < argv.size()) {
    const std::string& a = argv[i];
    if (a == "--") {
      ++i;
      out.after_dashes = true;
      break;
    }
    if (a.size() < 2 || a[0] != '-') break;  // the target
    out.tare.push_back(a);
    bool takes_value = a.find('=') == std::string::npos &&
                       std::find(value_options.begin(), value_options.end(), a) != value_options.end();
    if (takes_value && i + 1 < argv.size()) out.tare.push_back(argv[++i]);
    ++i;
  }
  out.target.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  return out;
}

std::string AmbiguousTargetArgument(const SplitArgs& split, const std::vector<std::string>& options) {
  if (split.after_dashes) return "";
  for (size_t i = 1; i < split.target.size(); ++i) {
    const std::string& a = split.target[i];
    const std::string name = a.substr(0, a.find('='));
    if (name.size() >= 2 && name[0] == '-' && std::find(options.begin(), options.end(), name) != options.end()) {
      return a;
    }
  }
  return "";
}

namespace {
std::vector<std::string> Names(const CLI::App& sub, bool values_only) {
  std::vector<std::string> out;
  for (const CLI::Option* opt : sub.get_options()) {
    if (values_only && opt->get_expected_min() <= 0) continue;
    for (const auto& l : opt->get_lnames()) out.push_back("--" + l);
    for (const auto& s : opt->get_snames()) out.push_back("-" + s);
  }
  return out;
}
}  // namespace

std::vector<std::string> OptionNames(const CLI::App& sub) { return Names(sub, false); }
std::vector<std::string> ValueOptionNames(const CLI::App& sub) { return Names(sub, true); }

}  // namespace tare::cli
