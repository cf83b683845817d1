#include "campaign/campaign_setup.h"

#include <gtest/gtest.h>

namespace tare::campaign {
namespace {

CampaignSpec Spec(const std::string& base, std::vector<std::string> heads) {
  CampaignSpec spec;
  spec.base = base;
  spec.heads = std::move(heads);
  return spec;
}

// Issue 42: `--base base/bench --head head/bench` was titled "bench vs bench". The default name
// takes as many of the paths' last components as tell the executables apart.
TEST(DefaultCampaignName, TellsTheArmsApart) {
  EXPECT_EQ(DefaultCampaignName(Spec("/b/ab_knob_base", {"/b/ab_knob_plus3"})), "ab_knob_base vs ab_knob_plus3");
  EXPECT_EQ(DefaultCampaignName(Spec("/w/base/bench", {"/w/head/bench"})), "base/bench vs head/bench");
  EXPECT_EQ(DefaultCampaignName(Spec("/w/main/build/bench", {"/w/pr/build/bench"})),
            "main/build/bench vs pr/build/bench");
  EXPECT_EQ(DefaultCampaignName(Spec("/w/base/bench", {"/w/head/bench", "/w/head2/bench"})),
            "base/bench vs head/bench, head2/bench");
  // Relative paths are read from the working directory, and . and .. do not count.
  EXPECT_EQ(DefaultCampaignName(Spec("base/./bench", {"head/../head/bench"})), "base/bench vs head/bench");
  // One executable given twice (an A/A) keeps its file name.
  EXPECT_EQ(DefaultCampaignName(Spec("/w/base/bench", {"/w/base/bench"})), "bench vs bench");
  // A path shorter than the others stops at its root.
  EXPECT_EQ(DefaultCampaignName(Spec("/bench", {"/w/bench"})), "bench vs w/bench");
}

}  // namespace
}  // namespace tare::campaign
