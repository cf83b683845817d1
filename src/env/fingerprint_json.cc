#include "env/fingerprint_json.h"

#include <fmt/format.h>

#include <map>

#include "base/json_read.h"
#include "env/printable.h"
#include "env/stability_checks.h"

namespace tare::env {
namespace {

using nlohmann::json;

// "ok" | "warn" | "info", as CheckLevelName writes them.
StatusOr<CheckLevel> ParseLevel(const std::string& name) {
  if (name == "ok") return CheckLevel::kOk;
  if (name == "warn") return CheckLevel::kWarn;
  if (name == "info") return CheckLevel::kInfo;
  return Status::DataLoss(fmt::format("level \"{}\" is not ok, warn or info", name));
}

// The body of FingerprintFromJson (base/json_read.h): throws JsonReadError naming the field.
Fingerprint ReadFingerprint(const json& j) {
  if (!j.is_object()) JsonFail(fmt::format("expected an object, got {}", j.type_name()));
  if (const auto schema = JsonAt<std::string>(j, "schema"); schema != kFingerprintSchema) {
    JsonWithin("schema",
               [&] { JsonFail(fmt::format("schema is \"{}\", this tare reads \"{}\"", schema, kFingerprintSchema)); });
  }
  Fingerprint fp;
  JsonEach(j, "keys", [&](const json& k) {
    FingerprintKey key;
    key.key = JsonAt<std::string>(k, "key");
    key.value = JsonAt<std::string>(k, "value");
    key.hard = JsonAt<bool>(k, "hard");
    fp.keys.push_back(std::move(key));
  });
  if (j.contains("checks")) {
    JsonEach(j, "checks", [&](const json& c) {
      StabilityCheck check;
      check.name = JsonAt<std::string>(c, "name");
      check.level = JsonNameAt(c, "level", ParseLevel);
      check.finding = JsonAt<std::string>(c, "finding");
      check.fix = JsonAt<std::string>(c, "fix");
      fp.checks.push_back(std::move(check));
    });
  }
  if (j.contains("hard_digest") && JsonAt<std::string>(j, "hard_digest") != fp.HardDigest()) {
    JsonWithin("hard_digest",
               [] { JsonFail("hard_digest does not match the hard keys (the keys were edited or damaged)"); });
  }
  return fp;
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
  auto fp = ReadJson<Fingerprint>(j, "fingerprint JSON", ReadFingerprint);
  if (!fp.ok()) return fp.status().WithMore("the stored run may be damaged or from an incompatible tare");
  return fp;
}

StatusOr<Fingerprint> FingerprintFromJsonText(std::string_view text, std::string_view what) {
  TARE_ASSIGN_OR_RETURN(const json j, ParseJson(text, what));
  auto fp = FingerprintFromJson(j);
  if (!fp.ok()) return fp.status().WithContext(std::string(what));
  return fp;
}

FingerprintComparison CompareFingerprints(const Fingerprint& a, const Fingerprint& b) {
  constexpr char kAbsent[] = "(absent)";
  std::map<std::string, const FingerprintKey*> b_keys;
  for (const auto& k : b.keys) b_keys.emplace(k.key, &k);
  FingerprintComparison result;
  auto record = [&result](KeyDifference d) { (d.hard ? result.hard : result.soft).push_back(std::move(d)); };
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
      return Status::DataLoss(fmt::format("the run states host digest {} but carries no fingerprint to compute it from",
                                          stated.substr(0, 12)));
    }
    return std::string();
  }
  TARE_ASSIGN_OR_RETURN(const Fingerprint fp, FingerprintFromJsonText(fingerprint_json, "the run's fingerprint"));
  std::string digest = fp.HardDigest();
  if (!stated.empty() && stated != digest) {
    return Status::DataLoss(fmt::format(
        "the run's host digest {} is not the digest of its fingerprint's hard keys ({}): the keys or the digest "
        "were edited or damaged; tare never takes a host's identity on trust",
        stated.substr(0, 12), digest.substr(0, 12)));
  }
  return digest;
}

}  // namespace tare::env
