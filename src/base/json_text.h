// JSON text out of tare, from any nlohmann::json value. Every serialization in tare goes through
// DumpJson, never json::dump() directly.
//
// Strings in tare's JSON often hold bytes tare did not choose: a child's stderr tail, argv
// elements, --env values, program paths, benchmark names. None of them need be UTF-8, and
// nlohmann's dump() throws type_error 316 on the first invalid byte. DumpJson replaces each
// invalid byte sequence with U+FFFD instead (docs/json.md), so output never aborts; the store keeps
// the original bytes where it stores text as text (a sample's stderr tail).
//
// A template so that base need not depend on nlohmann/json: callers already include it.
#pragma once

#include <string>

namespace tare {

// `indent` < 0: one line; otherwise pretty-printed with that many spaces.
template <typename Json>
std::string DumpJson(const Json& value, int indent = -1) {
  return value.dump(indent, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

}  // namespace tare
