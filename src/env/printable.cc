#include "env/printable.h"

#include <cstdint>

namespace tare::env {

std::string Printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += (c < 0x20 && c != '\t') || c == 0x7f ? '?' : static_cast<char>(c);
      ++i;
      continue;
    }
    // Length and lowest code point of a UTF-8 sequence from its lead byte (RFC 3629: no
    // overlong forms, nothing above U+10FFFF, no surrogates).
    size_t length = 0;
    uint32_t min = 0;
    uint32_t cp = 0;
    if (c >= 0xc2 && c <= 0xdf) {
      length = 2;
      min = 0x80;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      length = 3;
      min = 0x800;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      length = 4;
      min = 0x10000;
      cp = c & 0x07;
    }
    bool valid = length > 0 && i + length <= s.size();
    for (size_t k = 1; valid && k < length; ++k) {
      auto cont = static_cast<unsigned char>(s[i + k]);
      if ((cont & 0xc0) != 0x80) valid = false;
      cp = (cp << 6) | (cont & 0x3f);
    }
    valid = valid && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    if (valid) {
      out.append(s.substr(i, length));
      i += length;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

}  // namespace tare::env
