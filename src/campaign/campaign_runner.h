// CampaignRunner: runs one cohort of a campaign — fresh processes, paired blocks, looks at the
// planned pair counts, adaptive sampling for INCONCLUSIVE cells only — and streams every sample
// to the store as it completes.
//
//   CampaignRunner runner(input, spawner, options);
//   TARE_RETURN_IF_ERROR(runner.Prepare());   // usage errors: nothing stored yet
//   TARE_ASSIGN_OR_RETURN(CampaignResult r, runner.Run(store));
//   print(report::RenderLedger(r.report));
//
// Prepare() does everything that can fail on bad input before the store is opened: resolves the
// target kind, validates the campaign, copies the arms to their same-length paths (ArmStage),
// lists the benchmarks and builds the cells. Run() opens a cohort (or, with resume, continues the
// latest interrupted one of the same campaign), writes the lock before the first sample, and
// then, per round, runs one block of every cell that needs more pairs:
//   block b of a cell runs every arm once, back to back, in BlockArmOrder(order, arms, b, seed);
//   after every round the arm copies and their sources are checked (ArmStage::CheckUnchanged);
//   after the first round the sanity gates are checked on block 0 (every arm's first sample that
//   ran must also carry every metric);
//   a cell that a broken arm settles (broken_cell.h: every sample of it fails) is judged, final,
//   and gets no more blocks, while the other cells go on;
//   when a cell reaches a planned look it is judged at the plan's per-look confidence; a cell
//   with an INCONCLUSIVE comparison gets `step` more blocks, the others are final.
// Ctrl-C (proc::Interrupted) stops between samples; the sample in flight is recorded as
// interrupted and the cohort can be resumed.
//
// Not thread-safe. The Prober (the real one: SpawnerProber) and Store must outlive the runner.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "campaign/arm_stage.h"
#include "campaign/campaign_definition.h"
#include "campaign/lock.h"
#include "model/run.h"
#include "model/target.h"
#include "campaign/prober.h"
#include "campaign/suite_diff.h"
#include "proc/spawner.h"
#include "report/ab_report.h"
#include "session/session.h"
#include "session/shard.h"
#include "store/store.h"
#include "target/measure.h"

namespace tare::campaign {

struct CampaignInput {
  CampaignSpec spec;            // paths absolute (ResolveSpecPaths)
  std::string campaign_sha256;  // CampaignIdentity(spec); Prepare() sets it
  std::string campaign_source;  // "file:<absolute path>" | "flags"
  std::string campaign_text;    // the file's bytes, or SpecToJson(spec).dump(2)
};

struct RunnerOptions {
  std::string stage_dir;  // where the arm copies go: <store dir>/bin
  bool resume = false;
  std::vector<std::string> base_env;  // tare's environment, KEY=VALUE (spec.env is added)
  const session::Clock* clock = &session::SystemClock();
  std::vector<std::string> command_line;  // tare's argv, recorded with the run
  std::string tare_version;
  Provenance provenance;  // recorded with the cohort's run
  // --shard K/N: only this job's part of the cells (session/shard.h); the whole assignment is
  // recorded with the cohort's run, and --resume continues only a cohort of the same shard.
  std::optional<session::ShardSpec> shard;
  // After a time campaign: measure the cells whose time FAILed or gained once more under valgrind
  // and say whether the instructions agree (cross_check.h). --no-cross-check turns it off.
  bool cross_check = true;
  std::function<void(const std::string&)> progress;  // a status line (may be overwritten)
  std::function<void(const std::string&)> notice;    // a line worth keeping in the log
};

// Why a cohort stopped early (session::StopKind; kFailFast never happens in a campaign).
using StopKind = session::StopKind;

struct CampaignResult {
  report::AbReport report;
  StopKind stop = StopKind::kNone;
  int64_t work_tier_ns = 0;  // the wall time the work tier took (0: it did not run)
};

class CampaignRunner {
 public:
  CampaignRunner(CampaignInput input, Prober& prober, RunnerOptions options);
  ~CampaignRunner();

  Status Prepare();
  StatusOr<CampaignResult> Run(store::Store& store);

  // After Prepare(): the resolved target kind and the cells' names.
  TargetKind kind() const { return kind_; }
  std::vector<std::string> CellNames() const;
  // After Prepare(): the benchmarks new in a head or missing from one (suite_diff.h).
  const SuiteDiff& suite() const { return suite_; }
  // After Prepare() with a shard: the whole assignment the cohort records.
  const std::optional<ShardRecord>& shard() const { return shard_; }

 private:
  struct Cell {
    std::string name;
    CellRole role = CellRole::kTarget;
    target::Benchmark bench;        // the benchmark each arm runs (name and URI)
    std::vector<std::string> args;  // cell parameters
    std::vector<std::string> env;
    int64_t benchmark_id = 0;  // in the store
    std::string declared;      // --layouts: the declared cell this one is a layout of
    int64_t layout = -1;       // --layouts: which layout (-1: none)
  };
  class Cohort;  // the state of one Run(): cohort.h

  target::TargetSpec ArmTarget(const std::string& arm, const Cell& cell) const;

  // Prepare's steps, in order.
  Status CheckExecutables() const;  // base and every head: files we can read and run
  void ChooseMetrics();             // the declared metrics, or the default (CPU time where countable)
  Status ChooseGates();             // the declared gates, none under sim, or the default RSS gate
  Status StageArms();               // the arm copies (ArmStage) and their library paths
  Status CommandCells();            // a command: one cell, or the declared [[cells]]
  Status ListedCells();             // a benchmark binary: its listed benchmarks, filtered or declared
  Status KeepThisShard();           // --shard K/N: this job's part of the cells
  // Google Benchmark user counters (gb.counter.*) exist where a benchmark reports them: base runs
  // each cell once, briefly, before anything is stored; a declared counter no cell reports (a typo)
  // is refused with the counters that exist, and each cell is judged on the counters it reports
  // (cell_metrics_), on the default metric when it reports none of the declared ones.
  Status ProbeCounters();
  void ExpandLayouts();  // --layouts K: every cell once per layout

  // The work of one sample of every cell, the same in every arm: a tare binary's iteration count,
  // a Google Benchmark binary's minimum time or count (session::FixIterations, FixGbenchWork).
  // Taken from `locked` where it names the cell (a resumed cohort's lock, or what earlier cohorts
  // of the campaign ran), else fixed now on base. Sets every cell's bench, adds the ledger's note
  // and returns what the lock records.
  StatusOr<std::vector<LockedWork>> FixWork(const std::vector<LockedWork>& locked);

  CampaignInput input_;
  Prober& prober_;
  RunnerOptions options_;
  TargetKind kind_ = TargetKind::kCommand;
  std::vector<std::string> arms_;
  std::vector<MetricSpec> metrics_;
  std::vector<GateRule> gates_;
  std::vector<Cell> cells_;
  std::unique_ptr<ArmStage> stage_;
  std::string workdir_;
  target::MeasureOptions measure_;
  std::vector<std::string> notes_;
  std::map<std::string, std::string> arm_env_;  // arm -> "LD_LIBRARY_PATH=..." ($ORIGIN binaries)
  std::optional<ShardRecord> shard_;
  SuiteDiff suite_;  // the benchmarks base and the heads share (the cells) and those they do not
  std::map<std::string, std::vector<MetricSpec>> cell_metrics_;  // cell -> its metrics, when not metrics_
  std::string heap_shift_;  // --layouts: libtare_heap_shift.so, preloaded in layout cells ("" if missing)
};

}  // namespace tare::campaign
