// Sample: one fresh process's readings for one benchmark (and, in campaigns, one arm). Every
// sample is kept raw, failed ones too: the store is written after each sample completes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace tare {

enum class SampleOutcome {
  kOk,           // exited 0 and produced readings
  kFailed,       // exited non-zero, or the benchmark reported an error
  kSignaled,     // killed by a signal (crash)
  kTimedOut,     // exceeded --timeout; the whole process group was killed
  kInterrupted,  // stopped by Ctrl-C
  kSpawnError,   // could not be started at all
};

const char* SampleOutcomeName(SampleOutcome o);  // "ok", "failed", "signaled", ...

struct Sample {
  int64_t seq = 0;      // order within the run, from 0
  std::string arm;      // "" for plain runs; "base", "head", "null"... in campaigns
  int64_t block = 0;    // campaign block number (0 for plain runs)
  bool warmup = false;  // warm-up samples are stored but never summarised
  int64_t started_unix_ns = 0;
  int64_t ended_unix_ns = 0;
  SampleOutcome outcome = SampleOutcome::kOk;
  int exit_code = 0;                     // valid when the process exited
  int signal = 0;                        // valid when kSignaled (or the signal used on timeout)
  std::string error;                     // one line: why the sample failed
  std::string stdout_tail;               // last bytes of the child's stdout (kept, not printed)
  std::string stderr_tail;               // last bytes of the child's stderr
  std::map<std::string, double> values;  // metric name -> value (base units)

  bool ok() const { return outcome == SampleOutcome::kOk; }
};

}  // namespace tare
