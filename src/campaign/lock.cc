#include "campaign/lock.h"

#include <cstdint>

#include <fmt/core.h>

#include "base/json_number.h"
#include "base/json_text.h"
#include "base/sha256.h"

namespace tare::campaign {

nlohmann::json LockToJson(const Lock& lock) {
  nlohmann::json exes = nlohmann::json::array();
  for (const auto& e : lock.executables) {
    exes.push_back({{"arm", e.arm}, {"source", e.source}, {"path", e.path}, {"sha256", e.sha256}});
  }
  nlohmann::json j = {{"schema", kLockSchema},
                      {"campaign",
                       {{"sha256", lock.campaign_sha256},
                        {"source", lock.campaign_source},
                        {"name", lock.campaign_name}}},
                      {"executables", exes},
                      {"fingerprint", lock.fingerprint.is_null() ? nlohmann::json::object() : lock.fingerprint},
                      {"fingerprint_digest", lock.fingerprint_digest},
                      {"tare_version", lock.tare_version},
                      {"created_unix_ns", lock.created_unix_ns}};
  // Only when there is some: a lock written before `work` existed reads back to the same bytes
  // (and the same sha256).
  if (!lock.work.empty()) {
    nlohmann::json work = nlohmann::json::array();
    for (const auto& w : lock.work) {
      nlohmann::json e = {{"cell", w.cell}, {"from", w.from}};
      if (w.iterations > 0) e["iterations"] = w.iterations;
      if (w.gbench_min_time_ns > 0) e["gbench_min_time_ns"] = w.gbench_min_time_ns;
      work.push_back(e);
    }
    j["work"] = work;
  }
  return j;
}

StatusOr<Lock> LockFromJson(const nlohmann::json& j) {
  auto bad = [](const std::string& field) {
    return Status::DataLoss(fmt::format("the stored lock is damaged or not {}: field '{}'",
                                        kLockSchema, field));
  };
  // Not j.value("schema", ""): it throws when the field is there but not a string (lock_fuzz).
  const auto schema = j.is_object() ? j.find("schema") : j.end();
  if (schema == j.end() || !schema->is_string() || schema->get<std::string>() != kLockSchema) return bad("schema");
  Lock lock;
  try {
    const auto& c = j.at("campaign");
    lock.campaign_sha256 = c.at("sha256").get<std::string>();
    lock.campaign_source = c.at("source").get<std::string>();
    lock.campaign_name = c.at("name").get<std::string>();
    for (const auto& e : j.at("executables")) {
      lock.executables.push_back({e.at("arm").get<std::string>(), e.at("source").get<std::string>(),
                                  e.at("path").get<std::string>(), e.at("sha256").get<std::string>()});
    }
    if (j.contains("work")) {
      for (const auto& e : j.at("work")) {
        LockedWork w;
        w.cell = e.at("cell").get<std::string>();
        w.from = e.at("from").get<std::string>();
        // Integers that fit, or the lock is damaged (base/json_number.h).
        try {
          if (e.contains("iterations")) w.iterations = JsonIntegerAt<uint64_t>(e, "iterations");
          if (e.contains("gbench_min_time_ns")) w.gbench_min_time_ns = JsonIntegerAt<int64_t>(e, "gbench_min_time_ns");
        } catch (const std::runtime_error&) {
          return bad("work");
        }
        if (w.iterations == 0 && w.gbench_min_time_ns <= 0) return bad("work");
        lock.work.push_back(std::move(w));
      }
    }
    lock.fingerprint = j.at("fingerprint");
    lock.fingerprint_digest = j.at("fingerprint_digest").get<std::string>();
    lock.tare_version = j.at("tare_version").get<std::string>();
    // Only an integer that fits is a time: get<int64_t>() of a float (1.7e24) was undefined
    // behaviour (lock_fuzz, crashes/lock/; base/json_number.h).
    try {
      lock.created_unix_ns = JsonIntegerAt<int64_t>(j, "created_unix_ns");
    } catch (const std::runtime_error&) {
      return bad("created_unix_ns");
    }
  } catch (const nlohmann::json::exception& e) {
    return bad(e.what());
  }
  return lock;
}

std::string LockSha256(const Lock& lock) { return Sha256Hex(DumpJson(LockToJson(lock))); }

std::string ShortHash(const std::string& sha256) { return sha256.substr(0, 12); }

Status CheckResumable(const Lock& locked, const std::vector<LockedExecutable>& now,
                      const std::string& fingerprint_digest_now, const std::string& tare_version_now) {
  std::vector<std::string> differences;
  for (const auto& l : locked.executables) {
    const LockedExecutable* n = nullptr;
    for (const auto& e : now) {
      if (e.arm == l.arm) n = &e;
    }
    if (n == nullptr) {
      differences.push_back(fmt::format("arm {} is no longer in the campaign", l.arm));
    } else if (n->sha256 != l.sha256) {
      differences.push_back(fmt::format("{} '{}' is sha256 {} now, {} at the lock", l.arm, n->source,
                                        ShortHash(n->sha256), ShortHash(l.sha256)));
    }
  }
  for (const auto& e : now) {
    bool found = false;
    for (const auto& l : locked.executables) found = found || l.arm == e.arm;
    if (!found) differences.push_back(fmt::format("arm {} was not in the locked campaign", e.arm));
  }
  if (fingerprint_digest_now != locked.fingerprint_digest) {
    differences.push_back(fmt::format(
        "the host's hard fingerprint is {} now, {} at the lock (another CPU, microcode, kernel or "
        "C library: samples from both must never be pooled)",
        ShortHash(fingerprint_digest_now), ShortHash(locked.fingerprint_digest)));
  }
  if (tare_version_now != locked.tare_version) {
    differences.push_back(fmt::format("tare is version {} now, {} at the lock", tare_version_now,
                                      locked.tare_version));
  }
  if (differences.empty()) return Status::Ok();
  std::string list;
  for (const auto& d : differences) list += "\n  " + d;
  return Status::FailedPrecondition(fmt::format(
      "cannot resume: the cohort's lock no longer holds:{}\nrun without --resume to measure what "
      "is there now as a new cohort (the interrupted one stays in the store and the ledger)",
      list));
}

}  // namespace tare::campaign
