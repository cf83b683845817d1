#include "env/fingerprint_json.h"

#include <fmt/format.h>

#include <map>

#include "env/printable.h"
#include "env/stability_checks.h"

namespace tare::env {
namespace {

using nlohmann::json;

Status Malformed(const std::string& what) {
  return Status::DataLoss(fmt::format("fingerprint JSON: {}; the stored run may be damaged or from "
                                      "an incompatible tare",
                                      what));
}

StatusOr<std::string> StringField(const json& object, const char* field, const std::string& where) {
  auto it = object.find(field);
  if (it == object.end() || !it->is_string()) {
    return Malformed(fmt::format("{} has no string field \"{}\"", where, field));
  }
  return it->get<std::string>();
}

StatusOr<CheckLevel> ParseLevel(const std::string& name, const std::string& where) {
  if (name == "ok") return CheckLevel::kOk;
  if (name == "warn") return CheckLevel::kWarn;
  if (name == "info") return CheckLevel::kInfo;
  return Malformed(fmt::format("{} has level \"{}\" (expected ok, warn or info)", where, name));
}

}  // namespace

json FingerprintToJson(const Fingerprint& fp) {
  json keys = json::array();
  // Printable(): dump() throws on invalid UTF-8, and values come from the host.
  for (const auto& k : fp.keys) {
    keys.push_back({{"key", Printable(k.key)}, {"value", Printable(k.value)}, {"hard", k.hard}});
  }
  json checks = json::array();
  for (const auto& c : fp.checks) {
    checks.push_back({{"name", Printable(c.name)},
                      {"level", CheckLevelName(c.level)},
                      {"finding", Printable(c.finding)},
                      {"fix", Printable(c.fix)}});
  }
  return {{"schema", kFingerprintSchema},
          {"hard_digest", fp.HardDigest()},
          {"keys", std::move(keys)},
          {"checks", std::move(checks)}};
}

StatusOr<Fingerprint> FingerprintFromJson(const json& j) {
  if (!j.is_object()) return Malformed(fmt::format("expected an object, got {}", j.type_name()));
  TARE_ASSIGN_OR_RETURN(std::string schema, StringField(j, "schema", "the fingerprint"));
  if (schema != kFingerprintSchema) {
    return Malformed(fmt::format("schema is \"{}\", this tare reads \"{}\"", schema, kFingerprintSchema));
  }
  Fingerprint fp;
  auto keys = j.find("keys");
  if (keys == j.end() || !keys->is_array()) return Malformed("\"keys\" is missing or not an array");
  for (size_t i = 0; i < keys->size(); ++i) {
    const json& k = (*keys)[i];
    std::string where = fmt::format("keys[{}]", i);
    if (!k.is_object()) return Malformed(where + " is not an object");
    FingerprintKey key;
    TARE_ASSIGN_OR_RETURN(key.key, StringField(k, "key", where));
    TARE_ASSIGN_OR_RETURN(key.value, StringField(k, "value", where + " (" + key.key + ")"));
    auto hard = k.find("hard");
    if (hard == k.end() || !hard->is_boolean()) {
      return Malformed(fmt::format("{} ({}) has no boolean field \"hard\"", where, key.key));
    }
    key.hard = hard->get<bool>();
    fp.keys.push_back(std::move(key));
  }
  auto checks = j.find("checks");
  if (checks != j.end()) {
    if (!checks->is_array()) return Malformed("\"checks\" is not an array");
    for (size_t i = 0; i < checks->size(); ++i) {
      const json& c = (*checks)[i];
      std::string where = fmt::format("checks[{}]", i);
      if (!c.is_object()) return Malformed(where + " is not an object");
      StabilityCheck check;
      TARE_ASSIGN_OR_RETURN(check.name, StringField(c, "name", where));
      TARE_ASSIGN_OR_RETURN(std::string level, StringField(c, "level", where));
      TARE_ASSIGN_OR_RETURN(check.level, ParseLevel(level, where));
      TARE_ASSIGN_OR_RETURN(check.finding, StringField(c, "finding", where));
      TARE_ASSIGN_OR_RETURN(check.fix, StringField(c, "fix", where));
      fp.checks.push_back(std::move(check));
    }
  }
  auto digest = j.find("hard_digest");
  if (digest != j.end()) {
    if (!digest->is_string()) return Malformed("\"hard_digest\" is not a string");
    if (digest->get<std::string>() != fp.HardDigest()) {
      return Malformed("hard_digest does not match the hard keys (the keys were edited or damaged)");
    }
  }
  return fp;
}

FingerprintComparison CompareFingerprints(const Fingerprint& a, const Fingerprint& b) {
  constexpr char kAbsent[] = "(absent)";
  std::map<std::string, const FingerprintKey*> b_keys;
  for (const auto& k : b.keys) b_keys.emplace(k.key, &k);
  FingerprintComparison result;
  auto record = [&result](KeyDifference d) {
    (d.hard ? result.hard : result.soft).push_back(std::move(d));
  };
  std::map<std::string, bool> seen;
  for (const auto& ka : a.keys) {
    seen[ka.key] = true;
    auto it = b_keys.find(ka.key);
    if (it == b_keys.end()) {
      record({ka.key, ka.value, kAbsent, ka.hard});
    } else if (it->second->value != ka.value) {
      record({ka.key, ka.value, it->second->value, ka.hard || it->second->hard});
    }
  }
  for (const auto& kb : b.keys) {
    if (!seen.count(kb.key)) record({kb.key, kAbsent, kb.value, kb.hard});
  }
  return result;
}

std::string FingerprintComparison::Summary() const {
  if (hard.empty() && soft.empty()) return "same host fingerprint";
  std::string out;
  if (!hard.empty()) {
    out = "not comparable: hard keys differ: ";
    for (size_t i = 0; i < hard.size(); ++i) {
      if (i > 0) out += ", ";
      out += fmt::format("{} ({} vs {})", hard[i].key, hard[i].a, hard[i].b);
    }
  } else {
    out = "comparable";
  }
  if (!soft.empty()) {
    out += "; soft keys differ: ";
    for (size_t i = 0; i < soft.size(); ++i) {
      if (i > 0) out += ", ";
      out += soft[i].key;
    }
  }
  return out;
}

StatusOr<std::string> VerifiedHardDigest(const std::string& fingerprint_json, const std::string& stated) {
  if (fingerprint_json.empty()) {
    if (!stated.empty()) {
      return Status::DataLoss(fmt::format(
          "the run states host digest {} but carries no fingerprint to compute it from", stated.substr(0, 12)));
    }
    return std::string();
  }
  const auto j = nlohmann::json::parse(fingerprint_json, nullptr, false);
  if (j.is_discarded()) return Status::DataLoss("the run's fingerprint is not JSON");
  TARE_ASSIGN_OR_RETURN(const Fingerprint fp, FingerprintFromJson(j));
  std::string digest = fp.HardDigest();
  if (!stated.empty() && stated != digest) {
    return Status::DataLoss(fmt::format(
        "the run's host digest {} is not the digest of its fingerprint's hard keys ({}): the keys or the digest "
        "were edited or damaged; tare never takes a host's identity on trust", stated.substr(0, 12),
        digest.substr(0, 12)));
  }
  return digest;
}

}  // namespace tare::env
