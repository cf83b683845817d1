// The work of one Google Benchmark sample, fixed before the first one: on a real Google Benchmark
// 1.7.1 binary (Debian 12), which takes a minimum time in seconds and no iteration count.
#include "session/measurement_setup.h"

#include <gtest/gtest.h>

#include "base/files.h"

extern char** environ;

namespace tare::session {
namespace {

class GbenchWork : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = proc::Spawner::Start();
    ASSERT_TRUE(s.ok()) << s.status().message();
    spawner_ = std::move(*s);
    auto dir = MakeTempDir("tare-setup-test");
    ASSERT_TRUE(dir.ok());
    options_.workdir = *dir;
    target_.name = "gbench_cases";
    target_.argv = {GBENCH_CASES_PATH};
    target_.kind = TargetKind::kGbench;
    for (char** e = environ; *e; ++e) {
      if (std::string(*e).rfind("BENCHMARK_", 0) != 0) target_.env.push_back(*e);
    }
    ASSERT_TRUE(PrepareInstrument(*spawner_, target_, &options_).ok());
  }
  void TearDown() override { RemoveTree(options_.workdir); }

  target::Benchmark Fixed(int64_t min_time_ns) {
    target::Benchmark b{"BM_Template<int>", "gbench_cases::BM_Template<int>"};
    b.iterations = 99;  // whatever was there is replaced
    Status s = FixGbenchWork(*spawner_, target_, options_, min_time_ns, &b);
    EXPECT_TRUE(s.ok()) << s.message();
    return b;
  }

  std::unique_ptr<proc::Spawner> spawner_;
  target::TargetSpec target_;
  target::MeasureOptions options_;
};

TEST_F(GbenchWork, TwentyMillisecondsUnlessToldOtherwise) {
  EXPECT_FALSE(options_.gbench_flags.iteration_suffix) << "1.7.1's --help offers no <N>x";
  target::Benchmark b = Fixed(0);
  EXPECT_EQ(b.gbench_min_time_ns, kGbenchMinTimeNs);
  EXPECT_EQ(b.iterations, 0u);
  EXPECT_EQ(GbenchWorkArg(b), "--benchmark_min_time=0.02");
  // --gbench-min-time: as asked.
  b = Fixed(50'000'000);
  EXPECT_EQ(b.gbench_min_time_ns, 50'000'000);
  EXPECT_EQ(GbenchWorkArg(b), "--benchmark_min_time=0.05");
}

TEST_F(GbenchWork, TheBinarysOwnMinTimeStands) {
  target_.argv.push_back("--benchmark_min_time=0.1");
  target::Benchmark b = Fixed(0);
  EXPECT_EQ(b.gbench_min_time_ns, 0);
  EXPECT_EQ(b.iterations, 0u);
  EXPECT_EQ(GbenchWorkArg(b), "");
  target_.argv.pop_back();
  target_.env.push_back("BENCHMARK_MIN_TIME=0.1");
  EXPECT_EQ(GbenchWorkArg(Fixed(0)), "");
}

// Where the binary takes <N>x (1.8 and later, as its --help says), the count is the one Google
// Benchmark itself chose in one 20 ms run: calibrated here on the real binary, with the probe's
// answer set as a 1.8 build would give it.
TEST_F(GbenchWork, ACountWhereTheBinaryTakesOne) {
  options_.gbench_flags.iteration_suffix = true;
  target::Benchmark b = Fixed(0);
  EXPECT_GT(b.iterations, 1u) << "a fast benchmark runs many iterations in 20 ms";
  EXPECT_EQ(b.gbench_min_time_ns, 0);
  EXPECT_EQ(GbenchWorkArg(b), "--benchmark_min_time=" + std::to_string(b.iterations) + "x");
  // An explicit length is still a length.
  EXPECT_EQ(GbenchWorkArg(Fixed(50'000'000)), "--benchmark_min_time=0.05");
  // A benchmark that fails cannot be calibrated: the error names it.
  target::Benchmark errors{"BM_Errors", "gbench_cases::BM_Errors"};
  Status s = FixGbenchWork(*spawner_, target_, options_, 0, &errors);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("BM_Errors"), std::string::npos) << s.message();
}

TEST_F(GbenchWork, NothingUnderSimNorForOtherKinds) {
  options_.instrument = Instrument::kSim;
  target::Benchmark b{"BM_Template<int>", "x"};
  ASSERT_TRUE(FixGbenchWork(*spawner_, target_, options_, 0, &b).ok());
  EXPECT_EQ(b.gbench_min_time_ns, 0);
  options_.instrument = Instrument::kWall;
  target_.kind = TargetKind::kCommand;
  ASSERT_TRUE(FixGbenchWork(*spawner_, target_, options_, 0, &b).ok());
  EXPECT_EQ(b.gbench_min_time_ns, 0);
}

TEST(GbenchWorkNote, SaysWhatEverySampleRanAndHowToChangeIt) {
  target::Benchmark b{"BM_a", "x::BM_a"};
  b.gbench_min_time_ns = kGbenchMinTimeNs;
  const std::string by_default = GbenchWorkNote({b}, "default");
  EXPECT_NE(by_default.find("every sample ran with --benchmark_min_time=0.02 (20 ms, tare's default"),
            std::string::npos)
      << by_default;
  EXPECT_NE(by_default.find("--gbench-min-time"), std::string::npos);
  b.gbench_min_time_ns = 5'000'000;
  EXPECT_NE(GbenchWorkNote({b}, "--gbench-min-time").find("--benchmark_min_time=0.005 (5 ms, --gbench-min-time)"),
            std::string::npos)
      << GbenchWorkNote({b}, "--gbench-min-time");
  EXPECT_NE(GbenchWorkNote({}, "arguments").find("the binary's own --benchmark_min_time"), std::string::npos);
  b.gbench_min_time_ns = 0;
  b.iterations = 1200;
  EXPECT_NE(GbenchWorkNote({b}, "default").find("(BM_a 1200)"), std::string::npos) << GbenchWorkNote({b}, "default");
}

}  // namespace
}  // namespace tare::session
