// Session: the measurement loop shared by `tare run` and `tare ab` — plan → arms × cells →
// samples → store.
//
//   Plan plan{.arms = {"base", "head", "null"}, .cells = ..., .arm_order = ...};
//   Session session(plan, measurer, store, run_id, observer);
//   TARE_RETURN_IF_ERROR(session.Run());
//
// The loop runs in rounds. In each round every cell below its target (Observer::TargetBlocks) runs
// one block: each arm once, back to back, in the plan's arm order for that block. Every sample is
// recorded (SampleRecorder) within 50 ms of completing (below), so a crash loses little.
// After the round the observer may look at the data (a campaign's gates and verdicts), raise a
// cell's target or stop the session; the session ends when no cell is below its target. `tare
// run` is one arm, warm-up blocks first, a fixed target and no looks: rounds are then the
// round-robin order (sample i of every benchmark before sample i+1 of any), which spreads slow
// drift of the host over all benchmarks instead of biasing the last ones.
//
// Writing in batches (write_behind.h): a sample is handed to the observer as soon as it is measured
// and queued for the store; the samples of up to kWriteBatchNs (50 ms) are committed together, on a
// thread of their own while the next samples run where tare may use two CPUs (Plan::write_behind),
// else between samples. A crash (kill -9) loses at most the sample in flight and those of the last
// 50 ms; Ctrl-C none. A sample of kWriteInPlaceNs or more is committed, with what is queued, before
// the next starts (its commit is under 1% of it, and a long sample is not worth running after a
// write that failed). A refused write ends the loop at the next sample stored with the write's
// error; in a store transaction (SQLite) its batch is not stored either. Before AfterRound (when
// the observer says it reads the store), before Run returns, and before the run's warnings are
// written, every write is waited for.
//
// Stopping: Ctrl-C (Measurer::Interrupted, or a sample that came back interrupted) stops between
// samples with StopKind::kInterrupted; the observer stops for its own reasons (Stop()). Run()
// returns an error only when tare could not do its job (the spawn helper died, the store refused a
// write); the samples stored until then stay stored.
//
// Not thread-safe. The Measurer, RunWriter and Observer must outlive the session.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "session/measurer.h"
#include "session/sample_recorder.h"
#include "session/write_behind.h"
#include "store/store.h"
#include "target/measure.h"

namespace tare::session {

struct Cell {
  std::string name;                         // shown in progress lines and warnings
  target::Benchmark bench;                  // what every arm runs (name, URI, iterations)
  int64_t benchmark_id = 0;                 // in the store
  std::vector<target::TargetSpec> targets;  // one per arm, in Plan::arms order
};

struct Plan {
  std::vector<std::string> arms = {""};  // "" for a plain run (one arm)
  std::vector<Cell> cells;
  int64_t warmup_blocks = 0;  // the first blocks' samples are stored as warm-ups
  // Indexes into `arms` for block b; empty: the declared order every time.
  std::function<std::vector<int>(int64_t block)> arm_order;
  // tare binaries, one arm: every cell of a round in ONE process (`tare run --no-isolation`).
  bool shared_process = false;
  // Indexes into `cells` for round r (0, 1, ...); empty: the declared order every round. Several
  // commands of `tare run` alternate (A B, B A, ...) so that neither always runs right after the
  // other (a file the first read is in the page cache for the second).
  std::function<std::vector<size_t>(int64_t round)> cell_order;
  // Commit the batches of samples on a thread of their own while the next ones run (write_behind.h;
  // WriteBehindPaysHere() says whether it pays on this host); else between samples.
  bool write_behind = false;
};

// A sample at least this long is committed before the next one starts, written behind or not.
inline constexpr int64_t kWriteInPlaceNs = 50'000'000;

enum class StopKind { kNone, kInterrupted, kGate, kExecutableChanged, kFailFast };

class Session;

// What makes a session a plain run or a campaign.
class Observer {
 public:
  virtual ~Observer() = default;
  // The blocks `cell` should have completed when it stops; the loop runs one block per round of
  // each cell below it.
  virtual int64_t TargetBlocks(size_t cell) const = 0;
  // After each sample is measured (failed ones too), as it is handed to the store (written behind,
  // it may not be stored yet: read the store in AfterRound, not here).
  virtual void OnSample(Session& session, size_t cell, const Sample& sample) {}
  // After each round in which any block ran; every sample is stored by then, unless
  // AfterRoundReadsTheStore says it need not be.
  virtual Status AfterRound(Session& session) { return Status::Ok(); }
  // False when AfterRound touches neither the store nor the recorder: rounds then do not wait for
  // the last sample's write (a plain run's round is one sample per benchmark).
  virtual bool AfterRoundReadsTheStore() const { return true; }
  // The progress line before a sample ("" for none).
  virtual std::string ProgressLine(const Session& session, size_t cell, const std::string& arm, int64_t block) const {
    return "";
  }
};

class Session {
 public:
  Session(Plan plan, Measurer& measurer, store::RunWriter& writer, int64_t run_id, Observer& observer);

  // Continue a stored run: the next sample's sequence number and each cell's complete blocks.
  void Resume(int64_t next_seq, std::vector<int64_t> blocks_done);
  void set_progress(std::function<void(const std::string&)> progress) { progress_ = std::move(progress); }

  Status Run();
  // Ends the session after the current sample; the first reason given is kept.
  void Stop(StopKind kind, const std::string& reason);

  const Plan& plan() const { return plan_; }
  SampleRecorder& recorder() { return recorder_; }
  StopKind stop() const { return stop_; }
  const std::string& stop_reason() const { return stop_reason_; }
  int64_t blocks_done(size_t cell) const { return blocks_done_[cell]; }
  int64_t next_seq() const { return next_seq_; }
  // Stored by this Run(), warm-ups included (one written behind counts once its batch is stored).
  int64_t samples_taken() const { return writes_.written(); }

 private:
  Status RunBlock(size_t cell, int64_t block);
  Status RunSharedRound(int64_t block);
  Status Loop();
  // Tells the observer of one measured sample and stores it (written behind when the plan says
  // so); stops on Ctrl-C. Returns the error of a write that failed before it.
  Status Record(size_t cell, Measured m);

  Plan plan_;
  Measurer& measurer_;
  SampleRecorder recorder_;
  Observer& observer_;
  std::function<void(const std::string&)> progress_;
  std::vector<int64_t> blocks_done_;
  int64_t rounds_ = 0;  // rounds run by this Run()
  int64_t next_seq_ = 0;
  WriteBehind writes_;  // last: destroyed first, writing what is queued while the rest is there
  StopKind stop_ = StopKind::kNone;
  std::string stop_reason_;
};

}  // namespace tare::session
