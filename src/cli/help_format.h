// tare's --help layout: CLI11's, except that a subcommand may spell out its own usage lines
// (`tare run [OPTIONS] TARGET [ARGS...]`) in place of the generated `tare run [OPTIONS]`, so each
// --help has exactly one "Usage:" — CLI11 2.1 has no App::usage(), and a usage written into the
// description printed a second one (and spilled into `tare --help`'s list of subcommands). Also
// the value part of repeatable options (make_option_opts).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace tare::cli {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App* app, std::string name) const override;
  // A repeatable option (a vector) takes one value per occurrence: `--env KEY=VALUE`, not CLI11's
  // `--env TEXT ...`, which reads as "several values after one flag".
  std::string make_option_opts(const CLI::Option* opt) const override;
  // CLI11 2.1's, except that groups named "Advanced: ..." follow all the others (GroupOptions);
  // its make_groups is not virtual.
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;
  std::map<const CLI::App*, std::string> usages;  // lines after "Usage: ", '\n'-separated
};

// Installs the formatter on `app`; call before adding subcommands, which inherit it.
void InstallHelpFormatter(CLI::App& app);

// Puts each named option of `sub` ("--base", or any of its names) in its group, in the order the
// groups are given for the first ones; groups named "Advanced: ..." are listed after all others.
// The help flag joins the first group. An option left unnamed stays in "Options"; a name `sub` has
// no option for is a bug, and aborts.
void GroupOptions(CLI::App* sub, const std::vector<std::pair<std::string, std::vector<std::string>>>& groups);

// The usage of `sub`: one or more lines ("tare run [OPTIONS] TARGET [ARGS...]\ntare run ..."),
// shown after one "Usage: " and aligned under each other. No-op without InstallHelpFormatter.
void SetUsage(CLI::App* sub, const std::string& lines);

}  // namespace tare::cli
