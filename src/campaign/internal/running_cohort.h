// CampaignRunner::Cohort: the state of one CampaignRunner::Run() — one cohort, from the lock to the
// report. The measuring is session::Session's (this is its Observer): blocks of every arm in the
// campaign's arm order, each sample stored as it completes. What a campaign adds lives here:
//   cohort.cc         opening a cohort (run, cells, lock) or resuming one, the looks, the loop's hooks
//   cohort_checks.cc  sanity gates (after the first round) and release bounds (at the end)
//   (broken cells, settled as soon as broken_cell.h knows them, are cohort.cc's)
//   cohort_suite.cc   the benchmarks of a living suite only a head has, measured for their figures
//   cohort_report.cc  the report model the ledger and the JSON are rendered from
// Private to src/campaign.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "campaign/analysis.h"
#include "campaign/campaign_runner.h"
#include "campaign/lock.h"
#include "campaign/sampling.h"
#include "campaign/work_tier.h"
#include "model/fingerprint.h"
#include "session/failure_log.h"
#include "session/session.h"

namespace tare::campaign {

class CampaignRunner::Cohort final : public session::Observer {
 public:
  Cohort(CampaignRunner& runner, store::Store& store) : r_(runner), spec_(runner.input_.spec), store_(store) {}

  StatusOr<CampaignResult> Run();

  // session::Observer
  int64_t TargetBlocks(size_t cell) const override;
  void OnSample(session::Session& session, size_t cell, const Sample& sample) override;
  Status AfterRound(session::Session& session) override;
  std::string ProgressLine(const session::Session& session, size_t cell, const std::string& arm,
                           int64_t block) const override;

 private:
  struct CellState {
    CellSamples samples;
    int64_t target = 0;
    size_t look_index = 0;  // next planned look
    bool active = true;
    std::vector<AbComparison> comparisons;  // the latest look's
    bool exact = false;                     // waiting for the exact plan's determinism check (exact_plan.h)
    std::string fallback;                   // why the check failed, when the cell fell back to the statistical plan
    int64_t saved_look = 0;                 // the look SaveLook last stored (0: none yet), and whether it was final
    bool saved_final = false;
  };

  Status Open();
  // Per cell, the work the campaign's earlier cohorts locked (the latest for each cell).
  StatusOr<std::vector<LockedWork>> EarlierWork() const;
  // Continues the latest interrupted cohort; `stored` is its run as stored.
  Status Resume(RunData* stored, std::vector<int64_t>* blocks_done);
  session::Plan MakePlan() const;
  // JudgeCell over blocks [0, blocks) of a cell, with the fix of a broken benchmark added.
  std::vector<AbComparison> Judge(size_t cell, int64_t blocks, int64_t looks) const;
  Status Look(size_t cell);
  // Stores the cell's comparisons as its look `look` (Store::SaveVerdicts).
  Status SaveLook(size_t cell, int64_t look, bool final);
  // After the cross-check: each cell's last look stored again as the ledger shows it, with its
  // cross-check and the exact plan's fallback reason, so a ledger rebuilt from the store is the same.
  Status StoreShownLooks();
  // A cell its broken arms settle (broken_cell.h): judged over its first `blocks` blocks, final,
  // and given no more blocks.
  Status SettleBroken(size_t cell, int64_t blocks);
  std::vector<std::string> Heads() const;
  // The exact plan's look: the determinism check, then the exact verdicts or the fallback.
  Status ExactLook(size_t cell);
  // Blocks the cell needs for its next look (exact or planned); INT64_MAX after the last.
  int64_t NextLookBlocks(const CellState& st) const;
  Status ReplayLooks();
  Status CheckGates();
  // Before the first sample: the plan's cost in processes; after the first round: in time.
  void NoticePlanCost() const;
  // Before the first sample: what the campaign's latest complete cohort on this host type took, when
  // the store has one (issue 42: an estimate before the first sample), scaled to this cohort's cells.
  void NoticeEarlierCohort() const;
  static constexpr int64_t kEarlyEstimateSamples = 60;
  // What the plan will take, from the samples so far: once every cell has had its first block, and
  // early — after kEarlyEstimateSamples — when the first block alone is many times that (thousands
  // of cells), so a large campaign is not silent about its cost until its first block ends.
  void NoticeEstimate(bool early = false) const;
  // "ETA 1.2 min (at most 3.5 min)" from this Run's wall time per sample so far (tare's own work
  // between samples included), the blocks still planned and the cap; "" before the first sample.
  std::string Eta() const;
  // Once every cell has had its first look: what the cells still sampling will likely take, each
  // projected from its own pairs (planner.h, ProjectCell), in pairs and time, and which of them the
  // budget will likely leave undecided at this host's noise (issue 42: the estimate before was a
  // bracket, first looks to budget).
  void NoticeProjection() const;
  // Whether every cell still sampling has had its first planned look: the budget counts only then
  // (campaign_definition.h, kDefaultBudget).
  bool FirstLooksTaken() const;
  // The budget is spent: cells still undecided stop, INCONCLUSIVE with that reason.
  Status SpendBudget();
  std::vector<AbCheck> EvaluateBounds() const;
  // cohort_suite.cc: the benchmarks only a head has, measured there for their figures (suite_diff.h);
  // sets suite_. `stored`: a resumed cohort's run, whose samples of them are kept.
  Status MeasureNewBenchmarks(session::Measurer& measurer, const RunData& stored);
  // cohort_cross_check.cc: the cells whose time FAILed or gained, under valgrind (cross_check.h); a
  // cell the work tier read is not measured again.
  void CrossCheck();
  // cohort_work.cc: the work tier (work_tier.h), before the first timed sample; fills work_.
  Status WorkTier();
  bool WorkTierApplies() const;
  // The sim instrument in <workdir>/s<worker>, or why not (no valgrind).
  StatusOr<target::MeasureOptions> SimOptions(int worker = 1) const;
  // One cell once under valgrind in base, base again (the null copy when there is one) and each head.
  CellWork MeasureCellWork(size_t cell, session::Measurer& measurer, const target::MeasureOptions& sim) const;
  Status KeepWorkNote(const std::string& note);  // for the ledger, and stored with the run
  StatusOr<report::AbReport> BuildReport(const std::vector<AbCheck>& bounds);
  void Progress(const std::string& line) const {
    if (r_.options_.progress) r_.options_.progress(line);
  }
  void Notice(const std::string& line) const {
    if (r_.options_.notice) r_.options_.notice(line);
  }
  AnalysisSettings Settings() const;
  int64_t BlocksDone(size_t cell) const { return session_->blocks_done(cell); }

  CampaignRunner& r_;
  const CampaignSpec& spec_;
  store::Store& store_;
  std::unique_ptr<session::Session> session_;
  LookPlan plan_;
  int64_t exact_blocks_ = 0;  // the exact plan's blocks per cell; 0: the statistical plan alone
  Fingerprint fingerprint_;
  Lock lock_;
  std::string lock_sha256_;
  int64_t run_id_ = 0;
  int64_t cohort_ = 0;
  int64_t resumed_ = 0;
  int64_t started_unix_ns_ = 0;
  int64_t next_seq_ = 0;
  std::vector<CellState> cells_;
  std::vector<AbCheck> gate_checks_;
  bool gates_checked_ = false;
  int64_t session_started_ns_ = 0;  // this Run's start (a resumed cohort's budget restarts)
  int64_t budget_ns_ = 0;           // BudgetNs of the spec for this cohort's cells (0: none)
  bool budget_spent_ = false;
  int64_t samples_run_ = 0;  // samples this Run measured (not the resumed ones)
  bool early_estimate_told_ = false;
  bool projection_told_ = false;     // NoticeProjection has run
  session::FailureLog failures_;     // failed samples, told once per cell and error
  std::vector<AbSuiteEntry> suite_;  // new and missing benchmarks, the new ones' figures
  std::vector<std::string> cross_check_notes_;
  std::vector<CellWork> work_;           // the work tier's reading of each cell (unmeasured when it did not run)
  std::vector<std::string> work_notes_;  // the work tier's note for the ledger
  int64_t work_tier_ns_ =
      0;  // the wall time the work tier took in this Run  // skipped or bounded cross-checks, for the ledger
};

}  // namespace tare::campaign
