#include "compare/history.h"

#include <cmath>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "stats/summary.h"

namespace tare::compare {
namespace {

HistoryInput MakeRun(int64_t id, std::vector<double> values, int64_t failed = 0) {
  HistoryInput in;
  in.run.id = id;
  in.run.started_unix_ns = 1'700'000'000'000'000'000 + id * 60'000'000'000;
  in.run.provenance.commit = fmt::format("{:040x}", id);
  in.run.provenance.branch = "main";
  in.n = static_cast<int64_t>(values.size());
  in.median = stats::Median(values);
  in.failed = failed;
  return in;
}

// 12 runs near 100 (a fixed, small wobble), then 12 near 110: one change point at the 13th run,
// +10%; a wild run at 200 in the first level is an outlier, not a level; a run whose samples all
// failed is shown and skipped by the detector.
TEST(History, FindsTheStepItsCommitsAndTheOutlier) {
  const double wobble[] = {0.0, 0.3, -0.2, 0.1, -0.3, 0.2, 0.0, -0.1, 0.3, -0.2, 0.1, -0.1};
  std::vector<HistoryInput> in;
  int64_t id = 1;
  for (int i = 0; i < 12; ++i) in.push_back(MakeRun(id++, {100 + wobble[i], 100 + wobble[i] + 0.1, 100 + wobble[i] - 0.1}));
  in.insert(in.begin() + 5, MakeRun(id++, {200, 201, 199}));
  in.insert(in.begin() + 7, MakeRun(id++, {}, 3));
  for (int i = 0; i < 12; ++i) in.push_back(MakeRun(id++, {110 + wobble[i], 110 + wobble[i] + 0.1, 110 + wobble[i] - 0.1}));
  History h = BuildHistory(in, {});
  ASSERT_EQ(h.rows.size(), 26u);
  ASSERT_EQ(h.steps.size(), 1u);
  const HistoryStep& s = h.steps[0];
  EXPECT_EQ(s.index, 14);  // 12 + the outlier + the failed run
  EXPECT_EQ(s.before.id, h.rows[13].run.id);
  EXPECT_EQ(s.after.id, h.rows[14].run.id);
  EXPECT_NEAR(s.change, 0.10, 0.005);
  EXPECT_GT(s.lo, 0.05);
  EXPECT_LT(s.hi, 0.15);
  EXPECT_TRUE(h.rows[5].outlier);
  EXPECT_EQ(h.rows[5].median, 200);
  EXPECT_TRUE(std::isnan(h.rows[7].median));
  EXPECT_EQ(h.rows[7].failed, 3);
  int outliers = 0;
  for (const auto& r : h.rows) outliers += r.outlier ? 1 : 0;
  EXPECT_EQ(outliers, 1);
  h.benchmark = "BM_X";
  h.metric = "wall_ns";
  h.unit = "ns";
  h.host = "abcdef0123456789";
  const std::string text = RenderHistoryConsole(h);
  EXPECT_NE(text.find("1 change point"), std::string::npos) << text;
  EXPECT_NE(text.find("<- change point: +10."), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("git log {}..{}", s.before.provenance.commit.substr(0, 12),
                                  s.after.provenance.commit.substr(0, 12))),
            std::string::npos);
  auto j = HistoryToJson(h);
  EXPECT_EQ(j["schema"], "tare.history/1");
  EXPECT_EQ(j["change_points"].size(), 1u);
  EXPECT_EQ(j["runs"][7]["median"], nullptr);
}

TEST(History, NoiseAloneHasNoChangePoint) {
  std::vector<HistoryInput> in;
  const double wobble[] = {0.0, 0.3, -0.2, 0.1, -0.3, 0.2, 0.0, -0.1, 0.3, -0.2};
  for (int i = 0; i < 30; ++i) in.push_back(MakeRun(i + 1, {100 + wobble[i % 10]}));
  History h = BuildHistory(in, {});
  EXPECT_TRUE(h.steps.empty());
  // Too short for any change point: no error, no step.
  History tiny = BuildHistory({MakeRun(1, {1}), MakeRun(2, {2})}, {});
  EXPECT_TRUE(tiny.steps.empty());
  EXPECT_EQ(tiny.rows.size(), 2u);
}

}  // namespace
}  // namespace tare::compare
