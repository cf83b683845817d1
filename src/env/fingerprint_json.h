// Fingerprints as JSON (for the store and `tare export`), and comparison of two fingerprints.
//
// Schema "tare.fingerprint/1":
//   {"schema": "tare.fingerprint/1",
//    "hard_digest": "<sha256 over the sorted hard key=value lines>",
//    "keys":   [{"key": "cpu.model_name", "value": "AMD EPYC", "hard": true}, ...],
//    "checks": [{"name": "governor", "level": "ok|warn|info", "finding": "...", "fix": "..."}, ...]}
// Key order is kept. hard_digest is written for readers that only want equality, and verified on
// reading: a mismatch means the keys were edited or damaged.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/fingerprint.h"

namespace tare::env {

inline constexpr char kFingerprintSchema[] = "tare.fingerprint/1";

nlohmann::json FingerprintToJson(const Fingerprint& fp);
// DataLoss naming the offending field when the JSON is not a fingerprint this tare can read.
StatusOr<Fingerprint> FingerprintFromJson(const nlohmann::json& j);
// A stored fingerprint's text (a run's fingerprint_json), `what` naming it ("run 12's fingerprint"):
// DataLoss when it is empty, not JSON or not a fingerprint. Callers for whom no fingerprint is
// normal (a run stored before it was kept) check for empty text first, or treat the error as none.
StatusOr<Fingerprint> FingerprintFromJsonText(std::string_view text, std::string_view what);

// The hard digest of a run's fingerprint as read from outside this process's own measurement — an
// imported export or bundle, a store being merged or pushed — recomputed from its hard keys, never
// taken on trust (issue 23: an export whose cpu.model_name was edited, its digest kept, was pooled
// with the real host). `fingerprint_json` is the run's stored fingerprint text, `stated` the digest
// the record carries ("" when none). DataLoss, naming what disagrees, when the text is not a
// fingerprint, or when its own "hard_digest" or `stated` is not the digest of its keys: the
// document was edited or damaged. An empty text (a run recorded without one) has no host: "".
StatusOr<std::string> VerifiedHardDigest(const std::string& fingerprint_json, const std::string& stated);

struct KeyDifference {
  std::string key;
  std::string a;  // "(absent)" when only the other fingerprint has the key
  std::string b;
  bool hard = false;  // hard in either fingerprint
};

struct FingerprintComparison {
  std::vector<KeyDifference> hard;  // any entry: results must never be pooled
  std::vector<KeyDifference> soft;  // conditions differed: worth a warning
  bool comparable() const { return hard.empty(); }
  // One line for reports: "same host fingerprint", "comparable; soft keys differ: os.loadavg,
  // cpu.governor", or "not comparable: hard keys differ: cpu.microcode (0x1 vs 0x2), ...".
  std::string Summary() const;
};

// Differences between two fingerprints, in a's key order (then keys only b has). Values of keys
// that change on every run (os.loadavg, mem.available_bytes) are compared like any other soft key.
FingerprintComparison CompareFingerprints(const Fingerprint& a, const Fingerprint& b);

}  // namespace tare::env
