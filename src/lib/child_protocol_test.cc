// The child protocol, end to end: real benchmark binaries started as the runner will start them
// (fresh process, TARE_* environment, result on fd 3), under the wall, mem (real LD_PRELOAD shim)
// and sim (real valgrind) instruments, plus the standalone mode and the protocol marker.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "lib/testing/child_process.h"

namespace tare::testing {
namespace {

using nlohmann::json;

const std::string kBench = TEST_BENCH_PATH;
const std::string kShim = ALLOC_SHIM_PATH;

// Runs one request and returns the single result line, parsed.
json Request(const std::map<std::string, std::string>& env, int expected_exit = 0, const std::string& binary = kBench) {
  ChildOutput out = RunChild({binary}, env);
  EXPECT_EQ(out.exit_status, expected_exit) << out.err;
  std::vector<std::string> lines = Lines(out.result);
  EXPECT_EQ(lines.size(), 1u) << out.result;
  EXPECT_TRUE(out.result.empty() || out.result.back() == '\n');
  if (lines.empty()) return json();
  return json::parse(lines[0]);
}

json Measure(const std::string& bench, uint64_t iters, const std::string& instrument = "wall", int expected_exit = 0) {
  auto env = ProtocolEnv("measure", bench, instrument);
  env["TARE_ITERS"] = std::to_string(iters);
  if (instrument == "mem") env["LD_PRELOAD"] = kShim;
  return Request(env, expected_exit);
}

TEST(ChildProtocol, ListsEveryBenchmarkWithFamilyAndArgs) {
  json r = Request(ProtocolEnv("list"));
  EXPECT_EQ(r["protocol"], 1);
  ASSERT_TRUE(r["benchmarks"].is_array());
  std::vector<std::string> names;
  for (const auto& b : r["benchmarks"]) names.push_back(b["name"]);
  EXPECT_EQ(names.front(), "three_blocks");
  EXPECT_NE(std::find(names.begin(), names.end(), "hooked/2/3"), names.end());
  for (const auto& b : r["benchmarks"]) {
    if (b["name"] == "hooked/4/5") {
      EXPECT_EQ(b["family"], "hooked");
      EXPECT_EQ(b["args"], json::array({4, 5}));
    }
    if (b["name"] == "latency") {
      EXPECT_EQ(b["records_latency"], true);
    }
  }
}

TEST(ChildProtocol, MeasureRunsExactlyTheIterationsAndReportsTotals) {
  json r = Measure("three_blocks", 1000);
  EXPECT_EQ(r["bench"], "three_blocks");
  EXPECT_EQ(r["iters"], 1000);
  EXPECT_GT(r["window"]["wall_ns"].get<uint64_t>(), 0u);
  EXPECT_GT(r["window"]["cpu_ns"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["counters"]["items_processed"], 3000);
  EXPECT_EQ(r["counters"]["blocks"], 3000);  // two add_counter calls accumulate
  EXPECT_EQ(r["gauges"]["blocks_per_iteration"], 3);
  EXPECT_FALSE(r.contains("alloc"));
  EXPECT_FALSE(r.contains("latency_ns"));
  EXPECT_EQ(Measure("keep_running_loop", 37)["gauges"]["body_runs"], 37);
}

TEST(ChildProtocol, HooksRunAroundEachSampleWithParameters) {
  json r = Measure("hooked/4/5", 10);
  EXPECT_EQ(r["gauges"]["product"], 20) << r.dump();
}

TEST(ChildProtocol, PausedTimeIsNotInTheWindow) {
  // 5 iterations x 2 ms asleep while paused; the timed part is a few clock reads.
  json r = Measure("paused_sleep", 5);
  EXPECT_LT(r["window"]["wall_ns"].get<uint64_t>(), 2000000u) << r.dump();
}

TEST(ChildProtocol, LatencyQuantilesAreNearestRank) {
  json r = Measure("latency", 100);
  ASSERT_TRUE(r.contains("latency_ns")) << r.dump();
  const auto& l = r["latency_ns"];
  EXPECT_LT(l["p50"].get<uint64_t>(), 1000000u);
  EXPECT_LT(l["p95"].get<uint64_t>(), 1000000u);
  EXPECT_GE(l["p99"].get<uint64_t>(), 2000000u);
  EXPECT_GE(l["max"].get<uint64_t>(), 2000000u);
}

TEST(ChildProtocol, CalibrationFindsAPowerOfTwoWindowAboveTheTarget) {
  auto env = ProtocolEnv("calibrate", "ten_microseconds");
  env["TARE_CALIBRATE_NS"] = "1000000";
  json r = Request(env);
  const uint64_t iters = r["iters"];
  EXPECT_EQ(iters & (iters - 1), 0u) << iters;
  EXPECT_GE(r["window_ns"].get<uint64_t>(), 1000000u);
  // Each iteration takes >= 10 us, so 128 iterations always exceed 1 ms: never more.
  EXPECT_LE(iters, 128u);
  EXPECT_FALSE(r.contains("capped"));
}

TEST(ChildProtocol, CalibrationOfNothingStopsAtTheCapAndSaysSo) {
  auto env = ProtocolEnv("calibrate", "empty_loop");
  env["TARE_CALIBRATE_NS"] = "60000000000";
  json r = Request(env);
  EXPECT_EQ(r["iters"], uint64_t{1} << 30);
  EXPECT_EQ(r["capped"], true);
}

TEST(ChildProtocol, SeveralBenchmarksInOneProcessGiveOneLineEachInOrder) {
  auto env = ProtocolEnv("measure", "three_blocks\nno_such_bench\nhooked/2/3\n");
  env["TARE_ITERS"] = "7";
  ChildOutput out = RunChild({kBench}, env);
  EXPECT_EQ(out.exit_status, 3);  // one of them failed
  std::vector<std::string> lines = Lines(out.result);
  ASSERT_EQ(lines.size(), 3u) << out.result;
  EXPECT_EQ(json::parse(lines[0])["bench"], "three_blocks");
  EXPECT_EQ(json::parse(lines[0])["iters"], 7);
  EXPECT_EQ(json::parse(lines[1])["bench"], "no_such_bench");
  EXPECT_NE(json::parse(lines[1])["error"].get<std::string>().find("no benchmark named"), std::string::npos);
  EXPECT_EQ(json::parse(lines[2])["gauges"]["product"], 6);

  env["TARE_BENCH"] = "three_blocks\nhooked/2/3";
  env["TARE_ITERS"] = "5\n9";
  out = RunChild({kBench}, env);
  EXPECT_EQ(out.exit_status, 0);
  lines = Lines(out.result);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(json::parse(lines[0])["iters"], 5);
  EXPECT_EQ(json::parse(lines[1])["iters"], 9);
}

TEST(ChildProtocol, StdoutAndStderrStayTheBenchmarks) {
  auto env = ProtocolEnv("measure", "chatty");
  env["TARE_ITERS"] = "3";
  ChildOutput out = RunChild({kBench}, env);
  EXPECT_EQ(out.exit_status, 0);
  EXPECT_EQ(out.out, "hello from the benchmark\n");
  EXPECT_EQ(out.err, "warning from the benchmark\n");
  EXPECT_EQ(json::parse(Lines(out.result).at(0))["bench"], "chatty");
}

// Every error path: one error line naming the problem, exit status 3.
void ExpectError(const std::string& bench, const std::string& fragment) {
  json r = Measure(bench, 10, "wall", 3);
  EXPECT_EQ(r["protocol"], 1);
  EXPECT_EQ(r["bench"], bench);
  ASSERT_TRUE(r.contains("error")) << r.dump();
  const std::string message = r["error"];
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST(ChildProtocol, ErrorsAreOneLineAndExitThree) {
  ExpectError("no_such_bench", "no benchmark named 'no_such_bench'");
  ExpectError("skips", "input file is missing");
  ExpectError("never_loops", "never entered its measurement loop");
  ExpectError("breaks_early", "left its measurement loop early");
  ExpectError("loops_twice", "entered its measurement loop twice");
  ExpectError("throws_in_loop", "threw an exception: disk on fire");
  ExpectError("throws_in_setup",
              "setup of benchmark 'throws_in_setup' threw an exception: no "
              "fixture data");
  ExpectError("pauses_twice", "pause_timing() twice");
}

TEST(ChildProtocol, MalformedRequestsAreRefused) {
  auto env = ProtocolEnv("measure", "three_blocks");
  env["TARE_ITERS"] = "0";
  EXPECT_NE(Request(env, 3)["error"].get<std::string>().find("TARE_ITERS"), std::string::npos);
  env["TARE_ITERS"] = "12abc";
  EXPECT_NE(Request(env, 3)["error"].get<std::string>().find("TARE_ITERS"), std::string::npos);
  env.erase("TARE_ITERS");
  EXPECT_NE(Request(env, 3)["error"].get<std::string>().find("TARE_ITERS"), std::string::npos);
  env = ProtocolEnv("measure", "three_blocks");
  env["TARE_ITERS"] = "1";
  env["TARE_PROTOCOL"] = "2";
  json r = Request(env, 3);
  EXPECT_NE(r["error"].get<std::string>().find("speaks tare child protocol 1"), std::string::npos);
  EXPECT_FALSE(r.contains("bench"));
  env = ProtocolEnv("dance");
  EXPECT_NE(Request(env, 3)["error"].get<std::string>().find("TARE_MODE"), std::string::npos);
  env = ProtocolEnv("measure", "three_blocks", "perf");
  env["TARE_ITERS"] = "1";
  EXPECT_NE(Request(env, 3)["error"].get<std::string>().find("TARE_INSTRUMENT"), std::string::npos);
  env = ProtocolEnv("calibrate", "three_blocks");
  EXPECT_NE(Request(env, 3)["error"].get<std::string>().find("TARE_CALIBRATE_NS"), std::string::npos);
  // No usable result fd: nothing can be reported there; stderr says why.
  env = ProtocolEnv("list");
  env["TARE_RESULT_FD"] = "9";
  ChildOutput out = RunChild({kBench}, env);
  EXPECT_EQ(out.exit_status, 3);
  EXPECT_NE(out.err.find("TARE_RESULT_FD"), std::string::npos);
}

TEST(ChildProtocol, DuplicateNamesFromDifferentFunctionsCannotBeListed) {
  json r = Request(ProtocolEnv("list"), 3, DUPLICATE_NAMES_PATH);
  EXPECT_NE(r["error"].get<std::string>().find("'same/1' is registered twice"), std::string::npos);
}

// ---- mem: the real shim, LD_PRELOADed ------------------------------------------------------

TEST(ChildProtocolMem, WindowCountsAreExactAndExcludeSetup) {
  json r = Measure("three_blocks", 1000, "mem");
  ASSERT_TRUE(r.contains("alloc")) << r.dump();
  EXPECT_EQ(r["alloc"]["allocs"], 3000);
  EXPECT_EQ(r["alloc"]["frees"], 3000);
  EXPECT_EQ(r["alloc"]["bytes_allocated"], 1064000);
  // 24, 40 and 1000 bytes live at once; glibc's usable sizes equal the requests for these.
  EXPECT_EQ(r["alloc"]["peak_live_bytes"], 1064);
}

TEST(ChildProtocolMem, PausedAllocationsAreNotCounted) {
  json r = Measure("paused_allocations", 100, "mem");
  EXPECT_EQ(r["alloc"]["allocs"], 100);
  EXPECT_EQ(r["alloc"]["frees"], 100);
  EXPECT_EQ(r["alloc"]["bytes_allocated"], 5600);
  // The peak is not adjusted for pauses (documented): the paused 4000-byte block (usable 4008)
  // was the largest live block.
  EXPECT_EQ(r["alloc"]["peak_live_bytes"], 4008);
}

TEST(ChildProtocolMem, WithoutTheShimTheResultSaysItIsNotLoaded) {
  auto env = ProtocolEnv("measure", "three_blocks", "mem");
  env["TARE_ITERS"] = "10";
  json r = Request(env, 3);  // no LD_PRELOAD
  EXPECT_NE(r["error"].get<std::string>().find("allocation shim is not loaded"), std::string::npos);
}

// ---- sim: real valgrind ----------------------------------------------------------------------

// Runs `bench` under callgrind as the runner will and returns the Ir total of its window's dump.
uint64_t WindowIr(const std::string& bench, uint64_t iters) {
  const std::string dir = MakeTempDir();
  auto env = ProtocolEnv("measure", bench, "sim");
  env["TARE_ITERS"] = std::to_string(iters);
  ChildOutput out = RunChild({"/usr/bin/valgrind", "--tool=callgrind", "--instr-atstart=no",
                              "--callgrind-out-file=" + dir + "/callgrind.out", kBench},
                             env);
  EXPECT_EQ(out.exit_status, 0) << out.err;
  EXPECT_EQ(json::parse(Lines(out.result).at(0))["iters"], iters);
  // One dump per window, named by the client request, written as <file>.1.
  const std::string dump = ReadFile(dir + "/callgrind.out.1");
  std::filesystem::remove_all(dir);
  EXPECT_NE(dump.find("desc: Trigger: Client Request: " + bench + "\n"), std::string::npos);
  std::smatch m;
  if (!std::regex_search(dump, m, std::regex("\ntotals: (\\d+)"))) {
    ADD_FAILURE() << "no totals line in the dump";
    return 0;
  }
  return std::stoull(m[1]);
}

TEST(ChildProtocolSim, WindowExcludesSetupIsLinearInIterationsAndDeterministic) {
  if (!std::filesystem::exists("/usr/bin/valgrind")) GTEST_SKIP() << "valgrind not installed";
  const uint64_t ir1 = WindowIr("heavy_setup", 1000);
  const uint64_t ir2 = WindowIr("heavy_setup", 2000);
  const uint64_t ir3 = WindowIr("heavy_setup", 3000);
  // Setup runs 10 million loop iterations (tens of millions of instructions): not in the window.
  EXPECT_LT(ir1, 100000u);
  EXPECT_GT(ir2, ir1);
  // Every extra 1000 iterations costs exactly the same instructions.
  EXPECT_EQ(ir3 - ir2, ir2 - ir1);
  // The same request gives the same count.
  EXPECT_EQ(WindowIr("heavy_setup", 1000), ir1);
}

TEST(ChildProtocolSim, PausedWorkIsNotCounted) {
  if (!std::filesystem::exists("/usr/bin/valgrind")) GTEST_SKIP() << "valgrind not installed";
  // Each iteration runs 100000 loop iterations while paused (several hundred thousand
  // instructions) and one add while timed; what is counted is the add and the pause machinery.
  const uint64_t per_iteration = (WindowIr("paused_heavy", 20) - WindowIr("paused_heavy", 10)) / 10;
  EXPECT_LT(per_iteration, 1000u);
}

// ---- standalone mode and the marker -------------------------------------------------------

TEST(Standalone, ListsFiltersAndPrintsATable) {
  ChildOutput out = RunChild({TARE_BASIC_PATH, "--list"}, {}, -1);
  EXPECT_EQ(out.exit_status, 0);
  EXPECT_EQ(out.out,
            "sort_ints/64\nsort_ints/512\nsort_ints/4096\nhash_lookup/n:1000/stride:7\n"
            "hash_lookup/n:1000/stride:3\nfill_bytes/1024\nfill_bytes/65536\n");
  out = RunChild({TARE_BASIC_PATH, "--benchmark_list_tests", "--filter", "^fill"}, {}, -1);
  EXPECT_EQ(out.out, "fill_bytes/1024\nfill_bytes/65536\n");

  out = RunChild({TARE_BASIC_PATH, "--filter=sort_ints/64$", "--min-time-ms", "5", "--repetitions=2"}, {}, -1);
  EXPECT_EQ(out.exit_status, 0) << out.err;
  std::vector<std::string> lines = Lines(out.out);
  ASSERT_EQ(lines.size(), 2u) << out.out;
  EXPECT_EQ(lines[0].rfind("benchmark", 0), 0u);
  EXPECT_TRUE(std::regex_search(lines[1], std::regex("^sort_ints/64 +[0-9.]+ ns +[0-9.]+ ns +"
                                                     "[0-9]+  items_processed=64 $")))
      << lines[1];
}

TEST(Standalone, BadArgumentsExitTwoFailuresExitThree) {
  EXPECT_EQ(RunChild({TARE_BASIC_PATH, "--frobnicate"}, {}, -1).exit_status, 2);
  EXPECT_EQ(RunChild({TARE_BASIC_PATH, "--filter", "("}, {}, -1).exit_status, 2);
  EXPECT_EQ(RunChild({TARE_BASIC_PATH, "--filter", "nothing-matches"}, {}, -1).exit_status, 2);
  ChildOutput out = RunChild({kBench, "--filter", "^skips$", "--min-time-ms=1"}, {}, -1);
  EXPECT_EQ(out.exit_status, 3);
  EXPECT_NE(out.out.find("ERROR  input file is missing"), std::string::npos) << out.out;
  EXPECT_EQ(RunChild({TARE_BASIC_PATH, "--help"}, {}, -1).exit_status, 0);
}

TEST(ProtocolMarker, EveryLinkedBinaryCarriesItOthersDoNot) {
  for (const std::string& path : {kBench, std::string(TARE_BASIC_PATH), std::string(DUPLICATE_NAMES_PATH)}) {
    EXPECT_NE(ReadFile(path).find("TARE_CHILD_PROTOCOL_V1"), std::string::npos) << path;
  }
  EXPECT_EQ(ReadFile("/bin/true").find("TARE_CHILD_PROTOCOL_V1"), std::string::npos);
  EXPECT_EQ(ReadFile(kShim).find("TARE_CHILD_PROTOCOL_V1"), std::string::npos);
}

}  // namespace
}  // namespace tare::testing
