#include "cli/option_names.h"

namespace tare::cli {

std::vector<std::string> OptionNames(const CLI::App& sub) {
  std::vector<std::string> out;
  for (const auto& [name, values] : ValueOptionNames(sub)) out.push_back(name);
  for (const CLI::Option* opt : sub.get_options()) {
    if (opt->get_expected_min() > 0) continue;
    for (const auto& l : opt->get_lnames()) out.push_back("--" + l);
    for (const auto& s : opt->get_snames()) out.push_back("-" + s);
  }
  return out;
}

std::map<std::string, int> ValueOptionNames(const CLI::App& sub) {
  std::map<std::string, int> out;
  for (const CLI::Option* opt : sub.get_options()) {
    const int values = opt->get_expected_min();
    if (values <= 0) continue;
    for (const auto& l : opt->get_lnames()) out["--" + l] = values;
    for (const auto& s : opt->get_snames()) out["-" + s] = values;
  }
  return out;
}

}  // namespace tare::cli
