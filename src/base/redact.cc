#include "base/redact.h"

#include <algorithm>
#include <cctype>

namespace tare {
namespace {

constexpr std::string_view kMask = "***";

bool StartsWithIgnoringCase(std::string_view text, size_t at, std::string_view word) {
  if (text.size() - at < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[at + i])) != word[i]) return false;
  }
  return true;
}

// Every URL's user-info password: after each "://", the authority runs to the first '/', '?', '#'
// or blank; its user info is what comes before its last '@', the password what follows the first
// ':' of the user info.
std::string RedactUserInfo(std::string_view text) {
  std::string out;
  size_t done = 0;
  for (size_t scheme = text.find("://"); scheme != std::string_view::npos; scheme = text.find("://", scheme + 3)) {
    const size_t start = scheme + 3;
    if (start < done) continue;
    size_t end = text.find_first_of("/?# \t\n", start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view authority = text.substr(start, end - start);
    const size_t at = authority.rfind('@');
    if (at == std::string_view::npos) continue;
    const size_t colon = authority.find(':');
    if (colon == std::string_view::npos || colon + 1 >= at) continue;  // no password, or an empty one
    out.append(text.substr(done, start + colon + 1 - done));
    out.append(kMask);
    done = start + at;
  }
  out.append(text.substr(done));
  return out;
}

std::string RedactPasswordParameters(const std::string& text) {
  constexpr std::string_view kKey = "password=";
  std::string out;
  size_t done = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!StartsWithIgnoringCase(text, i, kKey)) continue;
    const size_t value = i + kKey.size();
    size_t end = text.find_first_of("& \t\n", value);
    if (end == std::string::npos) end = text.size();
    if (end == value) continue;  // an empty value hides nothing
    out.append(text, done, value - done);
    out.append(kMask);
    done = end;
    i = end - 1;
  }
  out.append(text, done, std::string::npos);
  return out;
}

}  // namespace

std::string RedactSecrets(std::string_view text) { return RedactPasswordParameters(RedactUserInfo(text)); }

}  // namespace tare
