// Choosing the measured parts of a sample's stored profiles, per benchmark kind.
#include "attribute/stored_profiles.h"

#include <gtest/gtest.h>

namespace tare::attribute {
namespace {

std::string Part(int pid, int part, const std::string& trigger, uint64_t ir) {
  return "version: 1\npid: " + std::to_string(pid) + "\npart: " + std::to_string(part) + "\ndesc: Trigger: " + trigger +
         "\nevents: Ir\nfn=f\n1 " + std::to_string(ir) + "\ntotals: " + std::to_string(ir) + "\n";
}

uint64_t Sum(const std::vector<instrument::Profile>& parts) {
  uint64_t s = 0;
  for (const auto& p : parts) s += p.Total("Ir");
  return s;
}

TEST(MeasuredParts, TareBinaryKeepsItsWindowsNotTheExitDump) {
  std::vector<ProfileFile> files = {{"callgrind/callgrind.out.7", Part(7, 3, "Program termination", 1000)},
                                    {"callgrind/callgrind.out.7.1", Part(7, 1, "Client Request: a::b", 10)},
                                    {"callgrind/callgrind.out.7.2", Part(7, 2, "Client Request: a::b", 20)}};
  auto parts = MeasuredParts(files, TargetKind::kTare);
  ASSERT_TRUE(parts.ok()) << parts.status().message();
  EXPECT_EQ(parts->size(), 2u);
  EXPECT_EQ(Sum(*parts), 30u);
  auto all = MeasuredParts(files, TargetKind::kCommand);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(Sum(*all), 1030u);
}

TEST(MeasuredParts, GoogleBenchmarkKeepsTheLastTimedRun) {
  const std::string start = "--dump-after=benchmark::State::StartKeepRunning()";
  const std::string finish = "--dump-before=benchmark::State::FinishKeepRunning()";
  std::vector<ProfileFile> files = {{"1", Part(9, 1, start, 1)},
                                    {"2", Part(9, 2, finish, 100)},
                                    {"3", Part(9, 3, start, 2)},
                                    {"4", Part(9, 4, finish, 50)},
                                    {"5", Part(9, 5, "--dump-before=benchmark::State::PauseTiming()", 7)}};
  auto parts = MeasuredParts(files, TargetKind::kGbench);
  ASSERT_TRUE(parts.ok()) << parts.status().message();
  ASSERT_EQ(parts->size(), 1u);
  EXPECT_EQ(Sum(*parts), 50u);
}

TEST(MeasuredParts, NoWindowAndMalformedAreErrors) {
  auto none = MeasuredParts({{"callgrind/callgrind.out.7", Part(7, 1, "Program termination", 5)}}, TargetKind::kTare);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("no measurement window in the stored profiles (callgrind/callgrind.out.7)"),
            std::string::npos)
      << none.status().message();
  auto bad = MeasuredParts({{"x.out", "this is not a profile\n"}}, TargetKind::kCommand);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("x.out:", 0), 0u) << bad.status().message();
}

}  // namespace
}  // namespace tare::attribute
