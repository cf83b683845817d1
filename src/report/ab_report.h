// The report of one `tare ab` cohort: everything the ledger (Markdown, ledger.h) and the JSON
// (schema tare.ab/1, ab_json.h) show, as plain data. The campaign runner fills it from its
// samples and the store; renderers never touch the store or run anything.
//
// All changes are fractions (+0.03 = head 3% higher than base). NaN marks a value that does not
// exist (no interval for too few pairs, no null arm).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "campaign/sampling.h"
#include "campaign/verdict.h"
#include "model/metric.h"

namespace tare::report {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One metric of one cell for one head: the paired change, the null arm, the verdict.
struct AbMetricResult {
  std::string metric;
  std::string unit;                          // for the medians: "ns", "bytes", "count"
  Direction direction = Direction::kLowerIsBetter;
  std::string allowance = "noise";           // as declared: "noise" or "2%"
  double declared = 0;                       // the declared allowance as a fraction (noise: 0)
  int64_t pairs = 0;                         // pairs the interval was taken over
  double confidence = 0;                     // the look's confidence the interval was taken at
  double estimate = kNaN, lo = kNaN, hi = kNaN;  // head vs base
  double base_median = kNaN, head_median = kNaN;
  bool has_null = false;
  double null_estimate = kNaN, null_lo = kNaN, null_hi = kNaN;  // null vs base
  double noise_floor = 0;                    // 0 without a null arm
  double delta = 0;                          // max(declared allowance, noise floor)
  bool host_too_noisy = false;
  campaign::Verdict verdict = campaign::Verdict::kInconclusive;
  bool supported_gain = false;
  std::vector<std::string> reasons;
};

// One cell against one head.
struct AbComparison {
  std::string cell;                // the cell's name
  std::string role = "target";     // target | control
  std::string head = "head";       // arm name
  int64_t blocks = 0;              // blocks run for this cell
  int64_t looks = 0;               // looks taken
  campaign::Verdict verdict = campaign::Verdict::kInconclusive;  // worst metric's
  bool supported_gain = false;     // some metric has a supported gain
  int64_t failed_samples = 0;      // failed samples of any arm in this cell
  std::vector<std::string> reasons;  // cell-level: failed samples
  std::vector<AbMetricResult> metrics;
};

struct AbArm {
  std::string name;    // base, head, hd02..., null
  std::string role;    // base | head | null
  std::string source;  // the declared executable
  std::string path;    // the copy that ran
  std::string sha256;
};

// A sanity gate (checked on the first block) or a release bound (over the cohort).
struct AbCheck {
  std::string kind;    // "gate" | "bound"
  std::string rule;    // as declared
  std::string cell;
  std::string arm;
  double value = kNaN;
  double limit = kNaN;
  std::string unit;
  bool ok = true;
};

// One cohort of the campaign, for the ledger's history table.
struct AbCohort {
  int64_t cohort = 0;
  int64_t run_id = 0;
  int64_t started_unix_ns = 0;
  std::string state;        // running | complete | interrupted | stopped
  std::string stop_reason;  // one line, when stopped
  std::string outcome;      // PASS | FAIL | INCONCLUSIVE | "" (no verdict)
  std::string lock_sha256;
  std::vector<std::string> head_sha256;  // per head arm, in arm order
  int64_t samples = 0;
  bool current = false;     // the cohort this report is about
};

struct AbReport {
  std::string campaign_name;
  std::string campaign_sha256;
  std::string campaign_source;     // "file:<path>" | "flags"
  int64_t run_id = 0;
  int64_t cohort = 0;
  std::string state = "complete";  // complete | interrupted | stopped
  std::string stop_reason;
  int64_t resumed = 0;             // times this cohort was resumed
  std::string lock_sha256;
  std::string lock_json;           // the whole tare.lock/1 record
  std::string tare_version;
  int64_t started_unix_ns = 0;
  int64_t ended_unix_ns = 0;
  std::string host;                // "AMD EPYC 7B13, 2 logical CPUs, Linux 6.1.0-18-amd64"
  std::string fingerprint_digest;
  std::vector<std::string> host_warnings;  // stability checks that warned, each with its fix
  std::string kind;                // command | gbench | tare
  std::string instrument = "wall"; // wall | sim | mem
  std::vector<std::string> args;   // common argv after the executable
  std::string arm_order;
  uint64_t seed = 0;
  campaign::SamplingPlan sampling;
  double confidence = 0.95;
  std::string look_scheme;
  double per_look_confidence = 0;
  std::vector<int64_t> look_pairs;
  std::string noise_floor_rule;
  std::vector<AbArm> arms;
  std::vector<AbComparison> comparisons;  // cell-major, heads in arm order
  std::vector<AbCheck> checks;
  std::vector<AbCohort> cohorts;          // every cohort of this campaign in the store
  std::vector<std::string> notes;         // e.g. iteration counts, failed samples
  int64_t samples = 0;                    // samples used by this cohort
  campaign::Verdict outcome = campaign::Verdict::kInconclusive;  // worst comparison's
  bool has_verdicts = false;              // false when the cohort stopped before any look

  bool AnyHostTooNoisy() const;
  bool GatesOk() const;
  bool BoundsOk() const;
};

}  // namespace tare::report
