// The lock: what a cohort committed to measuring, written before its first sample. It pins the
// campaign declaration (sha256 of the campaign file's bytes, or of the canonical JSON of the flags
// it was built from), every executable that runs (sha256 of the copy under .tare/bin/), the host
// fingerprint and tare's version. The ledger cites the lock's own sha256; `--resume` continues a
// cohort only while all of it still holds, and an executable that changes mid-campaign stops it.
//
// It also pins the work of one sample per cell (`work`): the iteration count of a tare binary, the
// minimum time (or count) of a Google Benchmark binary. Every later cohort of the campaign, and a
// resumed one, runs what the lock says instead of calibrating again, so cohorts compare the same
// work (a count calibrated anew moved from 131,072 to 65,536 between two cohorts of one campaign).
//
// Schema "tare.lock/1" (docs/campaign.md):
//   {"schema": "tare.lock/1", "campaign": {"sha256", "source", "name"},
//    "executables": [{"arm", "source", "path", "sha256"}, ...],
//    "work": [{"cell", "iterations" | "gbench_min_time_ns", "from"}, ...],   (absent when empty)
//    "fingerprint": {tare.fingerprint/1}, "fingerprint_digest", "tare_version", "created_unix_ns"}
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "model/verdict.h"

namespace tare::campaign {

inline constexpr char kLockSchema[] = "tare.lock/1";

struct LockedExecutable {
  std::string arm;     // base, head, hd02..., null
  std::string source;  // the declared file, absolute
  std::string path;    // the copy that runs: <store dir>/bin/<arm>
  std::string sha256;  // of the copy (equal to the source's when it was made)
};

// One cell's work per sample, the same in every arm and every cohort of the campaign.
struct LockedWork {
  std::string cell;                // the declared cell (layouts of a cell share it)
  uint64_t iterations = 0;         // a fixed count (tare binaries; Google Benchmark 1.8+: <N>x)
  int64_t gbench_min_time_ns = 0;  // Google Benchmark: --benchmark_min_time, when no count
  std::string from;                // "calibrated" | "sim" | "--iterations" | "default" |
                                   // "--gbench-min-time" | "cohort N" (taken from its lock)
};

struct Lock {
  std::string campaign_sha256;
  std::string campaign_source;  // "file:<absolute path>" or "flags"
  std::string campaign_name;
  std::vector<LockedExecutable> executables;
  std::vector<LockedWork> work;  // per cell; empty in locks written before it was recorded
  // The benchmarks base and the heads do not share (suite_diff.h), without figures; empty when the
  // suite did not change (and in locks written before it was recorded).
  std::vector<AbSuiteEntry> suite;
  nlohmann::json fingerprint;  // tare.fingerprint/1
  std::string fingerprint_digest;
  std::string tare_version;
  int64_t created_unix_ns = 0;
};

nlohmann::json LockToJson(const Lock& lock);
// DataLoss naming the field when the JSON is not a tare.lock/1 document.
StatusOr<Lock> LockFromJson(const nlohmann::json& j);
// A stored lock's text (a cohort's lock_json), `what` naming it ("run 12's lock"): DataLoss when it
// is not JSON or not a lock, never a lock of defaults.
StatusOr<Lock> LockFromJsonText(std::string_view text, std::string_view what);
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
