// Metric: the name, unit and direction of one measured quantity, and the one catalogue of every
// metric tare produces. Samples carry values keyed by metric name; the definitions say how to read
// them (which way is worse, how to format them, whether a rerun gives the same value), and which
// targets and instruments produce them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/target.h"

namespace tare {

enum class Direction { kLowerIsBetter, kHigherIsBetter };
enum class MetricKind { kTime, kCount, kBytes, kRatio };

// Where a metric comes from, which decides which samples carry it.
enum class MetricSource {
  kProcess,  // wait4 of the child and the spawn helper's clock (wall and mem instruments)
  kPerf,     // perf_event counters on the child, where the host has them (wall and mem)
  kGbench,   // Google Benchmark's own report (Google Benchmark targets, wall and mem)
  kBench,    // the tare library's measurement window (tare binaries, wall and mem)
  kSim,      // valgrind callgrind (sim instrument, every kind)
  kMem,      // the allocation shim (mem instrument, every kind)
  kApp,      // the program itself, through $TARE_METRICS_FILE (every kind and instrument)
  kOther,    // not in the catalogue: a name tare does not know
};

struct MetricDef {
  std::string name;  // stable key, e.g. "wall_ns", "perf.instructions", "gb.real_time_ns"
  std::string unit;  // "ns", "bytes", "count", "ratio" or a user counter's own unit
  Direction direction = Direction::kLowerIsBetter;
  MetricKind kind = MetricKind::kCount;
  std::string description;  // one line for --help and reports
  // Identical on every rerun of the same binary (sim counts, allocation counts), so one sample
  // decides and any difference between builds is real.
  bool deterministic = false;
  MetricSource source = MetricSource::kOther;
  // Counts the instructions the program executed (perf's retired instructions, valgrind's Ir):
  // what the cross-check and a time verdict's "instructions did not move" read.
  bool counts_instructions = false;
  // The model that computed its values, for a metric that is an estimate of a versioned model
  // (sim.est_cycles: "iai-v1"), else "". Stored with the run's metrics (schema version 7) and
  // exported with them (tare.run/2 "model"), so it is read as a field (issue 45, item 7).
  std::string model = "";
};

// The model that computed a metric's values (MetricDef::model): two runs whose models differ are
// never compared on that metric (issue 23, item 5; docs/sim.md, "The cycle model").
std::string MetricModel(const MetricDef& metric);
// The model a description names as "model NAME:" ("" when none). A metric stored or exported by a
// tare older than store schema version 7 kept its model only there; readers of such a definition
// take the model from it (the store's metrics table, a tare.run/2 document without "model").
std::string ModelInDescription(const std::string& description);

// Every metric tare knows by name, in display order within each source. Families whose names are
// chosen at run time are described by their prefix: "gb.counter." (Google Benchmark user
// counters), "bench." (the tare library's counters and gauges) and "app." (what a program reports
// about itself in $TARE_METRICS_FILE: target/self_metrics.h).
const std::vector<MetricDef>& KnownMetrics();
// Definition for a name: a known metric, a member of a family (unit from the name's suffix: _ns
// time, _bytes bytes, else count), or a generic count.
MetricDef LookupMetric(const std::string& name);

// Whether `name` is a catalogue metric that counts executed instructions (MetricDef above).
bool CountsInstructions(const std::string& name);

// Whether samples of `kind` taken with `instrument` carry `name` (families included).
bool IsMeasured(const std::string& name, TargetKind kind, Instrument instrument);
// "wall_ns, user_ns, ..., gb.counter.NAME": what a campaign may name for that kind and instrument.
std::string MeasuredMetricList(TargetKind kind, Instrument instrument);

const char* DirectionName(Direction d);  // "lower" / "higher"
StatusOr<Direction> ParseDirection(std::string_view name);
StatusOr<MetricKind> ParseMetricKind(std::string_view name);
const char* MetricKindName(MetricKind k);  // "time" / "count" / "bytes" / "ratio"

}  // namespace tare
