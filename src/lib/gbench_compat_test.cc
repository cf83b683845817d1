// tare/gbench_compat.hpp on Google Benchmark code tare did not write (the user-guide examples in
// examples/gbench_compat/) and on compat_cases.cc: every file builds against both tare and Google
// Benchmark 1.7.1, both builds list the same names, and the tare builds speak the child protocol
// with Google Benchmark's semantics mapped onto tare's (counters, SkipWithError, PauseTiming).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "lib/testing/child_process.h"

namespace tare::testing {
namespace {

using nlohmann::json;

const std::string kDir = GBENCH_COMPAT_DIR;

// Google Benchmark lists a benchmark once per registration; tare collapses a function registered
// twice under one name into one benchmark. First occurrences, in order.
std::vector<std::string> Dedup(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

std::vector<std::string> ProtocolNames(const std::string& binary) {
  ChildOutput out = RunChild({binary}, ProtocolEnv("list"));
  EXPECT_EQ(out.exit_status, 0) << out.err;
  const json list = json::parse(Lines(out.result).at(0));
  std::vector<std::string> names;
  for (const auto& b : list["benchmarks"]) names.push_back(b["name"]);
  return names;
}

void ExpectSameNames(const std::string& tare_binary, const std::string& gbench_binary, size_t expected_count) {
  ChildOutput original = RunChild({gbench_binary, "--benchmark_list_tests=true"}, {}, -1);
  ASSERT_EQ(original.exit_status, 0) << original.err;
  const std::vector<std::string> want = Dedup(Lines(original.out));
  EXPECT_EQ(want.size(), expected_count);
  EXPECT_EQ(ProtocolNames(tare_binary), want);
  // The tare build is recognisable by its marker; the Google Benchmark build is not.
  EXPECT_NE(ReadFile(tare_binary).find("TARE_CHILD_PROTOCOL_V1"), std::string::npos);
  EXPECT_EQ(ReadFile(gbench_binary).find("TARE_CHILD_PROTOCOL_V1"), std::string::npos);
}

TEST(GbenchCompat, UserGuideExamplesListTheSameNamesAsGoogleBenchmark) {
  const std::vector<std::pair<std::string, size_t>> examples = {{"basic_usage", 2},
                                                                {"passing_arguments", 105},
                                                                {"counters_and_timers", 16},
                                                                {"preventing_optimization", 8},
                                                                {"skip_with_error", 2}};
  for (const auto& [name, count] : examples) {
    SCOPED_TRACE(name);
    ExpectSameNames(kDir + "/gbench_compat_" + name, kDir + "/gbench_compat_" + name + "_original", count);
  }
}

TEST(GbenchCompat, FeatureCasesListTheSameNamesAsGoogleBenchmark) {
  ExpectSameNames(COMPAT_CASES_PATH, COMPAT_CASES_ORIGINAL_PATH, 19);
}

json Measure(const std::string& binary, const std::string& bench, uint64_t iters, int expected_exit = 0) {
  auto env = ProtocolEnv("measure", bench);
  env["TARE_ITERS"] = std::to_string(iters);
  ChildOutput out = RunChild({binary}, env);
  EXPECT_EQ(out.exit_status, expected_exit) << out.err;
  return json::parse(Lines(out.result).at(0));
}

TEST(GbenchCompat, GuideExamplesRunThroughTheProtocol) {
  // README basic usage.
  json r = Measure(kDir + "/gbench_compat_basic_usage", "BM_StringCopy", 1000);
  EXPECT_EQ(r["iters"], 1000);
  // BM_memcpy: SetBytesProcessed(iterations * range(0)) is a total.
  r = Measure(kDir + "/gbench_compat_passing_arguments", "BM_memcpy/4096", 500);
  EXPECT_EQ(r["counters"]["bytes_processed"], 500 * 4096);
  r = Measure(kDir + "/gbench_compat_passing_arguments", "memcpy/16", 10);
  EXPECT_EQ(r["counters"]["bytes_processed"], 160);
  // PauseTiming/ResumeTiming around rebuilding a 1024-element set.
  r = Measure(kDir + "/gbench_compat_counters_and_timers", "BM_SetInsert_With_Timer_Control/1024/128", 5);
  EXPECT_EQ(r["iters"], 5);
  // Plain counters are gauges.
  r = Measure(kDir + "/gbench_compat_counters_and_timers", "UserCountersExample1", 10);
  EXPECT_EQ(r["gauges"], json({{"Bar", 0}, {"Baz", 0}, {"Foo", 0}}));
  r = Measure(kDir + "/gbench_compat_preventing_optimization", "BM_test/8/real_time", 100);
  EXPECT_EQ(r["bench"], "BM_test/8/real_time");
}

TEST(GbenchCompat, SkipWithErrorBecomesAnErrorResult) {
  const std::string bin = kDir + "/gbench_compat_skip_with_error";
  // The resource survives three reads: three iterations succeed, four fail, in both loop styles.
  for (const std::string bench : {"BM_test", "BM_test_ranged_fo"}) {
    EXPECT_EQ(Measure(bin, bench, 3)["iters"], 3);
    json r = Measure(bin, bench, 4, 3);
    EXPECT_EQ(r["bench"], bench);
    EXPECT_EQ(r["error"], "Failed to read data!");
  }
}

TEST(GbenchCompat, FixturesCapturesHooksAndCounterFlags) {
  const std::string bin = COMPAT_CASES_PATH;
  json r = Measure(bin, "VectorFixture/Sum/256", 10);
  EXPECT_EQ(r["gauges"]["size"], 256);  // the fixture's SetUp ran with the argument
  r = Measure(bin, "BM_Capture/times_three", 10);
  EXPECT_EQ(r["gauges"]["multiplier"], 3);
  EXPECT_EQ(r["gauges"]["label_length"], 3);
  r = Measure(bin, "BM_Counters", 20);
  EXPECT_EQ(r["gauges"], json({{"plain", 5}}));
  EXPECT_EQ(r["counters"]["rate"], 100);
  EXPECT_EQ(r["counters"]["invariant"], 40);
  EXPECT_EQ(r["counters"]["average"], 50);
  EXPECT_EQ(r["counters"]["items_processed"], 200);
  r = Measure(bin, "BM_Hooks", 10);
  EXPECT_EQ(r["gauges"]["setup_calls_seen"], 1);
  r = Measure(bin, "registered/with_arg/1", 10);
  EXPECT_EQ(r["iters"], 10);
  r = Measure(bin, "BM_Fill<int>/64", 10);
  EXPECT_EQ(r["iters"], 10);
}

}  // namespace
}  // namespace tare::testing
