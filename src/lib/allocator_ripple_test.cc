// examples/allocator_ripple under real valgrind (callgrind, --instr-atstart=no, the window
// delimited by the library's client requests), as the runner will run it: three identical
// benchmarks give identical instruction counts when each runs in a fresh process, and not when
// all three share one (the runner's --no-isolation, via TARE_BENCH with several names).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "lib/testing/child_process.h"

namespace tare::testing {
namespace {

const std::vector<std::string> kBenches = {"zeroed_buffer/1", "zeroed_buffer/2", "zeroed_buffer/3"};

// Runs the requested benchmarks (newline-separated) in one process under callgrind; returns the
// Ir total of each window's dump, in order.
std::vector<uint64_t> WindowIrs(const std::string& benches, size_t count) {
  const std::string dir = MakeTempDir();
  auto env = ProtocolEnv("measure", benches, "sim");
  env["TARE_ITERS"] = "1";
  ChildOutput out = RunChild({"/usr/bin/valgrind", "--tool=callgrind", "--instr-atstart=no",
                              "--callgrind-out-file=" + dir + "/callgrind.out", RIPPLE_PATH},
                             env);
  EXPECT_EQ(out.exit_status, 0) << out.err;
  EXPECT_EQ(Lines(out.result).size(), count);
  std::vector<uint64_t> irs;
  for (size_t part = 1; part <= count; ++part) {
    const std::string dump = ReadFile(dir + "/callgrind.out." + std::to_string(part));
    std::smatch m;
    EXPECT_TRUE(std::regex_search(dump, m, std::regex("\ntotals: (\\d+)"))) << part;
    irs.push_back(m.empty() ? 0 : std::stoull(m[1]));
  }
  std::filesystem::remove_all(dir);
  return irs;
}

TEST(AllocatorRipple, IsolatedRunsAreIdenticalOneProcessRunsAreNot) {
  if (!std::filesystem::exists("/usr/bin/valgrind")) GTEST_SKIP() << "valgrind not installed";
  std::vector<uint64_t> isolated;
  for (const auto& bench : kBenches) isolated.push_back(WindowIrs(bench, 1).at(0));
  const std::vector<uint64_t> shared = WindowIrs(kBenches[0] + "\n" + kBenches[1] + "\n" + kBenches[2], 3);
  std::printf("isolated Ir: %llu %llu %llu; one process Ir: %llu %llu %llu\n", (unsigned long long)isolated[0],
              (unsigned long long)isolated[1], (unsigned long long)isolated[2], (unsigned long long)shared[0],
              (unsigned long long)shared[1], (unsigned long long)shared[2]);
  EXPECT_EQ(isolated[0], isolated[1]);
  EXPECT_EQ(isolated[1], isolated[2]);
  // The first benchmark of the shared process starts from the same allocator state as an
  // isolated one; the later ones pay for heap memory that calloc must clear (4 MiB: the last
  // one clears all of it).
  EXPECT_EQ(shared[0], isolated[0]);
  EXPECT_GT(shared[1], isolated[0] * 2);
  EXPECT_GT(shared[2], isolated[0] * 100);
}

}  // namespace
}  // namespace tare::testing
