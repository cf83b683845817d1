// Fingerprint: the host and toolchain facts that decide whether two results are comparable.
// Hard keys (CPU model, microcode, libc hash, valgrind version...) make results incomparable when
// they differ; soft keys (load, governor) only warn. Stability checks each carry their fix.
// Never holds arbitrary environment variables: only the allocator's (MALLOC_*, GLIBC_TUNABLES).
#pragma once

#include <string>
#include <vector>

namespace tare {

struct FingerprintKey {
  std::string key;    // dotted name, e.g. "cpu.model", "os.kernel", "libc.sha256"
  std::string value;  // as read; "unknown" when the host does not say
  bool hard = false;  // results across different hard values are never pooled
};

enum class CheckLevel { kOk, kWarn, kInfo };

struct StabilityCheck {
  std::string name;  // "governor", "turbo", "aslr", "load", "virtualized", "cpus"...
  CheckLevel level = CheckLevel::kOk;
  std::string finding;  // what was seen: "scaling_governor is 'powersave' on 2 of 2 CPUs"
  std::string fix;      // what to do: "sudo cpupower frequency-set -g performance"
};

struct Fingerprint {
  std::vector<FingerprintKey> keys;
  std::vector<StabilityCheck> checks;

  // Value of a key, or "" when absent.
  std::string Get(const std::string& key) const;
  // sha256 over the sorted hard keys: equal digests mean comparable hosts.
  std::string HardDigest() const;
};

}  // namespace tare
