// The host fingerprint: which machine, kernel, C library and tools a result was measured with, and
// whether the machine was in a state fit for measuring (stability checks, each with its fix).
//
//   tare::Fingerprint fp = tare::env::CollectFingerprint({.probe_valgrind = sim});
//   if (fp.HardDigest() != stored.HardDigest()) ...  // different hosts: never pool the samples
//
// Every key, its class (hard: results are not comparable when it differs; soft: worth a warning)
// and where it is read from is listed in docs/fingerprint.md; keep that table and kKeySpecs in
// host_fingerprint.cc in step. Unknown values are the string "unknown", never an absent key, so two
// fingerprints from the same tare version always have the same keys (valgrind.version only when
// probed). Arbitrary environment variables are never read: only the allocator's (MALLOC_*,
// GLIBC_TUNABLES).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "env/host.h"
#include "env/host_facts.h"
#include "model/fingerprint.h"

namespace tare::env {

struct FingerprintOptions {
  // Adds valgrind.version (a hard key for --instrument sim). Spawns `valgrind --version`; nothing
  // else in fingerprinting spawns a process.
  bool probe_valgrind = false;
};

// Reads the live machine.
Fingerprint CollectFingerprint(const FingerprintOptions& options);
// Reads any Host (tests serve crafted machines with DirectoryHost).
Fingerprint CollectFingerprint(const Host& host, const FingerprintOptions& options);
// Keys and checks of already-read facts.
Fingerprint FingerprintFromFacts(const HostFacts& facts);

// One fingerprint key: its class, what it means and where it is read from (docs/fingerprint.md
// renders the same table; a test checks that they agree).
struct KeySpec {
  std::string_view key;
  bool hard;
  std::string_view meaning;
  std::string_view source;
};
// Every key, in the order fingerprints list them.
const std::vector<KeySpec>& FingerprintKeySpecs();
// Whether `key` is hard, per FingerprintKeySpecs(); false for keys it does not list.
bool IsHardKey(std::string_view key);

}  // namespace tare::env
