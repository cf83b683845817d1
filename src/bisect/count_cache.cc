#include "bisect/count_cache.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "base/json_read.h"
#include "base/json_text.h"
#include "base/sha256.h"

namespace tare::bisect {

std::string CountKey(const CountKeyParts& p) {
  // Length-prefixed fields, so no two keys collide by moving text between them.
  std::string text = "tare.sim-count/1";
  auto add = [&](const std::string& s) { text += fmt::format("\n{}:{}", s.size(), s); };
  add(p.executable_sha256);
  add(p.valgrind_sha256);
  add(p.workdir);
  add(std::to_string(p.args.size()));
  for (const auto& a : p.args) add(a);
  add(p.benchmark);
  return Sha256Hex(text);
}

std::optional<CachedCount> ReadCachedCount(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  auto text = ReadFile(path);
  if (!text.ok()) return std::nullopt;
  auto read = ReadJsonText<CachedCount>(*text, path, [](const nlohmann::json& j) {
    CachedCount c;
    c.count = JsonAt<double>(j, "count");
    JsonEach(j, "profiles", [&](const nlohmann::json& p) {
      c.profiles.emplace_back(JsonAt<std::string>(p, "name"), JsonAt<std::string>(p, "content"));
    });
    return c;
  });
  if (!read.ok()) return std::nullopt;
  return *read;
}

Status WriteCachedCount(const std::string& path, const CachedCount& count) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  nlohmann::json j = {{"format", "tare.sim-count/1"}, {"count", count.count}, {"profiles", nlohmann::json::array()}};
  for (const auto& [name, content] : count.profiles) j["profiles"].push_back({{"name", name}, {"content", content}});
  return WriteFileAtomic(path, DumpJson(j));
}

}  // namespace tare::bisect
