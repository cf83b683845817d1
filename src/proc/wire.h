// The messages between Spawner (in tare) and tare-spawn-helper. Internal to proc/.
//
// Framing: a 4-byte little-endian length, then that many bytes. The body is a compact binary
// encoding of SpawnRequest / SpawnResult: a format byte, then every field in declaration order
// (integers as 8 little-endian bytes, strings and lists as a 4-byte count and their items).
// It was JSON until the per-sample cost was measured: encoding a request with its environment and
// parsing a result took ~20% of tare's own CPU per sample (bench/README.md). Both ends are built
// from the same tree; the format byte turns a helper from another build into a clear error.
#pragma once

#include <string>

#include "base/status.h"
#include "proc/spawner.h"

namespace tare::proc::wire {

// Bumped whenever a field is added, removed or reordered.
inline constexpr unsigned char kFormat = 2;

std::string EncodeRequest(const SpawnRequest& r);
StatusOr<SpawnRequest> DecodeRequest(const std::string& body);
std::string EncodeResult(const SpawnResult& r);
StatusOr<SpawnResult> DecodeResult(const std::string& body);

Status WriteMessage(int fd, const std::string& body);
// Blocks until one whole message arrives into `body` (its buffer is reused). NotFound on clean EOF.
Status ReadMessage(int fd, std::string* body);

}  // namespace tare::proc::wire
