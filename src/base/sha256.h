// SHA-256 of files and strings (GNU Nettle), as lowercase hex. Used to pin every
// executable a run measured, the campaign file, libc and the dynamic loader.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace tare {

StatusOr<std::string> Sha256File(const std::string& path);
std::string Sha256Hex(std::string_view data);

}  // namespace tare
