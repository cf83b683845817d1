// Regex: the regular expressions tare matches against text it did not write (benchmark names from
// the binary under test, lines of an oracle's report). RE2 (Debian's libre2), not std::regex:
// libstdc++'s std::regex matches by recursion, so a long subject overflows the stack — `--filter
// '.*B'` against a 120,000-character benchmark name crashed tare (issue 9). RE2 runs in time
// linear in the subject with bounded memory and no recursion.
//
// Syntax: RE2's (docs/cli.md), which is ECMAScript's without backreferences and lookaround.
// Thread-safety: a compiled Regex is immutable and may be shared.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"

namespace re2 {
class RE2;
}

namespace tare {

class Regex {
 public:
  // InvalidArgument "<what> '<pattern>' is not a valid regular expression (<why>); e.g. <example>".
  static StatusOr<Regex> Compile(const std::string& pattern, const std::string& what,
                                 const std::string& example = "'BM_Sort/.*'");

  // Whether the pattern matches somewhere in `text` (std::regex_search).
  bool Search(std::string_view text) const;
  // Whether it matches the whole of `text` (std::regex_match).
  bool Match(std::string_view text) const;

  const std::string& pattern() const { return pattern_; }

 private:
  Regex(std::string pattern, std::shared_ptr<const re2::RE2> re) : pattern_(std::move(pattern)), re_(std::move(re)) {}
  std::string pattern_;
  std::shared_ptr<const re2::RE2> re_;
};

}  // namespace tare
