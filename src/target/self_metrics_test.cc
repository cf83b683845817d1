// $TARE_METRICS_FILE's reader (self_metrics.h): what a program may write, and every way its file can
// be wrong, each with the message a user sees on the failed sample.
#include "target/self_metrics.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace tare::target {
namespace {

TEST(SelfMetrics, NumbersAndObjectsBecomeAppMetrics) {
  auto m = ParseSelfMetrics(
      R"({"throughput": 18234.5, "p99_ms": {"value": 3.2, "unit": "ms", "direction": "lower"},
          "rss.after_drain": {"value": 1048576, "unit": "bytes"}, "hits": {"value": 7, "direction": "higher"}})");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->size(), 4u);
  // By name: hits, p99_ms, rss.after_drain, throughput.
  EXPECT_EQ((*m)[3].name, "app.throughput");
  EXPECT_EQ((*m)[3].value, 18234.5);
  EXPECT_EQ((*m)[3].unit, "");
  EXPECT_FALSE((*m)[3].direction.has_value());
  EXPECT_EQ((*m)[1].name, "app.p99_ms");
  EXPECT_EQ((*m)[1].unit, "ms");
  EXPECT_EQ((*m)[1].direction, Direction::kLowerIsBetter);
  EXPECT_EQ((*m)[0].direction, Direction::kHigherIsBetter);

  const MetricDef p99 = SelfMetricDef((*m)[1]);
  EXPECT_EQ(p99.name, "app.p99_ms");
  EXPECT_EQ(p99.unit, "ms");
  EXPECT_EQ(p99.kind, MetricKind::kTime);
  EXPECT_EQ(p99.source, MetricSource::kApp);
  EXPECT_EQ(SelfMetricDef((*m)[2]).kind, MetricKind::kBytes);
  EXPECT_EQ(SelfMetricDef((*m)[0]).direction, Direction::kHigherIsBetter);
  // No direction given: lower is better, as for every metric whose name says nothing else.
  EXPECT_EQ(SelfMetricDef((*m)[3]).direction, Direction::kLowerIsBetter);
  EXPECT_TRUE(IsMeasured("app.throughput", TargetKind::kCommand, Instrument::kWall));
  EXPECT_TRUE(IsMeasured("app.throughput", TargetKind::kGbench, Instrument::kSim));
  EXPECT_NE(MeasuredMetricList(TargetKind::kCommand, Instrument::kWall).find("app.NAME"), std::string::npos);
}

TEST(SelfMetrics, EveryMalformedFileSaysWhatIsWrong) {
  struct Case {
    const char* text;
    const char* says;
  };
  const Case cases[] = {
      {"", "$TARE_METRICS_FILE"},
      {"{\"a\": 1", "$TARE_METRICS_FILE"},
      {"[1, 2]", "holds a JSON array, not an object of name: number"},
      {"{\"throughput\": \"12\"}", "metric \"throughput\" is a string, not a number"},
      {"{\"throughput\": null}", "metric \"throughput\" is a null, not a number"},
      {"{\"throughput\": 1e999}", "$TARE_METRICS_FILE"},
      {"{\"a b\": 1}", "metric name \"a b\" is not 1 to 64 letters"},
      {"{\"\": 1}", "metric name \"\" is not"},
      {"{\"x\\u001b[2J\": 1}", "metric name \"x\\u001b[2J\" is not"},
      {"{\"p99\": {\"unit\": \"ms\"}}", "metric \"p99\" has no \"value\""},
      {"{\"p99\": {\"value\": 1, \"units\": \"ms\"}}", "unknown key \"units\"; the keys are value, unit, direction"},
      {"{\"p99\": {\"value\": 1, \"unit\": \"milli seconds\"}}", "\"unit\" must be 1 to 16 printable characters"},
      {"{\"p99\": {\"value\": 1, \"direction\": \"up\"}}", "\"direction\" must be \"lower\" or \"higher\""},
      {"{\"p99\": {\"value\": {\"value\": 1}}}", "metric \"p99\" is a object, not a number"},
      // Issue 48, item 8: JSON keeps the last of two equal keys, so a name or a unit given twice
      // was read silently as the second.
      {"{\"throughput\": 1, \"throughput\": 2}", "metric \"throughput\" is given twice"},
      {"{\"p99\": {\"value\": 1, \"unit\": \"ms\", \"unit\": \"s\"}}", "metric \"p99\": \"unit\" is given twice"},
  };
  for (const auto& c : cases) {
    auto m = ParseSelfMetrics(c.text);
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_NE(m.status().message().find(c.says), std::string::npos) << c.text << " -> " << m.status().message();
    EXPECT_EQ(m.status().message().find('\x1b'), std::string::npos) << "control bytes stay escaped";
  }
  std::string many = "{";
  for (int i = 0; i <= 256; ++i) many += (i ? "," : "") + std::string("\"m") + std::to_string(i) + "\": 1";
  many += "}";
  auto m = ParseSelfMetrics(many);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("257 metrics; at most 256 are read"), std::string::npos) << m.status().message();
}

TEST(SelfMetrics, TheFileIsReadOnlyWhenItIsASmallRegularFile) {
  const std::string dir = ::testing::TempDir() + "self_metrics_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/metrics.json";
  auto none = ReadSelfMetrics(path);
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_FALSE(none->has_value()) << "no file: the program reported nothing, which is not an error";

  std::ofstream(path) << "{\"throughput\": 5}";
  auto one = ReadSelfMetrics(path);
  ASSERT_TRUE(one.ok() && one->has_value());
  EXPECT_EQ((**one)[0].value, 5);

  std::ofstream(path) << "{\"x\": \"" << std::string(kMaxMetricsFileBytes, 'a') << "\"}";
  auto big = ReadSelfMetrics(path);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("at most 65536 are read"), std::string::npos) << big.status().message();

  // A FIFO would block a plain open() until someone writes: refused at once.
  std::filesystem::remove(path);
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  auto fifo = ReadSelfMetrics(path);
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.status().message().find("something other than a regular file"), std::string::npos);
  // A link is not followed.
  std::filesystem::remove(path);
  std::filesystem::create_symlink("/etc/passwd", path);
  EXPECT_FALSE(ReadSelfMetrics(path).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tare::target
