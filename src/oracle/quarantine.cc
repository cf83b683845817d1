#include "oracle/quarantine.h"

#include <fmt/format.h>

#include <set>

#include "base/files.h"
#include "oracle/trial_output.h"

namespace tare::oracle {

bool QuarantineEntry::Matches(const std::string& item) const {
  if (kind == Kind::kItem) return item == pattern;
  return regex && regex->Match(item);
}

std::string QuarantineEntry::Describe() const {
  return kind == Kind::kItem ? fmt::format("item '{}'", pattern) : fmt::format("class /{}/", pattern);
}

StatusOr<Quarantine> Quarantine::Parse(std::string_view text, const std::string& path) {
  Quarantine q;
  q.path_ = path;
  std::set<std::string> seen_items;
  int open = -1;  // index of an entry still waiting for its reason
  bool saw_version = false;
  int line_number = 0;
  size_t pos = 0;
  auto error = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}:{}: {}", path, line_number, what));
  };
  auto missing_reason = [&](const QuarantineEntry& e) {
    return Status::InvalidArgument(
        fmt::format("{}:{}: {} has no reason; add a `reason:` line right after it saying why the item cannot "
                    "be pinned (every quarantined item needs one)",
                    path, e.line, e.Describe()));
  };
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string line = NormalizeLine(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_number;
    if (!saw_version) {
      if (line.empty()) continue;
      if (line != kQuarantineVersionLine) {
        return error(fmt::format("expected the version line '{}' first, found '{}'", kQuarantineVersionLine,
                                 line.substr(0, 80)));
      }
      saw_version = true;
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    size_t colon = line.find(':');
    std::string key = colon == std::string::npos ? "" : line.substr(0, colon);
    std::string value = colon == std::string::npos ? "" : NormalizeLine(line.substr(colon + 1));
    if (key == "reason") {
      if (open < 0) return error("`reason:` without an `item:` or `class:` line before it");
      if (value.empty()) return missing_reason(q.entries_[open]);
      q.entries_[open].reason = value;
      open = -1;
      continue;
    }
    if (key != "item" && key != "class") {
      return error(fmt::format("cannot read '{}': each line is `item: TEXT`, `class: REGEX` or `reason: TEXT`",
                               line.substr(0, 80)));
    }
    if (open >= 0) return missing_reason(q.entries_[open]);
    if (value.empty()) return error(fmt::format("`{}:` needs a value", key));
    QuarantineEntry entry;
    entry.line = line_number;
    entry.pattern = value;
    if (key == "item") {
      if (!seen_items.insert(value).second) {
        return error(fmt::format("item '{}' is quarantined twice; keep one entry", value));
      }
    } else {
      entry.kind = QuarantineEntry::Kind::kClass;
      auto compiled = Regex::Compile(value, "class", "'.* J[A-Z]*FUNCF'");
      if (!compiled.ok()) return error(fmt::format("class /{}/: {}", value, compiled.status().message()));
      entry.regex = std::move(*compiled);
    }
    q.entries_.push_back(std::move(entry));
    open = static_cast<int>(q.entries_.size()) - 1;
  }
  if (!saw_version) {
    return Status::InvalidArgument(
        fmt::format("{} is empty; a quarantine file starts with the line '{}'", path, kQuarantineVersionLine));
  }
  if (open >= 0) return missing_reason(q.entries_[open]);
  return q;
}

StatusOr<Quarantine> Quarantine::Read(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status().WithContext("reading the quarantine file");
  return Parse(*text, path);
}

const QuarantineEntry* Quarantine::Match(const std::string& item) const {
  for (const QuarantineEntry& e : entries_) {
    if (e.Matches(item)) return &e;
  }
  return nullptr;
}

std::string FormatQuarantineEntry(const std::string& item, const std::string& reason) {
  return fmt::format("item: {}\nreason: {}\n", item, reason);
}

}  // namespace tare::oracle
