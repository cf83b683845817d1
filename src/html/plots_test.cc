#include "base/numbers.h"
#include "html/plots.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <regex>

namespace tare::html {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Every attribute value that should be a number is a plain decimal: no nan, inf or exponent.
void ExpectOnlyNumbers(const std::string& svg) {
  EXPECT_EQ(svg.find("nan"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("inf"), std::string::npos) << svg;
  static const std::regex number_attr(R"re(\b(x|y|x1|x2|y1|y2|cx|cy|r|width|height)="([^"]*)")re");
  static const std::regex decimal(R"re(-?[0-9]+(\.[0-9]+)?)re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), number_attr); it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(std::regex_match((*it)[2].str(), decimal)) << (*it)[0].str();
  }
}

PlotPoint Point(double x, double y, int series = 0) {
  PlotPoint p;
  p.x = x;
  p.y = y;
  p.series = series;
  p.tooltip = "sample";
  return p;
}

TEST(SamplePlot, NoPointsOnePointAndConstantValuesDraw) {
  SamplePlotSpec empty{"wall_ns", "ns", {"samples"}, {}};
  const std::string e = SamplePlot(empty);
  ExpectOnlyNumbers(e);
  EXPECT_NE(e.find("no measured value"), std::string::npos);

  SamplePlotSpec one{"wall_ns", "ns", {"samples"}, {Point(0, 1500)}};
  const std::string o = SamplePlot(one);
  ExpectOnlyNumbers(o);
  EXPECT_EQ(Count(o, "class=\"pt s0\""), 1u);
  EXPECT_EQ(Count(o, "class=\"median s0\""), 1u);

  SamplePlotSpec constant{"sim.Ir", "count", {"base", "head"}, {}};
  for (int i = 0; i < 6; ++i) constant.points.push_back(Point(i, 13728836, i % 2));
  const std::string c = SamplePlot(constant);
  ExpectOnlyNumbers(c);
  EXPECT_EQ(Count(c, "class=\"pt strip s0\""), 3u);
  EXPECT_EQ(Count(c, "class=\"pt strip s1\""), 3u);
  EXPECT_NE(c.find("13,728,836"), std::string::npos) << "the value is a tick: " << c;
}

TEST(SamplePlot, WarmupsAreHollowAndFailuresAreMarkedWithTheirReason) {
  SamplePlotSpec spec{"wall_ns", "ns", {"samples"}, {}};
  PlotPoint warm = Point(0, 2e6);
  warm.warmup = true;
  spec.points.push_back(warm);
  spec.points.push_back(Point(1, 1e6));
  PlotPoint failed = Point(2, std::numeric_limits<double>::quiet_NaN());
  failed.failed = true;
  failed.tooltip = "sample 2: failed: exit status 3 <oops>";
  spec.points.push_back(failed);
  spec.points.push_back(Point(3, 1.1e6));
  const std::string svg = SamplePlot(spec);
  ExpectOnlyNumbers(svg);
  EXPECT_EQ(Count(svg, "class=\"pt warm s0\""), 2u) << "the sample and its legend entry";
  EXPECT_NE(svg.find("<title>sample 2: failed: exit status 3 &lt;oops&gt;</title>"), std::string::npos) << svg;
  EXPECT_EQ(Count(svg, "class=\"pt strip s0\""), 2u) << "warm-ups and failures are not in the distribution";
  EXPECT_NE(svg.find("ms"), std::string::npos) << "axis labels carry the unit";
}

TEST(SamplePlot, OnlyFailedSamplesStillDraw) {
  SamplePlotSpec spec{"wall_ns", "ns", {"samples"}, {}};
  for (int i = 0; i < 3; ++i) {
    PlotPoint p = Point(i, std::numeric_limits<double>::quiet_NaN());
    p.failed = true;
    spec.points.push_back(p);
  }
  const std::string svg = SamplePlot(spec);
  ExpectOnlyNumbers(svg);
  EXPECT_EQ(Count(svg, "class=\"failed\""), 4u) << "three samples and the legend";
}

TEST(SamplePlot, HostileSeriesNamesAreText) {
  SamplePlotSpec spec{"<b>m</b>", "ns", {"<script>alert(1)</script>", "x\"y"}, {Point(0, 1), Point(1, 2, 1)}};
  const std::string svg = SamplePlot(spec);
  EXPECT_EQ(svg.find("<script"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("<b>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("&lt;script&gt;"), std::string::npos) << svg;
}

TEST(ForestPlot, IntervalsBandsAndLimits) {
  ForestRow fail;
  fail.label = "sim.Ir";
  fail.estimate = 0.0437;
  fail.lo = 0.0437;  // sim: an interval of no width
  fail.hi = 0.0437;
  fail.cls = "fail";
  fail.band_lo = 0;  // a null arm that read exactly 0
  fail.band_hi = 0;
  fail.limits = {0.001};
  ForestRow unbounded;
  unbounded.label = "wall_ns";
  unbounded.estimate = -0.02;
  unbounded.lo = -kInf;
  unbounded.hi = kInf;
  unbounded.cls = "inconclusive";
  unbounded.limits = {-0.05, 0.05};
  ForestRow none;
  none.label = "<img src=x onerror=alert(1)>";
  none.cls = "skipped";
  const std::string svg = ForestPlot({fail, unbounded, none}, "cell <x>");
  ExpectOnlyNumbers(svg);
  EXPECT_EQ(Count(svg, "class=\"ci fail\""), 1u);
  EXPECT_EQ(Count(svg, "class=\"est fail\""), 1u);
  EXPECT_EQ(Count(svg, "class=\"band\""), 1u);
  EXPECT_EQ(Count(svg, "class=\"limit\""), 3u);
  EXPECT_EQ(Count(svg, "class=\"arrow inconclusive\""), 2u) << "both ends unbounded";
  EXPECT_NE(svg.find("no interval"), std::string::npos);
  EXPECT_EQ(svg.find("<img"), std::string::npos);
  EXPECT_NE(svg.find("+4%"), std::string::npos) << "ticks in percent: " << svg;
  EXPECT_NE(svg.find("class=\"zero\""), std::string::npos);
}

TEST(ForestPlot, NoRowsAndAllZero) {
  ExpectOnlyNumbers(ForestPlot({}, "empty"));
  ForestRow zero;
  zero.estimate = zero.lo = zero.hi = 0;
  zero.cls = "pass";
  ExpectOnlyNumbers(ForestPlot({zero}, "zero"));
}

TEST(Percent, SignsAndSpecialValues) {
  EXPECT_EQ(Percent(0.0302), "+3.02%");
  EXPECT_EQ(Percent(-0.1, 1), "-10.0%");
  EXPECT_EQ(Percent(-0.00001), "0.00%");
  EXPECT_EQ(Percent(std::numeric_limits<double>::quiet_NaN()), "n/a");
  EXPECT_EQ(Percent(-kInf), "-inf");
  EXPECT_EQ(UnsignedPercent(0), "0.00%");
  EXPECT_EQ(UnsignedPercent(-0.0044), "0.44%");
  EXPECT_EQ(UnsignedPercent(0.05), "5.00%");
  EXPECT_EQ(UnsignedPercent(std::numeric_limits<double>::infinity()), "n/a");  // a floor the null arm could not measure
  EXPECT_EQ(UnsignedPercent(std::nan("")), "n/a");
}

// A plot of many samples stays bounded (issue 48, item 7; issue 44, item 6): past kMaxDrawnSamples
// one in every k is drawn on the timeline, past kMaxStripSamples one in every k' in each arm's strip,
// every failure up to kMaxDrawnFailures besides, and the plot says so; the median and n are of every
// sample (here 100,000 values 0..99,999 in one series, 500 of the first 1,000 failed: the median of
// the 99,500 others is 50,249.5).
TEST(SamplePlot, ManySamplesAreDrawnOneInKWithMedianAndNOfAll) {
  SamplePlotSpec spec{"wall_ns", "ns", {"samples"}, {}};
  const size_t n = 100000;
  for (size_t i = 0; i < n; ++i) spec.points.push_back(Point(static_cast<double>(i), static_cast<double>(i)));
  for (size_t i = 1; i < 1000; i += 2) spec.points[i].failed = true;  // 500 failures, all at odd positions
  EXPECT_EQ(DrawStride(n), 200u);
  EXPECT_EQ(DrawStride(kMaxDrawnSamples), 1u);
  EXPECT_EQ(DrawStride(kMaxDrawnSamples + 1), 2u);
  EXPECT_EQ(DrawStride(99500, kMaxStripSamples), 498u);
  const std::string svg = SamplePlot(spec);
  // The timeline's points: one in 200 of 100,000 (positions 0, 200, ...: never a failure); the strip's,
  // one in 498 of the 99,500 measured values; the failures' triangles, capped (and the legend's).
  EXPECT_EQ(Count(svg, "class=\"pt s0\""), 500u);
  EXPECT_EQ(Count(svg, "class=\"pt strip s0\""), 200u);
  EXPECT_EQ(Count(svg, "class=\"failed\""), kMaxDrawnFailures + 1);
  EXPECT_NE(svg.find("100000 samples: 1 in 200 drawn"), std::string::npos);
  EXPECT_NE(svg.find("n=99500"), std::string::npos);
  EXPECT_NE(svg.find("median 50.2 us of 99500 measured samples"), std::string::npos);
  EXPECT_LT(svg.size(), 200'000u);
}

}  // namespace
}  // namespace tare::html
