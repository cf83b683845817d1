// A subcommand's options as cmdline/ reads tare's argv before CLI11 does: their names, and how many
// values each takes, read from the CLI11 table itself so a new option cannot be missed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cmdline/argv.h"

namespace tare::cli {

// Every name ("--samples", "-n") of the subcommand's options; those that take values, with the
// number each occurrence takes; both as one table.
std::vector<std::string> OptionNames(const CLI::App& sub);
std::map<std::string, int> ValueOptionNames(const CLI::App& sub);
inline cmdline::OptionTable OptionTableOf(const CLI::App& sub) { return {OptionNames(sub), ValueOptionNames(sub)}; }

}  // namespace tare::cli
