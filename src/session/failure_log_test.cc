#include "session/failure_log.h"

#include <gtest/gtest.h>

namespace tare::session {
namespace {

TEST(FailureLog, TellsEachBenchmarksErrorOnceAndCountsTheRepeats) {
  FailureLog log;
  EXPECT_TRUE(log.First("BM_NeedsData", "reported an error: no data"));
  EXPECT_FALSE(log.First("BM_NeedsData", "reported an error: no data"));
  EXPECT_TRUE(log.First("BM_Other", "reported an error: no data")) << "another benchmark";
  EXPECT_TRUE(log.First("BM_NeedsData", "killed by signal 11 (SIGSEGV)")) << "another error";
  EXPECT_FALSE(log.First("BM_NeedsData", "reported an error: no data"));
  const auto repeated = log.Repeated();
  ASSERT_EQ(repeated.size(), 1u);
  EXPECT_EQ(repeated[0].key, "BM_NeedsData");
  EXPECT_EQ(repeated[0].error, "reported an error: no data");
  EXPECT_EQ(repeated[0].times, 3);
}

TEST(FailureLog, TheStderrTailIsItsLastFiveLines) {
  EXPECT_EQ(StderrTail(""), "");
  EXPECT_EQ(StderrTail("\n \n"), "");
  EXPECT_EQ(StderrTail("1\n2\n3\n4\n5\n6\n\n"), "; its stderr ends:\n  2\n  3\n  4\n  5\n  6");
}

}  // namespace
}  // namespace tare::session
