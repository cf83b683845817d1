#include "bundle/spread.h"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "compare/stored_history.h"
#include "model/metric.h"

namespace tare::bundle {
namespace {

// Issue 23, item 5: runs of one executable whose cycle estimates two models computed (a newer
// tare's model beside the old one) — written through the Store interface as each tare would have.
class ModelsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "spread_models_" + std::to_string(getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);  // a store is created only in a directory that exists
    auto s = store::Store::Open(dir_ + "/tare.db");
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(*s);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A run of /x/bench (sha256 of `sha_digit`s) on host "h", begun; its record in `r`.
  StatusOr<int64_t> BeginTestRun(char sha_digit, RunRecord& r) {
    r.kind = RunKind::kRun;
    r.started_unix_ns = 1'700'000'000'000'000'000 + ++clock_;
    r.tare_version = "test";
    r.command_line = {"tare", "run"};
    r.options_json = "{}";
    r.fingerprint_json = R"({"keys":[]})";
    r.fingerprint_digest = "h";
    auto id = store_->BeginRun(r);
    if (!id.ok()) return id.status();
    TARE_RETURN_IF_ERROR(store_->AddExecutable(*id, {"target", "/x/bench", std::string(64, sha_digit), "{}"}));
    return id;
  }

  void AddRun(const std::string& model, double cycles) {
    RunRecord r;
    auto id = BeginTestRun('a', r);
    ASSERT_TRUE(id.ok()) << id.status().message();
    auto bench = store_->AddBenchmark(*id, {0, "t::BM_x", "BM_x", TargetKind::kGbench});
    MetricDef def = LookupMetric("sim.est_cycles");
    def.description = "estimated cycles, model " + model + ": as that tare computed them";
    def.model = model;
    ASSERT_TRUE(store_->AddMetric(*id, def).ok());
    for (int i = 0; i < 2; ++i) {
      Sample s;
      s.seq = i;
      s.values = {{"sim.est_cycles", cycles}};
      ASSERT_TRUE(store_->AppendSample(*id, *bench, s).ok());
    }
    ASSERT_TRUE(store_->FinishRun(*id, RunStatus::kComplete, r.started_unix_ns + 1).ok());
  }

  // A run of the same executable that measured BM_x's wall time as `values`.
  void AddTimedRun(const std::vector<double>& values) {
    RunRecord r;
    auto id = BeginTestRun('b', r);
    ASSERT_TRUE(id.ok()) << id.status().message();
    auto bench = store_->AddBenchmark(*id, {0, "t::BM_x", "BM_x", TargetKind::kGbench});
    ASSERT_TRUE(store_->AddMetric(*id, LookupMetric("wall_ns")).ok());
    for (size_t i = 0; i < values.size(); ++i) {
      Sample s;
      s.seq = static_cast<int64_t>(i);
      s.values = {{"wall_ns", values[i]}};
      ASSERT_TRUE(store_->AppendSample(*id, *bench, s).ok());
    }
    ASSERT_TRUE(store_->FinishRun(*id, RunStatus::kComplete, r.started_unix_ns + 1).ok());
  }

  std::string dir_;
  std::unique_ptr<store::Store> store_;
  int64_t clock_ = 0;
};

// Issue 45, item 4: three reruns of one executable whose samples range widely (a slow first
// sample, a fast one) while their medians agree within 2.2%: the spread is the run-level figure's,
// the samples' range is shown beside it, named so. Before, the spread printed was the samples'
// range, 195%. By hand: medians 100.25, 101.25, 102.5 -> (102.5 - 100.25) / 100.25 = 2.2444%;
// samples 60 .. 177 -> (177 - 60) / 60 = 195%.
TEST_F(ModelsTest, TheSpreadIsOfTheRunsMediansNotTheSamplesRange) {
  AddTimedRun({80, 100, 100.5, 177});
  AddTimedRun({60, 101, 101.5, 150});
  AddTimedRun({90, 102, 103, 120});
  auto spread = ComputeSpread(*store_, {std::string(12, 'b'), "", {"wall_ns"}});
  ASSERT_TRUE(spread.ok()) << spread.status().ToString();
  ASSERT_EQ(spread->rows.size(), 1u);
  const SpreadRow& row = spread->rows[0];
  EXPECT_EQ(row.runs, 3);
  EXPECT_EQ(row.samples, 12);
  EXPECT_DOUBLE_EQ(row.run_min, 100.25);
  EXPECT_DOUBLE_EQ(row.run_max, 102.5);
  EXPECT_NEAR(row.spread_pct, 100 * (102.5 - 100.25) / 100.25, 1e-12);
  EXPECT_NEAR(row.sample_range_pct, 195.0, 1e-12);
  const std::string text = RenderSpread(*spread);
  EXPECT_NE(text.find("2.244%"), std::string::npos) << text;
  EXPECT_NE(text.find("195.000%"), std::string::npos) << text;
  EXPECT_NE(text.find("sample range"), std::string::npos) << text;
  EXPECT_NE(text.find("spread: of the runs' medians"), std::string::npos) << text;
  const auto j = SpreadToJson(*spread);
  EXPECT_EQ(j["schema"], "tare.spread/2");
  EXPECT_NEAR(j["rows"][0]["spread_pct"].get<double>(), 2.2444, 1e-4);
  EXPECT_NEAR(j["rows"][0]["sample_range_pct"].get<double>(), 195.0, 1e-9);
  EXPECT_EQ(j["rows"][0]["run_median_min"], 100.25);
}

TEST_F(ModelsTest, EstimatesOfTwoModelsNeverShareARowOrASeries) {
  for (int i = 0; i < 3; ++i) AddRun("iai-v1", 1000);
  for (int i = 0; i < 2; ++i) AddRun("iai-v2", 1300);

  // spread: one row per model, each identical across its own runs.
  auto spread = ComputeSpread(*store_, {std::string(12, 'a'), "", {"sim.est_cycles"}});
  ASSERT_TRUE(spread.ok()) << spread.status().ToString();
  ASSERT_EQ(spread->rows.size(), 2u);
  for (const auto& row : spread->rows) {
    EXPECT_EQ(row.spread_pct, 0.0) << row.model;
    EXPECT_EQ(row.runs, row.model == "iai-v1" ? 3 : 2);
  }
  EXPECT_NE(RenderSpread(*spread).find("BM_x (iai-v2)"), std::string::npos) << RenderSpread(*spread);

  // history: the newest run's model only, the others counted.
  compare::HistoryRequest q;
  q.benchmark = "BM_x";
  q.metric = "sim.est_cycles";
  auto h = compare::LoadHistory(*store_, q);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->model, "iai-v2");
  EXPECT_EQ(h->rows.size(), 2u);
  EXPECT_EQ(h->other_model_runs, 3);
  EXPECT_TRUE(h->steps.empty()) << "no step between the models: they are not one series";
  EXPECT_NE(compare::RenderHistoryConsole(*h).find("3 runs whose sim.est_cycles another model computed not shown"),
            std::string::npos);
}

}  // namespace
}  // namespace tare::bundle
