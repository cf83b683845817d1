#include "base/terminal_text.h"

#include <cstdint>
#include <cstdio>

namespace tare {
namespace {

// Length of the valid UTF-8 sequence at text[i] (1 to 4), or 0 when the bytes there are not UTF-8
// (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, or truncated).
size_t Utf8Length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t b = byte(i);
  if (b < 0x80) return 1;
  size_t n = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
    if (b == 0xE0) lo = 0xA0;  // overlong
    if (b == 0xED) hi = 0x9F;  // UTF-16 surrogates
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
    if (b == 0xF0) lo = 0x90;  // overlong
    if (b == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return n;
}

void AppendEscape(std::string& out, const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), format, value);
  out += buf;
}

std::string Escape(std::string_view text, bool keep_newline_and_tab) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<uint8_t>(text[i]);
    if (b < 0x20 || b == 0x7F) {
      if (keep_newline_and_tab && (b == '\n' || b == '\t')) {
        out += static_cast<char>(b);
      } else if (b == '\n') {
        out += "\\n";
      } else if (b == '\t') {
        out += "\\t";
      } else if (b == '\r') {
        out += "\\r";
      } else {
        AppendEscape(out, "\\x%02x", b);
      }
      ++i;
      continue;
    }
    const size_t n = Utf8Length(text, i);
    if (n == 0) {
      AppendEscape(out, "\\x%02x", b);
      ++i;
    } else if (n == 2 && b == 0xC2 && static_cast<uint8_t>(text[i + 1]) <= 0x9F) {
      AppendEscape(out, "\\u%04x", static_cast<uint8_t>(text[i + 1]));  // C1: U+0080..U+009F
      i += 2;
    } else if (const char32_t bidi = BidiControlAt(text, i); bidi != 0) {
      AppendEscape(out, "\\u%04x", static_cast<unsigned>(bidi));
      i += n;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace

char32_t BidiControlAt(std::string_view text, size_t i) {
  if (i + 1 < text.size() && static_cast<uint8_t>(text[i]) == 0xD8 && static_cast<uint8_t>(text[i + 1]) == 0x9C) {
    return 0x061C;  // ARABIC LETTER MARK
  }
  // U+FEFF, the zero-width no-break space (a byte-order mark inside a name): EF BB BF.
  if (i + 2 < text.size() && static_cast<uint8_t>(text[i]) == 0xEF && static_cast<uint8_t>(text[i + 1]) == 0xBB &&
      static_cast<uint8_t>(text[i + 2]) == 0xBF) {
    return 0xFEFF;
  }
  if (i + 2 >= text.size() || static_cast<uint8_t>(text[i]) != 0xE2) return 0;
  const auto b1 = static_cast<uint8_t>(text[i + 1]);
  const auto b2 = static_cast<uint8_t>(text[i + 2]);
  const char32_t cp = 0x2000 + ((b1 & 0x3F) << 6) + (b2 & 0x3F);  // E2 80..BF 80..BF: U+2000..U+2FFF
  if (b1 < 0x80 || b1 > 0xBF || b2 < 0x80 || b2 > 0xBF) return 0;
  const bool marks = cp == 0x200E || cp == 0x200F;       // LRM, RLM
  const bool embeddings = cp >= 0x202A && cp <= 0x202E;  // LRE RLE PDF LRO RLO
  const bool isolates = cp >= 0x2066 && cp <= 0x2069;    // LRI RLI FSI PDI
  // Zero-width characters (issue 48, item 8): BM_Sort and BM_\u200bSort print alike, and text
  // can hide between them. ZWSP ZWNJ ZWJ, WORD JOINER and the invisible operators.
  const bool zero_width = (cp >= 0x200B && cp <= 0x200D) || (cp >= 0x2060 && cp <= 0x2064);
  return marks || embeddings || isolates || zero_width ? cp : 0;
}

std::string TerminalText(std::string_view text) { return Escape(text, /*keep_newline_and_tab=*/true); }

std::string SingleLineText(std::string_view text) { return Escape(text, /*keep_newline_and_tab=*/false); }

std::vector<std::string> LastLines(std::string_view tail, size_t max_lines, size_t max_bytes) {
  const std::string_view text = tail.size() > max_bytes ? tail.substr(tail.size() - max_bytes) : tail;
  std::vector<std::string> lines;
  for (size_t i = 0; i <= text.size();) {
    size_t nl = text.find('\n', i);
    if (nl == std::string_view::npos) nl = text.size();
    lines.emplace_back(text.substr(i, nl - i));
    i = nl + 1;
  }
  while (!lines.empty() && lines.back().find_first_not_of(" \t\r") == std::string::npos) lines.pop_back();
  if (lines.size() > max_lines) lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(max_lines));
  return lines;
}

std::string EscapeMarkup(std::string_view safe_text) {
  std::string out;
  out.reserve(safe_text.size() + safe_text.size() / 8);
  for (char c : safe_text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace tare
