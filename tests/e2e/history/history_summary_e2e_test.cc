// `tare history` reads a finished run's summary (schema version 6, docs/store.md) instead of its
// samples. This proves the two answer alike, byte for byte: a store written through tare's Store
// API — failed samples, a run whose every sample failed, warm-ups, several metrics (one missing
// from some samples), two branches, two hosts, an interrupted run, a run left running (no summary
// ever), a benchmark name twice in one run, a campaign run — is read by the real `tare history`
// (console and JSON; --metric, --branch, --limit, --host, --min-segment); then the summaries are
// deleted from the SQLite file, so every run is read from its samples, and the same commands must
// print the same bytes. Each run's median is also checked against stats::Median of its values as
// LoadRun reads them: the rule `tare history` applied before summaries existed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "../tare_process.h"
#include "stats/summary.h"
#include "store/store.h"

namespace {

namespace fs = std::filesystem;
using tare::e2e::Result;

class HistorySummaryE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "history_summary_e2e_" + std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    store_ = dir_ + "/tare.db";
  }
  void TearDown() override { fs::remove_all(dir_); }
  Result Tare(std::vector<std::string> args) {
    args.push_back("--store");
    args.push_back(store_);
    return tare::e2e::RunTare(TARE_BIN, dir_, std::move(args));
  }
  int64_t SummaryRows() {
    SQLite::Database db(store_, SQLite::OPEN_READONLY);
    return db.execAndGet("SELECT (SELECT count(*) FROM run_summaries) + (SELECT count(*) FROM run_summary_metrics)")
        .getInt64();
  }

  std::string dir_;
  std::string store_;
};

// One run: `samples` measured samples of BM_T (and 2 warm-ups), values drawn around `level`.
struct RunShape {
  std::string branch = "main";
  std::string host = "h1";
  tare::RunKind kind = tare::RunKind::kRun;
  double level = 1000;
  int samples = 9;
  int failed = 0;                                       // of the samples, failed (no values)
  int without_gb = 0;                                   // of the successful ones, without gb.real_time_ns
  bool twice = false;                                   // a second target with a benchmark of the same name
  tare::RunStatus status = tare::RunStatus::kComplete;  // kRunning: never finished
};

TEST_F(HistorySummaryE2E, SummariesPrintWhatTheSamplesPrint) {
  std::vector<RunShape> shapes;
  for (int i = 0; i < 18; ++i) {
    RunShape s;
    s.level = i < 9 ? 1000 : 1120;  // a change point at the 10th run
    s.samples = 6 + i % 5;          // odd and even counts
    if (i % 4 == 1) s.branch = "feat";
    if (i == 3) s.failed = s.samples;  // every sample failed
    if (i == 5 || i == 11) s.failed = 2;
    if (i == 7) s.without_gb = 3;
    if (i == 8) s.status = tare::RunStatus::kInterrupted;
    if (i == 10) s.twice = true;
    if (i == 12) s.kind = tare::RunKind::kAb;  // campaigns are not history
    if (i == 13 || i == 14) s.host = "h2";
    if (i == 16) s.level = 2500;                        // an outlier
    if (i == 17) s.status = tare::RunStatus::kRunning;  // killed: no summary
    shapes.push_back(s);
  }
  {
    auto store = tare::store::Store::Open(store_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 0.02);
    for (size_t i = 0; i < shapes.size(); ++i) {
      const RunShape& s = shapes[i];
      tare::RunRecord rec;
      rec.kind = s.kind;
      rec.started_unix_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(i) * 3'600'000'000'000;
      rec.tare_version = "test";
      rec.fingerprint_digest = s.host;
      rec.provenance.branch = s.branch;
      rec.provenance.commit = fmt::format("{:040x}", i + 1);
      auto run = (*store)->BeginRun(rec);
      ASSERT_TRUE(run.ok()) << run.status().message();
      for (int target = 0; target < (s.twice ? 2 : 1); ++target) {
        auto bench =
            (*store)->AddBenchmark(*run, {0, fmt::format("t{}::BM_T", target), "BM_T", tare::TargetKind::kGbench});
        ASSERT_TRUE(bench.ok());
        auto other = (*store)->AddBenchmark(
            *run, {0, fmt::format("t{}::BM_Other", target), "BM_Other", tare::TargetKind::kGbench});
        ASSERT_TRUE(other.ok());
        int seq = 0;
        for (int k = 0; k < s.samples + 2; ++k) {
          tare::Sample x;
          x.seq = seq++;
          x.warmup = k < 2;
          const double v = s.level * (target + 1) * (1 + noise(rng));
          x.values = {{"gb.real_time_ns", v}, {"wall_ns", 3 * v + 17}, {"peak_rss_bytes", std::round(v * 1000)}};
          const int measured = k - 2;
          if (measured >= 0 && measured < s.failed) {
            x.outcome = tare::SampleOutcome::kFailed;
            x.values.clear();
          } else if (measured >= s.failed && measured < s.failed + s.without_gb) {
            x.values.erase("gb.real_time_ns");
          }
          ASSERT_TRUE((*store)->AppendSample(*run, *bench, x).ok());
          x.values = {{"gb.real_time_ns", 5.0}};
          ASSERT_TRUE((*store)->AppendSample(*run, *other, x).ok());
        }
      }
      if (s.status != tare::RunStatus::kRunning) {
        ASSERT_TRUE((*store)->FinishRun(*run, s.status, rec.started_unix_ns + 1).ok());
      }
    }
  }
  ASSERT_GT(SummaryRows(), 0);  // else the comparison below would compare the samples with themselves

  const std::vector<std::vector<std::string>> commands = {
      {"history", "BM_T"},
      {"history", "BM_T", "--format", "json"},
      {"history", "BM_T", "--metric", "wall_ns", "--min-segment", "3"},
      {"history", "BM_T", "--metric", "wall_ns", "--format", "json"},
      {"history", "BM_T", "--metric", "peak_rss_bytes", "--branch", "main", "--format", "json"},
      {"history", "BM_T", "--branch", "feat", "--min-segment", "2"},
      {"history", "BM_T", "--limit", "6", "--min-segment", "2"},
      {"history", "BM_T", "--limit", "6", "--format", "json"},
      {"history", "BM_T", "--host", "h2", "--format", "json"},
  };
  std::vector<Result> from_summaries;
  for (const auto& c : commands) {
    from_summaries.push_back(Tare(c));
    ASSERT_EQ(from_summaries.back().exit_code, 0) << fmt::format("{}", fmt::join(c, " ")) << "\n"
                                                  << from_summaries.back().err;
  }
  // The shapes show: a change point, the every-sample-failed run (n 0, "-"), failed counts, the
  // outlier, and the run left running (the newest).
  EXPECT_NE(from_summaries[0].out.find("1 change point"), std::string::npos) << from_summaries[0].out;
  EXPECT_NE(from_summaries[0].out.find("2 failed"), std::string::npos) << from_summaries[0].out;
  EXPECT_NE(from_summaries[0].out.find("outlier"), std::string::npos) << from_summaries[0].out;
  EXPECT_NE(from_summaries[0].out.find("(2 runs on other hosts"), std::string::npos) << from_summaries[0].out;

  // Each point's median is stats::Median of the run's values (the first BM_T of the run), n and
  // failed are counted from the samples as LoadRun reads them.
  {
    auto store = tare::store::Store::OpenForReading(store_);
    ASSERT_TRUE(store.ok());
    for (size_t c : {1, 3, 4}) {
      const auto doc = nlohmann::json::parse(from_summaries[c].out);
      const std::string metric = doc["metric"];
      ASSERT_FALSE(doc["runs"].empty());
      for (const auto& row : doc["runs"]) {
        auto data = (*store)->LoadRun(row["id"].get<int64_t>());
        ASSERT_TRUE(data.ok());
        int64_t bench = INT64_MAX;
        for (const auto& b : data->benchmarks) {
          if (b.name == "BM_T") bench = std::min(bench, b.id);
        }
        std::vector<double> values;
        int64_t failed = 0;
        for (const auto& s : data->samples) {
          if (s.benchmark_id != bench || s.sample.warmup) continue;
          if (s.sample.outcome != tare::SampleOutcome::kOk) {
            ++failed;
          } else if (auto it = s.sample.values.find(metric); it != s.sample.values.end()) {
            values.push_back(it->second);
          }
        }
        EXPECT_EQ(row["n"].get<int64_t>(), static_cast<int64_t>(values.size())) << metric << " run " << row["id"];
        EXPECT_EQ(row["failed"].get<int64_t>(), failed) << metric << " run " << row["id"];
        if (values.empty()) {
          EXPECT_TRUE(row["median"].is_null());
        } else {
          EXPECT_EQ(row["median"].get<double>(), tare::stats::Median(values)) << metric << " run " << row["id"];
        }
      }
    }
  }

  {
    SQLite::Database db(store_, SQLite::OPEN_READWRITE);
    db.exec("DELETE FROM run_summary_metrics; DELETE FROM run_summaries");
  }
  ASSERT_EQ(SummaryRows(), 0);
  for (size_t i = 0; i < commands.size(); ++i) {
    Result from_samples = Tare(commands[i]);
    EXPECT_EQ(from_samples.exit_code, 0) << from_samples.err;
    EXPECT_EQ(from_samples.out, from_summaries[i].out) << fmt::format("{}", fmt::join(commands[i], " "));
    EXPECT_EQ(from_samples.err, from_summaries[i].err);
  }
}

// Issue 45, item 2: a stored series of 40 runs that wobble by about ±1% from one to the next (the
// host's drift) has a 3.5% step at the 21st run (BM_Drift): the detector scores it 6.7, above its
// threshold of 5, but the step lies within the series' own run-to-run drift (±4.94%), so `tare
// history` reports no change point and names the level shift and the drift. The same runs' BM_Real
// falls 30% there: a change point. Before the drift guard both had one.
TEST_F(HistorySummaryE2E, AStepWithinTheSeriesDriftIsNoChangePoint) {
  {
    auto store = tare::store::Store::Open(store_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    for (int i = 0; i < 40; ++i) {
      tare::RunRecord rec;
      rec.kind = tare::RunKind::kRun;
      rec.started_unix_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(i) * 3'600'000'000'000;
      rec.tare_version = "test";
      rec.fingerprint_digest = "h1";
      rec.provenance.branch = "main";
      rec.provenance.commit = fmt::format("{:040x}", i + 1);
      auto run = (*store)->BeginRun(rec);
      ASSERT_TRUE(run.ok()) << run.status().message();
      const double wobble = 1 + 0.01 * std::sin(i * 2.4);
      for (const auto& [name, step] : {std::pair<const char*, double>{"BM_Drift", -0.035}, {"BM_Real", -0.30}}) {
        auto bench = (*store)->AddBenchmark(*run, {0, std::string("t::") + name, name, tare::TargetKind::kGbench});
        ASSERT_TRUE(bench.ok());
        tare::Sample x;
        x.values = {{"gb.real_time_ns", (i < 20 ? 1000 : 1000 * (1 + step)) * wobble}};
        ASSERT_TRUE((*store)->AppendSample(*run, *bench, x).ok());
      }
      ASSERT_TRUE((*store)->FinishRun(*run, tare::RunStatus::kComplete, rec.started_unix_ns + 1).ok());
    }
  }
  Result drift = Tare({"history", "BM_Drift", "--format", "json"});
  ASSERT_EQ(drift.exit_code, 0) << drift.err;
  const auto doc = nlohmann::json::parse(drift.out);
  EXPECT_TRUE(doc["change_points"].empty()) << drift.out;
  ASSERT_EQ(doc["within_drift"].size(), 1u) << drift.out;
  EXPECT_EQ(doc["within_drift"][0]["after"]["id"], 21);
  EXPECT_GT(doc["within_drift"][0]["score"].get<double>(), 5) << "the detector found it";
  EXPECT_NEAR(doc["drift"]["bound"].get<double>(), 0.0494, 0.0001);
  Result console = Tare({"history", "BM_Drift"});
  EXPECT_NE(console.out.find("40 runs, 0 change points"), std::string::npos) << console.out;
  EXPECT_NE(console.out.find("level shift between run 20 and run 21"), std::string::npos) << console.out;
  EXPECT_NE(console.out.find("host drift ±4.94%"), std::string::npos) << console.out;

  Result real = Tare({"history", "BM_Real"});
  ASSERT_EQ(real.exit_code, 0) << real.err;
  EXPECT_NE(real.out.find("40 runs, 1 change point"), std::string::npos) << real.out;
  EXPECT_NE(real.out.find("change point between run 20"), std::string::npos) << real.out;
  EXPECT_NE(real.out.find("(median shift / its standard error)"), std::string::npos) << real.out;

  // The site's index holds the same guard: BM_Real's last change point, BM_Drift's step named as
  // within the drift, not a change point.
  Result site = Tare({"site", "-o", dir_ + "/site"});
  ASSERT_EQ(site.exit_code, 0) << site.err;
  const std::string index = tare::e2e::Slurp(dir_ + "/site/index.html");
  EXPECT_NE(index.find("-30."), std::string::npos) << index;
  EXPECT_NE(index.find("is within the host&#39;s drift, ±4.94%"), std::string::npos) << index;
}

}  // namespace
