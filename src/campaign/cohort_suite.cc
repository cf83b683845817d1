// CampaignRunner::Cohort: the benchmarks of a living suite that base and the heads do not share
// (suite_diff.h). The new ones run after the cells, in the heads that have them, a few samples each
// with the same work per sample as a cell would get, stored in the cohort's run under the head's
// arm; their figures (median, least, greatest) go to the ledger without a verdict, since nothing
// pairs them. The missing ones are listed. (internal/running_cohort.h)
#include "internal/running_cohort.h"

#include <fmt/core.h>

#include <map>

#include "campaign/suite_diff.h"
#include "session/write_behind.h"
#include "target/gbench.h"

namespace tare::campaign {
namespace {

// Samples of a new benchmark in each head that has it, under a statistical plan: enough for a
// median and its range, a twelfth of what one cell's first look costs (20 pairs of 3 arms). Under
// the exact plan (deterministic metrics) one is the figure.
constexpr int64_t kNewBenchmarkSamples = 5;

// One head's new benchmarks as a session: `blocks` samples each, kept for their figures.
class NewBenchmarks final : public session::Observer {
 public:
  NewBenchmarks(int64_t blocks, std::function<void(const std::string&)> notice)
      : blocks_(blocks), notice_(std::move(notice)) {}
  int64_t TargetBlocks(size_t) const override { return blocks_; }
  void OnSample(session::Session& session, size_t cell, const Sample& sample) override {
    samples_[session.plan().cells[cell].bench.name].push_back(sample);
    if (!sample.ok() && sample.outcome != SampleOutcome::kInterrupted && notice_) {
      notice_(fmt::format("{} (new in {}) block {}: sample failed: {}", session.plan().cells[cell].name, sample.arm,
                          sample.block, sample.error));
    }
  }
  bool AfterRoundReadsTheStore() const override { return false; }
  std::string ProgressLine(const session::Session& session, size_t cell_index, const std::string& arm,
                           int64_t block) const override {
    return fmt::format("[new benchmark] {} in {}: sample {}/{}", session.plan().cells[cell_index].name, arm, block + 1,
                       blocks_);
  }
  std::map<std::string, std::vector<Sample>>& samples() { return samples_; }

 private:
  int64_t blocks_;
  std::function<void(const std::string&)> notice_;
  std::map<std::string, std::vector<Sample>> samples_;
};

}  // namespace

Status CampaignRunner::Cohort::MeasureNewBenchmarks(session::Measurer& measurer, const RunData& stored) {
  suite_ = r_.suite_.changes;
  if (r_.suite_.new_in.empty()) return Status::Ok();
  if (r_.shard_ && r_.shard_->index != 1) {
    for (auto& e : suite_) {
      if (e.change == SuiteChange::kNew) e.error = fmt::format("measured by shard 1/{}", r_.shard_->count);
    }
    return Status::Ok();
  }
  const int64_t blocks = exact_blocks_ > 0 ? 1 : kNewBenchmarkSamples;
  const bool sim = r_.measure_.instrument == Instrument::kSim;
  std::map<std::string, std::vector<Sample>> samples;  // benchmark -> its samples, every head
  std::map<std::string, std::string> errors;           // benchmark -> why its work could not be fixed
  int64_t next_seq = session_->next_seq();
  for (const auto& [arm, benches] : r_.suite_.new_in) {
    session::Plan plan;
    plan.arms = {arm};
    plan.write_behind = session::WriteBehindPaysHere();
    std::vector<int64_t> done;
    NewBenchmarks observer(blocks, r_.options_.notice);
    for (const auto& b : benches) {
      Cell c;
      c.name = b.name;
      c.bench = b;
      const target::TargetSpec t = r_.ArmTarget(arm, c);
      c.bench.uri = fmt::format("{}::{}", t.name, b.name);
      // The work of one sample, as FixWork gives a cell: fixed on this head, since base lacks it.
      Status work = Status::Ok();
      if (r_.kind_ == TargetKind::kTare) {
        work = r_.prober_.FixIterations(t, r_.measure_, 0, &c.bench);
      } else if (r_.kind_ == TargetKind::kGbench && !sim && !target::GbenchMinTimeGiven(t.argv, t.env)) {
        work = r_.prober_.FixGbenchWork(t, r_.measure_, spec_.gbench_min_time_ns, &c.bench);
      }
      if (!work.ok()) {
        errors[b.name] = work.message();
        continue;
      }
      session::Cell cell;
      cell.name = b.name;
      cell.bench = c.bench;
      TARE_ASSIGN_OR_RETURN(cell.benchmark_id, store_.AddBenchmark(run_id_, {0, c.bench.uri, b.name, r_.kind_}));
      cell.targets = {t};
      // A resumed cohort keeps what it measured of it.
      int64_t kept = 0;
      for (const auto& s : stored.samples) {
        if (s.benchmark_id != cell.benchmark_id || s.sample.arm != arm) continue;
        samples[b.name].push_back(s.sample);
        kept = std::max(kept, s.sample.block + 1);
      }
      done.push_back(std::min(kept, blocks));
      plan.cells.push_back(std::move(cell));
    }
    if (plan.cells.empty()) continue;
    session::Session session(std::move(plan), measurer, store_, run_id_, observer);
    session.set_progress(r_.options_.progress);
    session.Resume(next_seq, done);
    Status ran = session.Run();
    next_seq = session.next_seq();
    for (auto& [name, list] : observer.samples()) samples[name].insert(samples[name].end(), list.begin(), list.end());
    if (!ran.ok()) return ran;
    if (session.stop() != StopKind::kNone) {
      session_->Stop(session.stop(), session.stop_reason());
      break;
    }
  }
  std::vector<std::string> metrics;
  for (const auto& m : r_.metrics_) metrics.push_back(m.name);
  SetNewFigures(suite_, samples, metrics);
  for (auto& e : suite_) {
    if (auto it = errors.find(e.benchmark); it != errors.end() && e.figures.empty()) e.error = it->second;
  }
  Progress("");
  return Status::Ok();
}

}  // namespace tare::campaign
