// JSON text out of tare, from any nlohmann::json value. Every serialization in tare goes through
// DumpJson, never json::dump() directly.
//
// Strings in tare's JSON often hold bytes tare did not choose: a child's stderr tail, argv
// elements, --env values, program paths, benchmark names. None of them need be UTF-8, and
// nlohmann's dump() throws type_error 316 on the first invalid byte. DumpJson replaces each
// invalid byte sequence with U+FFFD instead (docs/json.md), so output never aborts; the store keeps
// the original bytes where it stores text as text (a sample's stderr tail).
//
// C1 control characters (U+0080..U+009F) are written as \u0080..\u009f escapes: JSON allows them
// raw, but a terminal that shows the output may read U+009B as CSI, the start of an escape
// sequence, so a hostile benchmark name could move the cursor or recolour `tare export` on a TTY.
// C0 controls are escaped by nlohmann already. The escaped text parses back to the same string.
//
// A template so that base need not depend on nlohmann/json: callers already include it.
#pragma once

#include <string>

namespace tare {

// `indent` < 0: one line; otherwise pretty-printed with that many spaces.
template <typename Json>
std::string DumpJson(const Json& value, int indent = -1) {
  std::string text = value.dump(indent, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
  // In valid UTF-8 (which dump() guarantees here), 0xC2 followed by 0x80..0x9F is exactly a C1
  // character, and it can only occur inside a string.
  if (text.find('\xC2') == std::string::npos) return text;
  std::string out;
  out.reserve(text.size() + 16);
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < text.size(); ++i) {
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (text[i] == '\xC2' && next >= 0x80 && next <= 0x9F) {
      out += "\\u00";
      out += kHex[next >> 4];
      out += kHex[next & 0xF];
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace tare
