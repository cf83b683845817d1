#include "base/regex.h"

#include <fmt/format.h>
#include <re2/re2.h>

namespace tare {

StatusOr<Regex> Regex::Compile(const std::string& pattern, const std::string& what, const std::string& example) {
  RE2::Options options;
  options.set_log_errors(false);
  // Patterns and subjects are bytes: a benchmark name need not be UTF-8.
  options.set_encoding(RE2::Options::EncodingLatin1);
  auto re = std::make_shared<const RE2>(pattern, options);
  if (!re->ok()) {
    return Status::InvalidArgument(
        fmt::format("{} '{}' is not a valid regular expression ({}); e.g. {}", what, pattern, re->error(), example));
  }
  return Regex(pattern, std::move(re));
}

bool Regex::Search(std::string_view text) const { return RE2::PartialMatch(text, *re_); }

bool Regex::Match(std::string_view text) const { return RE2::FullMatch(text, *re_); }

}  // namespace tare
