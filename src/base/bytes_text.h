// Bytes that must survive a trip through JSON exactly. JSON strings are UTF-8; a child's stderr
// tail, an argv element or a program path need not be. Where tare writes such a value into a
// document it reads back (`tare export` → `tare import`, evidence bundles), a string that is not
// valid UTF-8 is written as {"base64": "..."} instead, and read back to the same bytes.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace tare {

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).
bool IsValidUtf8(std::string_view s);

// RFC 4648 base64 with padding, no line breaks.
std::string Base64Encode(std::string_view bytes);
// DataLoss when `text` is not base64 of that form.
StatusOr<std::string> Base64Decode(std::string_view text);

}  // namespace tare
