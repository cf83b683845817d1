// PlainRun: `tare run` — one target, one arm, every benchmark measured in fresh processes, no
// verdict. The command line builds a RunSpec; this does the rest on a Session:
//
//   PlainRun run(spec, spawner);
//   TARE_RETURN_IF_ERROR(run.Prepare());                  // usage errors: nothing stored yet
//   TARE_ASSIGN_OR_RETURN(RunOutcome out, run.Run(store)); // the run, stored as it goes
//
// Prepare() resolves the target, sets up the instrument, lists the benchmarks, applies the filter
// and fixes tare binaries' iteration counts. Run() records the run (fingerprint, executable,
// benchmarks), runs warm-up + measured rounds in round-robin order, and finishes the run with its
// final status (complete / interrupted / failed).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/run.h"
#include "base/status.h"
#include "proc/spawner.h"
#include "session/measurer.h"
#include "session/target_setup.h"
#include "store/store.h"
#include "target/measure.h"

namespace tare::session {

struct RunSpec {
  TargetArgs target;
  int samples = -1;          // -1: 10, or 3 under sim (its counts are identical on every rerun)
  int warmup = -1;           // -1: 1, or 0 under sim
  int64_t timeout_ns = 0;    // per sample; 0 = none
  std::string filter;        // regular expression over benchmark names ("" = all)
  Instrument instrument = Instrument::kWall;
  bool perf = true;          // open perf_event counters
  bool shared_process = false;  // --no-isolation (tare binaries)
  bool fail_fast = false;
  int64_t iterations = 0;    // tare binaries: fixed count instead of calibration
  std::vector<std::string> command_line;  // tare's argv, recorded with the run
  std::string tare_version;
  Provenance provenance;     // recorded with the run (env::ResolveProvenance)
};

// Fills the defaults that depend on the instrument and checks everything that can be checked
// before a process runs. InvalidArgument naming the flag.
Status ValidateRunSpec(RunSpec* spec);

struct RunOutcome {
  int64_t run_id = 0;
  int64_t samples = 0;        // stored by this run, warm-ups included
  int64_t failed = 0;         // measured (not warm-up) samples that failed
  bool interrupted = false;
  bool stopped_at_failure = false;  // --fail-fast
  Status error;               // tare could not finish (store write refused, helper died)
};

class PlainRun {
 public:
  PlainRun(RunSpec spec, proc::Spawner& spawner, const Clock& clock = SystemClock());
  ~PlainRun();

  Status Prepare();
  // After Prepare(): what was resolved.
  TargetKind kind() const { return target_.kind; }
  // The run is in the store from the first line on; even a failed run is finished with its status.
  StatusOr<RunOutcome> Run(store::RunWriter& store);

  std::function<void(const std::string&)> progress;  // a status line ("" clears it)
  std::function<void(const std::string&)> notice;    // a line worth keeping (a failed sample)

 private:
  RunSpec spec_;
  proc::Spawner& spawner_;
  const Clock& clock_;
  target::TargetSpec target_;
  std::vector<target::Benchmark> benches_;
  target::MeasureOptions measure_;
  std::string workdir_;
};

}  // namespace tare::session
