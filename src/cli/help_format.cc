#include "cli/help_format.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <sstream>

namespace tare::cli {

std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const {
  auto it = usages.find(app);
  if (it == usages.end()) return CLI::Formatter::make_usage(app, std::move(name));
  std::string out = "Usage: ";
  for (char c : it->second) out += c == '\n' ? std::string("\n       ") : std::string(1, c);
  return out + "\n";
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  std::string out = CLI::Formatter::make_option_opts(opt);
  // Without allow_extra_args CLI11 parses one value per occurrence of a vector option.
  if (opt->get_expected_max() == CLI::detail::expected_max_vector_size && !opt->get_allow_extra_args()) {
    if (size_t at = out.find(" ..."); at != std::string::npos) out.erase(at, 4);
  }
  return out;
}

namespace {

// CLI11 2.1's Formatter::make_groups with the groups reordered: "Advanced: ..." last.
std::string OrderedGroups(const HelpFormatter& f, const CLI::App* app, CLI::AppFormatMode mode) {
  std::vector<std::string> groups = app->get_groups();
  std::stable_partition(groups.begin(), groups.end(), [](const std::string& g) { return g.rfind("Advanced", 0) != 0; });
  std::stringstream out;
  bool first = true;
  for (const std::string& group : groups) {
    // As CLI11 2.1's make_groups: no positionals, and a subcommand's own help flags only in its
    // own --help.
    std::vector<const CLI::Option*> opts = app->get_options([app, mode, &group](const CLI::Option* opt) {
      return opt->get_group() == group && opt->nonpositional() &&
             (mode != CLI::AppFormatMode::Sub || (app->get_help_ptr() != opt && app->get_help_all_ptr() != opt));
    });
    if (group.empty() || opts.empty()) continue;
    if (!first) out << "\n";
    first = false;
    out << f.make_group(group, false, opts);
  }
  return out.str();
}

}  // namespace

std::string HelpFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const {
  // As CLI11 2.1's Formatter::make_help (unnamed option groups of a parent are not used in tare).
  if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
  std::stringstream out;
  out << make_description(app);
  out << make_usage(app, std::move(name));
  out << make_positionals(app);
  out << OrderedGroups(*this, app, mode);
  out << make_subcommands(app, mode);
  out << '\n' << make_footer(app);
  return out.str();
}

void GroupOptions(CLI::App* sub, const std::vector<std::pair<std::string, std::vector<std::string>>>& groups) {
  for (const auto& [group, names] : groups) {
    for (const auto& name : names) {
      CLI::Option* opt = sub->get_option_no_throw(name);
      if (opt == nullptr) std::abort();  // a flag renamed without its group: a bug
      opt->group(group);
    }
  }
  if (!groups.empty() && sub->get_help_ptr() != nullptr) sub->get_help_ptr()->group(groups.front().first);
}

void InstallHelpFormatter(CLI::App& app) { app.formatter(std::make_shared<HelpFormatter>()); }

void SetUsage(CLI::App* sub, const std::string& lines) {
  if (auto f = std::dynamic_pointer_cast<HelpFormatter>(sub->get_formatter())) f->usages[sub] = lines;
}

}  // namespace tare::cli
