// libtare_alloc.so in real processes: exact counts for a known C allocation pattern (whole
// process via TARE_ALLOC_OUT, and inside a window), for C++ new/delete, from four threads at
// once, and one line per process when the program forks.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "lib/testing/child_process.h"

namespace tare::testing {
namespace {

using nlohmann::json;

const std::string kShim = ALLOC_SHIM_PATH;
const std::string kPattern = ALLOC_PATTERN_PATH;

struct Figures {
  uint64_t allocs = 0, frees = 0, bytes = 0, peak = 0;
};

// Parses "allocs=.. frees=.. bytes=.. peak=.." as printed by the test programs.
Figures ParsePrinted(const std::string& text) {
  std::smatch m;
  Figures f;
  if (!std::regex_search(text, m, std::regex("allocs=(\\d+) frees=(\\d+) bytes=(\\d+) peak=(\\d+)"))) {
    ADD_FAILURE() << "no figures in: " << text;
    return f;
  }
  f.allocs = std::stoull(m[1]);
  f.frees = std::stoull(m[2]);
  f.bytes = std::stoull(m[3]);
  f.peak = std::stoull(m[4]);
  return f;
}

uint64_t ExpectedPeak(const std::string& text) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("expected_peak=(\\d+)"))) return 0;
  return std::stoull(m[1]);
}

// Runs the pattern program with the shim and TARE_ALLOC_OUT; returns the lines of the out file.
std::vector<json> WholeProcess(const std::string& mode, ChildOutput* out) {
  const std::string dir = MakeTempDir();
  const std::string path = dir + "/alloc.jsonl";
  *out = RunChild({kPattern, mode}, {{"LD_PRELOAD", kShim}, {"TARE_ALLOC_OUT", path}}, -1);
  EXPECT_EQ(out->exit_status, 0) << out->err;
  std::vector<json> lines;
  for (const auto& line : Lines(ReadFile(path))) lines.push_back(json::parse(line));
  std::filesystem::remove_all(dir);
  return lines;
}

TEST(AllocShim, AProcessThatAllocatesNothingReportsZero) {
  ChildOutput out;
  std::vector<json> lines = WholeProcess("none", &out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["pid"], out.pid);
  EXPECT_EQ(lines[0]["allocs"], 0);
  EXPECT_EQ(lines[0]["frees"], 0);
  EXPECT_EQ(lines[0]["bytes_allocated"], 0);
  EXPECT_EQ(lines[0]["peak_live_bytes"], 0);
}

TEST(AllocShim, WholeProcessCountsTheKnownPatternExactly) {
  ChildOutput out;
  std::vector<json> lines = WholeProcess("pattern", &out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["pid"], out.pid);
  EXPECT_EQ(lines[0]["allocs"], 12);
  EXPECT_EQ(lines[0]["frees"], 12);
  EXPECT_EQ(lines[0]["bytes_allocated"], 6280);
  const uint64_t expected_peak = ExpectedPeak(out.err);
  EXPECT_GE(expected_peak, 6200u);  // the ten blocks' usable sizes: at least what was asked
  EXPECT_EQ(lines[0]["peak_live_bytes"], expected_peak);
}

TEST(AllocShim, WindowCountsOnlyWhatHappensInsideIt) {
  ChildOutput out = RunChild({kPattern, "window"}, {{"LD_PRELOAD", kShim}}, -1);
  ASSERT_EQ(out.exit_status, 0) << out.err;
  Figures f = ParsePrinted(out.out);
  EXPECT_EQ(f.allocs, 12u);
  EXPECT_EQ(f.frees, 12u);
  EXPECT_EQ(f.bytes, 6280u);
  // Relative to the live heap at the window's start (a 5000-byte block allocated before it).
  EXPECT_EQ(f.peak, ExpectedPeak(out.out));
}

TEST(AllocShim, CxxNewAndDeleteReachTheShim) {
  ChildOutput out = RunChild({ALLOC_PATTERN_CXX_PATH}, {{"LD_PRELOAD", kShim}}, -1);
  ASSERT_EQ(out.exit_status, 0) << out.err;
  Figures f = ParsePrinted(out.out);
  EXPECT_EQ(f.allocs, 6u);
  EXPECT_EQ(f.frees, 6u);
  EXPECT_EQ(f.bytes, 1288u);
  EXPECT_GE(f.peak, 1000u + 256u + 4u);
}

TEST(AllocShim, CountsFromFourThreadsAtOnceAreExact) {
  ChildOutput out = RunChild({kPattern, "threads"}, {{"LD_PRELOAD", kShim}}, -1);
  ASSERT_EQ(out.exit_status, 0) << out.err;
  Figures f = ParsePrinted(out.out);
  EXPECT_EQ(f.allocs, 40000u);
  EXPECT_EQ(f.frees, 40000u);
  EXPECT_EQ(f.bytes, 40000u * 32u);
  // At most one 32-byte block (usable 40) per thread is live at any moment.
  EXPECT_GE(f.peak, 40u);
  EXPECT_LE(f.peak, 4u * 40u);
}

TEST(AllocShim, EveryProcessAppendsItsOwnLine) {
  ChildOutput out;
  std::vector<json> lines = WholeProcess("fork", &out);
  ASSERT_EQ(lines.size(), 2u);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out.out, m, std::regex("child=(\\d+)")));
  const int child = std::stoi(m[1]);
  // The forked child exits first; it inherited the parent's counts and added one malloc(100).
  EXPECT_EQ(lines[0]["pid"], child);
  EXPECT_EQ(lines[0]["allocs"], 13);
  EXPECT_EQ(lines[0]["bytes_allocated"], 6380);
  EXPECT_EQ(lines[1]["pid"], out.pid);
  // The parent's line includes stdout's buffer (printf after the pattern): one more block.
  EXPECT_EQ(lines[1]["allocs"], 13);
  EXPECT_EQ(lines[1]["frees"], 12);
}

TEST(AllocShim, AllocationsInsideDlsymAreServedFromTheBootstrapBufferAndNotCounted) {
  const std::string dir = MakeTempDir();
  const std::string path = dir + "/alloc.jsonl";
  ChildOutput out =
      RunChild({kPattern, "bootstrap"},
               {{"LD_PRELOAD", kShim}, {"TARE_ALLOC_OUT", path}, {"TARE_ALLOC_SELFTEST_BOOTSTRAP", "1"}}, -1);
  ASSERT_EQ(out.exit_status, 0) << out.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out.err, m, std::regex("bootstrap_bytes=(\\d+)"))) << out.err;
  EXPECT_GT(std::stoull(m[1]), 0u);  // dlsym did allocate through the shim while it resolved
  std::vector<std::string> lines = Lines(ReadFile(path));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(lines.size(), 1u);
  const json j = json::parse(lines[0]);
  // The pattern's figures, exactly: the bootstrap blocks were neither counted nor freed for real.
  EXPECT_EQ(j["allocs"], 12);
  EXPECT_EQ(j["frees"], 12);
  EXPECT_EQ(j["bytes_allocated"], 6280);

  // Without the self-test nothing goes through the bootstrap on this glibc.
  out = RunChild({kPattern, "bootstrap"}, {{"LD_PRELOAD", kShim}}, -1);
  EXPECT_NE(out.err.find("bootstrap_bytes=0\n"), std::string::npos) << out.err;
}

TEST(AllocShim, WithoutPreloadTheWindowFunctionsAreAbsent) {
  ChildOutput out = RunChild({kPattern, "window"}, {}, -1);
  EXPECT_EQ(out.exit_status, 2);
  EXPECT_EQ(out.err, "shim not loaded\n");
}

}  // namespace
}  // namespace tare::testing
