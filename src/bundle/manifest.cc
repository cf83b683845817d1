#include "bundle/manifest.h"

#include <fmt/format.h>

namespace tare::bundle {
namespace {

using nlohmann::json;

nlohmann::json FileToJson(const ManifestFile& f) {
  return {{"role", f.role}, {"path", f.path}, {"sha256", f.sha256},
          {"member", f.member.empty() ? json(nullptr) : json(f.member)}};
}

// The typed field `key` of object `j`, or DataLoss naming `where`.`key`.
template <typename T>
StatusOr<T> Field(const json& j, const std::string& where, const std::string& key) {
  if (!j.is_object() || !j.contains(key)) {
    return Status::DataLoss(fmt::format("bundle manifest: {}{} is missing", where, key));
  }
  const json& v = j.at(key);
  if constexpr (std::is_same_v<T, std::string>) {
    if (v.is_string()) return v.get<std::string>();
  } else {
    if (v.is_number_integer()) return v.get<T>();
  }
  return Status::DataLoss(fmt::format("bundle manifest: {}{} has the wrong type", where, key));
}

StatusOr<std::vector<ManifestFile>> FilesFromJson(const json& j, const std::string& key) {
  if (!j.contains(key) || !j.at(key).is_array()) {
    return Status::DataLoss(fmt::format("bundle manifest: {} is missing or not a list", key));
  }
  std::vector<ManifestFile> out;
  for (size_t i = 0; i < j.at(key).size(); ++i) {
    const json& f = j.at(key)[i];
    const std::string where = fmt::format("{}[{}].", key, i);
    ManifestFile file;
    TARE_ASSIGN_OR_RETURN(file.role, Field<std::string>(f, where, "role"));
    TARE_ASSIGN_OR_RETURN(file.path, Field<std::string>(f, where, "path"));
    TARE_ASSIGN_OR_RETURN(file.sha256, Field<std::string>(f, where, "sha256"));
    if (f.contains("member") && f.at("member").is_string()) file.member = f.at("member").get<std::string>();
    out.push_back(file);
  }
  return out;
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
          {"run", {{"uid", m.run_uid}, {"kind", m.run_kind}, {"id", m.run_id},
                   {"lock_sha256", m.lock_sha256.empty() ? json(nullptr) : json(m.lock_sha256)}}},
          {"members", members},
          {"executables", executables},
          {"libraries", libraries}};
}

StatusOr<Manifest> ManifestFromJson(const nlohmann::json& j) {
  TARE_ASSIGN_OR_RETURN(std::string schema, Field<std::string>(j, "", "schema"));
  if (schema != kBundleSchema) {
    return Status::DataLoss(fmt::format("bundle manifest: schema '{}' is not {}; a newer tare wrote it, "
                                        "or it is not a tare bundle", schema, kBundleSchema));
  }
  Manifest m;
  TARE_ASSIGN_OR_RETURN(m.created_unix_ns, Field<int64_t>(j, "", "created_unix_ns"));
  TARE_ASSIGN_OR_RETURN(m.tare_version, Field<std::string>(j, "", "tare_version"));
  if (!j.contains("run") || !j.at("run").is_object()) return Status::DataLoss("bundle manifest: run is missing");
  const json& run = j.at("run");
  TARE_ASSIGN_OR_RETURN(m.run_uid, Field<std::string>(run, "run.", "uid"));
  TARE_ASSIGN_OR_RETURN(const std::string kind, Field<std::string>(run, "run.", "kind"));
  auto run_kind = ParseRunKind(kind);
  if (!run_kind.ok()) return run_kind.status().WithContext("bundle manifest: run.kind");
  m.run_kind = *run_kind;
  TARE_ASSIGN_OR_RETURN(m.run_id, Field<int64_t>(run, "run.", "id"));
  if (run.contains("lock_sha256") && run.at("lock_sha256").is_string()) m.lock_sha256 = run.at("lock_sha256");
  if (!j.contains("members") || !j.at("members").is_array()) {
    return Status::DataLoss("bundle manifest: members is missing or not a list");
  }
  for (size_t i = 0; i < j.at("members").size(); ++i) {
    const json& x = j.at("members")[i];
    const std::string where = fmt::format("members[{}].", i);
    ManifestMember member;
    TARE_ASSIGN_OR_RETURN(member.name, Field<std::string>(x, where, "name"));
    TARE_ASSIGN_OR_RETURN(member.sha256, Field<std::string>(x, where, "sha256"));
    TARE_ASSIGN_OR_RETURN(member.size, Field<int64_t>(x, where, "size"));
    m.members.push_back(member);
  }
  TARE_ASSIGN_OR_RETURN(m.executables, FilesFromJson(j, "executables"));
  TARE_ASSIGN_OR_RETURN(m.libraries, FilesFromJson(j, "libraries"));
  return m;
}

}  // namespace tare::bundle
