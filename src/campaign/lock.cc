#include "campaign/lock.h"

#include <cstdint>

#include <fmt/core.h>

#include "base/json_read.h"
#include "base/json_text.h"
#include "base/sha256.h"

namespace tare::campaign {

nlohmann::json LockToJson(const Lock& lock) {
  nlohmann::json exes = nlohmann::json::array();
  for (const auto& e : lock.executables) {
    exes.push_back({{"arm", e.arm}, {"source", e.source}, {"path", e.path}, {"sha256", e.sha256}});
  }
  nlohmann::json j = {
      {"schema", kLockSchema},
      {"campaign", {{"sha256", lock.campaign_sha256}, {"source", lock.campaign_source}, {"name", lock.campaign_name}}},
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
  // Only when the suite changed (suite_diff.h), for the same reason.
  if (!lock.suite.empty()) {
    nlohmann::json suite = nlohmann::json::array();
    for (const auto& e : lock.suite)
      suite.push_back({{"benchmark", e.benchmark}, {"change", e.change}, {"heads", e.heads}});
    j["suite"] = suite;
  }
  return j;
}

namespace {

// The body of LockFromJson (base/json_read.h): throws JsonReadError naming the field.
Lock ReadLock(const nlohmann::json& j) {
  if (const auto schema = JsonAt<std::string>(j, "schema"); schema != kLockSchema) {
    JsonWithin("schema", [&] { JsonFail(fmt::format("'{}' is not {}", schema, kLockSchema)); });
  }
  Lock lock;
  const auto& c = JsonAt(j, "campaign");
  JsonWithin("campaign", [&] {
    lock.campaign_sha256 = JsonAt<std::string>(c, "sha256");
    lock.campaign_source = JsonAt<std::string>(c, "source");
    lock.campaign_name = JsonAt<std::string>(c, "name");
  });
  JsonEach(j, "executables", [&](const nlohmann::json& e) {
    lock.executables.push_back({JsonAt<std::string>(e, "arm"), JsonAt<std::string>(e, "source"),
                                JsonAt<std::string>(e, "path"), JsonAt<std::string>(e, "sha256")});
  });
  if (j.contains("work")) {
    JsonEach(j, "work", [&](const nlohmann::json& e) {
      LockedWork w;
      w.cell = JsonAt<std::string>(e, "cell");
      w.from = JsonAt<std::string>(e, "from");
      // Integers that fit, or the lock is damaged (base/json_number.h).
      w.iterations = JsonAtOr<uint64_t>(e, "iterations", 0);
      w.gbench_min_time_ns = JsonAtOr<int64_t>(e, "gbench_min_time_ns", 0);
      if (w.iterations == 0 && w.gbench_min_time_ns <= 0) {
        JsonFail("fixes no work: neither 'iterations' nor 'gbench_min_time_ns' is positive");
      }
      lock.work.push_back(std::move(w));
    });
  }
  if (j.contains("suite")) {
    JsonEach(j, "suite", [&](const nlohmann::json& e) {
      AbSuiteEntry entry;
      entry.benchmark = JsonAt<std::string>(e, "benchmark");
      entry.change = JsonNameAt(e, "change", ParseSuiteChange);
      JsonEach(e, "heads", [&](const nlohmann::json& h) { entry.heads.push_back(JsonAs<std::string>(h)); });
      lock.suite.push_back(std::move(entry));
    });
  }
  lock.fingerprint = JsonAt(j, "fingerprint");
  lock.fingerprint_digest = JsonAt<std::string>(j, "fingerprint_digest");
  lock.tare_version = JsonAt<std::string>(j, "tare_version");
  // Only an integer that fits is a time: get<int64_t>() of a float (1.7e24) was undefined
  // behaviour (lock_fuzz, crashes/lock/; base/json_number.h).
  lock.created_unix_ns = JsonAt<int64_t>(j, "created_unix_ns");
  return lock;
}

}  // namespace

StatusOr<Lock> LockFromJson(const nlohmann::json& j) {
  return ReadJson<Lock>(j, fmt::format("the stored lock is damaged or not {}", kLockSchema), ReadLock);
}

StatusOr<Lock> LockFromJsonText(std::string_view text, std::string_view what) {
  TARE_ASSIGN_OR_RETURN(nlohmann::json j, ParseJson(text, what));
  auto lock = LockFromJson(j);
  if (!lock.ok()) return lock.status().WithContext(std::string(what));
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
    differences.push_back(
        fmt::format("the host's hard fingerprint is {} now, {} at the lock (another CPU, microcode, kernel or "
                    "C library: samples from both must never be pooled)",
                    ShortHash(fingerprint_digest_now), ShortHash(locked.fingerprint_digest)));
  }
  if (tare_version_now != locked.tare_version) {
    differences.push_back(fmt::format("tare is version {} now, {} at the lock", tare_version_now, locked.tare_version));
  }
  if (differences.empty()) return Status::Ok();
  std::string list;
  for (const auto& d : differences) list += "\n  " + d;
  return Status::FailedPrecondition(
      fmt::format("cannot resume: the cohort's lock no longer holds:{}\nrun without --resume to measure what "
                  "is there now as a new cohort (the interrupted one stays in the store and the ledger)",
                  list));
}

}  // namespace tare::campaign
