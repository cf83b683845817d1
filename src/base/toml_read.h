// Parsing TOML that tare did not write — campaign files, the tare.toml sections of `tare compare`
// ([compare]) and `tare bisect` ([bisect]) — in one idiom: a parse error names the file, line and
// column, and a section is a table or an error naming it.
//
//   TARE_ASSIGN_OR_RETURN(toml::table root, ParseToml(text, path));
//   TARE_ASSIGN_OR_RETURN(const toml::table* bisect, TomlSection(root, "bisect", path));  // nullptr: absent
//
// Header-only, as base/json_read.h: tare_base does not link toml++; every module that reads TOML
// links PkgConfig::TOMLPP itself, and only those include this header.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "base/status.h"

namespace tare {

// "<path>:<line>:<column>: <lead><what toml++ says>" on a parse error (`lead`: e.g. "not valid TOML: ").
inline StatusOr<toml::table> ParseToml(std::string_view text, const std::string& path, std::string_view lead = "") {
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return Status::InvalidArgument(
        fmt::format("{}:{}:{}: {}{}", path, where.line, where.column, lead, e.description()));
  }
}

// The table `[name]` of `root`; nullptr when there is none; "<path>: [name] must be a table" otherwise.
inline StatusOr<const toml::table*> TomlSection(const toml::table& root, const std::string& name,
                                                const std::string& path) {
  const toml::node* node = root.get(name);
  if (node == nullptr) return static_cast<const toml::table*>(nullptr);
  const toml::table* table = node->as_table();
  if (table == nullptr) return Status::InvalidArgument(fmt::format("{}: [{}] must be a table", path, name));
  return table;
}

}  // namespace tare
