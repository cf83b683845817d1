// Reading JSON that tare did not just write in this process — store columns, files, a child's
// output, bundles, imports — in one idiom (docs/architecture.md, "One JSON read idiom"):
//
//   TARE_ASSIGN_OR_RETURN(nlohmann::json j, ParseJson(run.lock_json, "run 12's lock"));
//   TARE_ASSIGN_OR_RETURN(Lock lock, ReadJson<Lock>(j, "run 12's lock", ReadLock));
//
// ParseJson: text to a value, or DataLoss naming the object and where nlohmann stopped. Never a
// discarded value read on as if it were data (json::parse(text, nullptr, false) did that: every
// field then read as its default). Empty text is an error too; where an empty column legitimately
// means "none" (a run stored before the column existed), the caller says so with ParseJsonOr.
//
// ReadJson: a value to a T. The reader (T's from_json, or a function given) may throw — through
// JsonAt, JsonAtOr, JsonNameAt, JsonEach, JsonWithin, OrThrow and JsonFail, which throw JsonReadError, or by
// letting nlohmann throw (type_error, out_of_range) — and ReadJson catches both at its boundary and
// returns DataLoss with `what` and the JSON pointer of the field (a std::runtime_error from a
// from_json, as model/kinds.h's for an unknown name, is read the same way):
//   "run 12's lock: at /cells/3/role: unknown cell role 'x'"
// No exception leaves ReadJson, so none crosses a module boundary (STYLE.md, Errors).
//
// EmbedJson: stored JSON text placed inside a document tare writes (a report, an export).
//
// Header-only: tare_base does not link nlohmann/json (base/json_text.h); every module that reads
// JSON already links nlohmann_json::nlohmann_json, and only those include this header.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/json_number.h"
#include "base/status.h"

namespace tare {

// What a reader throws inside ReadJson; `pointer` is where in the document (RFC 6901, "" for the
// document itself), filled in as the error passes out through JsonAt/JsonEach/JsonWithin.
class JsonReadError : public std::runtime_error {
 public:
  explicit JsonReadError(const std::string& message, std::string pointer = "")
      : std::runtime_error(message), pointer_(std::move(pointer)) {}
  const std::string& pointer() const { return pointer_; }
  // The same error seen one level up: `segment` (a key, or an array index) before the pointer.
  JsonReadError Within(std::string_view segment) const {
    std::string escaped;  // RFC 6901: '~' is "~0", '/' is "~1"
    for (char c : segment) escaped += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return JsonReadError(what(), "/" + escaped + pointer_);
  }

 private:
  std::string pointer_;
};

namespace json_read_detail {

// nlohmann's message without its "[json.exception.type_error.302] " prefix.
inline std::string Message(const nlohmann::json::exception& e) {
  std::string_view m = e.what();
  if (m.starts_with("[json.exception.")) {
    if (const size_t end = m.find("] "); end != std::string_view::npos) m.remove_prefix(end + 2);
  }
  return std::string(m);
}

// `v` as a T. Integers go through JsonInteger (base/json_number.h): a float or an integer that does
// not fit is an error, never a cast.
template <typename T>
T Convert(const nlohmann::json& v, std::string_view name) {
  if constexpr (std::is_same_v<T, nlohmann::json>) {
    return v;
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    try {
      return JsonInteger<T>(v, name);
    } catch (const JsonReadError&) {
      throw;
    } catch (const std::runtime_error& e) {
      throw JsonReadError(e.what());
    }
  } else {
    try {
      return v.template get<T>();
    } catch (const JsonReadError&) {
      throw;
    } catch (const nlohmann::json::exception& e) {
      throw JsonReadError(Message(e));
    } catch (const std::runtime_error& e) {  // a from_json's own (model/kinds.h: an unknown name)
      throw JsonReadError(e.what());
    }
  }
}

}  // namespace json_read_detail

// Text to a JSON value: DataLoss "<what>: not valid JSON at byte N (<nlohmann's message>)", or
// "<what>: empty, where JSON was expected".
inline StatusOr<nlohmann::json> ParseJson(std::string_view text, std::string_view what) {
  if (text.empty()) return Status::DataLoss(fmt::format("{}: empty, where JSON was expected", what));
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return Status::DataLoss(
        fmt::format("{}: not valid JSON at byte {} ({})", what, e.byte, json_read_detail::Message(e)));
  } catch (const nlohmann::json::exception& e) {  // out_of_range 406: a number past double's range
    return Status::DataLoss(fmt::format("{}: not valid JSON ({})", what, json_read_detail::Message(e)));
  }
}

// As ParseJson, except that empty text is `when_empty`. Only where an empty column or file
// legitimately means "none"; malformed text is still an error.
inline StatusOr<nlohmann::json> ParseJsonOr(std::string_view text, std::string_view what, nlohmann::json when_empty) {
  if (text.empty()) return when_empty;
  return ParseJson(text, what);
}

// Runs read(j) and returns its T, or DataLoss "<what>: at <pointer>: <message>" for what it throws
// (JsonReadError, nlohmann's exceptions). `read`: T(const nlohmann::json&).
template <typename T, typename Read>
StatusOr<T> ReadJson(const nlohmann::json& j, std::string_view what, Read&& read) {
  try {
    return T(read(j));
  } catch (const JsonReadError& e) {
    if (e.pointer().empty()) return Status::DataLoss(fmt::format("{}: {}", what, e.what()));
    return Status::DataLoss(fmt::format("{}: at {}: {}", what, e.pointer(), e.what()));
  } catch (const nlohmann::json::exception& e) {
    return Status::DataLoss(fmt::format("{}: {}", what, json_read_detail::Message(e)));
  } catch (const std::runtime_error& e) {  // a from_json's own (model/kinds.h), base/json_number.h's
    return Status::DataLoss(fmt::format("{}: {}", what, e.what()));
  }
}

// The same with T's own reading: its from_json (found by nlohmann through ADL), or the checked
// integer reading for integral T.
template <typename T>
StatusOr<T> ReadJson(const nlohmann::json& j, std::string_view what) {
  return ReadJson<T>(j, what, [](const nlohmann::json& v) { return json_read_detail::Convert<T>(v, "the value"); });
}

// Parse and read in one step, for text that must hold a T.
template <typename T, typename Read>
StatusOr<T> ReadJsonText(std::string_view text, std::string_view what, Read&& read) {
  TARE_ASSIGN_OR_RETURN(nlohmann::json j, ParseJson(text, what));
  return ReadJson<T>(j, what, std::forward<Read>(read));
}

// --- For reader bodies (inside ReadJson only: these throw JsonReadError) ---

// Fails the read with `message` at the current place.
[[noreturn]] inline void JsonFail(const std::string& message) { throw JsonReadError(message); }

// The value of a Status-returning parser (model/kinds.h ParseCellRole, ParseAllowance...), or its
// message as the read's error.
template <typename T>
T OrThrow(StatusOr<T> v) {
  if (!v.ok()) throw JsonReadError(v.status().message());
  return std::move(v).value();
}
inline void OrThrow(const Status& s) {
  if (!s.ok()) throw JsonReadError(s.message());
}

// Runs read(), placing what it throws under `segment` (a key or an index) of the pointer. Take the
// child out first (JsonAt(j, key)), then read it within: a missing child is the parent's error.
template <typename Read>
decltype(auto) JsonWithin(std::string_view segment, Read&& read) {
  try {
    return read();
  } catch (const JsonReadError& e) {
    throw e.Within(segment);
  } catch (const nlohmann::json::exception& e) {
    throw JsonReadError(json_read_detail::Message(e)).Within(segment);
  } catch (const std::runtime_error& e) {
    throw JsonReadError(e.what()).Within(segment);
  }
}

// j[key]; "missing field 'key'" when it is not there, "expected an object..." when j is not one.
inline const nlohmann::json& JsonAt(const nlohmann::json& j, std::string_view key) {
  if (!j.is_object()) {
    throw JsonReadError(fmt::format("expected an object with field '{}', found {}", key, j.type_name()));
  }
  const auto it = j.find(std::string(key));
  if (it == j.end()) throw JsonReadError(fmt::format("missing field '{}'", key));
  return *it;
}

// j[key] as a T (its from_json; integers checked, base/json_number.h), errors placed at /key.
template <typename T>
T JsonAt(const nlohmann::json& j, std::string_view key) {
  const nlohmann::json& v = JsonAt(j, key);
  return JsonWithin(key, [&] { return json_read_detail::Convert<T>(v, key); });
}

// The name at j[key] through a Status-returning parser (model/kinds.h ParseCellRole...): its value,
// or the parser's message placed at /key.
template <typename Parse>
auto JsonNameAt(const nlohmann::json& j, std::string_view key, Parse&& parse) {
  const auto name = JsonAt<std::string>(j, key);
  return JsonWithin(key, [&] { return OrThrow(parse(name)); });
}

// `v` as a T, for a value with no key of its own (an element of a tuple-like array).
template <typename T>
T JsonAs(const nlohmann::json& v) {
  return json_read_detail::Convert<T>(v, "the value");
}

// An optional field: `fallback` when j has no `key`; present, it must read as a T.
template <typename T>
T JsonAtOr(const nlohmann::json& j, std::string_view key, T fallback) {
  if (j.is_object() && !j.contains(std::string(key))) return fallback;
  return JsonAt<T>(j, key);
}

// Calls each(element) for each element of the array j[key], errors placed at /key/<index>.
template <typename Each>
void JsonEach(const nlohmann::json& j, std::string_view key, Each&& each) {
  const nlohmann::json& list = JsonAt(j, key);
  JsonWithin(key, [&] {
    if (!list.is_array()) throw JsonReadError(fmt::format("expected an array, found {}", list.type_name()));
    for (size_t i = 0; i < list.size(); ++i) JsonWithin(std::to_string(i), [&] { each(list[i]); });
  });
}

// --- For writers ---

// Stored JSON text inside a document tare writes: the value it holds; `when_empty` for empty text
// (the caller's choice: null, {}); and text that is not JSON kept as a JSON string of itself —
// never null, never dropped — so the document shows what was stored, and a reader that expects an
// object there fails on it by name. Writers return json, not StatusOr: a damaged column must not
// stop a report or an export of everything else.
inline nlohmann::json EmbedJson(std::string_view text, nlohmann::json when_empty) {
  if (text.empty()) return when_empty;
  auto j = ParseJson(text, "");
  return j.ok() ? std::move(*j) : nlohmann::json(std::string(text));
}

}  // namespace tare
