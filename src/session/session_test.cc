// The run loop in-process: a scripted Measurer (values, failures, Ctrl-C at a chosen sample) and a
// RunWriter that records every call and can refuse a write. End-to-end tests of `tare run` and
// `tare ab` cover the same loop with real processes and a real store.
#include "session/session.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <cstdlib>
#include <stdexcept>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace tare::session {
namespace {

// Every call the session makes on the store, in order.
class FakeWriter final : public store::RunWriter {
 public:
  const std::string& path() const override { return path_; }
  StatusOr<int64_t> BeginRun(const RunRecord&) override { return 1; }
  Status AddExecutable(int64_t, const ExecutableRecord&) override { return Status::Ok(); }
  StatusOr<int64_t> AddBenchmark(int64_t, const BenchmarkRecord&) override { return 1; }
  Status AddMetric(int64_t, const MetricDef& m) override {
    metrics.push_back(m.name);
    return Status::Ok();
  }
  Status AddNote(int64_t, const NoteRecord& n) override {
    notes.push_back(n.level + "|" + n.message);
    return Status::Ok();
  }
  StatusOr<int64_t> AppendSample(int64_t, int64_t benchmark_id, const Sample& s) override {
    if (fail_at_sample >= 0 && static_cast<int64_t>(samples.size()) == fail_at_sample) {
      return Status::DataLoss("store 'fake': storing a sample failed: disk I/O error");
    }
    samples.push_back({benchmark_id, s});
    append_threads.insert(std::this_thread::get_id());
    stored.fetch_add(1);
    return static_cast<int64_t>(samples.size());
  }
  // Copying runs between stores (RunWriter::AppendSamples); sessions never call it. Declared without
  // `override` so this fake builds against the store interface before and after it gained it.
  StatusOr<std::vector<int64_t>> AppendSamples(int64_t, const std::vector<StoredSample>&) {
    return Status::Internal("FakeWriter::AppendSamples is not used by sessions");
  }
  Status AddArtifact(int64_t, int64_t benchmark_id, const std::string& name, const std::string&) override {
    artifacts.push_back(std::to_string(benchmark_id) + "|" + name);
    return Status::Ok();
  }
  Status FinishRun(int64_t, RunStatus, int64_t) override { return Status::Ok(); }

  std::string path_ = "fake";
  int64_t fail_at_sample = -1;
  std::vector<std::string> metrics, notes, artifacts;
  std::vector<std::pair<int64_t, Sample>> samples;
  std::set<std::thread::id> append_threads;
  std::atomic<int64_t> stored{0};  // read by the measurer while a write may be in flight
};

// Returns wall_ns = 100 * (call number); `failures` makes chosen calls fail, `interrupt_after`
// presses Ctrl-C once that many samples were taken.
class FakeMeasurer final : public Measurer {
 public:
  StatusOr<Measured> Measure(const target::TargetSpec& t, const target::Benchmark& b) override {
    if (helper_dies_at == calls) return Status::Internal("the spawn helper exited unexpectedly");
    if (stored != nullptr) stored_before.push_back(stored->load());
    Measured m;
    m.sample.started_unix_ns = 1'000'000'000 * (calls + 1);
    m.sample.ended_unix_ns = m.sample.started_unix_ns + sample_ns;
    m.sample.values["wall_ns"] = 100.0 * static_cast<double>(++calls);
    m.sample.values[b.name + ".only"] = 1;
    if (failures.count(calls)) {
      m.sample.outcome = SampleOutcome::kFailed;
      m.sample.error = "exit status 3";
    }
    m.unavailable = {"instructions: hardware counters are not supported on this host"};
    m.extras.warnings = {b.name + ": no-work: the loop body took 0 ns (call " + std::to_string(calls) + ")"};
    m.extras.artifacts = {{"callgrind.out", "profile of call " + std::to_string(calls)}};
    order.push_back(t.argv.front() + " " + b.name);
    return m;
  }
  StatusOr<std::vector<Measured>> MeasureTogether(const target::TargetSpec& t,
                                                  const std::vector<target::Benchmark>& benches) override {
    ++together_calls;
    std::vector<Measured> out;
    for (const auto& b : benches) {
      TARE_ASSIGN_OR_RETURN(Measured m, Measure(t, b));
      out.push_back(std::move(m));
    }
    return out;
  }
  bool Interrupted() const override { return interrupt_after >= 0 && calls >= interrupt_after; }

  int64_t calls = 0;
  int64_t interrupt_after = -1;
  int64_t helper_dies_at = -1;
  int64_t together_calls = 0;
  int64_t sample_ns = 2'000'000;
  const std::atomic<int64_t>* stored = nullptr;  // when set: how many were stored as each sample began
  std::vector<int64_t> stored_before;
  std::set<int64_t> failures;
  std::vector<std::string> order;
};

// A fixed number of blocks per cell, or a per-cell script; records what it saw.
class ScriptedObserver final : public Observer {
 public:
  explicit ScriptedObserver(std::vector<int64_t> targets) : targets(std::move(targets)) {}
  int64_t TargetBlocks(size_t cell) const override { return targets[cell]; }
  void OnSample(Session& session, size_t, const Sample& s) override {
    seen.push_back(s.seq);
    if (!s.ok() && stop_on_failure) session.Stop(StopKind::kFailFast, "failed: " + s.error);
  }
  Status AfterRound(Session& session) override {
    ++rounds;
    if (raise_after_round == rounds) targets[0] += 2;
    return Status::Ok();
  }
  bool AfterRoundReadsTheStore() const override { return reads_store; }
  std::vector<int64_t> targets;
  std::vector<int64_t> seen;
  bool reads_store = true;
  int rounds = 0;
  int raise_after_round = -1;
  bool stop_on_failure = false;
};

Plan MakePlan(std::vector<std::string> arms, std::vector<std::string> cells) {
  Plan plan;
  plan.arms = std::move(arms);
  int64_t id = 10;
  for (const auto& name : cells) {
    Cell c;
    c.name = name;
    c.bench.name = name;
    c.bench.uri = "t::" + name;
    c.benchmark_id = id++;
    for (const auto& arm : plan.arms) {
      target::TargetSpec t;
      t.argv = {arm.empty() ? "prog" : arm};
      c.targets.push_back(t);
    }
    plan.cells.push_back(c);
  }
  return plan;
}

TEST(Session, PlainRunIsRoundRobinWithWarmupsFirst) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({3, 3});
  Plan plan = MakePlan({""}, {"a", "b"});
  plan.warmup_blocks = 1;
  Session session(plan, measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(measurer.order, (std::vector<std::string>{"prog a", "prog b", "prog a", "prog b", "prog a", "prog b"}));
  ASSERT_EQ(writer.samples.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    const Sample& s = writer.samples[i].second;
    EXPECT_EQ(s.seq, static_cast<int64_t>(i));
    EXPECT_EQ(s.block, static_cast<int64_t>(i / 2));
    EXPECT_EQ(s.warmup, i < 2) << i;
    EXPECT_EQ(writer.samples[i].first, i % 2 == 0 ? 10 : 11);
    EXPECT_EQ(s.values.at("wall_ns"), 100.0 * static_cast<double>(i + 1));
  }
  EXPECT_EQ(session.stop(), StopKind::kNone);
  EXPECT_EQ(session.samples_taken(), 6);
  EXPECT_EQ(observer.rounds, 3);
}

TEST(Session, ACellOrderPerRoundAlternatesTheCells) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({3, 3});
  Plan plan = MakePlan({""}, {"a", "b"});
  plan.cell_order = [](int64_t round) {
    return round % 2 == 0 ? std::vector<size_t>{0, 1} : std::vector<size_t>{1, 0};
  };
  Session session(plan, measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(measurer.order, (std::vector<std::string>{"prog a", "prog b", "prog b", "prog a", "prog a", "prog b"}));
  for (size_t i = 0; i < 6; ++i)
    EXPECT_EQ(writer.samples[i].second.block, static_cast<int64_t>(i / 2)) << "pairs share a block";
}

TEST(Session, EachBlockRunsEveryArmInThePlannedOrder) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({2});
  Plan plan = MakePlan({"base", "head"}, {"x"});
  plan.arm_order = [](int64_t block) { return block % 2 == 0 ? std::vector<int>{0, 1} : std::vector<int>{1, 0}; };
  Session session(plan, measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(measurer.order, (std::vector<std::string>{"base x", "head x", "head x", "base x"}));
  std::vector<std::string> arms;
  for (const auto& [id, s] : writer.samples) arms.push_back(s.arm + "/" + std::to_string(s.block));
  EXPECT_EQ(arms, (std::vector<std::string>{"base/0", "head/0", "head/1", "base/1"}));
}

TEST(Session, MetricsNotesWarningsAndProfilesAreWrittenOnce) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({3, 3});
  Session session(MakePlan({"base", "head"}, {"a", "b"}), measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(writer.samples.size(), 12u);
  // wall_ns once, each cell's own metric once.
  EXPECT_EQ(writer.metrics, (std::vector<std::string>{"a.only", "wall_ns", "b.only"}));
  // The reason once; one warning per cell and arm (its figures vary, its kind does not), the
  // benchmark's name taken off the front because the label names the cell.
  EXPECT_EQ(writer.notes,
            (std::vector<std::string>{"info|instructions: hardware counters are not supported on this host",
                                      "warn|a (base): no-work: the loop body took 0 ns (call 1)",
                                      "warn|a (head): no-work: the loop body took 0 ns (call 2)",
                                      "warn|b (base): no-work: the loop body took 0 ns (call 3)",
                                      "warn|b (head): no-work: the loop body took 0 ns (call 4)"}));
  EXPECT_EQ(writer.artifacts, (std::vector<std::string>{"10|base/callgrind.out", "10|head/callgrind.out",
                                                        "11|base/callgrind.out", "11|head/callgrind.out"}));
  EXPECT_EQ(session.recorder().unavailable().size(), 1u);
  EXPECT_EQ(session.recorder().warnings().size(), 4u);
}

TEST(Session, CtrlCStopsBetweenSamplesAndKeepsWhatWasMeasured) {
  FakeWriter writer;
  FakeMeasurer measurer;
  measurer.interrupt_after = 3;
  ScriptedObserver observer({5, 5});
  Session session(MakePlan({""}, {"a", "b"}), measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(session.stop(), StopKind::kInterrupted);
  EXPECT_EQ(measurer.calls, 3);
  EXPECT_EQ(writer.samples.size(), 3u);  // the third, taken as Ctrl-C came, is kept too
  EXPECT_EQ(session.blocks_done(0), 1);  // a's second block was cut: not counted
  EXPECT_EQ(session.blocks_done(1), 1);
}

TEST(Session, AStoreThatRefusesAWriteStopsTheLoopWithItsError) {
  FakeWriter writer;
  writer.fail_at_sample = 2;
  FakeMeasurer measurer;
  ScriptedObserver observer({4});
  Session session(MakePlan({""}, {"a"}), measurer, writer, 1, observer);
  Status s = session.Run();
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("disk I/O error"), std::string::npos);
  EXPECT_EQ(writer.samples.size(), 2u);
  EXPECT_EQ(measurer.calls, 3);  // nothing measured after the refused write
}

TEST(Session, AHelperThatDiesIsAnErrorNotAFailedSample) {
  FakeWriter writer;
  FakeMeasurer measurer;
  measurer.helper_dies_at = 1;
  ScriptedObserver observer({3});
  Session session(MakePlan({""}, {"a"}), measurer, writer, 1, observer);
  Status s = session.Run();
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_EQ(writer.samples.size(), 1u);
}

TEST(Session, FailedSamplesAreStoredAndTheObserverMayStop) {
  FakeWriter writer;
  FakeMeasurer measurer;
  measurer.failures = {2};
  ScriptedObserver observer({3, 3});
  observer.stop_on_failure = true;
  Session session(MakePlan({""}, {"a", "b"}), measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(session.stop(), StopKind::kFailFast);
  EXPECT_EQ(session.stop_reason(), "failed: exit status 3");
  ASSERT_EQ(writer.samples.size(), 2u);
  EXPECT_EQ(writer.samples[1].second.outcome, SampleOutcome::kFailed);
}

TEST(Session, RaisedTargetsRunMoreRoundsAndOnlyForThatCell) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({1, 1});
  observer.raise_after_round = 1;  // a look found cell 0 undecided: two more blocks
  Session session(MakePlan({""}, {"a", "b"}), measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(measurer.order, (std::vector<std::string>{"prog a", "prog b", "prog a", "prog a"}));
  EXPECT_EQ(session.blocks_done(0), 3);
  EXPECT_EQ(session.blocks_done(1), 1);
}

TEST(Session, ResumeContinuesSequenceAndBlocks) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({3, 3});
  Session session(MakePlan({""}, {"a", "b"}), measurer, writer, 1, observer);
  session.Resume(/*next_seq=*/7, {2, 1});
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(measurer.order, (std::vector<std::string>{"prog a", "prog b", "prog b"}));
  EXPECT_EQ(writer.samples.front().second.seq, 7);
  EXPECT_EQ(writer.samples.front().second.block, 2);
  EXPECT_EQ(writer.samples.back().second.seq, 9);
}

TEST(Session, SharedProcessRoundsMeasureEveryCellInOneCall) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({2, 2, 2});
  Plan plan = MakePlan({""}, {"a", "b", "c"});
  plan.shared_process = true;
  Session session(plan, measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(measurer.together_calls, 2);
  ASSERT_EQ(writer.samples.size(), 6u);
  EXPECT_EQ(writer.samples[3].first, 10);
  EXPECT_EQ(writer.samples[3].second.block, 1);
}

TEST(Session, NothingToDoEndsAtOnce) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({0, 0});
  Session session(MakePlan({""}, {"a", "b"}), measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(measurer.calls, 0);
  EXPECT_EQ(observer.rounds, 0);
}

TEST(SampleRecorder, SeededFromAResumedRunWritesNothingTwice) {
  FakeWriter writer;
  SampleRecorder recorder(writer, 1);
  RunData stored;
  stored.metrics.push_back(LookupMetric("wall_ns"));
  stored.notes = {{"info", "cycles: not supported"}, {"warn", "a (base): no-work: 0 ns"}};
  recorder.Seed(stored);
  Measured m;
  m.sample.arm = "base";
  m.sample.values = {{"wall_ns", 1}, {"user_ns", 2}};
  m.unavailable = {"cycles: not supported", "branches: not supported"};
  m.extras.warnings = {"no-work: 5 ns", "syscall-heavy: 80%"};
  ASSERT_TRUE(recorder.Record(10, "t::a", "a", "a (base)", m).ok());
  EXPECT_EQ(writer.metrics, (std::vector<std::string>{"user_ns"}));
  EXPECT_EQ(writer.notes,
            (std::vector<std::string>{"info|branches: not supported", "warn|a (base): syscall-heavy: 80%"}));
  EXPECT_EQ(recorder.unavailable(), (std::vector<std::string>{"cycles: not supported", "branches: not supported"}));
}

// Syscall-heavy is judged once per label on the medians of measured, successful samples: one
// wild sample or a warm-up does not make it (the old per-sample rule fired on /bin/true).
TEST(SampleRecorder, SyscallHeavyIsJudgedOnTheRunsMedians) {
  FakeWriter writer;
  SampleRecorder recorder(writer, 1);
  auto record = [&](const std::string& label, double user_ms, double sys_ms, bool warmup) {
    Measured m;
    m.sample.warmup = warmup;
    m.sample.values = {{"wall_ns", 1}, {"user_ns", user_ms * 1e6}, {"sys_ns", sys_ms * 1e6}};
    ASSERT_TRUE(recorder.Record(10, "t::" + label, label, label, m).ok());
  };
  record("quiet", 10, 990, true);  // a warm-up: never judged
  record("quiet", 90, 10, false);
  record("quiet", 90, 10, false);
  record("quiet", 10, 90, false);  // one wild sample
  record("kernel", 40, 60, false);
  record("kernel", 40, 60, false);
  record("kernel", 50, 50, false);
  record("tiny", 0, 4, false);  // 100% of one 4 ms tick, as /bin/true: the split is noise
  record("tiny", 0, 4, false);
  ASSERT_TRUE(recorder.WriteRunWarnings().ok());
  ASSERT_EQ(recorder.warnings().size(), 1u);
  EXPECT_EQ(recorder.warnings()[0].rfind(
                "kernel: syscall-heavy: the median system time is 60% of the process's CPU time over 3 samples", 0),
            0u)
      << recorder.warnings()[0];
  ASSERT_TRUE(recorder.WriteRunWarnings().ok());  // once per label
  EXPECT_EQ(recorder.warnings().size(), 1u);
}

// Written behind (Plan::write_behind): the same samples reach the store, in order, from another
// thread; the observer and the count see them as before.
Plan BehindPlan(std::vector<std::string> arms, std::vector<std::string> cells) {
  Plan plan = MakePlan(std::move(arms), std::move(cells));
  plan.write_behind = true;
  return plan;
}

TEST(SessionWriteBehind, EverySampleIsStoredInOrderFromAnotherThread) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({5, 5});
  Session session(BehindPlan({""}, {"a", "b"}), measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  ASSERT_EQ(writer.samples.size(), 10u);
  for (size_t i = 0; i < writer.samples.size(); ++i) EXPECT_EQ(writer.samples[i].second.seq, static_cast<int64_t>(i));
  EXPECT_EQ(writer.samples[0].first, 10);
  EXPECT_EQ(writer.samples[1].first, 11);
  EXPECT_EQ(session.samples_taken(), 10);
  EXPECT_EQ(observer.seen.size(), 10u);
  EXPECT_EQ(writer.append_threads.size(), 1u);
  EXPECT_EQ(writer.append_threads.count(std::this_thread::get_id()), 0u);
  // Metrics, notes and profiles once each, as when written in place.
  EXPECT_EQ(writer.metrics, (std::vector<std::string>{"a.only", "wall_ns", "b.only"}));
  EXPECT_EQ(writer.artifacts, (std::vector<std::string>{"10|callgrind.out", "11|callgrind.out"}));
}

TEST(SessionWriteBehind, InPlaceTheWritesRunOnTheCallersThread) {
  FakeWriter writer;
  FakeMeasurer measurer;
  ScriptedObserver observer({3});
  Session session(MakePlan({""}, {"a"}), measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(writer.append_threads, (std::set<std::thread::id>{std::this_thread::get_id()}));
}

TEST(SessionWriteBehind, ARefusedWriteEndsTheRunAndNothingAfterItIsStored) {
  FakeWriter writer;
  writer.fail_at_sample = 2;
  FakeMeasurer measurer;
  ScriptedObserver observer({6});
  observer.reads_store = false;  // a plain run's rounds: no wait for the writes between them
  Session session(BehindPlan({""}, {"a"}), measurer, writer, 1, observer);
  Status s = session.Run();
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("disk I/O error"), std::string::npos);
  EXPECT_EQ(writer.samples.size(), 2u);  // no transaction here: the two before it stay
  EXPECT_EQ(session.samples_taken(), 2);
  EXPECT_GE(measurer.calls, 3);
}

// A writer whose WriteTogether is a transaction: a batch is kept whole or rolled back.
class TransactionalWriter final : public store::RunWriter {
 public:
  const std::string& path() const override { return inner.path_; }
  StatusOr<int64_t> BeginRun(const RunRecord& r) override { return inner.BeginRun(r); }
  Status AddExecutable(int64_t id, const ExecutableRecord& e) override { return inner.AddExecutable(id, e); }
  StatusOr<int64_t> AddBenchmark(int64_t id, const BenchmarkRecord& b) override { return inner.AddBenchmark(id, b); }
  Status AddMetric(int64_t id, const MetricDef& m) override { return inner.AddMetric(id, m); }
  Status AddNote(int64_t id, const NoteRecord& n) override { return inner.AddNote(id, n); }
  StatusOr<int64_t> AppendSample(int64_t id, int64_t b, const Sample& s) override {
    if (depth == 0) return Status::Internal("a sample written outside the batch's transaction");
    return inner.AppendSample(id, b, s);
  }
  StatusOr<std::vector<int64_t>> AppendSamples(int64_t id, const std::vector<StoredSample>& s) override {
    return inner.AppendSamples(id, s);
  }
  Status AddArtifact(int64_t id, int64_t b, const std::string& n, const std::string& c) override {
    return inner.AddArtifact(id, b, n, c);
  }
  Status FinishRun(int64_t id, RunStatus st, int64_t t) override { return inner.FinishRun(id, st, t); }
  bool CanWriteTogether() const override { return true; }
  Status WriteTogether(const std::function<Status()>& body) override {
    const size_t before = inner.samples.size();
    ++depth;
    Status s = body();
    --depth;
    if (!s.ok()) inner.samples.resize(before);  // rolled back
    batches.push_back(inner.samples.size() - before);
    return s;
  }
  FakeWriter inner;
  int depth = 0;
  std::vector<size_t> batches;  // samples kept by each transaction
};

TEST(SessionWriteBehind, SamplesAreCommittedInBatchesAndARefusedOneTakesItsBatch) {
  for (bool behind : {true, false}) {
    SCOPED_TRACE(behind ? "written behind" : "in place");
    {
      TransactionalWriter writer;
      FakeMeasurer measurer;
      ScriptedObserver observer({40});
      observer.reads_store = false;
      Plan plan = MakePlan({""}, {"a"});
      plan.write_behind = behind;
      Session session(std::move(plan), measurer, writer, 1, observer);
      ASSERT_TRUE(session.Run().ok());
      EXPECT_EQ(writer.inner.samples.size(), 40u);
      EXPECT_EQ(session.samples_taken(), 40);
      // Instant samples: batches fill to kWriteBatchMax, or are cut short by the 50 ms window.
      EXPECT_LT(writer.batches.size(), 40u);
      for (size_t n : writer.batches) EXPECT_LE(n, kWriteBatchMax);
    }
    {
      TransactionalWriter writer;
      writer.inner.fail_at_sample = 3;
      FakeMeasurer measurer;
      ScriptedObserver observer({6});
      observer.reads_store = false;
      Plan plan = MakePlan({""}, {"a"});
      plan.write_behind = behind;
      Session session(std::move(plan), measurer, writer, 1, observer);
      EXPECT_EQ(session.Run().code(), StatusCode::kDataLoss);
      // The samples before the refused one were in its transaction: none is stored, none counted.
      EXPECT_EQ(writer.inner.samples.size(), 0u);
      EXPECT_EQ(session.samples_taken(), 0);
    }
  }
}

TEST(SessionWriteBehind, ARefusedLastWriteIsTheRunsError) {
  FakeWriter writer;
  writer.fail_at_sample = 2;
  FakeMeasurer measurer;
  ScriptedObserver observer({3});
  Session session(BehindPlan({""}, {"a"}), measurer, writer, 1, observer);
  EXPECT_EQ(session.Run().code(), StatusCode::kDataLoss);
  EXPECT_EQ(session.samples_taken(), 2);
}

TEST(SessionWriteBehind, CtrlCAndADeadHelperKeepEverySampleMeasured) {
  {
    FakeWriter writer;
    FakeMeasurer measurer;
    measurer.interrupt_after = 3;
    ScriptedObserver observer({5, 5});
    Session session(BehindPlan({""}, {"a", "b"}), measurer, writer, 1, observer);
    ASSERT_TRUE(session.Run().ok());
    EXPECT_EQ(session.stop(), StopKind::kInterrupted);
    EXPECT_EQ(writer.samples.size(), 3u);
  }
  {
    FakeWriter writer;
    FakeMeasurer measurer;
    measurer.helper_dies_at = 2;
    ScriptedObserver observer({3});
    Session session(BehindPlan({""}, {"a"}), measurer, writer, 1, observer);
    EXPECT_EQ(session.Run().code(), StatusCode::kInternal);
    EXPECT_EQ(writer.samples.size(), 2u);  // the write behind the last good sample was waited for
  }
}

// An observer whose AfterRound reads the store: every sample of the round is there by then.
class CountingObserver final : public Observer {
 public:
  CountingObserver(const FakeWriter& writer, bool reads) : writer_(writer), reads_(reads) {}
  int64_t TargetBlocks(size_t) const override { return 4; }
  Status AfterRound(Session& session) override {
    stored_at_round.push_back(writer_.stored.load());
    taken_at_round.push_back(session.samples_taken());
    return Status::Ok();
  }
  bool AfterRoundReadsTheStore() const override { return reads_; }
  std::vector<int64_t> stored_at_round, taken_at_round;

 private:
  const FakeWriter& writer_;
  bool reads_;
};

TEST(SessionWriteBehind, AfterRoundSeesTheRoundStoredWhenItReadsTheStore) {
  FakeWriter writer;
  FakeMeasurer measurer;
  CountingObserver observer(writer, /*reads=*/true);
  Session session(BehindPlan({"base", "head", "null"}, {"a", "b"}), measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(observer.stored_at_round, (std::vector<int64_t>{6, 12, 18, 24}));
  EXPECT_EQ(observer.taken_at_round, (std::vector<int64_t>{6, 12, 18, 24}));
}

TEST(SessionWriteBehind, ASampleOfFiftyMillisecondsIsStoredBeforeTheNextStarts) {
  FakeWriter writer;
  FakeMeasurer measurer;
  measurer.stored = &writer.stored;
  measurer.sample_ns = kWriteInPlaceNs;
  ScriptedObserver observer({4});
  observer.reads_store = false;
  Session session(BehindPlan({""}, {"a"}), measurer, writer, 1, observer);
  ASSERT_TRUE(session.Run().ok());
  EXPECT_EQ(measurer.stored_before, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(writer.append_threads.count(std::this_thread::get_id()), 0u);  // behind, but waited for
}

TEST(WriteBehind, WritesRunInOrderOneAtATimeAndFailuresStick) {
  WriteBehind writes(/*background=*/true);
  std::vector<int> done;
  std::atomic<int> running{0};
  bool overlapped = false;
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(writes
                    .Submit([&, i] {
                      overlapped = overlapped || running.fetch_add(1) != 0;
                      done.push_back(i);
                      running.fetch_sub(1);
                      return Status::Ok();
                    })
                    .ok());
  }
  ASSERT_TRUE(writes.Wait().ok());
  ASSERT_EQ(done.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(done[static_cast<size_t>(i)], i);
  EXPECT_FALSE(overlapped);

  EXPECT_TRUE(writes.Submit([] { return Status::DataLoss("disk full"); }).ok());
  EXPECT_EQ(writes.Wait().code(), StatusCode::kDataLoss);
  bool ran = false;
  EXPECT_EQ(writes
                .Submit([&] {
                  ran = true;
                  return Status::Ok();
                })
                .message(),
            "disk full");
  EXPECT_FALSE(ran);
  EXPECT_EQ(writes.Wait().message(), "disk full");
}

TEST(WriteBehind, AThrowingWriteIsAnInternalErrorAndTheDestructorWaits) {
  {
    WriteBehind writes(/*background=*/true);
    ASSERT_TRUE(writes.Submit([]() -> Status { throw std::runtime_error("boom"); }).ok());
    Status s = writes.Wait();
    EXPECT_EQ(s.code(), StatusCode::kInternal);
    EXPECT_NE(s.message().find("boom"), std::string::npos);
  }
  bool finished = false;
  {
    WriteBehind writes(/*background=*/true);
    ASSERT_TRUE(writes
                    .Submit([&] {
                      std::this_thread::sleep_for(std::chrono::milliseconds(30));
                      finished = true;
                      return Status::Ok();
                    })
                    .ok());
  }
  EXPECT_TRUE(finished);
  WriteBehind in_place(/*background=*/false);
  EXPECT_TRUE(in_place.Submit([] { return Status::NotFound("x"); }).ok());  // queued, not due yet
  EXPECT_EQ(in_place.Wait().code(), StatusCode::kNotFound);
  EXPECT_EQ(in_place.Submit([] { return Status::Ok(); }).code(), StatusCode::kNotFound);
}

// A group that records the size of each batch it is given.
struct BatchLog {
  std::mutex mu;
  std::vector<size_t> sizes;
  size_t in_batch = 0;  // writes run by the current group
  std::set<std::thread::id> threads;
};

TEST(WriteBehind, WritesGatherIntoBatchesOfAtMostTheMaximum) {
  for (bool background : {true, false}) {
    SCOPED_TRACE(background ? "background" : "in place");
    BatchLog log;
    WriteBehind writes(
        background,
        [&](const WriteBehind::Write& body) {
          log.in_batch = 0;
          Status s = body();
          std::lock_guard lock(log.mu);
          log.sizes.push_back(log.in_batch);
          log.threads.insert(std::this_thread::get_id());
          return s;
        },
        std::chrono::hours(1));
    const size_t n = 2 * kWriteBatchMax + 3;
    for (size_t i = 0; i < n; ++i)
      ASSERT_TRUE(writes
                      .Submit([&] {
                        ++log.in_batch;
                        return Status::Ok();
                      })
                      .ok());
    ASSERT_TRUE(writes.Wait().ok());
    EXPECT_EQ(writes.written(), static_cast<int64_t>(n));
    std::lock_guard lock(log.mu);
    EXPECT_EQ(log.sizes, (std::vector<size_t>{kWriteBatchMax, kWriteBatchMax, 3}));
    EXPECT_EQ(log.threads.count(std::this_thread::get_id()), background ? 0u : 1u);
  }
}

TEST(WriteBehind, ABatchIsWrittenOnceItsFirstWriteIsAWindowOld) {
  WriteBehind writes(/*background=*/true, {}, std::chrono::milliseconds(1));
  ASSERT_TRUE(writes.Submit([] { return Status::Ok(); }).ok());
  // No Wait: the worker writes it by itself once 1 ms has passed.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (writes.written() == 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(writes.written(), 1);

  // In place, a write submitted after the window is due writes the batch there and then.
  WriteBehind in_place(/*background=*/false, {}, std::chrono::nanoseconds(0));
  bool ran = false;
  ASSERT_TRUE(in_place
                  .Submit([&] {
                    ran = true;
                    return Status::Ok();
                  })
                  .ok());
  EXPECT_TRUE(ran);
  EXPECT_EQ(in_place.written(), 1);
}

TEST(WriteBehind, AGroupThatFailsStoresNoneOfItsBatchAndNothingAfterRuns) {
  WriteBehind writes(/*background=*/true,
                     [](const WriteBehind::Write& body) -> Status {
                       TARE_RETURN_IF_ERROR(body());
                       return Status::DataLoss("COMMIT: database or disk is full");  // the commit itself refused
                     },
                     std::chrono::hours(1));
  int ran = 0;
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(writes
                    .Submit([&] {
                      ++ran;
                      return Status::Ok();
                    })
                    .ok());
  EXPECT_EQ(writes.Wait().code(), StatusCode::kDataLoss);
  EXPECT_EQ(ran, 3);
  EXPECT_EQ(writes.written(), 0);
  EXPECT_EQ(writes
                .Submit([&] {
                  ++ran;
                  return Status::Ok();
                })
                .code(),
            StatusCode::kDataLoss);
  EXPECT_EQ(writes.Wait().code(), StatusCode::kDataLoss);
  EXPECT_EQ(ran, 3);
}

TEST(WriteBehind, TheDestructorWritesWhatIsQueued) {
  for (bool background : {true, false}) {
    int ran = 0;
    {
      WriteBehind writes(background, {}, std::chrono::hours(1));
      for (int i = 0; i < 5; ++i)
        ASSERT_TRUE(writes
                        .Submit([&] {
                          ++ran;
                          return Status::Ok();
                        })
                        .ok());
    }
    EXPECT_EQ(ran, 5) << background;
  }
}

TEST(WriteBehind, PaysWithTwoCpusUnlessTurnedOff) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  ASSERT_EQ(sched_getaffinity(0, sizeof cpus, &cpus), 0);
  EXPECT_EQ(WriteBehindPaysHere(), CPU_COUNT(&cpus) >= 2);
  setenv("TARE_WRITE_BEHIND", "0", 1);
  EXPECT_FALSE(WriteBehindPaysHere());
  unsetenv("TARE_WRITE_BEHIND");
}

}  // namespace
}  // namespace tare::session
