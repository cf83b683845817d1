#include <gtest/gtest.h>

#include <algorithm>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/files.h"
#include "target/gbench.h"
#include "target/measure.h"
#include "target/tare_protocol.h"
#include "target/target_kind.h"

extern char** environ;

namespace tare::target {
namespace {

TEST(TargetKind, DetectsWithoutRunning) {
  EXPECT_EQ(*DetectTargetKind(GBENCH_CASES_PATH), TargetKind::kGbench);
  EXPECT_EQ(*DetectTargetKind("/bin/true"), TargetKind::kCommand);
  std::string script = ::testing::TempDir() + "/script.sh";
  // A script that would misbehave if run with Google Benchmark flags: it is never run here.
  { std::ofstream(script) << "#!/bin/sh\n# _ZN9benchmark appears in a comment only\nexit 9\n"; }
  EXPECT_EQ(*DetectTargetKind(script), TargetKind::kCommand) << "only ELF files can be gbench";
  EXPECT_FALSE(DetectTargetKind("/no/such/file").ok());
}

// Only an ELF file's string tables and allocated data are read (target_kind.cc): the same names in
// debug information, or after the last section, do not make a benchmark binary — unless the
// section headers cannot be read, and then the whole file is. Files made from /bin/true by objcopy.
TEST(TargetKind, ReadsStringTablesAndDataNotDebugInformation) {
  const std::string dir = ::testing::TempDir() + "/target_kind_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string needles = dir + "/needles";
  { std::ofstream(needles) << "x _ZN9benchmark " << protocol::ProtocolMarker() << " x"; }
  auto objcopy = [&](const std::string& args, const std::string& out) {
    const std::string cmd = "objcopy " + args + " /bin/true " + out + " 2>/dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  };
  objcopy("--add-section .debug_tare=" + needles, dir + "/debug_only");
  EXPECT_EQ(*DetectTargetKind(dir + "/debug_only"), TargetKind::kCommand);
  objcopy("--add-section .rodata.tare=" + needles + " --set-section-flags .rodata.tare=alloc,readonly,data,contents",
          dir + "/in_rodata");
  EXPECT_EQ(*DetectTargetKind(dir + "/in_rodata"), TargetKind::kTare);

  // After the last section: not read while the section headers can be.
  const std::string trailing = dir + "/trailing";
  std::filesystem::copy_file("/bin/true", trailing);
  { std::ofstream(trailing, std::ios::app) << "_ZN9benchmark"; }
  EXPECT_EQ(*DetectTargetKind(trailing), TargetKind::kCommand);
  // Section headers said to lie past the end of the file: the whole file is read, as before.
  {
    std::fstream f(trailing, std::ios::in | std::ios::out | std::ios::binary);
    const uint64_t far = uint64_t{1} << 40;
    f.seekp(0x28);  // e_shoff in an ELF64 header
    f.write(reinterpret_cast<const char*>(&far), sizeof far);
  }
  EXPECT_EQ(*DetectTargetKind(trailing), TargetKind::kGbench);
  std::filesystem::remove_all(dir);
}

TEST(Gbench, EscapesRegexMetacharacters) {
  EXPECT_EQ(EscapeRegex("BM_x/8"), "BM_x/8");
  EXPECT_EQ(EscapeRegex("BM_Template<int>"), "BM_Template<int>");
  EXPECT_EQ(EscapeRegex("BM_Counter.dot"), "BM_Counter[.]dot");
  EXPECT_EQ(EscapeRegex("a(b)[c]+*?"), "a[(]b[)][[]c][+][*][?]");
  EXPECT_EQ(EscapeRegex("x{1}|^$\\"), "x[{]1}[|]\\^[$]\\\\");
}

TEST(Gbench, MinTimeAndCountFlagsAndWhetherTheTargetSetsItsOwn) {
  EXPECT_EQ(GbenchMinTimeArg(20'000'000), "--benchmark_min_time=0.02");
  EXPECT_EQ(GbenchMinTimeArg(500'000'000), "--benchmark_min_time=0.5");
  EXPECT_EQ(GbenchIterationsArg(1200), "--benchmark_min_time=1200x");
  EXPECT_TRUE(GbenchMinTimeGiven({"/b", "--x", "--benchmark_min_time=0.1"}, {}));
  EXPECT_TRUE(GbenchMinTimeGiven({"/b"}, {"PATH=/bin", "BENCHMARK_MIN_TIME=0.1"}));
  // Look-alikes are not it: another flag, a value mentioning it, another variable, the program.
  EXPECT_FALSE(GbenchMinTimeGiven(
      {"/b", "--benchmark_min_warmup_time=0.1", "--benchmark_filter=min_time", "-benchmark_min_time=1"},
      {"XBENCHMARK_MIN_TIME=1", "BENCHMARK_MIN_TIMES=1"}));
  EXPECT_FALSE(GbenchMinTimeGiven({"--benchmark_min_time=0.1"}, {})) << "argv[0] is the program";
}

TEST(Gbench, ParsesJsonWithUnitsAndCounters) {
  const char* json = R"({"context":{},"benchmarks":[
    {"name":"BM_a/8","run_name":"BM_a/8","run_type":"iteration","iterations":1000,
     "real_time":2.5,"cpu_time":2.0,"time_unit":"us","bytes_per_second":1e9,"widgets":42},
    {"name":"BM_a/8_mean","run_name":"BM_a/8","run_type":"aggregate","iterations":3,
     "real_time":9,"cpu_time":9,"time_unit":"us"}]})";
  auto r = ParseGbenchJson(json, "BM_a/8");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_DOUBLE_EQ(r->real_time_ns, 2500);
  EXPECT_DOUBLE_EQ(r->cpu_time_ns, 2000);
  EXPECT_DOUBLE_EQ(r->iterations, 1000);
  EXPECT_DOUBLE_EQ(r->counters.at("widgets"), 42);
  EXPECT_DOUBLE_EQ(r->counters.at("bytes_per_second"), 1e9);
  EXPECT_EQ(r->counters.count("time_unit"), 0u);
}

TEST(Gbench, MalformedJsonNamesTheBenchmark) {
  for (
      const char* bad :
      {"", "{\"benchmarks\": [", "[]", "{\"context\":{}}",
       R"({"benchmarks":[{"name":"BM_a","run_type":"iteration","iterations":1}]})",
       R"({"benchmarks":[{"name":"BM_a","run_type":"iteration","iterations":1,"real_time":1,"cpu_time":1,"time_unit":"fortnights"}]})"}) {
    auto r = ParseGbenchJson(bad, "BM_a");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("BM_a"), std::string::npos) << r.status().message();
  }
  auto missing = ParseGbenchJson(R"({"benchmarks":[]})", "BM_b");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no result row"), std::string::npos);
}

// Regression (issue 9, item 3): the JSON is written by the program under test; a field of the
// wrong type threw nlohmann's type_error out of the parser, aborting tare and leaving the run
// `running`. Each case must be a DataLoss that names the benchmark and the field.
TEST(Gbench, WronglyTypedFieldsAreDataLossNamingBenchmarkAndField) {
  const std::string good =
      R"("name":"BM_a","run_name":"BM_a","run_type":"iteration","iterations":10,"real_time":1,"cpu_time":1,"time_unit":"ns","threads":1)";
  struct Case {
    std::string field;
    std::string value;
  };
  const std::vector<Case> cases = {
      {"real_time", R"("fast")"}, {"cpu_time", "null"},     {"iterations", "[1]"},
      {"time_unit", "3"},         {"time_unit", "{}"},      {"run_name", "7"},
      {"name", "false"},          {"run_type", "1"},        {"error_occurred", R"("yes")"},
      {"skipped", "1"},           {"threads", R"("four")"}, {"threads", "0"},
      {"threads", "2.5"},
  };
  for (const Case& c : cases) {
    // The crafted field replaces the good one (a later duplicate key wins in nlohmann).
    const std::string json = R"({"benchmarks":[{)" + good + ",\"" + c.field + "\":" + c.value + "}]}";
    StatusOr<GbenchReading> r = StatusOr<GbenchReading>(Status::Ok());
    ASSERT_NO_THROW(r = ParseGbenchJson(json, "BM_a")) << json;
    ASSERT_FALSE(r.ok()) << json;
    EXPECT_EQ(r.status().code(), StatusCode::kDataLoss) << json;
    EXPECT_NE(r.status().message().find("BM_a"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("\"" + c.field + "\""), std::string::npos) << r.status().message();
  }
  // An error row with a non-string message is also refused, not thrown.
  auto error_row = ParseGbenchJson(
      R"({"benchmarks":[{"name":"BM_a","run_type":"iteration","error_occurred":true,"error_message":5}]})", "BM_a");
  ASSERT_FALSE(error_row.ok());
  EXPECT_NE(error_row.status().message().find("\"error_message\""), std::string::npos);
  // A number too large for a double is refused, not taken as infinity.
  auto huge =
      ParseGbenchJson(R"({"benchmarks":[{"name":"BM_a","iterations":1,"real_time":1e999,"cpu_time":1}]})", "BM_a");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("BM_a"), std::string::npos);
  // The well-typed row still parses, threads included.
  auto ok = ParseGbenchJson(R"({"benchmarks":[{)" + good + R"(,"threads":4}]})", "BM_a");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->threads, 4);
}

// Found by tests/fuzz/gbench_fuzz.cc (tests/fuzz/crashes/gbench/): a time that is finite in its
// unit but not in ns would have been recorded as infinity. (A counter cannot be: JSON numbers too
// large for a double make the whole document malformed.)
TEST(Gbench, ValuesThatAreNotFiniteAfterConversionAreDataLoss) {
  auto seconds = ParseGbenchJson(
      R"({"benchmarks":[{"name":"BM_a","iterations":1,"real_time":1e300,"cpu_time":1,"time_unit":"s"}]})", "BM_a");
  ASSERT_FALSE(seconds.ok());
  EXPECT_NE(seconds.status().message().find("overflow when converted to ns"), std::string::npos)
      << seconds.status().message();
  EXPECT_NE(seconds.status().message().find("BM_a"), std::string::npos);
  auto counter = ParseGbenchJson(
      R"({"benchmarks":[{"name":"BM_a","iterations":1,"real_time":1,"cpu_time":1,"items":1e999}]})", "BM_a");
  ASSERT_FALSE(counter.ok());
}

class GbenchBinary : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = proc::Spawner::Start();
    ASSERT_TRUE(s.ok()) << s.status().message();
    spawner_ = std::move(*s);
    auto dir = MakeTempDir("tare-target-test");
    ASSERT_TRUE(dir.ok());
    options_.workdir = *dir;
    options_.perf_events = {"task-clock", "instructions"};
    target_.name = "gbench_cases";
    target_.argv = {GBENCH_CASES_PATH, "--benchmark_min_time=0.01"};
    target_.kind = TargetKind::kGbench;
    for (char** e = environ; *e; ++e) target_.env.push_back(*e);
  }
  void TearDown() override { RemoveTree(options_.workdir); }

  std::unique_ptr<proc::Spawner> spawner_;
  TargetSpec target_;
  MeasureOptions options_;
};

// Issue 27, item 12: "\\]" and "\\}" are invalid escapes for Google Benchmark's std::regex (POSIX
// extended), so a name with brackets or braces failed every sample ("Could not compile benchmark
// re"). Measured here by the real binary, through the filter tare writes.
TEST_F(GbenchBinary, ANameWithBracketsAndBracesIsMeasured) {
  std::vector<std::string> unavailable;
  auto s = MeasureOnce(*spawner_, target_, {"BM_Sym[a]{b}^$", "gbench_cases::BM_Sym[a]{b}^$"}, options_, &unavailable);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_TRUE(s->ok()) << s->error;
  EXPECT_GT(s->values.at("gb.real_time_ns"), 0);
}

// Issue 27, item 12: a name with a newline was listed as two phantom benchmarks. It is refused by
// name when listing, with the fix; a filter of the user's own leaves the choice to them.
TEST_F(GbenchBinary, ANameWithANewlineIsRefusedWhenListing) {
  target_.env.push_back("GBENCH_CASES_NEWLINE=1");
  auto list = ListBenchmarks(*spawner_, target_, options_);
  ASSERT_FALSE(list.ok());
  EXPECT_NE(list.status().message().find("has benchmark names holding a newline ('BM_Line\\nsecond')"),
            std::string::npos)
      << list.status().message();
  target_.argv.push_back("--benchmark_filter=BM_Empty");
  auto filtered = ListBenchmarks(*spawner_, target_, options_);
  ASSERT_TRUE(filtered.ok()) << filtered.status().message();
  EXPECT_EQ(filtered->size(), 1u);
}

TEST_F(GbenchBinary, ListsAndMeasuresEachBenchmarkInItsOwnProcess) {
  auto list = ListBenchmarks(*spawner_, target_, options_);
  ASSERT_TRUE(list.ok()) << list.status().message();
  std::vector<std::string> names;
  for (const auto& b : *list) names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"BM_Template<int>", "BM_Template<double>", "BM_Counter", "BM_Counter.dot",
                                             "BM_Sym[a]{b}^$", "BM_Errors", "BM_Crashes", "BM_Empty"}));
  EXPECT_EQ((*list)[0].uri, "gbench_cases::BM_Template<int>");

  std::vector<std::string> unavailable;
  MeasureExtras extras;
  auto s = MeasureOnce(*spawner_, target_, (*list)[2], options_, &unavailable, &extras);
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_TRUE(s->ok()) << s->error;
  // kIsRate and SetItemsProcessed counters are told apart from plain ones by the console's "/s".
  std::sort(extras.rates.begin(), extras.rates.end());
  EXPECT_EQ(extras.rates, (std::vector<std::string>{"gb.counter.items_per_second", "gb.counter.widget_rate"}))
      << s->stdout_tail;
  EXPECT_GT(s->values.at("gb.counter.widget_rate"), 1000) << "iterations per second";
  EXPECT_GT(s->values.at("gb.real_time_ns"), 0);
  EXPECT_GT(s->values.at("gb.iterations"), 0);
  EXPECT_DOUBLE_EQ(s->values.at("gb.counter.widgets"), 42);
  EXPECT_GT(s->values.at("wall_ns"), 0);
  EXPECT_GT(s->values.at("peak_rss_bytes"), 0);
  // The filter is anchored and escaped: "BM_Counter" must not also run "BM_Counter.dot".
  EXPECT_EQ(s->stdout_tail.find("BM_Counter.dot"), std::string::npos) << s->stdout_tail;
  EXPECT_TRUE(s->values.count("perf.instructions") == 1 || !unavailable.empty());
}

// "measured no work" fires on the empty loop, not on one pipelined add under DoNotOptimize (0.3 ns
// per iteration here: real work below one cycle).
TEST_F(GbenchBinary, NoWorkIsWarnedForAnEmptyLoopOnly) {
  std::vector<std::string> unavailable;
  MeasureExtras empty, add;
  auto e = MeasureOnce(*spawner_, target_, {"BM_Empty", "gbench_cases::BM_Empty"}, options_, &unavailable, &empty);
  ASSERT_TRUE(e.ok() && e->ok());
  ASSERT_EQ(empty.warnings.size(), 1u) << e->values.at("gb.cpu_time_ns");
  EXPECT_NE(empty.warnings[0].find("measured no work"), std::string::npos) << empty.warnings[0];
  EXPECT_NE(empty.warnings[0].find("benchmark::DoNotOptimize"), std::string::npos) << empty.warnings[0];
  auto a = MeasureOnce(*spawner_, target_, {"BM_Template<int>", "gbench_cases::BM_Template<int>"}, options_,
                       &unavailable, &add);
  ASSERT_TRUE(a.ok() && a->ok());
  EXPECT_TRUE(add.warnings.empty()) << add.warnings[0];
}

// The console text is the program's: only names of the JSON's counters count, only tokens NAME=VALUE/s.
TEST(GbenchRateCounters, OnlyCountersPrintedPerSecond) {
  const std::map<std::string, double> counters = {{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}};
  EXPECT_EQ(GbenchRateCounters("BM_x   1 ns   1 ns  100 a=1.5k/s b=2 c=3/s/x d=/s e=9/s a=2/s\n", counters),
            (std::vector<std::string>{"a"}));
  EXPECT_TRUE(GbenchRateCounters("", counters).empty());
  EXPECT_TRUE(GbenchRateCounters("=/s x= /s", counters).empty());
}

TEST_F(GbenchBinary, ErrorsAndCrashesAreFailedSamplesNamingTheBenchmark) {
  std::vector<std::string> unavailable;
  auto e = MeasureOnce(*spawner_, target_, {"BM_Errors", "x::BM_Errors"}, options_, &unavailable);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->outcome, SampleOutcome::kFailed);
  EXPECT_NE(e->error.find("BM_Errors"), std::string::npos);
  EXPECT_NE(e->error.find("the fixture file is missing"), std::string::npos) << e->error;

  auto c = MeasureOnce(*spawner_, target_, {"BM_Crashes", "x::BM_Crashes"}, options_, &unavailable);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->outcome, SampleOutcome::kSignaled);
  EXPECT_EQ(c->signal, 11);
  EXPECT_TRUE(c->values.count("gb.real_time_ns") == 0);
}

// A sample runs the work its Benchmark fixes: Google Benchmark's count grows with the minimum time
// it is given (50x the time here; a factor of 5 is asked). Google Benchmark 1.7.1 (Debian 12) has no
// <N>x form: its --help does not offer it, and given one it exits 1 naming the flag, so tare fixes
// a count only where the probe finds it (session::FixGbenchWork).
TEST_F(GbenchBinary, ASampleRunsItsMinTimeAndGoogleBenchmark171RefusesACount) {
  target_.argv = {GBENCH_CASES_PATH};
  std::vector<std::string> unavailable;
  Benchmark b{"BM_Template<int>", "gbench_cases::BM_Template<int>"};
  auto iterations = [&](int64_t min_time_ns) {
    b.gbench_min_time_ns = min_time_ns;
    auto s = MeasureOnce(*spawner_, target_, b, options_, &unavailable);
    EXPECT_TRUE(s.ok() && s->ok());
    return s.ok() && s->ok() ? s->values.at("gb.iterations") : 0.0;
  };
  const double short_runs = iterations(2'000'000);
  const double long_runs = iterations(100'000'000);
  EXPECT_GT(short_runs, 0);
  EXPECT_GT(long_runs, 5 * short_runs) << short_runs << " vs " << long_runs;

  auto flags = ProbeGbenchFlags(*spawner_, target_, options_);
  ASSERT_TRUE(flags.ok()) << flags.status().message();
  EXPECT_FALSE(flags->iteration_suffix) << "Google Benchmark 1.7.1 takes seconds only";
  b.iterations = 100;
  auto counted = MeasureOnce(*spawner_, target_, b, options_, &unavailable);
  ASSERT_TRUE(counted.ok());
  EXPECT_FALSE(counted->ok());
  EXPECT_NE(counted->stderr_tail.find("--benchmark_min_time=100x"), std::string::npos) << counted->stderr_tail;
}

TEST_F(GbenchBinary, CommandsAreOneBenchmark) {
  TargetSpec cmd;
  cmd.name = "true";
  cmd.argv = {"/bin/true"};
  auto list = ListBenchmarks(*spawner_, cmd, options_);
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].uri, "true::/bin/true");
  auto s = MeasureOnce(*spawner_, cmd, (*list)[0], options_, nullptr);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->ok());
  EXPECT_EQ(s->values.count("gb.real_time_ns"), 0u);
}

}  // namespace
}  // namespace tare::target

namespace tare::target {
namespace {

// Issue 44, item 7: a failure's "its stderr ends:" showed Google Benchmark 1.7.1's context (as it
// prints it on this VM) instead of what the benchmark wrote.
TEST(GbenchContext, TheLeadingContextGoesAndWhatTheBenchmarkWroteStays) {
  const std::string context =
      "2026-12-05T21:16:56+00:00\nRunning /work/build/gbench_cases\nRun on (2 X 2694.87 MHz CPU s)\nCPU Caches:\n"
      "  L1 Data 48 KiB (x2)\n  L1 Instruction 32 KiB (x2)\n  L2 Unified 1024 KiB (x2)\n  L3 Unified 32768 KiB (x1)\n"
      "Load Average: 7.28, 7.98, 6.97\n***WARNING*** Library was built as DEBUG. Timings may be affected.\n";
  EXPECT_EQ(WithoutGbenchContext(context), "");
  EXPECT_EQ(WithoutGbenchContext(context + "fixture.txt: No such file\nLoad Average: mine\n"),
            "fixture.txt: No such file\nLoad Average: mine\n")
      << "only the leading block";
  EXPECT_EQ(WithoutGbenchContext("my own error\n" + context), "my own error\n" + context) << "nothing else";
  const std::string huge(200000, 'x');
  EXPECT_EQ(WithoutGbenchContext("Running " + huge + "\nafter"), "after") << "a long line is matched by RE2";
}

}  // namespace
}  // namespace tare::target
