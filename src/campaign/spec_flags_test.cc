#include "campaign/spec_flags.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "campaign/campaign_file.h"

namespace tare::campaign {
namespace {

TEST(SpecFlags, MetricFlagsReadNameAllowanceAndDirection) {
  auto m = ParseMetricFlag("wall_ns=2%");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->name, "wall_ns");
  EXPECT_FALSE(m->allowance.noise);
  EXPECT_DOUBLE_EQ(m->allowance.fraction, 0.02);
  EXPECT_FALSE(m->direction.has_value());

  m = ParseMetricFlag("gb.counter.bytes_per_second:higher");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->name, "gb.counter.bytes_per_second");
  EXPECT_TRUE(m->allowance.noise) << "no allowance given: the noise floor alone";
  EXPECT_EQ(m->direction, Direction::kHigherIsBetter);

  m = ParseMetricFlag("gb.real_time_ns=noise:lower");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_TRUE(m->allowance.noise);
  EXPECT_EQ(m->direction, Direction::kLowerIsBetter);
}

TEST(SpecFlags, BadMetricFlagsSayWhatToWrite) {
  auto m = ParseMetricFlag("wall_ns=2%:sideways");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("'sideways' is not 'higher' or 'lower'"), std::string::npos)
      << m.status().message();
  m = ParseMetricFlag("=2%");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("NAME=ALLOWANCE"), std::string::npos) << m.status().message();
  m = ParseMetricFlag("wall_ns=two");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("--metric wall_ns=two"), std::string::npos) << m.status().message();
}

// One place fills the defaults: a campaign declared by flags and the same campaign declared by a
// file are the same spec, field for field (SpecToJson is what the lock hashes).
TEST(SpecFlags, FlagsAndAFileDeclaringTheSameCampaignGiveTheSameSpec) {
  SpecFlags flags;
  flags.base = "old/bench";
  flags.heads = {"new/bench"};
  auto from_flags = SpecFromFlags(flags, "/work/proj");
  ASSERT_TRUE(from_flags.ok()) << from_flags.status().message();
  auto from_file = ParseCampaignToml("[arms]\nbase = \"old/bench\"\nhead = \"new/bench\"\n", "c.toml");
  ASSERT_TRUE(from_file.ok()) << from_file.status().message();
  EXPECT_EQ(SpecToJson(*from_flags).dump(2), SpecToJson(ResolveSpecPaths(*from_file, "/work/proj")).dump(2));
  EXPECT_EQ(from_flags->base, "/work/proj/old/bench");
}

TEST(SpecFlags, ADeclaredStepMeansEvenlySpacedLooks) {
  SpecFlags flags;
  flags.base = "b";
  flags.heads = {"h"};
  auto spec = SpecFromFlags(flags, "/");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_FALSE(spec->sampling_declared);
  EXPECT_EQ(spec->sampling.growth, 2);
  flags.given = {"--base", "--head", "--step"};
  flags.step = 10;
  spec = SpecFromFlags(flags, "/");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_TRUE(spec->sampling_declared);
  EXPECT_EQ(spec->sampling.step, 10);
  EXPECT_EQ(spec->sampling.growth, 1);
}

TEST(SpecFlags, EachRuleNameIsChecked) {
  SpecFlags flags;
  flags.base = "b";
  flags.heads = {"h"};
  flags.kind = "rust";
  auto spec = SpecFromFlags(flags, "/");
  ASSERT_FALSE(spec.ok());
  EXPECT_NE(spec.status().message().find("--kind 'rust' is not auto, command, gbench or tare"), std::string::npos);
  flags.kind = "auto";
  flags.noise_cap = "noise";
  spec = SpecFromFlags(flags, "/");
  ASSERT_FALSE(spec.ok());
  EXPECT_NE(spec.status().message().find("--noise-cap 'noise' is not a percentage"), std::string::npos);
  flags.noise_cap = "2%";
  flags.budget = "soon";
  spec = SpecFromFlags(flags, "/");
  ASSERT_FALSE(spec.ok());
  EXPECT_NE(spec.status().message().find("--budget"), std::string::npos) << spec.status().message();
}

TEST(SpecFlags, AFileDeclaresTheWholeCampaign) {
  SpecFlags flags;
  flags.given = {"--cap", "--metric"};
  auto in = CampaignInputFrom("campaign.toml", flags, "/");
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(in.status().message().find("--cap, --metric cannot be combined with a campaign file"), std::string::npos)
      << in.status().message();
  flags.given.clear();
  flags.args = {"--work", "3"};
  in = CampaignInputFrom("campaign.toml", flags, "/");
  ASSERT_FALSE(in.ok());
  EXPECT_NE(in.status().message().find("args = [...]"), std::string::npos) << in.status().message();
}

TEST(SpecFlags, FlagsNeedABase) {
  SpecFlags flags;
  auto in = CampaignInputFrom("", flags, "/");
  ASSERT_FALSE(in.ok());
  EXPECT_NE(in.status().message().find("nothing to compare"), std::string::npos) << in.status().message();
  flags.heads = {"h"};
  in = CampaignInputFrom("", flags, "/");
  ASSERT_FALSE(in.ok());
  EXPECT_NE(in.status().message().find("--base is required"), std::string::npos) << in.status().message();
  flags.base = "b";
  in = CampaignInputFrom("", flags, "/work");
  ASSERT_TRUE(in.ok()) << in.status().message();
  EXPECT_EQ(in->campaign_source, "flags");
  EXPECT_EQ(nlohmann::json::parse(in->campaign_text), SpecToJson(in->spec));
  EXPECT_EQ(in->spec.base, "/work/b");
}

}  // namespace
}  // namespace tare::campaign
