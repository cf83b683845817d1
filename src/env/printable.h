// Strings read from the host or from an executable go into JSON and onto terminals, but nothing
// guarantees they are text: a DMI product name, a .comment section or a DT_NEEDED entry can hold any
// bytes (nlohmann::json refuses to dump invalid UTF-8). Printable() keeps valid UTF-8 and replaces
// invalid bytes and control characters with '?'.
#pragma once

#include <string>
#include <string_view>

namespace tare::env {

std::string Printable(std::string_view bytes);

}  // namespace tare::env
