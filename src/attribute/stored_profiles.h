// The profiles a `tare run --instrument sim` or `tare ab --instrument sim` kept with a benchmark
// (store artifacts "callgrind/callgrind.out.<pid>[.<N>]", prefixed "<arm>/" in a campaign), and
// the parts of them that make up the measurement, so that attribution covers exactly what sim.Ir
// counted (docs/sim.md, "Windows"):
//   tare binaries     the client-request dumps ("Trigger: Client Request: <name>"), not the dump
//                     at exit (setup and teardown outside every window)
//   Google Benchmark  the kept dumps of the last complete timed run, as instrument::ReadSimResults
//                     chooses them (the loop, without setup, pauses and Google Benchmark's own
//                     bookkeeping)
//   commands          every part: the whole process
// The recorder keeps one sample's files per benchmark and arm (the first sample that succeeded).
//
// Pure functions over the stored text.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "instrument/callgrind_profile.h"
#include "model/target.h"

namespace tare::attribute {

struct ProfileFile {
  std::string name;  // the artifact's name, used in error messages
  std::string content;
};

// Parses every file and keeps the measured parts for a benchmark of `kind` (BenchmarkRecord::kind). DataLoss for a
// malformed profile; FailedPrecondition when no part is a measurement window.
StatusOr<std::vector<instrument::Profile>> MeasuredParts(const std::vector<ProfileFile>& files, TargetKind kind);

}  // namespace tare::attribute
