// The lock: what a cohort committed to measuring, written before its first sample. It pins the
// campaign declaration (sha256 of the campaign file's bytes, or of the canonical JSON of the flags
// it was built from), every executable that runs (sha256 of the copy under .tare/bin/), the host
// fingerprint and tare's version. The ledger cites the lock's own sha256; `--resume` continues a
// cohort only while all of it still holds, and an executable that changes mid-campaign stops it.
//
// Schema "tare.lock/1" (docs/campaign.md):
//   {"schema": "tare.lock/1", "campaign": {"sha256", "source", "name"},
//    "executables": [{"arm", "source", "path", "sha256"}, ...],
//    "fingerprint": {tare.fingerprint/1}, "fingerprint_digest", "tare_version", "created_unix_ns"}
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace tare::campaign {

inline constexpr char kLockSchema[] = "tare.lock/1";

struct LockedExecutable {
  std::string arm;     // base, head, hd02..., null
  std::string source;  // the declared file, absolute
  std::string path;    // the copy that runs: <store dir>/bin/<arm>
  std::string sha256;  // of the copy (equal to the source's when it was made)
};

struct Lock {
  std::string campaign_sha256;
  std::string campaign_source;  // "file:<absolute path>" or "flags"
  std::string campaign_name;
  std::vector<LockedExecutable> executables;
  nlohmann::json fingerprint;   // tare.fingerprint/1
  std::string fingerprint_digest;
  std::string tare_version;
  int64_t created_unix_ns = 0;
};

nlohmann::json LockToJson(const Lock& lock);
// DataLoss naming the field when the JSON is not a tare.lock/1 document.
StatusOr<Lock> LockFromJson(const nlohmann::json& j);
// sha256 of LockToJson(lock).dump(): the identifier the ledger cites.
std::string LockSha256(const Lock& lock);

// Whether a cohort locked as `locked` may continue with the executables and host it has now.
// FailedPrecondition listing every difference (arm, sha256 at the lock and now; fingerprint hard
// keys; tare version), with the fix: start a new cohort.
Status CheckResumable(const Lock& locked, const std::vector<LockedExecutable>& now,
                      const std::string& fingerprint_digest_now, const std::string& tare_version_now);

// The first 12 hex digits, as the ledger shows hashes.
std::string ShortHash(const std::string& sha256);

}  // namespace tare::campaign
