// The console table of `tare run`, rendered from a fixed RunData.
#include "report/run_report.h"
#include "report/run_summary.h"

#include <gtest/gtest.h>

namespace tare::report {
namespace {

RunData HostileRun() {
  RunData data;
  data.benchmarks = {{1, "bench::BM_\x1b]0;pwned\x07x", "BM_\x1b]0;pwned\x07x", TargetKind::kGbench}};
  MetricDef counter;
  counter.name = "gb.counter.\x1b[2Jitems";
  counter.unit = "count";
  data.metrics = {counter};
  for (int i = 0; i < 3; ++i) {
    StoredSample s;
    s.benchmark_id = 1;
    s.sample.seq = i;
    s.sample.values = {{"gb.counter.\x1b[2Jitems", 10.0 + i}, {"wall_ns", 1e6}};
    data.samples.push_back(s);
  }
  StoredSample failed;
  failed.benchmark_id = 1;
  failed.sample.seq = 3;
  failed.sample.outcome = SampleOutcome::kFailed;
  failed.sample.error = "exit status 1: \x1b]0;pwned\x07\nsecond line";
  data.samples.push_back(failed);
  return data;
}

ConsoleOptions AllMetrics(bool all) {
  ConsoleOptions o;
  o.all_metrics = all;
  return o;
}

TEST(RenderConsole, NamesAndFailuresFromTheTargetCannotDriveTheTerminal) {
  // Both views: one line per benchmark (the default) and every metric (--all-metrics).
  for (bool all : {false, true}) {
    const std::string text = RenderConsole(BuildRunReport(HostileRun()), AllMetrics(all));
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    EXPECT_EQ(text.find('\x07'), std::string::npos) << text;
    EXPECT_NE(text.find("BM_\\x1b]0;pwned\\x07x"), std::string::npos) << text;
    if (all) {
      EXPECT_NE(text.find("gb.counter.\\x1b[2Jitems"), std::string::npos) << text;
    }
    // A failure is one line, whatever its text held.
    EXPECT_NE(text.find("FAILED: exit status 1: \\x1b]0;pwned\\x07\\nsecond line x1\n"), std::string::npos) << text;
  }
}

TEST(RenderConsole, PlainNamesAreUnchanged) {
  RunData data = HostileRun();
  data.benchmarks[0].uri = "bench::BM_Sort<int>/8";
  data.benchmarks[0].name = "BM_Sort<int>/8";
  const std::string text = RenderConsole(BuildRunReport(data), AllMetrics(true));
  // Named as stored, as ab, compare and history name it: no target prefix (issue 44, item 5).
  EXPECT_EQ(text.rfind("BM_Sort<int>/8\n", 0), 0u) << text;
}

// Ten samples 1..10 ms: median 5.5 ms; the 95% sign-test interval of the median at n = 10 is
// [d(2), d(9)] = [2 ms, 9 ms] (stats/sign_interval.h: coverage 97.85%).
RunData TenSamples(int n) {
  RunData data;
  data.benchmarks = {{1, "sh::sleep 0.01", "sleep 0.01", TargetKind::kCommand},
                     {2, "sh::false", "false", TargetKind::kCommand}};
  data.metrics = {{"wall_ns", "ns", Direction::kLowerIsBetter, MetricKind::kTime, ""},
                  {"peak_rss_bytes", "bytes", Direction::kLowerIsBetter, MetricKind::kBytes, ""}};
  for (int i = 1; i <= n; ++i) {
    StoredSample s;
    s.benchmark_id = 1;
    s.sample.values = {{"wall_ns", i * 1e6}, {"peak_rss_bytes", 4096.0 * 1024}};
    data.samples.push_back(s);
    StoredSample f;
    f.benchmark_id = 2;
    f.sample.outcome = SampleOutcome::kFailed;
    f.sample.error = "exit status 1";
    data.samples.push_back(f);
  }
  return data;
}

// The default: a header and one line per benchmark (its failures under it), the primary metric
// only; --all-metrics and --metrics bring back the block per benchmark.
TEST(RenderConsole, OneLinePerBenchmarkByDefault) {
  const std::string text = RenderConsole(BuildRunReport(TenSamples(10)), {});
  EXPECT_EQ(text,
            "benchmark    n  median  95% interval of the median  metric\n"
            "sleep 0.01  10  5.5 ms  [2 ms, 9 ms]                wall_ns\n"
            "false        0       -  no successful samples\n"
            "  FAILED: exit status 1 x10\n")
      << text;
  EXPECT_EQ(text.find("peak_rss_bytes"), std::string::npos) << text;
  const std::string all = RenderConsole(BuildRunReport(TenSamples(10)), AllMetrics(true));
  EXPECT_NE(all.find("  peak_rss_bytes  10"), std::string::npos) << all;
  EXPECT_NE(all.find("  wall_ns         10"), std::string::npos) << all;
  const std::string named = RenderConsole(BuildRunReport(TenSamples(10)), {.metrics = {"peak_rss_bytes"}});
  EXPECT_NE(named.find("  peak_rss_bytes  10"), std::string::npos) << named;
}

// Below 6 samples the sign test gives no 95% interval; the line says so and shows the MAD:
// 1, 2, 3 ms has median 2 ms and MAD 1 ms.
TEST(RenderConsole, FewSamplesShowTheMad) {
  const std::string text = RenderConsole(BuildRunReport(TenSamples(3)), {});
  EXPECT_NE(text.find("sleep 0.01  3    2 ms  MAD 1 ms (n < 6: no interval)  wall_ns\n"), std::string::npos) << text;
}

// A metric name longer than any default column, and a rate in GiB/s: every row of the table keeps
// its columns where the header has them (right-aligned numbers end under their heading).
TEST(RenderConsole, ColumnsAreSizedToTheirContent) {
  RunData data;
  data.benchmarks = {{1, "bench::BM_Copy", "BM_Copy", TargetKind::kGbench}};
  data.metrics = {{"gb.counter.a_rather_long_counter_name_per_second", "bytes/s", Direction::kHigherIsBetter,
                   MetricKind::kCount, ""}};
  for (int i = 0; i < 3; ++i) {
    StoredSample s;
    s.benchmark_id = 1;
    s.sample.values = {{"gb.counter.a_rather_long_counter_name_per_second", 6.5e9 + i * 1e8}, {"wall_ns", 1e6 + i}};
    data.samples.push_back(s);
  }
  const std::string text =
      RenderConsole(BuildRunReport(data), {.metrics = {"wall_ns", "gb.counter.a_rather_long_counter_name_per_second"}});
  std::vector<std::string> lines;
  for (size_t i = 0, nl; (nl = text.find('\n', i)) != std::string::npos; i = nl + 1)
    lines.push_back(text.substr(i, nl - i));
  ASSERT_EQ(lines.size(), 4u) << text;
  const size_t median_end = lines[1].find("median") + 6, max_end = lines[1].size();
  for (size_t i = 2; i < 4; ++i) {
    EXPECT_EQ(lines[i].size(), max_end) << text;
    EXPECT_EQ(lines[i][median_end], ' ') << text;
    EXPECT_NE(lines[i][median_end - 1], ' ') << text;
  }
  EXPECT_NE(text.find(" 6.15 GiB/s "), std::string::npos) << "6.6e9 bytes/s is shown as a rate: " << text;
}

// Stored JSON columns go into the document as their values (base/json_read.h, EmbedJson): empty is
// the documented default, and a column that is not JSON is kept as a string of its text — never
// null and never nlohmann's "<discarded>".
TEST(RunToJson, StoredJsonColumnsAreEmbeddedAndMalformedOnesKeptAsText) {
  RunData data;
  data.run.options_json = R"({"samples": 3})";
  data.run.fingerprint_json = "";
  data.executables = {{"base", "/bin/x", "aa", R"({"is_elf": tru)"}};
  const nlohmann::json j = RunToJson(data);
  EXPECT_EQ(j["run"]["options"], nlohmann::json::parse(R"({"samples": 3})"));
  EXPECT_EQ(j["fingerprint"], nlohmann::json::object());
  EXPECT_EQ(j["executables"][0]["info"], nlohmann::json(R"({"is_elf": tru)"));

  data.run.options_json = "{samples";
  EXPECT_EQ(RunToJson(data)["run"]["options"], nlohmann::json("{samples"));
}

// Google Benchmark prints "Time" and "CPU" side by side; tare ab judges the CPU time: the default
// line shows its median beside the real time's (issue 44, item 5). Real 100..105 ns (median 102.5,
// shown to 3 figures), CPU 80..85 ns (median 82.5); a command's line has no such column.
TEST(RenderConsole, CpuTimeBesideRealTimeAsGoogleBenchmarkPrintsThem) {
  RunData data;
  data.benchmarks = {{1, "b::BM_Copy", "BM_Copy", TargetKind::kGbench}};
  data.metrics = {{"gb.real_time_ns", "ns", Direction::kLowerIsBetter, MetricKind::kTime, ""},
                  {"gb.cpu_time_ns", "ns", Direction::kLowerIsBetter, MetricKind::kTime, ""}};
  for (int i = 0; i < 6; ++i) {
    StoredSample s;
    s.benchmark_id = 1;
    s.sample.values = {{"gb.real_time_ns", 100.0 + i}, {"gb.cpu_time_ns", 80.0 + i}};
    data.samples.push_back(s);
  }
  const std::string text = RenderConsole(BuildRunReport(data), {});
  EXPECT_EQ(text,
            "benchmark  n  median  95% interval of the median  cpu median  metrics\n"
            "BM_Copy    6  102 ns  [100 ns, 105 ns]               82.5 ns  gb.real_time_ns, gb.cpu_time_ns\n")
      << text;
  EXPECT_EQ(RenderConsole(BuildRunReport(TenSamples(10)), {}).find("cpu median"), std::string::npos);
}

// Issue 45, item 6: "`./zb.sh 2` is fastest" then "`./zb.sh 1` is 1.00 × faster than `./zb.sh 2`".
// A paired ratio under 1 inside the noise reads "as fast"; beyond it, the disagreement is said.
TEST(RenderRelative, NeverCallsTheFastestSlowerThanAnother) {
  RelativeSummary s;
  s.fastest = "a";
  s.fastest_median = 1e6;
  RelativeSpeed tie{"b", 0.998, 0.99, 1.01, 0.95, 10, ""};
  RelativeSpeed odd{"c", 0.95, 0.93, 0.97, 0.95, 10, ""};
  RelativeSpeed slow{"d", 1.98, 1.97, 1.99, 0.95, 10, ""};
  s.others = {tie, odd, slow};
  const std::string text = RenderRelative(s, false);
  EXPECT_NE(text.find("  `a` is fastest (median 1 ms)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  `b` is as fast as `a`: 1.00 × within the noise (95%: 0.99–1.01, 10 pairs)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  `c` is 1.05 × faster than `a` by its paired samples, though its median is higher (95%: "
                      "0.93–0.97, 10 pairs)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  `d` is 1.98 × slower than `a` (95%: 1.97–1.99, 10 pairs)\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace tare::report
