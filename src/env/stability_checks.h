// Stability checks: is this machine in a state fit for measuring? Each check names what it saw
// (finding) and what to do about it (fix). Levels: kWarn = results will be noisier or biased until
// fixed; kInfo = worth knowing, tare copes (or there is nothing to set on this host); kOk = fine.
//
// Checks, in order: governor, turbo, aslr, load, virtualized, cpus, perf_event_paranoid, cgroup,
// isolation, smt, and valgrind when it was probed. docs/fingerprint.md lists each with its fix.
#pragma once

#include <vector>

#include "env/host_facts.h"
#include "model/fingerprint.h"

namespace tare::env {

std::vector<StabilityCheck> RunStabilityChecks(const HostFacts& facts);

// "ok", "warn", "info".
const char* CheckLevelName(CheckLevel level);

}  // namespace tare::env
