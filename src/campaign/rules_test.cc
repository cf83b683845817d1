#include "campaign/rules.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tare::campaign {
namespace {

TEST(Rules, TheDefaultGateParses) {
  auto g = ParseGate(kDefaultGate);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->metric, "peak_rss_bytes");
  EXPECT_EQ(g->arm, "head");
  EXPECT_DOUBLE_EQ(g->factor, 1.5);
  EXPECT_EQ(g->ref_metric, "peak_rss_bytes");
  EXPECT_EQ(g->ref_arm, "base");
  EXPECT_DOUBLE_EQ(g->offset, 8.0 * 1024 * 1024);
  // head 20 MiB against base 8 MiB: limit 1.5 * 8 + 8 = 20 MiB, exactly at the limit is fine.
  EXPECT_DOUBLE_EQ(GateLimit(*g, 8.0 * 1024 * 1024), 20.0 * 1024 * 1024);
}

TEST(Rules, GateWithoutFactorOrOffset) {
  auto g = ParseGate("wall_ns(head)<=wall_ns(base)");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_DOUBLE_EQ(g->factor, 1.0);
  EXPECT_DOUBLE_EQ(g->offset, 0.0);
}

TEST(Rules, BoundsWithUnits) {
  auto b = ParseBound("p95(wall_ns, head) <= 25ms");
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->stat, "p95");
  EXPECT_EQ(b->metric, "wall_ns");
  EXPECT_EQ(b->arm, "head");
  EXPECT_DOUBLE_EQ(b->limit, 25e6);
  EXPECT_DOUBLE_EQ(ParseBound("max(peak_rss_bytes, base) <= 1.5GiB")->limit, 1.5 * 1073741824.0);
  EXPECT_DOUBLE_EQ(ParseBound("median(minor_faults, head) <= 1e4")->limit, 1e4);
}

TEST(Rules, MistakesAreExplained) {
  auto g = ParseGate("peak_rss_bytes(head) <= 1.5 * peak_rss_bytes(base) + 8 MiB");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("unexpected text after the rule"), std::string::npos) << g.status().message();
  g = ParseGate("peak_rss_bytes(head) <= -1 * peak_rss_bytes(base)");
  ASSERT_FALSE(g.ok());
  auto b = ParseBound("p95(wall_ns) <= 25ms");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("expected METRIC, ARM in the parentheses"), std::string::npos);
  b = ParseBound("p95(wall_ns, head) <= 25MiB");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("the unit 'MiB' does not suit wall_ns (a time metric in ns)"), std::string::npos)
      << b.status().message();
  b = ParseBound("p95(wall_ns, head) <= 25parsecs");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("unknown unit 'parsecs'"), std::string::npos);
}

TEST(Rules, StatisticsMatchTheSummaryDefinitions) {
  // Type-7 quantiles, as numpy.quantile([1..20], 0.95) = 19.05.
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);
  EXPECT_DOUBLE_EQ(BoundStatistic("p95", v), 19.05);
  EXPECT_DOUBLE_EQ(BoundStatistic("median", v), 10.5);
  EXPECT_DOUBLE_EQ(BoundStatistic("max", v), 20);
  EXPECT_DOUBLE_EQ(BoundStatistic("mean", v), 10.5);
  EXPECT_TRUE(std::isnan(BoundStatistic("p95", {})));
}

TEST(Rules, HeadMeansEveryHead) {
  std::vector<std::string> arms = {"base", "head", "hd02", "null"};
  EXPECT_EQ(ExpandRuleArm("head", arms), (std::vector<std::string>{"head", "hd02"}));
  EXPECT_EQ(ExpandRuleArm("hd02", arms), std::vector<std::string>{"hd02"});
  EXPECT_EQ(ExpandRuleArm("base", arms), std::vector<std::string>{"base"});
  EXPECT_TRUE(ExpandRuleArm("hd03", arms).empty());
}

}  // namespace
}  // namespace tare::campaign
