#include "html/plots.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/units.h"
#include "html/svg.h"
#include "stats/summary.h"

namespace tare::html {
namespace {

// Sample plot geometry (pixels).
constexpr double kSampleWidth = 960, kSampleHeight = 300;
constexpr double kTop = 28, kBottom = 256;                  // plot area, y
constexpr double kTimelineLeft = 92, kTimelineRight = 640;  // timeline, x
constexpr double kStripLeft = 690, kStripRight = 950;       // distributions, x

// Forest plot geometry.
constexpr double kForestWidth = 960, kRowHeight = 28, kForestTop = 8, kForestAxis = 34;
constexpr double kLabelRight = 162, kForestLeft = 170, kForestRight = 680, kValueLeft = 692;

std::string SeriesClass(int series) { return fmt::format("s{}", std::clamp(series, 0, 7)); }

// A deterministic spread of a strip's points across its column: the golden-ratio sequence fills
// [-0.5, 0.5) evenly without clumping, and the same data always draws the same picture.
double Jitter(size_t k) {
  const double f = std::fmod(static_cast<double>(k) * 0.6180339887498949, 1.0);
  return f - 0.5;
}

int DecimalsForStep(double step_fraction) {
  const double pct = std::fabs(step_fraction) * 100;
  if (!(pct > 0) || !std::isfinite(pct)) return 0;
  return std::clamp(static_cast<int>(std::ceil(-std::log10(pct) - 1e-9)), 0, 4);
}

}  // namespace

std::string Percent(double fraction, int decimals) {
  if (std::isnan(fraction)) return "n/a";
  if (std::isinf(fraction)) return fraction > 0 ? "+inf" : "-inf";
  const double pct = fraction * 100;
  std::string s = fmt::format("{:+.{}f}%", pct, decimals);
  // "-0.00%" and "+0.00%" read as a sign that is not there.
  const std::string zero = fmt::format("{:.{}f}%", 0.0, decimals);
  if (s.substr(1) == zero) return zero;
  return s;
}

std::string UnsignedPercent(double fraction) {
  // An infinite floor or δ is one the null arm could not measure (verdict_rules.cc, ReadNullArm); the
  // store and the JSON keep it as no value, so the page says "n/a" for it as the ledger does, and a
  // page drawn from the store reads as the live one (issue 47, item 2).
  if (!std::isfinite(fraction)) return "n/a";
  return fmt::format("{:.2f}%", std::fabs(fraction) * 100);
}

size_t DrawStride(size_t points, size_t most) { return points <= most ? 1 : (points + most - 1) / most; }

std::string SamplePlot(const SamplePlotSpec& spec) {
  const size_t stride = DrawStride(spec.points.size());
  SvgBuilder svg(kSampleWidth, kSampleHeight,
                 fmt::format("samples of {} in order, and their distribution per arm", spec.metric));
  // Domains: the values of samples that have one (warm-ups too: they are drawn), sample order.
  double y_lo = INFINITY, y_hi = -INFINITY, x_lo = INFINITY, x_hi = -INFINITY;
  bool any_value = false, any_warmup = false, any_failed = false;
  for (const PlotPoint& p : spec.points) {
    if (std::isfinite(p.x)) {
      x_lo = std::min(x_lo, p.x);
      x_hi = std::max(x_hi, p.x);
    }
    any_warmup = any_warmup || p.warmup;
    any_failed = any_failed || p.failed;
    if (!p.failed && std::isfinite(p.y)) {
      any_value = true;
      y_lo = std::min(y_lo, p.y);
      y_hi = std::max(y_hi, p.y);
    }
  }
  if (!any_value) y_lo = y_hi = 0;
  if (x_lo > x_hi) x_lo = x_hi = 0;
  auto [yd0, yd1] = NiceDomain(y_lo, y_hi, 5);
  const LinearScale y(yd0, yd1, kBottom, kTop);
  const LinearScale x(x_lo - 0.5, x_hi + 0.5, kTimelineLeft + 6, kTimelineRight - 6);

  const TickFormat value_format = [&spec](double v) { return FormatValue(v, spec.unit); };
  DrawYAxis(svg, y, NiceTicks(yd0, yd1, 5), kTimelineLeft, kTimelineRight, value_format);
  std::vector<double> x_ticks;
  const double x_step = std::max(1.0, NiceStep(x_lo, x_hi, 8));
  for (double t : NiceTicks(x_lo, x_hi, 8)) {
    if (std::fmod(t, x_step) == 0) x_ticks.push_back(t);
  }
  DrawXAxis(svg, x, x_ticks, kBottom, kTop, [&spec](double v) {
    const long long i = static_cast<long long>(v);
    return i >= 0 && static_cast<size_t>(i) < spec.x_labels.size() ? spec.x_labels[static_cast<size_t>(i)]
                                                                   : fmt::format("{}", i);
  });
  svg.Text((kTimelineLeft + kTimelineRight) / 2, kSampleHeight - 8, spec.x_title, "axis-title", Anchor::kMiddle);
  svg.VerticalText(12, (kTop + kBottom) / 2,
                   spec.unit.empty() ? spec.metric : fmt::format("{} ({})", spec.metric, spec.unit), "axis-title");
  if (!any_value) {
    svg.Text((kTimelineLeft + kTimelineRight) / 2, (kTop + kBottom) / 2, "no measured value", "empty", Anchor::kMiddle);
  }

  // The timeline: a faint line through each series' measured samples, then every sample.
  const int series_count = std::max<int>(1, static_cast<int>(spec.series.size()));
  for (int s = 0; s < series_count; ++s) {
    std::vector<std::pair<double, double>> line;
    for (size_t i = 0; i < spec.points.size(); i += stride) {
      const PlotPoint& p = spec.points[i];
      if (p.series == s && !p.failed && !p.warmup && std::isfinite(p.y)) line.emplace_back(x(p.x), y(p.y));
    }
    svg.Polyline(line, "trace " + SeriesClass(s));
  }
  size_t failures_drawn = 0;
  for (size_t i = 0; i < spec.points.size(); ++i) {
    const PlotPoint& p = spec.points[i];
    const std::string cls = SeriesClass(p.series);
    if (p.failed) {
      // Failures are rare and each one matters: drawn whether or not their turn, up to a cap.
      if (i % stride == 0 || failures_drawn < kMaxDrawnFailures) {
        ++failures_drawn;
        svg.Triangle(x(p.x), kBottom - 12, 11, "failed", p.tooltip);
      }
    } else if (i % stride == 0 && std::isfinite(p.y)) {
      svg.Circle(x(p.x), y(p.y), 3.5, (p.warmup ? "pt warm " : "pt ") + cls, p.tooltip);
    }
  }
  if (stride > 1) {
    svg.Text(kTimelineRight - 4, kTop + 12,
             fmt::format("{} samples: 1 in {} drawn (medians and n of all)", spec.points.size(), stride), "legend",
             Anchor::kEnd);
  }

  // The distributions, one column per series, on the same y axis.
  svg.Line(kStripLeft, kTop, kStripLeft, kBottom, "axis");
  svg.Line(kStripLeft, kBottom, kStripRight, kBottom, "axis");
  const double column = (kStripRight - kStripLeft) / series_count;
  for (int s = 0; s < series_count; ++s) {
    std::vector<double> values;
    for (const PlotPoint& p : spec.points) {
      if (p.series == s && !p.failed && !p.warmup && std::isfinite(p.y)) values.push_back(p.y);
    }
    const double cx = kStripLeft + (s + 0.5) * column;
    const std::string cls = SeriesClass(s);
    const size_t strip_stride = DrawStride(values.size(), kMaxStripSamples);
    for (size_t k = 0; k < values.size(); k += strip_stride) {
      svg.Circle(cx + Jitter(k) * column * 0.5, y(values[k]), 3, "pt strip " + cls);
    }
    const std::string name = s < static_cast<int>(spec.series.size()) ? spec.series[s] : "samples";
    if (!values.empty()) {
      const double median = stats::Median(values);
      const std::string tip =
          fmt::format("{}: median {} of {} measured samples", name, FormatValue(median, spec.unit), values.size());
      svg.Rect(cx - column * 0.38, y(median) - 1.5, column * 0.76, 3, "median " + cls, tip);
    }
    svg.Text(cx, kBottom + 16, Shorten(name, 14), "tick", Anchor::kMiddle, name);
    svg.Text(cx, kBottom + 30, fmt::format("n={}", values.size()), "tick", Anchor::kMiddle);
  }
  svg.Text(kStripLeft + 4, kTop - 10, "distribution (bar: median)", "axis-title");

  // Legend, top left: series colours, then what the shapes mean.
  double lx = kTimelineLeft;
  if (spec.series.size() > 1) {
    for (int s = 0; s < series_count; ++s) {
      svg.Circle(lx + 5, 12, 4.5, "pt " + SeriesClass(s));
      const std::string name = Shorten(spec.series[s], 16);
      svg.Text(lx + 13, 16, name, "legend");
      lx += 24 + 7.0 * static_cast<double>(std::min<size_t>(name.size(), 16));
    }
  }
  if (any_warmup) {
    svg.Circle(lx + 5, 12, 4.5, "pt warm s0");
    svg.Text(lx + 13, 16, spec.hollow_label, "legend");
    lx += 180;
  }
  if (any_failed) {
    svg.Triangle(lx + 5, 6, 11, "failed");
    svg.Text(lx + 14, 16, "failed sample (hover for why)", "legend");
  }
  return svg.Finish();
}

std::string ForestPlot(const std::vector<ForestRow>& rows, const std::string& caption) {
  const double height = kForestTop + static_cast<double>(std::max<size_t>(rows.size(), 1)) * kRowHeight + kForestAxis;
  // Wide enough for the longest value text ("-28.73% [-37.94%, +5.04%] inconclusive" was cut to
  // "INCONCLUSIV", issue 23): about 7.4 px a character at the value's 12.5 px, counted in code points.
  size_t longest = 0;
  for (const auto& r : rows) {
    longest = std::max<size_t>(longest,
                               static_cast<size_t>(std::count_if(r.value_text.begin(), r.value_text.end(), [](char c) {
                                 return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
                               })));
  }
  const double width = std::max(kForestWidth, kValueLeft + 12 + 7.4 * static_cast<double>(longest));
  SvgBuilder svg(width, height, caption);
  double lo = 0, hi = 0;  // 0 is always shown: "no change"
  auto include = [&lo, &hi](double v) {
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  };
  for (const ForestRow& r : rows) {
    for (double v : {r.estimate, r.lo, r.hi, r.band_lo, r.band_hi}) include(v);
    for (double v : r.limits) include(v);
  }
  auto [a, b] = WidenDomain(lo, hi);
  const double pad = (b - a) * 0.08;
  auto [d0, d1] = NiceDomain(a - pad, b + pad, 6);
  const LinearScale x(d0, d1, kForestLeft, kForestRight);
  const double bottom = kForestTop + static_cast<double>(std::max<size_t>(rows.size(), 1)) * kRowHeight;
  const int decimals = DecimalsForStep(NiceStep(d0, d1, 6));
  DrawXAxis(svg, x, NiceTicks(d0, d1, 6), bottom, kForestTop, [decimals](double v) { return Percent(v, decimals); });
  svg.Text((kForestLeft + kForestRight) / 2, height - 4, "change of head against base", "axis-title", Anchor::kMiddle);

  for (size_t i = 0; i < rows.size(); ++i) {
    const ForestRow& r = rows[i];
    const double top = kForestTop + static_cast<double>(i) * kRowHeight;
    const double cy = top + kRowHeight / 2;
    if (std::isfinite(r.band_lo) || std::isfinite(r.band_hi)) {
      const double b0 = std::isnan(r.band_lo) ? r.band_hi : r.band_lo;
      const double b1 = std::isnan(r.band_hi) ? r.band_lo : r.band_hi;
      // A band of no width (a null arm that read exactly 0) is still shown, 2 pixels wide.
      double px0 = x(b0), px1 = x(b1);
      if (std::fabs(px1 - px0) < 2) {
        px0 -= 1;
        px1 += 1;
      }
      svg.Rect(px0, top + 2, px1 - px0, kRowHeight - 4, r.band_cls, r.band_tooltip);
    }
    for (double limit : r.limits) {
      if (std::isfinite(limit)) svg.Line(x(limit), top + 1, x(limit), top + kRowHeight - 1, "limit");
    }
    svg.Text(kLabelRight, cy + 4, Shorten(r.label, 24), "row-label", Anchor::kEnd, r.label);
    const bool has_interval = !std::isnan(r.lo) && !std::isnan(r.hi);
    if (has_interval) {
      double px0 = x(r.lo), px1 = x(r.hi);
      if (px1 - px0 < 2) {  // an interval of no width (sim counts) still shows as a tick
        px0 -= 1;
        px1 += 1;
      }
      svg.Rect(px0, cy - 4, px1 - px0, 8, "ci " + r.cls, r.tooltip);
      if (std::isinf(r.lo)) svg.Text(kForestLeft + 2, cy + 4, "◀", "arrow " + r.cls, Anchor::kStart, "unbounded");
      if (std::isinf(r.hi)) svg.Text(kForestRight - 2, cy + 4, "▶", "arrow " + r.cls, Anchor::kEnd, "unbounded");
    }
    if (std::isfinite(r.estimate)) {
      svg.Circle(x(r.estimate), cy, 5, "est " + r.cls, r.tooltip);
    } else if (!has_interval) {
      svg.Text((kForestLeft + kForestRight) / 2, cy + 4, "no interval", "empty", Anchor::kMiddle);
    }
    svg.Text(kValueLeft, cy + 4, r.value_text, "value " + r.cls);
  }
  svg.Line(x(0), kForestTop, x(0), bottom, "zero");
  return svg.Finish();
}

}  // namespace tare::html
