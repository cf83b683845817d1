#include "compare/compare.h"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/json_read.h"
#include "base/numbers.h"
#include "compare/internal/drift_hold.h"
#include "compare/run_set.h"
#include "env/fingerprint_json.h"
#include "model/metric.h"
#include "model/metric_names.h"
#include "model/metric_roles.h"
#include "stats/summary.h"
#include "stats/two_sample_shift.h"

namespace tare::compare {
namespace {

int Severity(ChangeClass c) {
  switch (c) {
    case ChangeClass::kFailed:
      return 7;
    case ChangeClass::kRegressed:
      return 6;
    case ChangeClass::kInconclusive:
      return 5;
    case ChangeClass::kImproved:
      return 4;
    case ChangeClass::kMissing:
      return 3;
    case ChangeClass::kNew:
      return 2;
    case ChangeClass::kUntouched:
      return 1;
    case ChangeClass::kSkipped:
      return 0;
  }
  return 0;
}

std::map<std::string, std::string> Keys(const RunRecord& r, bool hard) {
  std::map<std::string, std::string> out;
  // No fingerprint, or one that cannot be read (env::FingerprintFromJsonText): no keys to compare.
  auto fp = env::FingerprintFromJsonText(r.fingerprint_json, "the run's fingerprint");
  if (!fp.ok()) return out;
  for (const auto& k : fp->keys) {
    if (k.hard == hard) out[k.key] = k.value;
  }
  return out;
}
std::map<std::string, std::string> HardKeys(const RunRecord& r) { return Keys(r, true); }

// The 1-minute load average when the run started, or NaN.
double LoadAverage(const RunRecord& r) {
  auto soft = Keys(r, false);
  auto it = soft.find("os.loadavg");
  if (it == soft.end()) return kNaN;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  return end == it->second.c_str() ? kNaN : v;
}

double LogicalCpus(const RunRecord& r) {
  auto hard = HardKeys(r);
  auto it = hard.find("cpu.logical");
  if (it == hard.end()) return kNaN;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  return end == it->second.c_str() || v <= 0 ? kNaN : v;
}

// The warning that the host was busy, or its load changed, between two independent runs: timings
// carry it ("" when neither).
std::string LoadWarning(const RunData& base, const RunData& head) {
  const double la = LoadAverage(base.run), lb = LoadAverage(head.run);
  const double cpus = LogicalCpus(head.run);
  if (!std::isfinite(la) || !std::isfinite(lb)) return "";
  const double busy = std::isfinite(cpus) ? 0.5 * cpus : 1.0;
  if (std::max(la, lb) <= busy && std::fabs(la - lb) <= busy) return "";
  return fmt::format(
      "the host was busy or its load changed: 1-minute load {:.2f} at run {}, {:.2f} at run {}{}; timings of "
      "independent runs carry that difference. Compare runs from a quiet host, or use `tare ab`, which "
      "interleaves base and head and measures the host's noise with a null arm",
      la, base.run.id, lb, head.run.id, std::isfinite(cpus) ? fmt::format(" ({:g} CPUs)", cpus) : "");
}

// The warning that two plain runs ran their programs from paths of different lengths, for the
// exact counts ("" when the lengths agree, or when a side is not one program's plain run: a
// cohort's arms run from copies of one length). A program that copies its argv[0] allocates by its
// length, and the heap's alignment moves memcpy's count: the same Google Benchmark binary read 862
// sim.Ir from a 52-character path and 845 from a 59-character one (docs/sim.md, "Determinism").
std::string PathLengthWarning(const RunData& base, const RunData& head) {
  auto program = [](const RunData& d) -> const ExecutableRecord* {
    const ExecutableRecord* found = nullptr;
    for (const auto& e : d.executables) {
      if (e.role != "target") return nullptr;
      if (found != nullptr && found->path != e.path) return nullptr;
      found = &e;
    }
    return found;
  };
  const ExecutableRecord* a = program(base);
  const ExecutableRecord* b = program(head);
  if (a == nullptr || b == nullptr || a->path.size() == b->path.size()) return "";
  return fmt::format(
      "the runs ran their programs from paths of different lengths ({} characters at run {}, {} at run {}): a "
      "program that copies its argv[0] (Google Benchmark does) allocates by that length, and its exact counts can "
      "move with it (one 4 KiB string copy read 862 instructions from a 52-character path, 845 from a 59-character "
      "one). Measure both builds from paths of one length, or with `tare ab`, whose copies have one",
      a->path.size(), base.run.id, b->path.size(), head.run.id);
}

// The warnings that depend on what was compared: the host's load for timings, the paths' lengths
// for exact counts. Every comparison gets them, a single command's before and after too.
void AddMeasurementWarnings(const RunData& base, const RunData& head, SuiteComparison* out) {
  // The catalogue says which metrics repeat exactly: a stored run's metric definitions do not keep it.
  bool timed = false, exact = false;
  for (const auto& b : out->benchmarks) {
    for (const auto& m : b.metrics) (LookupMetric(m.metric).deterministic ? exact : timed) = true;
  }
  // The load is a warning about timings: a comparison whose every metric repeats exactly (sim and
  // allocation counts) does not depend on it and says nothing of it.
  if (const std::string load = LoadWarning(base, head); timed && !load.empty()) {
    out->warnings.insert(out->warnings.begin(), load);
  }
  // The paths' lengths are a warning about the exact counts.
  if (const std::string path = PathLengthWarning(base, head); exact && !path.empty()) out->warnings.push_back(path);
}

// Warnings about what was measured, for comparisons of independent runs.
std::vector<std::string> HostWarnings(const RunData& base, const RunData& head) {
  std::vector<std::string> out;
  const std::set<std::string> ea = ExecutableDigests(base.executables);
  if (!ea.empty() && IdentityOf(base.run, base.executables) == IdentityOf(head.run, head.executables)) {
    out.push_back(
        fmt::format("both runs measured the same executable{} (sha256 {}): any change in their timings is the host's, "
                    "not the code's",
                    ea.size() > 1 ? "s" : "", ea.begin()->substr(0, 12)));
  }
  return out;
}

bool AllEqual(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [&](double x) { return x == v.front(); });
}

// Classifies one metric of one benchmark present in both runs.
MetricChange Judge(const std::string& bench, const std::string& metric, const std::vector<double>& base,
                   const std::vector<double>& head, const MetricDef& def, const CompareConfig& config,
                   double confidence, const DriftEvidence& drift) {
  MetricChange m;
  m.metric = metric;
  m.unit = def.unit;
  m.higher_is_better = def.direction == Direction::kHigherIsBetter;
  m.n_base = static_cast<int64_t>(base.size());
  m.n_head = static_cast<int64_t>(head.size());
  m.base_median = stats::Median(base);
  m.head_median = stats::Median(head);
  const bool deterministic = LookupMetric(metric).deterministic;
  std::tie(m.threshold, m.threshold_source) = config.ThresholdFor(bench, metric, deterministic);
  m.change = m.lo = m.hi = kNaN;
  if (!deterministic && drift.spread) {
    m.drift = drift.spread->spread;
    m.drift_runs = drift.spread->runs;
    m.drift_source = DriftSourceName(drift.spread->source);
  }

  auto not_positive = [](double v) { return !(v > 0 && std::isfinite(v)); };
  const auto not_positive_count =
      std::count_if(base.begin(), base.end(), not_positive) + std::count_if(head.begin(), head.end(), not_positive);
  // The rule for values that are zero or negative (a program's own figures may be: app.*, issue 48
  // item 8; docs/compare.md): a change is a ratio of positive values, so
  //   every sample equal on each side:  equal, untouched; else the difference over |base|
  //                                      (head/base - 1 for a positive base; -5 -> -3 is +40%), and
  //                                      from 0 a change in every sample beyond any threshold, with
  //                                      no figure (JSON null) and the values in the reason;
  //   otherwise:                         inconclusive, saying why (never skipped: a gate must not
  //                                      pass on a metric it could not judge).
  bool from_zero = false;
  if (AllEqual(base) && AllEqual(head)) {
    m.method = "exact";
    const double a = base.front(), b = head.front();
    if (a == b) {
      m.change = m.lo = m.hi = 0;
    } else if (a != 0 && std::isfinite(a) && std::isfinite(b)) {
      m.change = m.lo = m.hi = (b - a) / std::fabs(a);
      if (a < 0 || b <= 0)
        m.reason = fmt::format("from {:g} to {:g} in every sample (the difference over |base|)", a, b);
    } else {
      // From zero (e.g. 0 allocations -> 5): no ratio, but certainly a change in one direction.
      from_zero = true;
      const bool up = b > a;
      m.change = m.lo = m.hi = up ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
      m.reason =
          fmt::format("from {:g} to {:g} in every sample: no ratio from zero, a change beyond any threshold", a, b);
    }
  } else if (not_positive_count > 0) {
    m.cls = ChangeClass::kInconclusive;
    m.method = "";
    m.reason = fmt::format(
        "{} of the {} values are zero or negative, and a change is judged as a ratio of positive values: not "
        "judged; have the program report a positive figure (a duration, a count, a rate)",
        not_positive_count, base.size() + head.size());
    return m;
  } else {
    std::vector<double> lb, lh;
    for (double v : base) lb.push_back(std::log(v));
    for (double v : head) lh.push_back(std::log(v));
    auto shift = stats::TwoSampleShift(lb, lh, confidence);
    if (!shift.ok()) {
      m.cls = ChangeClass::kSkipped;
      m.reason = std::string(shift.status().message());
      return m;
    }
    m.method = "mann-whitney";
    m.change = std::expm1(shift->estimate);
    m.lo = std::expm1(shift->lo);
    m.hi = std::expm1(shift->hi);
  }
  // Orient so that positive = worse.
  double c = m.change, lo = m.lo, hi = m.hi;
  if (m.higher_is_better) {
    c = -c;
    std::swap(lo, hi);
    lo = -lo;
    hi = -hi;
  }
  const double t = m.threshold;
  if (lo > 0 && c > t) {
    m.cls = ChangeClass::kRegressed;
  } else if (hi < 0 && c < -t) {
    m.cls = ChangeClass::kImproved;
  } else if (lo >= -t && hi <= t) {
    m.cls = ChangeClass::kUntouched;
  } else {
    m.cls = ChangeClass::kInconclusive;
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
      m.reason = fmt::format("{} and {} samples are too few for an interval at {:g}% confidence; add samples", m.n_base,
                             m.n_head, confidence * 100);
    } else {
      m.reason = fmt::format("the interval reaches past ±{:g}%: add samples (--samples) or quiet the host", t * 100);
    }
  }
  if (from_zero) {
    // Classified as a change beyond any threshold; no figure is written for it (JSON null, "-").
    m.change = m.lo = m.hi = kNaN;
    return m;
  }
  if (!deterministic) HoldAgainstDrift(m, lo, hi, drift);
  return m;
}

}  // namespace

const char* ChangeClassName(ChangeClass c) {
  switch (c) {
    case ChangeClass::kRegressed:
      return "regressed";
    case ChangeClass::kImproved:
      return "improved";
    case ChangeClass::kUntouched:
      return "untouched";
    case ChangeClass::kInconclusive:
      return "inconclusive";
    case ChangeClass::kNew:
      return "new";
    case ChangeClass::kMissing:
      return "missing";
    case ChangeClass::kFailed:
      return "failed";
    case ChangeClass::kSkipped:
      return "skipped";
  }
  return "?";
}

int64_t SuiteComparison::Count(ChangeClass c) const {
  return std::count_if(benchmarks.begin(), benchmarks.end(), [c](const BenchmarkChange& b) { return b.cls == c; });
}

std::string SuiteComparison::Headline() const {
  std::string out;
  for (ChangeClass c :
       {ChangeClass::kFailed, ChangeClass::kRegressed, ChangeClass::kInconclusive, ChangeClass::kImproved,
        ChangeClass::kUntouched, ChangeClass::kNew, ChangeClass::kMissing, ChangeClass::kSkipped}) {
    if (int64_t n = Count(c); n > 0) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, ChangeClassName(c));
  }
  return out.empty() ? "no benchmarks" : out;
}

std::set<std::string> ExecutableDigests(const std::vector<ExecutableRecord>& executables) {
  std::set<std::string> out;
  for (const auto& e : executables) out.insert(e.sha256);
  return out;
}

MeasuredIdentity IdentityOf(const RunRecord& run, const std::vector<ExecutableRecord>& executables) {
  MeasuredIdentity id{ExecutableDigests(executables), ""};
  // Options that say nothing of it (an older store, unreadable text) are alike.
  auto parsed = ParseJsonOr(run.options_json, "the run's options", nlohmann::json::object());
  const nlohmann::json options = parsed.ok() && parsed->is_object() ? *parsed : nlohmann::json::object();
  // The program itself is in `executables` (by its bytes, wherever it was run from): its
  // arguments, environment, directory and shell are what else decides what was measured.
  auto arguments = [](const nlohmann::json& argv) {
    nlohmann::json out = nlohmann::json::array();
    if (argv.is_array()) {
      for (size_t i = 1; i < argv.size(); ++i) out.push_back(argv[i]);
    }
    return out;
  };
  nlohmann::json invocation = nlohmann::json::object();
  invocation["args"] = arguments(options.value("argv", nlohmann::json()));
  for (const char* key : {"env_overrides", "cwd", "shell"}) {
    if (options.contains(key)) invocation[key] = options[key];
  }
  if (options.contains("commands") && options["commands"].is_array()) {
    nlohmann::json commands = nlohmann::json::array();
    for (const auto& c : options["commands"]) {
      commands.push_back(arguments(c.is_object() ? c.value("argv", nlohmann::json()) : nlohmann::json()));
    }
    invocation["commands"] = commands;
  }
  id.invocation = invocation.dump();
  return id;
}

std::vector<std::string> DefaultMetrics(const std::vector<std::string>& names) {
  auto judged = JudgedByDefaultAmong(names);
  if (judged.empty()) {
    if (auto p = PrimaryMetric(names); !p.empty()) judged.push_back(p);
  }
  return judged;
}

std::string PrimaryMetric(const std::vector<std::string>& names) {
  for (const auto& m : PrimaryMetrics()) {
    if (std::find(names.begin(), names.end(), m) != names.end()) return m;
  }
  // Anything else the benchmark reports (a user counter alone): the first by name.
  return names.empty() ? "" : *std::min_element(names.begin(), names.end());
}

BenchmarkCollector::BenchmarkCollector(const RunData& d) {
  for (const auto& b : d.benchmarks) {
    index_[b.id] = out_.size();
    out_.push_back({b.name, b.kind, 0, 0, "", {}});
  }
}

void BenchmarkCollector::Add(const StoredSample& s) {
  auto it = index_.find(s.benchmark_id);
  if (it == index_.end() || s.sample.warmup) return;
  BenchSamples& b = out_[it->second];
  ++b.measured;
  if (!s.sample.ok()) {
    ++b.failed;
    if (b.first_failure.empty())
      b.first_failure = s.sample.error.empty() ? SampleOutcomeName(s.sample.outcome) : s.sample.error;
    return;
  }
  for (const auto& [m, v] : s.sample.values) b.values[m].push_back(v);
}

StatusOr<SuiteComparison> CompareRuns(const RunData& base, const RunData& head, const CompareOptions& o) {
  BenchmarkCollector bc(base), hc(head);
  for (const auto& s : base.samples) bc.Add(s);
  for (const auto& s : head.samples) hc.Add(s);
  return CompareRuns(base, head, bc.Take(), hc.Take(), o);
}

StatusOr<SuiteComparison> CompareRuns(const RunData& base, const RunData& head, const std::vector<BenchSamples>& bs,
                                      const std::vector<BenchSamples>& hs, const CompareOptions& o) {
  for (const RunData* d : {&base, &head}) {
    if (d->run.kind == RunKind::kAb) {
      return Status::InvalidArgument(
          fmt::format("run {} is a `tare ab` cohort: its arms were measured paired and judged in its ledger "
                      "(`tare export --run {}`); `tare compare` takes runs of `tare run`",
                      d->run.id, d->run.id));
    }
  }
  SuiteComparison out;
  out.base = base.run;
  out.head = head.run;
  out.confidence = o.config.confidence.value_or(kDefaultConfidence);
  out.config_source = o.config.source;

  if (base.run.fingerprint_digest != head.run.fingerprint_digest) {
    auto a = HardKeys(base.run), b = HardKeys(head.run);
    std::set<std::string> keys;
    for (const auto& [k, v] : a) keys.insert(k);
    for (const auto& [k, v] : b) keys.insert(k);
    for (const auto& k : keys) {
      const std::string va = a.count(k) ? a[k] : "(absent)", vb = b.count(k) ? b[k] : "(absent)";
      if (va != vb) out.host_differences.push_back(fmt::format("{}: {} -> {}", k, va, vb));
    }
    if (out.host_differences.empty()) out.host_differences.push_back("the hard fingerprint digests differ");
    out.different_hosts = true;
    if (!o.allow_different_hosts) {
      std::string list;
      for (size_t i = 0; i < out.host_differences.size() && i < 5; ++i) list += "\n  " + out.host_differences[i];
      return Status::FailedPrecondition(fmt::format(
          "runs {} and {} were measured on different hosts (hard fingerprint keys differ):{}\n"
          "their timings are not comparable; rerun both on one host{}, or pass --allow-different-hosts to "
          "see the comparison with every line marked",
          base.run.id, head.run.id, list,
          a.count("target.env") + b.count("target.env") > 0 ? " with the same target environment (target.env)" : ""));
    }
  }

  out.warnings = HostWarnings(base, head);
  out.base_runs = base.set_runs;
  out.head_runs = head.set_runs;
  for (const auto& [d, side] : {std::pair<const RunData*, const char*>{&base, "base"}, {&head, "head"}}) {
    if (d->missing_shards.empty()) continue;
    const std::string shards = fmt::format("{}", fmt::join(d->missing_shards, ", "));
    int64_t benchmarks = 0;
    for (const auto& [name, k] : d->run.shard->assignment) {
      benchmarks += std::count(d->missing_shards.begin(), d->missing_shards.end(), k) > 0 ? 1 : 0;
    }
    out.warnings.push_back(fmt::format(
        "the {} side, sharded run {} ({} shards), lacks shard{} {} in this store: {} of its benchmarks were not "
        "measured there and are marked inconclusive; bring that job's store in with `tare merge`, or rerun the shard",
        side, d->run.id, d->run.shard->count, d->missing_shards.size() == 1 ? "" : "s", shards, benchmarks));
  }
  // The shard a benchmark missing from `d` was assigned to, when `d` lacks that shard; 0 otherwise.
  auto missing_shard = [](const RunData& d, const std::string& name) -> int64_t {
    const int64_t k = ShardOf(d, name);
    return k > 0 && std::count(d.missing_shards.begin(), d.missing_shards.end(), k) > 0 ? k : 0;
  };
  auto not_in_store = [](const RunData& d, const char* side, int64_t k) {
    return fmt::format("in shard {}/{} of the {} side (sharded run {}), which is not in this store: not measured there",
                       k, d.run.shard->count, side, d.run.id);
  };
  std::map<std::string, MetricDef> defs, head_defs;
  for (const RunData* d : {&base, &head}) {
    for (const auto& m : d->metrics) defs.emplace(m.name, m);
  }
  for (const auto& m : head.metrics) head_defs.emplace(m.name, m);
  for (const auto& m : o.metrics) {
    if (!defs.count(m)) {
      std::string known;
      for (const auto& [name, def] : defs) known += (known.empty() ? "" : ", ") + name;
      return Status::InvalidArgument(fmt::format("--metric '{}' is in neither run {} nor run {}; they have {}", m,
                                                 base.run.id, head.run.id, known));
    }
  }

  // The same executables invoked alike on both sides (MeasuredIdentity): an A/A comparison.
  const std::set<std::string> base_exes = ExecutableDigests(base.executables);
  const std::string same_executable =
      !base_exes.empty() && IdentityOf(base.run, base.executables) == IdentityOf(head.run, head.executables)
          ? *base_exes.begin()
          : "";
  Status spread_error;
  std::map<std::string, const BenchSamples*> head_by_name;
  for (const auto& h : hs) head_by_name.emplace(h.name, &h);
  std::set<std::string> seen;
  auto judge_bench = [&](const BenchSamples* b, const BenchSamples* h) {
    BenchmarkChange bc;
    bc.name = b ? b->name : h->name;
    if (auto why = o.config.IgnoredBy(bc.name)) {
      bc.cls = ChangeClass::kSkipped;
      bc.reason = fmt::format("ignored ('{}')", *why);
      return bc;
    }
    if (!h) {
      const int64_t k = missing_shard(head, bc.name);
      bc.cls = k > 0 ? ChangeClass::kInconclusive : ChangeClass::kMissing;
      bc.reason = k > 0 ? not_in_store(head, "head", k) : fmt::format("in run {} only", base.run.id);
      return bc;
    }
    if (!b) {
      const int64_t k = missing_shard(base, bc.name);
      bc.cls = k > 0 ? ChangeClass::kInconclusive : ChangeClass::kNew;
      bc.reason = k > 0 ? not_in_store(base, "base", k) : fmt::format("in run {} only", head.run.id);
      return bc;
    }
    if (h->failed > 0) {
      bc.cls = ChangeClass::kFailed;
      bc.reason =
          fmt::format("{} of {} samples failed in run {}: {}", h->failed, h->measured, head.run.id, h->first_failure);
      return bc;
    }
    std::vector<std::string> metrics = o.metrics;
    if (metrics.empty()) {
      std::vector<std::string> both;
      for (const auto& [m, v] : b->values) {
        if (h->values.count(m)) both.push_back(m);
      }
      metrics = DefaultMetrics(both);
      // A command that mostly waits on either side is judged on its wall time (MostlyWaits).
      if (metrics == std::vector<std::string>{metric_name::kPerfTaskClockNs} && b->values.count("wall_ns") > 0 &&
          h->values.count("wall_ns") > 0) {
        auto waits = [](const auto& v) {
          return MostlyWaits(stats::Median(v.at(metric_name::kPerfTaskClockNs)), stats::Median(v.at("wall_ns")));
        };
        if (waits(b->values) || waits(h->values)) metrics = {"wall_ns"};
      }
    }
    if (metrics.empty()) {
      bc.cls = ChangeClass::kSkipped;
      bc.reason = b->failed > 0 ? fmt::format("every sample failed in run {}: {}", base.run.id, b->first_failure)
                                : "no metric measured in both runs";
      return bc;
    }
    bc.cls = ChangeClass::kSkipped;
    for (const auto& m : metrics) {
      auto vb = b->values.find(m), vh = h->values.find(m);
      if (vb == b->values.end() || vh == h->values.end() || vb->second.empty() || vh->second.empty()) {
        MetricChange mc;
        mc.metric = m;
        mc.cls = ChangeClass::kSkipped;
        mc.change = mc.lo = mc.hi = kNaN;
        mc.reason = fmt::format("not measured in run {}",
                                vb == b->values.end() || vb->second.empty() ? base.run.id : head.run.id);
        bc.metrics.push_back(mc);
        continue;
      }
      MetricDef def = defs.count(m) ? defs[m] : LookupMetric(m);
      // Values of two models of one estimate are two metrics (metric.h MetricModel).
      if (const std::string mb = MetricModel(def), mh = MetricModel(head_defs.count(m) ? head_defs[m] : def);
          mb != mh) {
        MetricChange mc;
        mc.metric = m;
        mc.unit = def.unit;
        mc.cls = ChangeClass::kSkipped;
        mc.change = mc.lo = mc.hi = kNaN;
        mc.reason = fmt::format(
            "computed by two models ({} in run {}, {} in run {}): values of different models are "
            "different metrics, never compared",
            mb.empty() ? "none" : mb, base.run.id, mh.empty() ? "none" : mh, head.run.id);
        bc.metrics.push_back(mc);
        continue;
      }
      DriftEvidence drift;
      // One benchmark of one executable in both runs: its change can only be the host's.
      if (b->name == h->name) drift.same_executable = same_executable;
      if (o.host_drift && !LookupMetric(m).deterministic) {
        auto spread = o.host_drift(b->name, h->name, m);
        if (!spread.ok()) {
          if (spread_error.ok()) spread_error = spread.status();
        } else {
          drift.spread = *spread;
        }
      }
      bc.metrics.push_back(Judge(bc.name, m, vb->second, vh->second, def, o.config, out.confidence, drift));
    }
    for (const auto& mc : bc.metrics) {
      if (Severity(mc.cls) > Severity(bc.cls)) bc.cls = mc.cls;
    }
    if (b->failed > 0) {
      bc.reason = fmt::format("{} of {} samples failed in run {} (base); judged on the rest", b->failed, b->measured,
                              base.run.id);
    }
    return bc;
  };
  // Two runs of one command each (e.g. ./base/prog and ./head/prog) are that command's before and
  // after, whatever their names.
  if (bs.size() == 1 && hs.size() == 1 && bs[0].name != hs[0].name && bs[0].kind == TargetKind::kCommand &&
      hs[0].kind == TargetKind::kCommand) {
    BenchmarkChange bc = judge_bench(&bs[0], &hs[0]);
    bc.name = bs[0].name == hs[0].name ? bs[0].name : bs[0].name + " -> " + hs[0].name;
    out.benchmarks.push_back(std::move(bc));
    if (!spread_error.ok()) return spread_error.WithContext("reading the host's drift from the stored runs");
    AddMeasurementWarnings(base, head, &out);
    return out;
  }
  for (const auto& b : bs) {
    if (!seen.insert(b.name).second) continue;  // a second target with the same name: first wins
    auto it = head_by_name.find(b.name);
    out.benchmarks.push_back(judge_bench(&b, it == head_by_name.end() ? nullptr : it->second));
  }
  for (const auto& h : hs) {
    if (seen.insert(h.name).second) out.benchmarks.push_back(judge_bench(nullptr, &h));
  }
  // Benchmarks of a missing shard that the other side lacks too: in neither run's rows, named all
  // the same.
  for (const auto& [d, side] : {std::pair<const RunData*, const char*>{&base, "base"}, {&head, "head"}}) {
    if (!d->run.shard || d->missing_shards.empty()) continue;
    for (const auto& [name, k] : d->run.shard->assignment) {
      if (missing_shard(*d, name) == 0 || !seen.insert(name).second || o.config.IgnoredBy(name)) continue;
      BenchmarkChange bc;
      bc.name = name;
      bc.cls = ChangeClass::kInconclusive;
      bc.reason = not_in_store(*d, side, k) + ", nor on the other side";
      out.benchmarks.push_back(std::move(bc));
    }
  }
  if (!spread_error.ok()) return spread_error.WithContext("reading the host's drift from the stored runs");
  AddMeasurementWarnings(base, head, &out);
  return out;
}

}  // namespace tare::compare
