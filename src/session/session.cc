#include "session/session.h"

#include <memory>
#include <numeric>

namespace tare::session {

Session::Session(Plan plan, Measurer& measurer, store::RunWriter& writer, int64_t run_id, Observer& observer)
    : plan_(std::move(plan)),
      measurer_(measurer),
      recorder_(writer, run_id),
      observer_(observer),
      blocks_done_(plan_.cells.size(), 0),
      writes_(plan_.write_behind,
              writer.CanWriteTogether()
                  ? WriteBehind::Group([&writer](const WriteBehind::Write& body) { return writer.WriteTogether(body); })
                  : WriteBehind::Group()) {}

void Session::Resume(int64_t next_seq, std::vector<int64_t> blocks_done) {
  next_seq_ = next_seq;
  blocks_done.resize(plan_.cells.size(), 0);
  blocks_done_ = std::move(blocks_done);
}

void Session::Stop(StopKind kind, const std::string& reason) {
  if (stop_ != StopKind::kNone) return;
  stop_ = kind;
  stop_reason_ = reason;
}

Status Session::Run() {
  Status looped = Loop();
  // Whatever ended the loop, the sample written behind is stored (or its failure known) first.
  Status written = writes_.Wait();
  if (progress_) progress_("");
  if (!looped.ok()) return looped;
  TARE_RETURN_IF_ERROR(written);
  return recorder_.WriteRunWarnings();
}

Status Session::Loop() {
  while (stop_ == StopKind::kNone) {
    bool ran = false;
    if (plan_.shared_process) {
      // Every cell runs the same number of blocks; one process per round measures them all.
      if (!plan_.cells.empty() && blocks_done_[0] < observer_.TargetBlocks(0)) {
        TARE_RETURN_IF_ERROR(RunSharedRound(blocks_done_[0]));
        if (stop_ == StopKind::kNone) {
          for (auto& done : blocks_done_) ++done;
          ran = true;
        }
      }
    } else {
      std::vector<size_t> order;
      if (plan_.cell_order) {
        order = plan_.cell_order(rounds_);
      } else {
        order.resize(plan_.cells.size());
        std::iota(order.begin(), order.end(), size_t{0});
      }
      for (size_t c : order) {
        if (stop_ != StopKind::kNone) break;
        if (c >= plan_.cells.size() || blocks_done_[c] >= observer_.TargetBlocks(c)) continue;
        TARE_RETURN_IF_ERROR(RunBlock(c, blocks_done_[c]));
        if (stop_ == StopKind::kNone) {
          ++blocks_done_[c];
          ran = true;
        }
      }
    }
    if (stop_ != StopKind::kNone) break;
    ++rounds_;
    if (ran && observer_.AfterRoundReadsTheStore()) TARE_RETURN_IF_ERROR(writes_.Wait());
    if (ran) TARE_RETURN_IF_ERROR(observer_.AfterRound(*this));
    bool below = false;
    for (size_t c = 0; c < plan_.cells.size(); ++c) below = below || blocks_done_[c] < observer_.TargetBlocks(c);
    // Done when every cell reached its target; a round that ran nothing cannot make progress.
    if (!below || !ran) break;
  }
  return Status::Ok();
}

Status Session::RunBlock(size_t cell, int64_t block) {
  std::vector<int> order;
  if (plan_.arm_order) {
    order = plan_.arm_order(block);
  } else {
    order.resize(plan_.arms.size());
    std::iota(order.begin(), order.end(), 0);
  }
  const Cell& c = plan_.cells[cell];
  for (int arm_index : order) {
    if (measurer_.Interrupted()) {
      Stop(StopKind::kInterrupted, "interrupted (Ctrl-C)");
      return Status::Ok();
    }
    const std::string& arm = plan_.arms[static_cast<size_t>(arm_index)];
    if (progress_) progress_(observer_.ProgressLine(*this, cell, arm, block));
    TARE_ASSIGN_OR_RETURN(Measured m, measurer_.Measure(c.targets[static_cast<size_t>(arm_index)], c.bench));
    m.sample.arm = arm;
    m.sample.block = block;
    TARE_RETURN_IF_ERROR(Record(cell, std::move(m)));
    if (stop_ != StopKind::kNone) return Status::Ok();
  }
  return Status::Ok();
}

Status Session::RunSharedRound(int64_t block) {
  if (measurer_.Interrupted()) {
    Stop(StopKind::kInterrupted, "interrupted (Ctrl-C)");
    return Status::Ok();
  }
  if (progress_) progress_(observer_.ProgressLine(*this, 0, plan_.arms.front(), block));
  std::vector<target::Benchmark> benches;
  for (const auto& c : plan_.cells) benches.push_back(c.bench);
  TARE_ASSIGN_OR_RETURN(std::vector<Measured> all,
                        measurer_.MeasureTogether(plan_.cells.front().targets.front(), benches));
  for (size_t cell = 0; cell < all.size() && cell < plan_.cells.size(); ++cell) {
    all[cell].sample.arm = plan_.arms.front();
    all[cell].sample.block = block;
    TARE_RETURN_IF_ERROR(Record(cell, std::move(all[cell])));
    if (stop_ != StopKind::kNone) return Status::Ok();
  }
  return Status::Ok();
}

Status Session::Record(size_t cell, Measured m) {
  const Cell& c = plan_.cells[cell];
  m.sample.seq = next_seq_++;
  m.sample.warmup = m.sample.block < plan_.warmup_blocks;
  observer_.OnSample(*this, cell, m.sample);
  if (m.sample.outcome == SampleOutcome::kInterrupted || measurer_.Interrupted()) {
    Stop(StopKind::kInterrupted, "interrupted (Ctrl-C)");
  }
  const bool long_sample = m.sample.ended_unix_ns - m.sample.started_unix_ns >= kWriteInPlaceNs;
  // The label first: the order a lambda's captures are initialised in is unspecified, so one read of
  // `m` beside a capture that moves it may read it moved-from (clang-tidy bugprone-use-after-move).
  std::string label = m.sample.arm.empty() ? c.bench.uri : c.name + " (" + m.sample.arm + ")";
  auto write = [this, id = c.benchmark_id, &bench = c.bench, label = std::move(label),
                m = std::make_shared<const Measured>(std::move(m))]() -> Status {
    return recorder_.Record(id, bench.uri, bench.name, label, *m).status();
  };
  TARE_RETURN_IF_ERROR(writes_.Submit(std::move(write)));
  return long_sample ? writes_.Wait() : Status::Ok();
}

}  // namespace tare::session
