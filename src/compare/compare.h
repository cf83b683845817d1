// `tare compare`: the suite-level report of what changed between two stored runs — every
// benchmark × metric classified regressed / improved / untouched / inconclusive / new / missing /
// failed / skipped, with the change, its interval and the threshold it was judged against
// (docs/compare.md).
//
// Two runs of `tare run` are independent: no sample of one belongs with a sample of the other, so
// the change is the two-sample Hodges–Lehmann shift of log values with the Mann–Whitney interval
// (stats/two_sample_shift.h), reported as a ratio: exp(shift) - 1 is the change of the typical
// head/base ratio. Metrics identical on every rerun (every sample equal on both sides) are
// compared exactly. Campaigns (`tare ab`) are paired and keep their own verdicts; they are not
// inputs here.
//
// With the change c (positive = worse: slower, more instructions; for higher-is-better metrics
// the sign is flipped), its interval [lo, hi] and the threshold T:
//   regressed     lo > 0 and c > T      (surely worse, and most likely by more than T)
//   improved      hi < 0 and c < -T
//   untouched     -T <= lo and hi <= T  (any change is within the threshold)
//   inconclusive  otherwise: the interval reaches past the threshold without settling it (or
//                 the samples are too few for an interval at this confidence)
// The interval of two separate runs knows nothing of the host's drift between them (issue 23: a
// real 5% speedup was called "regressed +47.91%" across a load change). So a metric that is not
// deterministic (metric.h: time, not sim.Ir or allocation counts) is regressed or improved only
// when the change also stands beyond the host's drift S on that host type (HostDrift), i.e. lo > S
// (hi < -S). S comes from the store (StoredHostDrift): the wider of what each side's evidence gives,
//   reruns   stored runs that measured the same thing (MeasuredIdentity: the executables invoked
//            alike), two at least: the highest of their medians over the lowest, minus 1;
//   history  the benchmark's recent runs on the host type invoked alike, whatever their executables
//            (other commits: CI stores one run per commit; the two runs compared left out), four in a row at least: the
//            99% bound of the drift between consecutive runs (stats/run_drift.h), robust to real changes among them;
// the source that gave S and its number of runs are reported with the line.
// With neither, or when both runs measured the same thing (any change is then the host's), it is
// inconclusive, with the reason and what to store for a verdict.
// A side that is a sharded run read whole (run_set.h) and lacks shards in the store names them: a
// benchmark of a missing shard is inconclusive with the shard in its reason, never left out.
// A benchmark's class is its worst metric's (failed > regressed > inconclusive > improved >
// untouched). Runs from hosts whose hard fingerprint keys differ are refused unless allowed, and
// then every line says so; samples are never pooled across runs or hosts.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "compare/thresholds.h"
#include "model/run.h"

namespace tare::compare {

enum class ChangeClass { kRegressed, kImproved, kUntouched, kInconclusive, kNew, kMissing, kFailed, kSkipped };
const char* ChangeClassName(ChangeClass c);  // "regressed", "improved", ...

struct MetricChange {
  std::string metric;
  std::string unit;
  bool higher_is_better = false;
  ChangeClass cls = ChangeClass::kUntouched;
  int64_t n_base = 0;  // measured, successful samples used
  int64_t n_head = 0;
  double base_median = 0;
  double head_median = 0;
  // head against base as a fraction (+0.03 = head's values are 3% higher), with its interval;
  // NaN when not computed (skipped). lo/hi are +-inf when the samples are too few.
  double change = 0;
  double lo = 0;
  double hi = 0;
  double threshold = 0;
  std::string threshold_source;  // "default", "rule 'BM_.*'", "--threshold"...
  std::string method;            // "mann-whitney" | "exact" (identical samples)
  std::string reason;            // why skipped / inconclusive / failed, one line
  // The host's drift S this metric was held against (HostDrift), for metrics that are not
  // deterministic: NaN and 0 runs when the store holds no evidence of it.
  double drift = std::numeric_limits<double>::quiet_NaN();
  int64_t drift_runs = 0;
  std::string drift_source;  // "reruns" | "history" | "" (DriftSourceName)
};

struct BenchmarkChange {
  std::string name;
  ChangeClass cls = ChangeClass::kUntouched;
  std::string reason;                 // for new / missing / failed / skipped
  std::vector<MetricChange> metrics;  // empty for new / missing / skipped-by-ignore
};

// Where an estimate of the host's drift came from (compare.h, top).
enum class DriftSource { kReruns, kHistory };
const char* DriftSourceName(DriftSource s);  // "reruns", "history"

// The host's drift on one host type for one benchmark's metric: a fraction (0.04: two runs of
// unchanged code lie within 4% of each other), from `runs` stored runs.
struct HostDrift {
  double spread = 0;
  int64_t runs = 0;
  DriftSource source = DriftSource::kReruns;
};
// The host's drift for one benchmark (its name in each run: one command against another has two)
// and metric, for the base and the head run: the widest of the two sides' estimates of either
// source; nullopt when the store holds no evidence (StoredHostDrift reads it from a store).
using HostDriftSource = std::function<StatusOr<std::optional<HostDrift>>(
    const std::string& base_name, const std::string& head_name, const std::string& metric)>;

struct CompareOptions {
  CompareConfig config;
  std::vector<std::string> metrics;  // empty: DefaultMetrics of each benchmark
  bool allow_different_hosts = false;
  HostDriftSource host_drift;  // unset: no evidence of the host's drift
};

struct SuiteComparison {
  RunRecord base;
  RunRecord head;
  // A side that is a sharded run read whole (run_set.h): its runs, by shard; empty otherwise.
  std::vector<int64_t> base_runs;
  std::vector<int64_t> head_runs;
  double confidence = kDefaultConfidence;
  std::string config_source;  // tare.toml used, "" none
  bool different_hosts = false;
  std::vector<std::string> host_differences;  // "cpu.model: X -> Y" for each differing hard key
  std::vector<BenchmarkChange> benchmarks;    // base's order, then head's new ones
  // What makes timings of these two runs less comparable than their intervals say: a host load
  // that differed (or was high), the same executable in both runs (any change is the host's).
  std::vector<std::string> warnings;

  int64_t Count(ChangeClass c) const;
  // "2 regressed, 1 improved, 63 untouched, 1 new" (classes with a count only).
  std::string Headline() const;
};

// The metric judged when none is named: the benchmark's own measurement first — sim.Ir, then
// bench.wall_ns (tare binaries), gb.real_time_ns (Google Benchmark), wall_ns (commands):
// model/metric_roles.h's PrimaryMetrics — the first one both runs carry for it; else the first by
// name. "" when none.
std::string PrimaryMetric(const std::vector<std::string>& names_present);

// The sha256 set of the executables a run measured.
std::set<std::string> ExecutableDigests(const std::vector<ExecutableRecord>& executables);

// What a run measured: its executables (ExecutableDigests) and how they were invoked — the
// arguments after each program, the --env overrides, the --cwd and the shell, as its options
// recorded them (RunRecord::options_json). `gzip -1 -c f` and `gzip -9 -c f` are two things
// measured with one executable (issue 44). Two runs with equal identities measured the same thing:
// their timing difference is the host's (an A/A comparison); the key of a rerun (StoredHostDrift,
// tare variance's reruns). `invocation` is canonical JSON; runs whose options say nothing of it
// (older stores) are alike.
struct MeasuredIdentity {
  std::set<std::string> executables;
  std::string invocation;
  bool operator==(const MeasuredIdentity&) const = default;
};
MeasuredIdentity IdentityOf(const RunRecord& run, const std::vector<ExecutableRecord>& executables);

// The metrics judged when none is named: what `tare ab` judges (model/metric_roles.h,
// JudgedByDefaultAmong) — sim.Ir; the allocation count and peak; the target's own CPU time
// (gb.cpu_time_ns, bench.cpu_ns), else perf's task clock, else wall_ns — among the metrics both
// runs carry for the benchmark; else PrimaryMetric (a user counter alone).
std::vector<std::string> DefaultMetrics(const std::vector<std::string>& names_present);

// One benchmark of a run as compare reads it: per metric the values of its successful measured
// samples, in sample order, and its failures counted. This, not the samples, is what a comparison
// holds of a run (issue 48, item 7: a run of 1,000,000 samples held whole took gigabytes).
struct BenchSamples {
  std::string name;
  TargetKind kind = TargetKind::kCommand;
  int64_t measured = 0;  // non-warm-up samples
  int64_t failed = 0;
  std::string first_failure;                          // "exit status 1: <stderr line>"
  std::map<std::string, std::vector<double>> values;  // successful measured samples only
};

// A run's benchmarks (d.benchmarks, in stored order) filled sample by sample: Add each sample of
// the run (in order; a page at a time will do), then Take.
class BenchmarkCollector {
 public:
  explicit BenchmarkCollector(const RunData& d);
  void Add(const StoredSample& s);
  std::vector<BenchSamples> Take() { return std::move(out_); }

 private:
  std::vector<BenchSamples> out_;
  std::map<int64_t, size_t> index_;  // benchmark id -> position in out_
};

// FailedPrecondition when the hosts differ and that is not allowed (naming the keys);
// InvalidArgument when a run is a campaign cohort or a named metric is in neither run.
StatusOr<SuiteComparison> CompareRuns(const RunData& base, const RunData& head, const CompareOptions& options);
// The same with each side's benchmarks collected already (run_set.h, CollectStoredBenchmarks: a page
// of samples at a time); `base` and `head` are then read for everything but their samples.
StatusOr<SuiteComparison> CompareRuns(const RunData& base, const RunData& head, const std::vector<BenchSamples>& bs,
                                      const std::vector<BenchSamples>& hs, const CompareOptions& options);

}  // namespace tare::compare
