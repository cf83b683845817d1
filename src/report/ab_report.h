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

#include "model/target.h"
#include "model/verdict.h"
#include "model/metric.h"

namespace tare::report {

// Arms, checks and comparisons are model/verdict.h records.
struct AbArm {
  std::string name;  // base, head, hd02..., null
  ArmRole role = ArmRole::kBase;
  std::string source;  // the declared executable
  std::string path;    // the copy that ran
  std::string sha256;
};

// One cohort of the campaign, for the ledger's history table.
struct AbCohort {
  int64_t cohort = 0;
  int64_t run_id = 0;
  int64_t started_unix_ns = 0;
  CohortState state = CohortState::kRunning;
  std::string stop_reason;  // one line, when stopped
  std::string outcome;      // PASS | FAIL | INCONCLUSIVE | "" (no verdict)
  std::string lock_sha256;
  std::vector<std::string> head_sha256;  // per head arm, in arm order
  int64_t samples = 0;
  bool current = false;  // the cohort this report is about
};

// One cell, head and metric across the layouts it ran under (tare ab --layouts K).
struct AbLayoutRow {
  std::string cell;  // the declared cell's name, without the layout
  std::string head;
  std::string metric;
  std::vector<Verdict> verdicts;  // per layout, 0..K-1
  std::vector<double> estimates;  // per layout (fraction; NaN without an interval)
  std::vector<double> los, his;
  double spread = 0;  // max - min estimate
  // Some layouts FAIL and others do not, or two layouts' intervals exclude 0 on opposite sides: the
  // layouts disagree about the change. (PASS in one layout and INCONCLUSIVE in another is not
  // sensitivity: the same change, certified in one.)
  bool sensitive = false;
};

// Sets row.spread (max - min estimate) and row.sensitive from its per-layout verdicts and intervals.
void JudgeLayoutRow(AbLayoutRow& row);

// The sampling plan in words, for the ledger and the HTML page: "20 pairs per cell, then, for each
// cell still undecided, looks that double up to 1280" or "..., then 20 more per look ..., up to 60".
std::string SamplingText(const SamplingPlan& plan);
// The budget in words: "1.5 min (the default: 30 s per cell, at most 10 min), from the first sample,
// never cutting a cell's first look short"; "none" when there is none.
std::string BudgetText(int64_t budget_ns, bool is_default);

struct AbReport {
  std::string campaign_name;
  std::string campaign_sha256;
  std::string campaign_source;  // "file:<path>" | "flags"
  int64_t run_id = 0;
  int64_t cohort = 0;
  CohortState state = CohortState::kComplete;
  std::string stop_reason;
  int64_t resumed = 0;  // times this cohort was resumed
  std::string lock_sha256;
  std::string lock_json;  // the whole tare.lock/1 record
  std::string tare_version;
  int64_t started_unix_ns = 0;
  int64_t ended_unix_ns = 0;
  std::string host;  // "AMD EPYC 7B13, 2 logical CPUs, Linux 6.1.0-18-amd64"
  std::string fingerprint_digest;
  std::vector<std::string> host_warnings;  // stability checks that warned, each with its fix
  TargetKind kind = TargetKind::kCommand;
  Instrument instrument = Instrument::kWall;
  std::vector<std::string> args;   // common argv after the executable
  int64_t gbench_min_time_ns = 0;  // --gbench-min-time; 0: not given
  // Google Benchmark: the work the lock fixed for every sample (campaign/lock.h, `work`): the
  // --benchmark_min_time its cells ran (the longest; 0 when none was locked), and whether some cell
  // ran a fixed count instead (--benchmark_min_time=<N>x). For what the ledger says a sample costs.
  int64_t gbench_locked_min_time_ns = 0;
  bool gbench_counts_fixed = false;
  std::string arm_order;
  uint64_t seed = 0;
  SamplingPlan sampling;
  // The wall time the cohort could spend past its first looks (0: no budget), and whether it is the
  // default one (campaign_definition.h: 30 s per cell, at most 10 min).
  int64_t budget_ns = 0;
  bool budget_default = false;
  // The exact plan (campaign/exact_plan.h): blocks per cell before the determinism check, 1 with a
  // null arm, 2 without; 0 when the campaign ran the statistical plan alone.
  int64_t exact_blocks = 0;
  double confidence = 0.95;
  std::string look_scheme;
  double per_look_confidence = 0;
  std::vector<int64_t> look_pairs;
  std::string noise_floor_rule;
  std::string interval_method = "sign-test-v1";  // the paired interval (campaign/verdict_rules.h)
  double noise_cap = 0;                          // under "noise", the widest floor a PASS may certify
  double same_work_allowance = 0;                // the work tier's allowance for same-work cells (0: no tier)
  std::vector<AbArm> arms;
  std::vector<AbComparison> comparisons;  // cell-major, heads in arm order
  std::vector<AbCheck> checks;
  std::vector<AbCohort> cohorts;         // every cohort of this campaign in the store
  int64_t layouts = 1;                   // --layouts K
  std::vector<AbLayoutRow> layout_rows;  // with K > 1: per declared cell, head and metric
  std::vector<std::string> notes;        // e.g. iteration counts, failed samples
  // A living suite (campaign/suite_diff.h): benchmarks new in a head (measured, no verdict) or
  // missing from one (not compared); with strict_suite either fails the gate (exit 4).
  std::vector<AbSuiteEntry> suite;
  bool strict_suite = false;
  int64_t samples = 0;                       // samples used by this cohort
  Verdict outcome = Verdict::kInconclusive;  // worst comparison's
  bool has_verdicts = false;                 // false when the cohort stopped before any look

  bool AnyHostTooNoisy() const;
  // Cells some comparison of which cannot be measured (base or the null arm broken: AbBroken),
  // each once, in report order: BROKEN, `tare ab`'s exit 5 when no cell FAILs.
  std::vector<std::string> UnmeasurableCells() const;
  bool GatesOk() const;
  bool BoundsOk() const;
  bool SuiteChangeFails() const { return strict_suite && !suite.empty(); }
};

// How a cohort sampled, in words, as the ledger's "Sampling" line and the HTML page's both say it:
// the exact plan (one block, the determinism check, the fallback) or the planned looks.
std::string CohortSamplingText(const AbReport& r);
// Whether a cohort had a budget worth stating: always under the statistical plan; under the exact
// plan only when one was declared (the default applies only to a cell that falls back).
bool CohortStatesBudget(const AbReport& r);

}  // namespace tare::report
