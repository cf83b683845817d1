// hyperfine's JSON layout from a fixed run: the fields hyperfine 1.15 writes (`hyperfine --runs 3
// --export-json f.json 'sleep 0.01'`), in seconds.
#include "report/hyperfine_json.h"

#include <gtest/gtest.h>

namespace tare::report {
namespace {

// wall 10, 20, 30 ms: mean = median = 0.02 s, sample stddev = 0.01 s; user 1, 2, 3 ms (mean
// 0.002 s), sys 0 ms. A warm-up and a failed sample count in none of it.
TEST(RunToHyperfineJson, HasHyperfinesFieldsInSeconds) {
  RunData data;
  data.benchmarks = {{1, "sh::sleep 0.01", "sleep 0.01", TargetKind::kCommand},
                     {2, "gb::BM_Never", "BM_Never", TargetKind::kGbench}};
  auto add = [&](int64_t bench, double wall_ms, bool warmup, SampleOutcome outcome) {
    StoredSample s;
    s.benchmark_id = bench;
    s.sample.warmup = warmup;
    s.sample.outcome = outcome;
    s.sample.exit_code = outcome == SampleOutcome::kOk ? 0 : 1;
    s.sample.values = {{"wall_ns", wall_ms * 1e6}, {"user_ns", wall_ms * 1e5}, {"sys_ns", 0}};
    data.samples.push_back(s);
  };
  add(1, 99, true, SampleOutcome::kOk);
  add(1, 10, false, SampleOutcome::kOk);
  add(1, 30, false, SampleOutcome::kOk);
  add(1, 77, false, SampleOutcome::kFailed);
  add(1, 20, false, SampleOutcome::kOk);
  add(2, 5, false, SampleOutcome::kFailed);
  const nlohmann::ordered_json j = RunToHyperfineJson(data);
  ASSERT_EQ(j.size(), 1u) << j.dump(2);
  ASSERT_EQ(j.at("results").size(), 2u) << j.dump(2);
  const nlohmann::ordered_json& r = j["results"][0];
  std::vector<std::string> keys;
  for (const auto& [k, v] : r.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"command", "mean", "stddev", "median", "user", "system", "min", "max",
                                            "times", "exit_codes"}))
      << "hyperfine's fields, in its order";
  EXPECT_EQ(r["command"], "sleep 0.01");
  EXPECT_DOUBLE_EQ(r["mean"].get<double>(), 0.02);
  EXPECT_DOUBLE_EQ(r["median"].get<double>(), 0.02);
  EXPECT_NEAR(r["stddev"].get<double>(), 0.01, 1e-15);
  EXPECT_DOUBLE_EQ(r["min"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(r["max"].get<double>(), 0.03);
  EXPECT_NEAR(r["user"].get<double>(), 0.002, 1e-15);
  EXPECT_DOUBLE_EQ(r["system"].get<double>(), 0.0);
  ASSERT_EQ(r["times"].size(), 3u);
  EXPECT_DOUBLE_EQ(r["times"][0].get<double>(), 0.01);  // in the order measured
  EXPECT_DOUBLE_EQ(r["times"][1].get<double>(), 0.03);
  EXPECT_EQ(r["exit_codes"], nlohmann::ordered_json::array({0, 0, 0}));
  // No successful sample: hyperfine's fields are there, empty or null.
  const nlohmann::ordered_json& never = j["results"][1];
  EXPECT_EQ(never["command"], "gb::BM_Never") << "not a command: named by its uri";
  EXPECT_TRUE(never["times"].empty());
  EXPECT_TRUE(never["mean"].is_null());
}

}  // namespace
}  // namespace tare::report
