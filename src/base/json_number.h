// Integers out of parsed JSON that tare did not necessarily write: a bundle or export from another
// host, a stored campaign spec, a lock file. nlohmann's get<int64_t>() converts a float with a
// static_cast, and a float out of range (1e300, or 2.18e19 as a timestamp) makes that undefined
// behaviour; an unsigned value past INT64_MAX wraps. JsonInteger reads only a JSON integer that fits
// the type asked for, and throws std::runtime_error naming the field otherwise (callers catch it
// and return DataLoss). Found by the fuzzers (lock, run_document; bench/README.md).
//
// A template so that base need not depend on nlohmann/json: callers already include it.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "base/json_text.h"

namespace tare {

template <typename Int, typename Json>
Int JsonInteger(const Json& v, std::string_view what) {
  static_assert(std::is_integral_v<Int> && !std::is_same_v<Int, bool>);
  if (v.is_number_unsigned()) {
    const auto u = v.template get<uint64_t>();
    if (std::in_range<Int>(u)) return static_cast<Int>(u);
  } else if (v.is_number_integer()) {
    const auto s = v.template get<int64_t>();
    if (std::in_range<Int>(s)) return static_cast<Int>(s);
  }
  throw std::runtime_error("'" + std::string(what) + "' is " + DumpJson(v) + ", not an integer in [" +
                           std::to_string(std::numeric_limits<Int>::min()) + ", " +
                           std::to_string(std::numeric_limits<Int>::max()) + "]");
}

// The integer at j[key] (std::out_of_range from json::at when it is missing, as for any field).
template <typename Int, typename Json>
Int JsonIntegerAt(const Json& j, const std::string& key) {
  return JsonInteger<Int>(j.at(key), key);
}

}  // namespace tare
