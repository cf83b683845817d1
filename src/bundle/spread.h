// `tare spread`: how much the same executable's figures moved between the times it was measured —
// reruns, replays of a bundle, other hosts. Per benchmark (and arm) and metric: the runs and host
// types that measured it, and the spread of the run-level figures — each run's median, the figure
// a comparison of runs stands on: (highest run median - lowest) / lowest. The range of the raw
// samples, (max - min) / min over every sample of every run, is shown beside it as the "sample
// range", never as the spread (issue 45, item 4: three identical reruns printed 77%, the samples'
// range, while their medians moved 2.4%). One run has no spread (NaN), only a sample range.
//
// For the deterministic metrics of --instrument sim (sim.Ir, sim.est_cycles) a spread above
// 0.000% means something differed that should not have — the executable, its libraries, its
// input or its environment — and the report says so; timing metrics spread with the host's noise
// (CodSpeed quotes 0.000-0.150% for simulated instructions across replays of one project).
// Host types are never pooled: a benchmark measured on two host types (hard fingerprint digests)
// has one row per host type (issue 23, item 3: one min/max row held two host types).
//
// Runs are chosen by executable (a sha256, or a unique prefix of at least 8 hex digits: every run
// that measured it, under whichever arm) or by lock (a cohort's lock sha256 or prefix: that cohort
// and every replay of it, tagged replay-of=<lock>). Measured, successful, non-discarded samples
// only. Pure reading; never writes the store.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::bundle {

struct SpreadQuery {
  std::string executable;            // sha256 or prefix
  std::string lock;                  // lock sha256 or prefix
  std::vector<std::string> metrics;  // empty: sim.Ir, sim.est_cycles and every time metric
};

struct SpreadRun {
  int64_t id = 0;
  RunKind kind = RunKind::kRun;
  int64_t started_unix_ns = 0;
  std::string fingerprint_digest;
  std::string replay_of;          // the replay-of tag, when the run is a replay
  std::vector<std::string> arms;  // the arms of it that count ("" for tare run)
};

struct SpreadRow {
  std::string benchmark;
  std::string arm;
  std::string metric;
  std::string unit;
  bool deterministic = false;  // IsHeadlineDeterministic: sim.Ir, sim.est_cycles
  std::string host;            // the host type (hard fingerprint digest) of every run in the row
  std::string model;           // a modelled metric's model (sim.est_cycles: iai-v1), "" otherwise
  int64_t runs = 0;
  int64_t samples = 0;
  double run_min = 0, run_max = 0;  // the lowest and highest run median
  double spread_pct = 0;            // 100 (run_max - run_min) / run_min; NaN with one run, or a 0 min
  double sample_min = 0, sample_max = 0;
  double sample_range_pct = 0;  // 100 (sample_max - sample_min) / sample_min; NaN when min is 0
};

struct SpreadReport {
  std::string selector;  // "executable 3f2a9c1b0d4e" | "lock 0123abcd4567"
  std::string sha256;    // the full executable or lock sha256
  std::vector<SpreadRun> runs;
  std::vector<SpreadRow> rows;
};

StatusOr<SpreadReport> ComputeSpread(store::Store& store, const SpreadQuery& query);
std::string RenderSpread(const SpreadReport& report);
nlohmann::json SpreadToJson(const SpreadReport& report);  // schema "tare.spread/2"

// What makes two runs' benchmarks the same benchmark: its name, except for commands, whose name
// is the whole command line: there the program's file name and the arguments, so the same
// program run from another directory (a replay) matches.
std::string BenchmarkKey(const BenchmarkRecord& bench);

// One arm's measured values: measured (not warm-up), successful, not discarded; key -> metric ->
// values. The key is BenchmarkKey, or `cell_names[benchmark id]` when given (a cohort's cells are
// named by the campaign, whatever the arms' file names).
using ArmValues = std::map<std::string, std::map<std::string, std::vector<double>>>;
ArmValues MeasuredValues(const RunData& run, const std::set<int64_t>& discarded, const std::string& arm,
                         const std::map<int64_t, std::string>& cell_names = {});

// The metrics shown by default: the headline exact counts (model/metric_roles.h:
// IsHeadlineDeterministic: simulated instructions and cycles), and timings.
bool IsSpreadMetric(const MetricDef& metric);

}  // namespace tare::bundle
