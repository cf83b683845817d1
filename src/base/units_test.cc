#include "base/units.h"

#include <gtest/gtest.h>

namespace tare {
namespace {

TEST(Units, ParsesDurations) {
  EXPECT_DOUBLE_EQ(*ParseDurationNs("250ms"), 250e6);
  EXPECT_DOUBLE_EQ(*ParseDurationNs("1.5s"), 1.5e9);
  EXPECT_DOUBLE_EQ(*ParseDurationNs("10us"), 10e3);
  EXPECT_DOUBLE_EQ(*ParseDurationNs("3"), 3e9);
  EXPECT_DOUBLE_EQ(*ParseDurationNs("2m"), 120e9);
}

TEST(Units, RejectsBadDurationsWithAHint) {
  auto r = ParseDurationNs("fast");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("250ms"), std::string::npos);
  auto u = ParseDurationNs("5 fortnights");
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.status().message().find("unknown duration unit 'fortnights'"), std::string::npos);
  EXPECT_FALSE(ParseDurationNs("-1s").ok());
}

// Regression (issue 9, item 13): "1e99s" converted to int64 wrapped to 0, which means no limit.
TEST(Units, TimeoutsArePositiveAndAtMostSevenDays) {
  EXPECT_EQ(*ParseTimeoutNs("30s"), int64_t{30} * 1000000000);
  EXPECT_EQ(*ParseTimeoutNs("168h"), kMaxTimeoutNs);
  for (const char* bad : {"0", "0s", "0.1ns", "169h", "1e99s", "1e300"}) {
    auto r = ParseTimeoutNs(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find(bad), std::string::npos) << r.status().message();
  }
  EXPECT_NE(ParseTimeoutNs("1e99s").status().message().find("7 days"), std::string::npos);
}

TEST(Units, ParsesBytes) {
  EXPECT_DOUBLE_EQ(*ParseBytes("64MiB"), 64.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(*ParseBytes("8 MiB"), 8.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(*ParseBytes("1GB"), 1e9);
  EXPECT_DOUBLE_EQ(*ParseBytes("4096"), 4096);
  EXPECT_FALSE(ParseBytes("12 parsecs").ok());
}

TEST(Units, FormatsForPeople) {
  EXPECT_EQ(FormatDurationNs(850), "850 ns");
  EXPECT_EQ(FormatDurationNs(1234567), "1.23 ms");
  EXPECT_EQ(FormatDurationNs(2e9), "2 s");
  EXPECT_EQ(FormatDurationNs(99e9), "99 s");
  EXPECT_EQ(FormatDurationNs(1630e9), "27.2 min");  // not "1.63e+03 s" (issue 21)
  EXPECT_EQ(FormatDurationNs(7200e9), "2 h");
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1.2 * 1024 * 1024), "1.2 MiB");
  EXPECT_EQ(FormatCount(128070), "128,070");
  EXPECT_EQ(FormatCount(-1234567), "-1,234,567");
  EXPECT_EQ(FormatCount(821), "821");
  EXPECT_EQ(FormatValue(2.5, "percent"), "2.50%");
}

}  // namespace
}  // namespace tare
