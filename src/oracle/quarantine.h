// Quarantine: a reviewed list of items the vote cannot pin, each with the reason it is exempt.
// Quarantined items are left out of the comparison (on both sides: golden and vote) and are listed
// in every report with their reason and what the vote said this time, so the exemption stays
// visible instead of silently absorbed. docs/oracle.md says when to quarantine and when not to.
//
// File format (version line first; blank lines and lines starting with "#" are comments):
//
//   tare-oracle-quarantine v1
//   item: Bench.RefLoop.lua:32 JFUNCF
//   reason: forms with p ~ 0.6-0.85 since #251 shifted lines (counter aliasing); see #346
//
//   class: .* J[A-Z]*FUNCF
//   reason: function-entry traces race their own loop's counter; loop states are still pinned
//
// `item:` names one item exactly (normalized as in trial_output.h). `class:` is an ECMAScript
// regular expression that must match the whole item: it drops a class of signal. Every entry
// must be followed by a `reason:` line with text; an entry without one is rejected, because an
// exemption nobody can explain is a regression waiting to hide.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/regex.h"
#include "base/status.h"

namespace tare::oracle {

inline constexpr std::string_view kQuarantineVersionLine = "tare-oracle-quarantine v1";

struct QuarantineEntry {
  enum class Kind { kItem, kClass };
  Kind kind = Kind::kItem;
  std::string pattern;  // the item, or the regular expression of a class
  std::string reason;
  int line = 0;                // 1-based line of the `item:` / `class:` key, for messages
  std::optional<Regex> regex;  // set for kClass (RE2 syntax, matched against the whole item)

  bool Matches(const std::string& item) const;
  // "item 'X'" or "class /X/".
  std::string Describe() const;
};

class Quarantine {
 public:
  Quarantine() = default;
  // `path` only names the file in messages.
  static StatusOr<Quarantine> Parse(std::string_view text, const std::string& path);
  static StatusOr<Quarantine> Read(const std::string& path);

  // The first entry that covers the item, or nullptr.
  const QuarantineEntry* Match(const std::string& item) const;
  const std::vector<QuarantineEntry>& entries() const { return entries_; }
  const std::string& path() const { return path_; }
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<QuarantineEntry> entries_;
  std::string path_;
};

// A quarantine stanza ready to paste into a quarantine file.
std::string FormatQuarantineEntry(const std::string& item, const std::string& reason);

}  // namespace tare::oracle
