// The report's plots, as SVG: a benchmark's samples (a timeline in sample order beside the
// distribution of each arm) and a forest plot of changes with their intervals. Pure functions of
// plain data; the pages (run_page.h, compare_page.h, ab_page.h) fill the data from runs, comparisons
// and cohorts. Every string in the data may come from the program under test: the plots escape it.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace tare::html {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

struct PlotPoint {
  double x = 0;         // sample order (0, 1, 2, ...)
  double y = kNoValue;  // the metric's value; NaN for a failed sample that has none
  int series = 0;       // index into SamplePlotSpec::series (the arm)
  bool warmup = false;  // drawn hollow, left out of the distribution
  bool failed = false;  // drawn as a triangle on the x axis, left out of the distribution
  std::string tooltip;  // "sample 3 (head, block 1): 1.23 ms", "failed: exit status 3"
};

struct SamplePlotSpec {
  std::string metric;               // "wall_ns"
  std::string unit;                 // "ns", "bytes", "count"... (base/units.h FormatValue)
  std::vector<std::string> series;  // one per arm; a plain run has one, "samples"
  std::vector<PlotPoint> points;
  // What the x axis and the hollow points are: samples and warm-ups here; runs and outliers on the
  // history page (issue 23: its legend called outliers "warm-up").
  std::string x_title = "sample order";
  std::string hollow_label = "warm-up (not summarised)";
  // The text of the x tick at position i (a point's x), when given: the history page labels its
  // points with run ids, as its text names them ("run 3 → 4"), not with positions 0, 1, ... (issue
  // 45, item 6). Empty: the position itself.
  std::vector<std::string> x_labels = {};  // = {}: aggregate initialisers may leave it out unwarned
};

// A plot's timeline draws at most this many samples — about one per pixel of its 536 px — and this
// many failed samples' triangles besides (issue 48, item 7: a run of 1,000,000 samples made a 171 MB
// page); each arm's distribution strip at most kMaxStripSamples (a strip is 43 px wide: more points
// only cover each other). Past them one sample in every k is drawn, evenly through the order, and
// the plot says so; medians and n are still of every sample. Until issue 44 (item 6) the cap was
// 2,000 for both panels: a three-cell cohort of 2,000 samples a cell made a 1.1 MB page, nearly all
// of it circles.
inline constexpr size_t kMaxDrawnSamples = 500;
inline constexpr size_t kMaxStripSamples = 200;
inline constexpr size_t kMaxDrawnFailures = 200;

// Left: the timeline, x = sample order, y = value; warm-ups hollow, failed samples as triangles on
// the x axis with their reason as a tooltip; one colour per series (CSS classes s0, s1, ...).
// Right, on the same y axis: each series' measured successful values as a strip (jittered
// deterministically) with its median as a bar. Zero points, one point and identical values
// all draw. More than kMaxDrawnSamples points: one in every k is drawn (above).
std::string SamplePlot(const SamplePlotSpec& spec);

// One sample in every DrawStride(n, most) of n is drawn: 1 up to `most`.
size_t DrawStride(size_t points, size_t most = kMaxDrawnSamples);

// One row of a forest plot: a change as a fraction of base (+0.03 = +3%) with its interval.
struct ForestRow {
  std::string label;           // "head · sim.Ir"
  double estimate = kNoValue;  // NaN: no point (not computed)
  double lo = kNoValue;        // may be -inf / +inf: unbounded (too few samples), drawn as an arrow
  double hi = kNoValue;
  std::string cls;         // CSS class of the verdict/class colour: pass, fail, inconclusive, regressed...
  std::string value_text;  // shown right of the plot: "+4.37% [+4.10%, +4.60%] FAIL"
  std::string tooltip;
  // A shaded band behind the row (NaN: none): tare ab's null-arm interval; tare compare's ±threshold.
  double band_lo = kNoValue;
  double band_hi = kNoValue;
  std::string band_cls = "band";
  std::string band_tooltip;
  // Dashed limits across the row: the allowance δ on the worse side, or ±threshold.
  std::vector<double> limits;
};

// Rows top to bottom, a shared x axis in percent with 0 marked; `caption` is the aria label.
std::string ForestPlot(const std::vector<ForestRow>& rows, const std::string& caption);

// "+3.02%" with `decimals` decimals; "n/a" for NaN, "+inf"/"-inf" for an unbounded end.
std::string Percent(double fraction, int decimals = 2);
// A size as a percentage, without a sign: "0.44%" for 0.0044 or -0.0044; "n/a" for NaN or an
// infinite size (a floor the null arm could not measure).
std::string UnsignedPercent(double fraction);

}  // namespace tare::html
