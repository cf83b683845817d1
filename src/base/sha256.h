// SHA-256 of files and strings (GNU Nettle), as lowercase hex. Used to pin every
// executable a run measured, the campaign file, libc and the dynamic loader (the ones hashed at
// every run through base/hash_cache.h).
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace tare {

StatusOr<std::string> Sha256File(const std::string& path);
// The whole of an open file, from offset 0 (pread: its offset is left alone; a pipe is read as it
// comes); `path` names it in errors.
StatusOr<std::string> Sha256Fd(int fd, const std::string& path);
std::string Sha256Hex(std::string_view data);

}  // namespace tare
