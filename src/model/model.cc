#include <algorithm>

#include "base/sha256.h"
#include "model/fingerprint.h"
#include "model/run.h"
#include "model/sample.h"

namespace tare {

const char* SampleOutcomeName(SampleOutcome o) {
  switch (o) {
    case SampleOutcome::kOk:
      return "ok";
    case SampleOutcome::kFailed:
      return "failed";
    case SampleOutcome::kSignaled:
      return "signaled";
    case SampleOutcome::kTimedOut:
      return "timed_out";
    case SampleOutcome::kInterrupted:
      return "interrupted";
    case SampleOutcome::kSpawnError:
      return "spawn_error";
  }
  return "failed";
}

const char* RunStatusName(RunStatus s) {
  switch (s) {
    case RunStatus::kRunning:
      return "running";
    case RunStatus::kComplete:
      return "complete";
    case RunStatus::kInterrupted:
      return "interrupted";
    case RunStatus::kFailed:
      return "failed";
  }
  return "failed";
}

std::string Fingerprint::Get(const std::string& key) const {
  for (const auto& k : keys) {
    if (k.key == key) return k.value;
  }
  return "";
}

std::string Fingerprint::HardDigest() const {
  std::vector<std::string> lines;
  for (const auto& k : keys) {
    if (k.hard) lines.push_back(k.key + "=" + k.value);
  }
  std::sort(lines.begin(), lines.end());
  std::string joined;
  for (const auto& l : lines) joined += l + "\n";
  return Sha256Hex(joined);
}

}  // namespace tare
