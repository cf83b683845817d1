#include "compare/thresholds.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace tare::compare {
namespace {

TEST(Thresholds, ParsesPercentsAndFractions) {
  EXPECT_DOUBLE_EQ(*ParseThreshold("5%", "t"), 0.05);
  EXPECT_DOUBLE_EQ(*ParseThreshold("0.5 %", "t"), 0.005);
  EXPECT_DOUBLE_EQ(*ParseThreshold("0.02", "t"), 0.02);
  for (const char* bad : {"", "%", "five", "-1%", "5%%", "nan", "2000%"}) {
    auto r = ParseThreshold(bad, "--threshold");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("--threshold"), std::string::npos);
  }
}

TEST(Thresholds, FileRulesMetricsAndFlagsInOrder) {
  auto c = ParseCompareConfig(R"(
[other_tool]
anything = 1

[compare]
threshold = "4%"
confidence = 0.99
ignore = ["BM_Flaky.*"]
[compare.metrics]
"sim.Ir" = "0.5%"
[[compare.rules]]
benchmark = "BM_Alloc/.*"
threshold = "10%"
[[compare.rules]]
benchmark = "BM_Alloc/8"
metric = "wall_ns"
threshold = "20%"
)",
                              "tare.toml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->ThresholdFor("BM_Sort", "wall_ns", false), std::make_pair(0.04, std::string("threshold")));
  EXPECT_EQ(c->ThresholdFor("BM_Sort", "sim.Ir", true).first, 0.005);
  EXPECT_EQ(c->ThresholdFor("BM_Alloc/1", "sim.Ir", true).first, 0.10);    // a rule beats the metric's value
  EXPECT_EQ(c->ThresholdFor("BM_Alloc/8", "wall_ns", false).first, 0.20);  // the last matching rule wins
  EXPECT_EQ(c->ThresholdFor("BM_Alloc/8", "sim.Ir", false).first, 0.10);
  EXPECT_EQ(c->ThresholdFor("xBM_Alloc/1", "wall_ns", false).first, 0.04);  // whole-name match
  EXPECT_EQ(*c->confidence, 0.99);
  EXPECT_TRUE(c->IgnoredBy("BM_Flaky/3").has_value());
  EXPECT_FALSE(c->IgnoredBy("BM_Sort").has_value());
  // Flags win over everything in the file.
  ASSERT_TRUE(ApplyFlags(&*c, {"wall_ns=1%"}, {"BM_Sort"}, 0.9).ok());
  EXPECT_EQ(c->ThresholdFor("BM_Alloc/8", "wall_ns", false).first, 0.01);
  EXPECT_EQ(c->ThresholdFor("BM_Alloc/8", "sim.Ir", false).first, 0.10);
  EXPECT_TRUE(c->IgnoredBy("BM_Sort").has_value());
  ASSERT_TRUE(ApplyFlags(&*c, {"2%"}, {}, std::nullopt).ok());
  EXPECT_EQ(c->ThresholdFor("BM_Alloc/1", "sim.Ir", true).first, 0.02);
  // Defaults without any file.
  CompareConfig none;
  EXPECT_EQ(none.ThresholdFor("x", "wall_ns", false).first, kDefaultThreshold);
  EXPECT_EQ(none.ThresholdFor("x", "sim.Ir", true).first, kDefaultDeterministicThreshold);
}

TEST(Thresholds, MistakesInTheFileAreErrorsWithTheirPlace) {
  for (const auto& [text, expect] : std::vector<std::pair<std::string, std::string>>{
           {"[compare]\nthreshhold = \"5%\"\n", "unknown key 'compare.threshhold'"},
           {"[compare]\nthreshold = \"five\"\n", "compare.threshold"},
           {"[compare]\nconfidence = 2\n", "compare.confidence"},
           {"[compare]\nignore = \"x\"\n", "array"},
           {"[compare]\nignore = [\"(\"]\n", "not a valid regular expression"},
           {"[[compare.rules]]\nbenchmark = \"x\"\n", "needs benchmark"},
           {"[[compare.rules]]\nbenchmark = \"x\"\nthreshold = \"1%\"\nmetrc = \"a\"\n", "unknown key 'metrc'"},
           {"[compare\n", "tare.toml:1"}}) {
    auto c = ParseCompareConfig(text, "tare.toml");
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_NE(c.status().message().find(expect), std::string::npos) << c.status().message();
  }
}

TEST(Thresholds, TheNearestFileUpwardsIsFound) {
  const std::string root = ::testing::TempDir() + "thresholds_" + std::to_string(getpid());
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root + "/a/b/c");
  EXPECT_EQ(FindConfigFile(root + "/a/b/c").find(root), std::string::npos);  // none inside root
  std::ofstream(root + "/a/tare.toml") << "[compare]\n";
  EXPECT_EQ(FindConfigFile(root + "/a/b/c"), root + "/a/tare.toml");
  std::ofstream(root + "/a/b/tare.toml") << "[compare]\n";
  EXPECT_EQ(FindConfigFile(root + "/a/b/c"), root + "/a/b/tare.toml");
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace tare::compare
