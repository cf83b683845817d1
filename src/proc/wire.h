// The framing and JSON encoding between Spawner (in tare) and tare-spawn-helper: each message is
// a 4-byte little-endian length followed by that many bytes of JSON. Internal to proc/.
#pragma once

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "proc/spawner.h"

namespace tare::proc::wire {

Status WriteMessage(int fd, const nlohmann::json& message);
// Blocks until one whole message arrives. NotFound on clean EOF.
StatusOr<nlohmann::json> ReadMessage(int fd);

nlohmann::json ToJson(const SpawnRequest& r);
SpawnRequest RequestFromJson(const nlohmann::json& j);
nlohmann::json ToJson(const SpawnResult& r);
SpawnResult ResultFromJson(const nlohmann::json& j);

}  // namespace tare::proc::wire
