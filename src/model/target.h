// The two words every layer uses to say what is measured and how: the kind of target (decided by
// target::DetectTargetKind without running it) and the instrument a sample is taken with. Stored
// and printed by their names; compared as enums everywhere in the code.
#pragma once

#include <string>

#include "base/status.h"
#include "model/kinds.h"

namespace tare {

enum class TargetKind {
  kCommand,  // any program, measured as a whole process (as hyperfine does)
  kGbench,   // an unmodified Google Benchmark binary, driven through its flags
  kTare,     // a binary written against include/tare (the child protocol, docs/protocol.md)
};

const char* TargetKindName(TargetKind k);  // "command" | "gbench" | "tare"
StatusOr<TargetKind> ParseTargetKind(const std::string& name);

// The instruments a sample can be measured with:
//   wall  the process clock, rusage and perf counters (+ Google Benchmark's own times)
//   sim   valgrind callgrind: deterministic instruction counts and simulated cache misses
//         (docs/sim.md); process-level figures are valgrind's and are not recorded
//   mem   the LD_PRELOAD allocation shim: allocations, frees, bytes, peak live heap
//         (whole process for commands and Google Benchmark binaries) plus the wall metrics
enum class Instrument { kWall, kSim, kMem };

const char* InstrumentName(Instrument i);  // "wall" | "sim" | "mem"
StatusOr<Instrument> ParseInstrument(const std::string& name);

TARE_JSON_BY_NAME(TargetKind, TargetKindName, ParseTargetKind)
TARE_JSON_BY_NAME(Instrument, InstrumentName, ParseInstrument)

}  // namespace tare
