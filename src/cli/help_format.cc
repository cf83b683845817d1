#include "cli/help_format.h"

#include <memory>

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

void InstallHelpFormatter(CLI::App& app) { app.formatter(std::make_shared<HelpFormatter>()); }

void SetUsage(CLI::App* sub, const std::string& lines) {
  if (auto f = std::dynamic_pointer_cast<HelpFormatter>(sub->get_formatter())) f->usages[sub] = lines;
}

}  // namespace tare::cli
