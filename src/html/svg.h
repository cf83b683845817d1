// A small SVG builder for the HTML reports: linear scales, "nice" axis ticks, and elements written
// with every number checked and every string escaped. Pure functions and a string builder; no
// state shared between plots; thread-safe.
//
// Plots are drawn from measured data, which can be empty, a single value, all identical (sim
// counts repeat exactly), or hold an unbounded interval end (too few samples). None of that may
// divide by zero or put "nan"/"inf" into an attribute, where a browser would silently drop the
// element: a degenerate domain is widened (WidenDomain), a value that is not finite is clamped to
// the scale's range, and SvgNumber never writes anything but a plain decimal.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tare::html {

// A number for an SVG attribute: at most two decimals, no exponent, no "-0"; NaN is written as 0
// and +-inf as +-1e6 (far outside any plot, but still a number).
std::string SvgNumber(double v);

// [lo, hi] made usable as a scale's domain: ordered, finite and of positive width. Non-finite ends
// are dropped (both: [0, 1]); an empty interval gets 5% of its magnitude on each side (±1 at 0).
std::pair<double, double> WidenDomain(double lo, double hi);

// About `target` ticks (at least 2) at a step of 1, 2 or 5 times a power of ten, covering the
// widened [lo, hi]: every tick inside it, each an exact multiple of the step (0.1 + 0.2 is written
// 0.3, not 0.30000000000000004).
std::vector<double> NiceTicks(double lo, double hi, int target);
// The step NiceTicks uses.
double NiceStep(double lo, double hi, int target);
// The widened [lo, hi] rounded outwards to NiceStep: axis ends that are ticks.
std::pair<double, double> NiceDomain(double lo, double hi, int target);

// Maps the domain [d0, d1] (widened) linearly onto [r0, r1]; r0 > r1 for a y axis, so that larger
// values are drawn higher. Values outside the domain, and +-inf, are clamped to the range; NaN
// maps to r0.
class LinearScale {
 public:
  LinearScale(double d0, double d1, double r0, double r1);
  double operator()(double v) const;
  double d0() const { return d0_; }
  double d1() const { return d1_; }
  double r0() const { return r0_; }
  double r1() const { return r1_; }

 private:
  double d0_, d1_, r0_, r1_;
};

enum class Anchor { kStart, kMiddle, kEnd };

// Builds one <svg> element. `cls` arguments are tare's own CSS class names; `text` and `tooltip`
// may be anything (they are escaped). A tooltip becomes the element's <title>, which browsers show
// on hover and screen readers read.
class SvgBuilder {
 public:
  SvgBuilder(double width, double height, std::string_view label);

  void Line(double x1, double y1, double x2, double y2, std::string_view cls);
  // Negative widths and heights are normalised.
  void Rect(double x, double y, double w, double h, std::string_view cls, std::string_view tooltip = {});
  void Circle(double cx, double cy, double r, std::string_view cls, std::string_view tooltip = {});
  // A triangle pointing up with its tip at (x, y), `size` pixels high: a failed sample's mark.
  void Triangle(double x, double y, double size, std::string_view cls, std::string_view tooltip = {});
  void Polyline(const std::vector<std::pair<double, double>>& points, std::string_view cls);
  void Text(double x, double y, std::string_view text, std::string_view cls, Anchor anchor = Anchor::kStart,
            std::string_view tooltip = {});
  // A vertical text (rotated -90 degrees about (x, y)): a y axis title.
  void VerticalText(double x, double y, std::string_view text, std::string_view cls);

  // The finished <svg>...</svg>.
  std::string Finish() const;

 private:
  void Close(std::string_view tag, std::string_view tooltip);
  double width_, height_;
  std::string label_;
  std::string body_;
};

using TickFormat = std::function<std::string(double)>;

// A y axis at x = `x`: ticks with labels to its left and light grid lines to `grid_to`.
void DrawYAxis(SvgBuilder& svg, const LinearScale& y, const std::vector<double>& ticks, double x, double grid_to,
               const TickFormat& format);
// An x axis at y = `y`: ticks with labels below it, grid lines up to `grid_to`.
void DrawXAxis(SvgBuilder& svg, const LinearScale& x, const std::vector<double>& ticks, double y, double grid_to,
               const TickFormat& format);

// `text` cut to at most `max_chars` code points (on a UTF-8 boundary) with "…" when cut.
std::string Shorten(std::string_view text, size_t max_chars);

}  // namespace tare::html
