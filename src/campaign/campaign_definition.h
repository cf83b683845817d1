// CampaignSpec: everything a campaign declares before it runs — the arms and their executables,
// the cells, the metrics with their allowances, the sampling plan, the confidence, the arm order,
// the sanity gates and the release bounds. It comes from a TOML file (campaign_file.h) or from
// `tare ab` flags; either way it is validated here before a single process starts, and its
// canonical JSON is what a flags-built campaign is identified and locked by.
//
// Paths in a spec are as declared; ResolveSpecPaths() makes them absolute (relative to the
// campaign file's directory, or to the working directory for flags). Format: docs/campaign.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "campaign/arm_order.h"
#include "campaign/rules.h"
#include "campaign/sampling.h"
#include "campaign/verdict_rules.h"
#include "campaign/work_tier.h"
#include "model/metric.h"
#include "model/target.h"
#include "session/measurement_setup.h"

namespace tare::campaign {

inline constexpr char kCampaignFormat[] = "tare.campaign/1";

// The default plan is time-based (issue 21): looks at 20 pairs, then doubling (40, 80, ... up to
// 1280), and the default budget (below) decides how far an undecided cell gets; the cap is only a
// safety bound. 7 looks, each at 99.29% under Bonferroni. The first look's sign-test interval is
// then [d(4), d(17)], which three outliers on either side cannot move; a first look at 10 pairs
// would be [d(1), d(10)] (the whole range: one stray sample decides), and on the development VM it
// left a -3% gain unsupported in 1 campaign of 8 against 0 of 8 with 20. Declaring --step (or a
// [sampling] step) gives evenly spaced looks instead (growth 1), as before the time-based default.
inline constexpr SamplingPlan kDefaultSampling{20, 20, 1280, 2};
// The budget (--budget, `budget =`): once every cell has had its first look, the cells still
// undecided when the cohort has run this long stop there, INCONCLUSIVE with that reason. The first
// look is never cut short: a verdict on fewer pairs than the plan's first look is not one the look
// scheme planned, so a budget smaller than the first look's cost is spent after it (the estimate
// after the first block says so). CampaignSpec::budget_ns holds what was declared:
//   kDefaultBudget (0): kDefaultBudgetPerCellNs per cell, at most kDefaultBudgetMostNs — 30 s for
//     one cell, 1.5 min for three, 10 min from 20 cells up;
//   kNoBudget: none (--budget none): the plan's cap alone ends sampling;
//   > 0: that much wall time.
inline constexpr int64_t kDefaultBudget = 0;
inline constexpr int64_t kNoBudget = -1;
inline constexpr int64_t kDefaultBudgetPerCellNs = 30'000'000'000;
inline constexpr int64_t kDefaultBudgetMostNs = 600'000'000'000;
inline constexpr char kDefaultBudgetV1[] = "default-budget-v1";  // recorded with the spec
inline constexpr double kDefaultConfidence = 0.95;
inline constexpr int64_t kDefaultTimeoutNs = 600'000'000'000;  // 10 min per sample

// Layouts (--layouts K): every cell runs under K run-time layouts, judged separately; the ledger
// says whether the change holds across them. Layout k adds the environment variable TARE_LAYOUT
// of k * kLayoutPadBytes bytes, which moves the process's initial stack (and the argv, envp and
// auxv the loader puts above it) by that much: 1040 bytes is 16 mod 64, so four layouts put the
// stack at four different offsets within a cache line. The heap moves too: layout k preloads
// libtare_heap_shift.so with TARE_HEAP_SHIFT = k * kLayoutPadBytes, one allocation of that size before
// main (src/lib/heap_shift.c). Nothing is rebuilt or relinked: code, static data and shared libraries
// do not move (docs/campaign.md, "Layouts").
inline constexpr int64_t kMaxLayouts = 8;
inline constexpr int64_t kLayoutPadBytes = 1040;
std::string LayoutCellName(const std::string& cell, int64_t layout);  // "BM_X [layout 1]"
std::string LayoutEnv(int64_t layout);                                // "TARE_LAYOUT=xxx..."
std::string HeapShiftEnv(int64_t layout);                             // "TARE_HEAP_SHIFT=<k x kLayoutPadBytes>"

inline constexpr int64_t kMinGbenchMinTimeNs = session::kMinGbenchMinTimeNs;  // 1 ms
inline constexpr int64_t kMaxGbenchMinTimeNs = session::kMaxGbenchMinTimeNs;  // 60 s

struct CellSpec {
  // Google Benchmark: the benchmark's exact name ("BM_Sort/1024"). Commands: a label for this
  // parameter set ("input=small").
  std::string name;
  CellRole role = CellRole::kTarget;
  std::vector<std::string> args;  // appended to every arm's argv for this cell
  std::vector<std::string> env;   // KEY=VALUE, added to every arm's environment for this cell
  // metric -> allowance for this cell only (campaign file: allowances = { "sim.Ir" = "0.5%" }).
  std::map<std::string, Allowance> allowances;
};

struct MetricSpec {
  std::string name;  // wall_ns, gb.real_time_ns, gb.counter.items...
  Allowance allowance = Allowance::Noise();
  std::optional<Direction> direction;  // overrides the metric's known direction
};

struct CampaignSpec {
  std::string name;                // shown in the ledger; default "<base> vs <head>"
  std::optional<TargetKind> kind;  // nullopt: detected from the base executable ("auto")
  Instrument instrument = Instrument::kWall;
  std::string base;                // executable of the base arm
  std::vector<std::string> heads;  // one or more head executables
  // A second copy of base, run as its own arm: what every verdict is read against, so on unless a
  // campaign leaves it out (--no-null, `null = false`; issue 21).
  bool null_arm = true;
  std::vector<std::string> args;    // argv after the executable, the same for every arm
  std::vector<std::string> env;     // KEY=VALUE set for every arm
  std::string cwd;                  // "" = tare's working directory
  std::string filter;               // Google Benchmark: which benchmarks become cells (regex)
  std::string control_filter;       // those matching this become role "control"
  std::vector<CellSpec> cells;      // empty: every (filtered) benchmark / the command itself
  std::vector<MetricSpec> metrics;  // empty: DefaultMetrics(kind)
  SamplingPlan sampling = kDefaultSampling;
  // Whether the plan was declared (--samples/--step/--cap, [sampling]). When it was not and every
  // judged metric is deterministic (sim, mem), the exact plan runs instead (exact_plan.h), with
  // `sampling` as its fallback.
  bool sampling_declared = false;
  double confidence = kDefaultConfidence;
  LookScheme look_scheme = LookScheme::kBonferroni;
  NoiseFloorRule noise_floor = NoiseFloorRule::kSplit;
  PairedIntervalMethod interval = PairedIntervalMethod::kSignTest;
  // Under the allowance "noise", the widest null-arm floor a PASS may certify (verdict.h).
  double noise_cap = kDefaultNoiseCap;
  ArmOrder order = ArmOrder::kRotatingReversedBlocks;
  uint64_t seed = 0;
  int64_t timeout_ns = kDefaultTimeoutNs;
  // The budget as declared: kDefaultBudget, kNoBudget or a wall time (see kDefaultBudget above);
  // BudgetNs gives what a cohort of N cells spends.
  int64_t budget_ns = kDefaultBudget;
  // Google Benchmark binaries: --benchmark_min_time for every sample of every arm (0: tare's default,
  // session::FixGbenchWork: 20 ms, or a count fixed per cell where the binary accepts <N>x). What each
  // cell ran is recorded in the lock and reused by every later cohort (docs/campaign.md, "Google
  // Benchmark: sample length").
  int64_t gbench_min_time_ns = 0;
  int64_t layouts = 1;  // run-time layouts per cell (1: none); see kLayoutPadBytes
  // A living suite (suite_diff.h): benchmarks new in a head or missing from one are listed and the
  // shared ones judged; with strict_suite (--strict-suite) such a change also fails the gate (exit 4).
  bool strict_suite = false;
  // The work tier (work_tier.h): before a time campaign samples, each cell of a tare or Google
  // Benchmark binary runs once under valgrind per arm; a cell whose head does the same work is judged
  // on time against at least this (what code placement alone can do). 0 ("off"): no work tier.
  double same_work_allowance = kDefaultSameWorkAllowance;
  std::optional<std::vector<GateRule>> gates;  // nullopt: DefaultGates(); empty: none
  std::vector<BoundRule> bounds;
};

// The wall time a cohort of `cells` cells may spend past its first looks: the declared budget, the
// default's (30 s per cell, at most 10 min), or 0 for none.
int64_t BudgetNs(const CampaignSpec& spec, size_t cells);
// "none" (kNoBudget), "default" (kDefaultBudget), or a wall time such as 90s or 10m.
StatusOr<int64_t> ParseBudget(std::string_view text);

// What identifies a campaign: the sha256 of its canonical declaration (SpecToJson: every setting,
// defaults written out, executables as absolute paths), whether it came from a file or from flags.
// Comments, whitespace and key order in a campaign file do not change it; any declared setting
// does. Cohorts of one identity are one campaign's: the ledger lists them all.
std::string CampaignIdentity(const CampaignSpec& spec);

// Arm names, in declaration order: "base", "head" (then "hd02", "hd03"... for further heads: every
// name has four characters, so every copy's path has the same length), and "null" last.
std::vector<std::string> ArmNames(const CampaignSpec& spec);
// The role of an arm name from ArmNames is model's RoleOfArm (model/kinds.h).

// Metrics judged when the campaign names none, with allowance "noise": CPU time, because it does
// not count the time a process waits for a CPU, which on a shared or loaded host swamps the
// change being measured (on the 2-CPU development VM, with other builds running, the null arm's
// 95% interval on wall_ns reached +-20..80% while perf task-clock stayed within +-1..2%).
//   Google Benchmark: gb.cpu_time_ns, its per-iteration CPU time.
//   commands: perf.task_clock_ns, the perf task-clock of the process (and its children), when the
//   host can count it; otherwise wall_ns (the ledger says which and why).
//   tare benchmark binaries: bench.cpu_ns, CPU time per iteration of the measured window.
//   --instrument sim: sim.Ir, simulated instructions (deterministic: any confirmed change counts).
//   --instrument mem: mem.allocs and mem.peak_live_bytes.
// Declare wall_ns (or gb.real_time_ns) to judge wall time: it also sees waiting (I/O, sleeps,
// lock contention) that CPU time does not.
std::vector<MetricSpec> DefaultMetrics(TargetKind resolved_kind, Instrument instrument = Instrument::kWall,
                                       bool task_clock_available = true);

// Everything that can be checked without touching the file system: sampling plan and looks,
// confidence, arm counts, unique cell names, metric names (known for the kind, or a Google
// Benchmark user counter), gate and bound arms, KEY=VALUE forms. Errors name the field and the fix.
Status ValidateSpec(const CampaignSpec& spec, TargetKind resolved_kind);

// Makes base, heads and cwd absolute: relative paths are taken from `dir` (the campaign file's
// directory, or the working directory). Executables are not looked up on PATH: a campaign names
// files.
CampaignSpec ResolveSpecPaths(CampaignSpec spec, const std::string& dir);

// The canonical JSON of a spec: every field, in a fixed order, defaults written out. Flags-built
// campaigns are identified (and their lock's campaign hash taken) from its dump().
nlohmann::json SpecToJson(const CampaignSpec& spec);
// The inverse, for a spec a store or an evidence bundle kept (`tare replay`). DataLoss naming the
// field (its JSON pointer) when `j` is not a SpecToJson document.
StatusOr<CampaignSpec> SpecFromJson(const nlohmann::json& j);
// A stored spec's text (a cohort's spec_json), `what` naming it ("run 12's campaign spec"):
// DataLoss when it is not JSON or not a spec.
StatusOr<CampaignSpec> SpecFromJsonText(std::string_view text, std::string_view what);

}  // namespace tare::campaign
