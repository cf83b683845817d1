#include "base/redact.h"

#include <algorithm>
#include <cctype>

extern char** environ;

namespace tare {
namespace {

constexpr std::string_view kMask = "***";

// The mask for a secret of `length` bytes: *** in text, or as many '*' as the secret had where the
// text must keep its length (MaskSecretsInPlace).
std::string Mask(size_t length, bool keep_length) {
  return keep_length ? std::string(length, '*') : std::string(kMask);
}

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
std::string RedactUserInfo(std::string_view text, bool keep_length) {
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
    out.append(Mask(at - colon - 1, keep_length));
    done = start + at;
  }
  out.append(text.substr(done));
  return out;
}

std::string RedactPasswordParameters(const std::string& text, bool keep_length) {
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
    out.append(Mask(end - value, keep_length));
    done = end;
    i = end - 1;
  }
  out.append(text, done, std::string::npos);
  return out;
}

}  // namespace

std::string RedactSecrets(std::string_view text) {
  return RedactPasswordParameters(RedactUserInfo(text, false), false);
}

void MaskSecretsInPlace(char* text) {
  const std::string masked = RedactPasswordParameters(RedactUserInfo(text, true), true);
  std::copy(masked.begin(), masked.end(), text);  // the same length: each secret byte became '*'
}

bool IsSecretVariable(std::string_view name) {
  for (std::string_view secret : kSecretVariables) {
    if (name == secret) return true;
  }
  return false;
}

std::vector<std::string> EnvironmentWithoutSecrets() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view kv(*e);
    if (!IsSecretVariable(kv.substr(0, kv.find('=')))) env.emplace_back(kv);
  }
  return env;
}

std::vector<char*> EnvironmentWithoutSecretsPointers() {
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view kv(*e);
    if (!IsSecretVariable(kv.substr(0, kv.find('=')))) envp.push_back(*e);
  }
  envp.push_back(nullptr);
  return envp;
}

}  // namespace tare
