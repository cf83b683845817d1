#include "bundle/manifest.h"

#include <fmt/format.h>

#include <string_view>

#include "base/json_read.h"

namespace tare::bundle {
namespace {

using nlohmann::json;

nlohmann::json FileToJson(const ManifestFile& f) {
  return {{"role", f.role},
          {"path", f.path},
          {"sha256", f.sha256},
          {"member", f.member.empty() ? json(nullptr) : json(f.member)}};
}

// The executables or libraries list: each file's role, path and sha256; its member when it has one.
std::vector<ManifestFile> ReadFiles(const json& j, std::string_view key) {
  std::vector<ManifestFile> out;
  JsonEach(j, key, [&](const json& f) {
    ManifestFile file;
    file.role = JsonAt<std::string>(f, "role");
    file.path = JsonAt<std::string>(f, "path");
    file.sha256 = JsonAt<std::string>(f, "sha256");
    if (f.contains("member") && f.at("member").is_string()) file.member = f.at("member").get<std::string>();
    out.push_back(file);
  });
  return out;
}

// The body of ManifestFromJson (base/json_read.h): throws JsonReadError naming the field.
Manifest ReadManifest(const json& j) {
  if (const auto schema = JsonAt<std::string>(j, "schema"); schema != kBundleSchema) {
    JsonWithin("schema", [&] {
      JsonFail(fmt::format("schema '{}' is not {}; a newer tare wrote it, or it is not a tare bundle", schema,
                           kBundleSchema));
    });
  }
  Manifest m;
  m.created_unix_ns = JsonAt<int64_t>(j, "created_unix_ns");
  m.tare_version = JsonAt<std::string>(j, "tare_version");
  const json& run = JsonAt(j, "run");
  JsonWithin("run", [&] {
    m.run_uid = JsonAt<std::string>(run, "uid");
    m.run_kind = JsonNameAt(run, "kind", ParseRunKind);
    m.run_id = JsonAt<int64_t>(run, "id");
    if (run.contains("lock_sha256") && run.at("lock_sha256").is_string()) m.lock_sha256 = run.at("lock_sha256");
  });
  JsonEach(j, "members", [&](const json& x) {
    ManifestMember member;
    member.name = JsonAt<std::string>(x, "name");
    member.sha256 = JsonAt<std::string>(x, "sha256");
    member.size = JsonAt<int64_t>(x, "size");
    m.members.push_back(member);
  });
  m.executables = ReadFiles(j, "executables");
  m.libraries = ReadFiles(j, "libraries");
  return m;
}

}  // namespace

const ManifestMember* Manifest::Find(const std::string& name) const {
  for (const auto& m : members) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

nlohmann::json ManifestToJson(const Manifest& m) {
  json members = json::array();
  for (const auto& x : m.members) members.push_back({{"name", x.name}, {"sha256", x.sha256}, {"size", x.size}});
  json executables = json::array();
  for (const auto& f : m.executables) executables.push_back(FileToJson(f));
  json libraries = json::array();
  for (const auto& f : m.libraries) libraries.push_back(FileToJson(f));
  return {{"schema", kBundleSchema},
          {"created_unix_ns", m.created_unix_ns},
          {"tare_version", m.tare_version},
          {"run",
           {{"uid", m.run_uid},
            {"kind", m.run_kind},
            {"id", m.run_id},
            {"lock_sha256", m.lock_sha256.empty() ? json(nullptr) : json(m.lock_sha256)}}},
          {"members", members},
          {"executables", executables},
          {"libraries", libraries}};
}

StatusOr<Manifest> ManifestFromJson(const nlohmann::json& j) {
  return ReadJson<Manifest>(j, "bundle manifest", ReadManifest);
}

}  // namespace tare::bundle
