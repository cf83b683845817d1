// The campaign engine in-process: CampaignRunner with a scripted world (a Prober whose measurer
// returns seeded values per arm), a real SQLite store and real arm copies. What tests/e2e/ab shows
// on real processes, shown here on the engine alone: verdicts, the time cross-check, a gate that
// stops the cohort, and Ctrl-C then --resume continuing the same cohort to the same verdict.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/files.h"
#include "campaign/campaign_runner.h"
#include "campaign/prober.h"
#include "campaign/spec_flags.h"
#include "store/store.h"

namespace tare::campaign {
namespace {

// What the scripted world's arms measure: `time_ns` per sample with `noise` (relative, normal,
// seeded), the head's time times `head_factor`; under sim, `ir` and the head's times `head_ir`.
struct World {
  double time_ns = 10e6;
  double noise = 0.005;
  double head_factor = 1.0;
  double ir = 1e6;
  double head_ir = 1.0;
  double head_rss = 4 << 20;
  int64_t interrupt_after = -1;  // Ctrl-C once this many samples were taken (all measurers)
  // A benchmark binary (kind gbench): what each arm lists; empty: a command.
  std::map<std::string, std::vector<std::string>> listed;
  std::map<std::string, int64_t> measured;  // "arm benchmark" -> samples
  int64_t samples = 0;
  int64_t sim_samples = 0;
  std::mt19937_64 rng{42};
};

// The arm of a staged copy: its file name (campaign/arm_stage.h copies each arm to dir/<arm>).
std::string ArmOf(const target::TargetSpec& t) { return std::filesystem::path(t.argv.front()).filename().string(); }

class ScriptedMeasurer final : public session::Measurer {
 public:
  ScriptedMeasurer(World& world, Instrument instrument) : w_(world), instrument_(instrument) {}
  StatusOr<session::Measured> Measure(const target::TargetSpec& t, const target::Benchmark& b) override {
    const bool head = ArmOf(t) == "head";
    if (!w_.listed.empty()) ++w_.measured[ArmOf(t) + " " + b.name];
    session::Measured m;
    if (instrument_ == Instrument::kSim) {
      ++w_.sim_samples;
      m.sample.values["sim.Ir"] = w_.ir * (head ? w_.head_ir : 1.0);
      return m;
    }
    ++w_.samples;
    double jitter = 0;
    if (w_.noise > 0) jitter = std::normal_distribution<double>(0.0, w_.noise)(w_.rng);
    const double v = w_.time_ns * (head ? w_.head_factor : 1.0) * (1.0 + jitter);
    m.sample.values["perf.task_clock_ns"] = v;
    m.sample.values["wall_ns"] = v * 1.02;
    m.sample.values["peak_rss_bytes"] = head ? w_.head_rss : 4 << 20;
    return m;
  }
  StatusOr<std::vector<session::Measured>> MeasureTogether(const target::TargetSpec&,
                                                           const std::vector<target::Benchmark>&) override {
    return Status::Internal("not used by campaigns");
  }
  bool Interrupted() const override { return w_.interrupt_after >= 0 && w_.samples >= w_.interrupt_after; }

 private:
  World& w_;
  Instrument instrument_;
};

class ScriptedProber final : public Prober {
 public:
  explicit ScriptedProber(World& world) : w_(world) {}
  bool TaskClockAvailable(const std::string&, std::string*) override { return true; }
  Status PrepareInstrument(const target::TargetSpec&, target::MeasureOptions*) override { return Status::Ok(); }
  StatusOr<std::vector<target::Benchmark>> ListBenchmarks(const target::TargetSpec& t,
                                                          const target::MeasureOptions&) override {
    if (w_.listed.empty()) return Status::Internal("a command lists no benchmarks");
    std::vector<target::Benchmark> out;
    for (const auto& name : w_.listed.at(ArmOf(t))) out.push_back(target::Benchmark{name, "bench::" + name, 0, 0});
    return out;
  }
  Status FixIterations(const target::TargetSpec&, const target::MeasureOptions&, uint64_t,
                       target::Benchmark*) override {
    return Status::Ok();
  }
  Status FixGbenchWork(const target::TargetSpec&, const target::MeasureOptions&, int64_t, target::Benchmark*) override {
    return Status::Ok();
  }
  std::unique_ptr<session::Measurer> MakeMeasurer(const target::MeasureOptions& options) override {
    return std::make_unique<ScriptedMeasurer>(w_, options.instrument);
  }

 private:
  World& w_;
};

class CampaignEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = MakeTempDir("tare-engine-test");
    ASSERT_TRUE(dir.ok()) << dir.status().message();
    dir_ = *dir;
    std::filesystem::create_directories(dir_ + "/store");  // a store is created only in a directory that exists
    // Real executables for the checks and the arm copies; the scripted world never runs them.
    for (const char* exe : {"old", "new"}) {
      std::filesystem::copy_file("/bin/true", dir_ + "/" + exe);
    }
  }
  void TearDown() override { RemoveTree(dir_); }

  StatusOr<CampaignResult> RunCampaign(World& world, bool resume = false, bool cross_check = false) {
    SpecFlags flags;
    flags.base = dir_ + "/old";
    flags.heads = {dir_ + "/new"};
    if (!world.listed.empty()) {
      flags.kind = "gbench";
      flags.metrics = {"perf.task_clock_ns"};
    }
    TARE_ASSIGN_OR_RETURN(CampaignInput input, CampaignInputFrom("", flags, dir_));
    RunnerOptions options;
    options.stage_dir = dir_ + "/store/bin";
    options.resume = resume;
    options.cross_check = cross_check;
    options.notice = [this](const std::string& line) { notices_.push_back(line); };
    ScriptedProber prober(world);
    CampaignRunner runner(std::move(input), prober, options);
    TARE_RETURN_IF_ERROR(runner.Prepare());
    TARE_ASSIGN_OR_RETURN(auto store, store::Store::Open(dir_ + "/store/tare.db"));
    return runner.Run(*store);
  }

  std::string dir_;
  std::vector<std::string> notices_;  // what `tare ab` prints as it goes ("look 1/7 at 20 pairs: ...")
};

// Without noise every pair reads exactly 0: certified at once, and no gain to decide.
TEST_F(CampaignEngine, AnUnchangedHeadOnANoiselessHostPassesAtTheFirstLook) {
  World world;
  world.noise = 0;
  auto r = RunCampaign(world);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->stop, StopKind::kNone);
  ASSERT_EQ(r->report.comparisons.size(), 1u);
  const AbComparison& c = r->report.comparisons[0];
  EXPECT_EQ(c.verdict, Verdict::kPass);
  ASSERT_FALSE(c.metrics.empty());
  EXPECT_EQ(c.metrics[0].metric, "perf.task_clock_ns") << "CPU time is judged by default where it is counted";
  EXPECT_EQ(c.metrics[0].pairs, 20) << "decided at the first look";
  EXPECT_EQ(world.samples, 60) << "20 blocks of base, head and the null arm";
  EXPECT_EQ(r->report.samples, 60);
}

// With noise, a look whose estimate falls on the gain side beyond the floor keeps sampling to
// decide the gain (analysis.h, GainUndecided), so an A/A may take several looks: it PASSes, never
// FAILs, and every look is whole blocks.
TEST_F(CampaignEngine, AnUnchangedHeadOnANoisyHostPassesInWholeBlocks) {
  World world;
  world.noise = 0.02;
  auto r = RunCampaign(world);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const AbComparison& c = r->report.comparisons.at(0);
  EXPECT_EQ(c.verdict, Verdict::kPass) << c.metrics.at(0).reasons.front();
  const int64_t pairs = c.metrics.at(0).pairs;
  bool said = false;
  for (const auto& n : notices_) said = said || n.find("look 1/7 at 20 pairs") != std::string::npos;
  EXPECT_TRUE(said) << "the first look is at 20 pairs, of 7 (20 ... 1280)";
  EXPECT_TRUE(pairs == 40 || pairs == 80 || pairs == 160 || pairs == 320 || pairs == 640 || pairs == 1280)
      << pairs << ": the looks double";
  int64_t looks = 0;
  for (int64_t p = 20; p <= pairs; p *= 2) ++looks;
  EXPECT_EQ(c.looks, looks);
  EXPECT_EQ(world.samples, 3 * pairs) << "whole blocks of base, head and null";
}

TEST_F(CampaignEngine, AFivePercentSlowerHeadFailsAndTheCrossCheckSaysTheInstructionsFell) {
  World world;
  world.head_factor = 1.05;
  world.head_ir = 0.99;  // fewer instructions, more time: not more work
  auto r = RunCampaign(world, false, /*cross_check=*/true);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->report.comparisons.size(), 1u);
  const AbComparison& c = r->report.comparisons[0];
  EXPECT_EQ(c.verdict, Verdict::kFail);
  EXPECT_NEAR(c.metrics[0].estimate, 0.05, 0.01);
  ASSERT_TRUE(c.cross_check.has_value());
  EXPECT_EQ(world.sim_samples, 3) << "base, head, base again under sim";
  EXPECT_NEAR(c.cross_check->instructions_change, -0.01, 1e-9);
  EXPECT_EQ(c.cross_check->reading, "not more work") << c.cross_check->line;
}

TEST_F(CampaignEngine, AGateStopsTheCohortAfterTheFirstBlock) {
  World world;
  world.head_rss = 64 << 20;  // > 1.5 x 4 MiB + 8 MiB: the default gate
  auto r = RunCampaign(world);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->stop, StopKind::kGate);
  EXPECT_NE(r->report.stop_reason.find("peak_rss_bytes"), std::string::npos) << r->report.stop_reason;
  EXPECT_EQ(world.samples, 3) << "one block: base, head, null";
  EXPECT_FALSE(r->report.has_verdicts);
}

TEST_F(CampaignEngine, AnInterruptedCohortResumesToTheSameVerdict) {
  World world;
  world.head_factor = 1.05;
  world.interrupt_after = 25;
  auto first = RunCampaign(world);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->stop, StopKind::kInterrupted);
  const int64_t cohort = first->report.cohort;
  const int64_t kept = first->report.samples;
  EXPECT_GE(kept, 24);
  EXPECT_LE(kept, 25);

  world.interrupt_after = -1;
  auto second = RunCampaign(world, /*resume=*/true);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(second->stop, StopKind::kNone);
  EXPECT_EQ(second->report.cohort, cohort) << "the same cohort, continued";
  EXPECT_EQ(second->report.run_id, first->report.run_id);
  ASSERT_EQ(second->report.comparisons.size(), 1u);
  EXPECT_EQ(second->report.comparisons[0].verdict, Verdict::kFail);
  EXPECT_EQ(second->report.samples, 60) << "20 whole blocks: the interrupted block is run again, none twice";
}

// A living suite: base lists BM_keep and BM_gone, the head BM_keep and BM_new. The shared one is the
// only cell; BM_new runs in the head alone, five samples, for its figures; BM_gone is listed.
TEST_F(CampaignEngine, ALivingSuiteJudgesTheSharedBenchmarksAndListsTheRest) {
  World world;
  world.noise = 0;
  world.listed = {{"base", {"BM_keep", "BM_gone"}}, {"head", {"BM_keep", "BM_new"}}};
  auto r = RunCampaign(world);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->report.comparisons.size(), 1u);
  EXPECT_EQ(r->report.comparisons[0].cell, "BM_keep");
  EXPECT_EQ(r->report.comparisons[0].verdict, Verdict::kPass);
  ASSERT_EQ(r->report.suite.size(), 2u);
  const AbSuiteEntry& gone = r->report.suite[0];
  EXPECT_EQ(gone.benchmark, "BM_gone");
  EXPECT_EQ(gone.change, SuiteChange::kMissing);
  EXPECT_TRUE(gone.figures.empty());
  const AbSuiteEntry& added = r->report.suite[1];
  EXPECT_EQ(added.benchmark, "BM_new");
  EXPECT_EQ(added.change, SuiteChange::kNew);
  ASSERT_EQ(added.figures.size(), 1u) << "the judged metric";
  EXPECT_EQ(added.figures[0].head, "head");
  EXPECT_EQ(added.figures[0].metric, "perf.task_clock_ns");
  EXPECT_EQ(added.figures[0].samples, 5);
  EXPECT_DOUBLE_EQ(added.figures[0].median, 10e6);
  EXPECT_EQ(world.measured["head BM_new"], 5);
  EXPECT_EQ(world.measured["base BM_new"], 0);
  EXPECT_EQ(world.measured["null BM_new"], 0);
  EXPECT_EQ(world.measured["base BM_gone"] + world.measured["head BM_gone"], 0) << "nothing pairs it: not run";
  EXPECT_EQ(r->report.samples, 60) << "the cohort's samples are the cells'";
  EXPECT_FALSE(r->report.SuiteChangeFails()) << "without --strict-suite a changed suite is listed, not failed";

  // The lock names the change, and the store keeps the new benchmark's samples under the head.
  auto store = store::Store::Open(dir_ + "/store/tare.db");
  ASSERT_TRUE(store.ok());
  auto run = (*store)->LoadRun(r->report.run_id);
  ASSERT_TRUE(run.ok());
  int64_t new_samples = 0;
  for (const auto& s : run->samples) {
    for (const auto& b : run->benchmarks) {
      if (b.id == s.benchmark_id && b.name == "BM_new") {
        EXPECT_EQ(s.sample.arm, "head");
        ++new_samples;
      }
    }
  }
  EXPECT_EQ(new_samples, 5);
  auto lock = LockFromJsonText(r->report.lock_json, "the lock");
  ASSERT_TRUE(lock.ok()) << lock.status().message();
  ASSERT_EQ(lock->suite.size(), 2u);
  EXPECT_EQ(lock->suite[1].benchmark, "BM_new");
  EXPECT_EQ(lock->suite[1].heads, (std::vector<std::string>{"head"}));
}

TEST_F(CampaignEngine, ASuiteWithNothingSharedIsRefusedBeforeAnySample) {
  World world;
  world.listed = {{"base", {"BM_old"}}, {"head", {"BM_new"}}};
  auto r = RunCampaign(world);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("no benchmark in common"), std::string::npos) << r.status().message();
  EXPECT_EQ(world.samples, 0);
}

}  // namespace
}  // namespace tare::campaign
