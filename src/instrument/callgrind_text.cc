#include "instrument/internal/callgrind_text.h"

#include <charconv>

namespace tare::instrument::callgrind_internal {
namespace {

constexpr std::string_view kWhitespace = " \t\r";

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(kWhitespace);
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(kWhitespace);
  return s.substr(b, e - b + 1);
}

void SplitWordsInto(std::string_view s, std::vector<std::string_view>* words) {
  std::vector<std::string_view>& out = *words;
  out.clear();
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && IsBlank(s[i])) ++i;
    size_t start = i;
    while (i < s.size() && !IsBlank(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
}

std::vector<std::string_view> SplitWords(std::string_view s) {
  std::vector<std::string_view> out;
  SplitWordsInto(s, &out);
  return out;
}

std::optional<uint64_t> ParseNumber(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  // from_chars reports out-of-range instead of throwing (std::stoull would) or wrapping.
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

std::string Shorten(std::string_view s) {
  return s.size() > 60 ? std::string(s.substr(0, 57)) + "..." : std::string(s);
}

}  // namespace tare::instrument::callgrind_internal
