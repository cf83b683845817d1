// Checks of numeric flag values, attached to CLI11 options so a bad value is a usage error (exit
// 2) naming the flag before anything runs: `--samples -1` would otherwise mean "the default"
// (-1 is the internal sentinel) and `--seed -1` would wrap to 2^64 - 1.
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace tare::cli {

// The value must be a whole number >= min. CLI11 prints "--samples: -1 is not ...".
inline CLI::Validator WholeNumberAtLeast(int64_t min) {
  return CLI::Validator(
      [min](std::string& value) -> std::string {
        const char* begin = value.c_str();
        char* end = nullptr;
        errno = 0;
        // Up to 2^64 - 1 for unsigned flags (--seed); below min, or anything else, is refused.
        bool ok = false;
        if (value.empty() || value[0] != '-') {
          unsigned long long n = std::strtoull(begin, &end, 10);
          ok = end != begin && *end == '\0' && errno != ERANGE && (min <= 0 || n >= uint64_t(min));
        } else {
          long long n = std::strtoll(begin, &end, 10);
          ok = end != begin && *end == '\0' && errno != ERANGE && n >= min;
        }
        if (!ok) {
          return fmt::format("'{}' is not a whole number of at least {}", value, min);
        }
        return std::string();
      },
      fmt::format("INT>={}", min));
}

// The value must hold something but blanks: `--prepare ''` would otherwise mean "no --prepare"
// (issue 27, item 19) and the user's intent is lost without a word.
inline CLI::Validator NotBlank() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (value.find_first_not_of(" \t\n\r") != std::string::npos) return std::string();
        return "is empty: give a command, or leave the flag out";
      },
      "CMD");
}

}  // namespace tare::cli
