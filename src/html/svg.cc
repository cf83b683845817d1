#include "html/svg.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "html/html_text.h"

namespace tare::html {

std::string SvgNumber(double v) {
  if (std::isnan(v)) v = 0;
  if (std::isinf(v)) v = v > 0 ? 1e6 : -1e6;
  v = std::clamp(v, -1e6, 1e6);
  std::string s = fmt::format("{:.2f}", v);
  // "12.50" -> "12.5", "3.00" -> "3", "-0.00" -> "0".
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::pair<double, double> WidenDomain(double lo, double hi) {
  const bool lo_ok = std::isfinite(lo);
  const bool hi_ok = std::isfinite(hi);
  if (!lo_ok && !hi_ok) return {0, 1};
  if (!lo_ok) lo = hi;
  if (!hi_ok) hi = lo;
  if (lo > hi) std::swap(lo, hi);
  const double magnitude = std::max(std::fabs(lo), std::fabs(hi));
  // Narrower than a millionth of the values' size reads as one value: doubles cannot tick it.
  if (hi - lo <= magnitude * 1e-9) {
    const double pad = magnitude > 0 ? magnitude * 0.05 : 1.0;
    return {lo - pad, hi + pad};
  }
  return {lo, hi};
}

double NiceStep(double lo, double hi, int target) {
  auto [a, b] = WidenDomain(lo, hi);
  const double raw = (b - a) / std::max(1, target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * magnitude >= raw * (1 - 1e-9)) return m * magnitude;
  }
  return 10 * magnitude;
}

// k * step, with the rounding noise of the product removed (0.1 * 3 -> 0.3).
static double TickValue(double k, double step) {
  const double v = k * step;
  const double digits = std::max(0.0, -std::floor(std::log10(step)) + 1);
  if (digits > 15) return v;
  const double p = std::pow(10.0, digits);
  return std::round(v * p) / p;
}

std::vector<double> NiceTicks(double lo, double hi, int target) {
  auto [a, b] = WidenDomain(lo, hi);
  const double step = NiceStep(a, b, target);
  std::vector<double> ticks;
  const double first = std::ceil(a / step - 1e-9);
  const double last = std::floor(b / step + 1e-9);
  for (double k = first; k <= last && ticks.size() < 100; k += 1) ticks.push_back(TickValue(k, step) + 0.0);
  return ticks;
}

std::pair<double, double> NiceDomain(double lo, double hi, int target) {
  auto [a, b] = WidenDomain(lo, hi);
  const double step = NiceStep(a, b, target);
  return {TickValue(std::floor(a / step + 1e-9), step), TickValue(std::ceil(b / step - 1e-9), step)};
}

LinearScale::LinearScale(double d0, double d1, double r0, double r1) : r0_(r0), r1_(r1) {
  std::tie(d0_, d1_) = WidenDomain(d0, d1);
}

double LinearScale::operator()(double v) const {
  if (std::isnan(v)) return r0_;
  const double t = std::clamp((v - d0_) / (d1_ - d0_), 0.0, 1.0);  // d1_ > d0_ by WidenDomain
  return r0_ + t * (r1_ - r0_);
}

SvgBuilder::SvgBuilder(double width, double height, std::string_view label)
    : width_(width), height_(height), label_(label) {}

void SvgBuilder::Close(std::string_view tag, std::string_view tooltip) {
  if (tooltip.empty()) {
    body_ += "/>\n";
  } else {
    body_ += fmt::format("><title>{}</title></{}>\n", HtmlText(tooltip), tag);
  }
}

void SvgBuilder::Line(double x1, double y1, double x2, double y2, std::string_view cls) {
  body_ += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"{}\"/>\n", SvgNumber(x1), SvgNumber(y1),
                       SvgNumber(x2), SvgNumber(y2), HtmlAttr(cls));
}

void SvgBuilder::Rect(double x, double y, double w, double h, std::string_view cls, std::string_view tooltip) {
  if (w < 0) {
    x += w;
    w = -w;
  }
  if (h < 0) {
    y += h;
    h = -h;
  }
  body_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"{}\"", SvgNumber(x), SvgNumber(y),
                       SvgNumber(w), SvgNumber(h), HtmlAttr(cls));
  Close("rect", tooltip);
}

void SvgBuilder::Circle(double cx, double cy, double r, std::string_view cls, std::string_view tooltip) {
  body_ += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" class=\"{}\"", SvgNumber(cx), SvgNumber(cy), SvgNumber(r),
                       HtmlAttr(cls));
  Close("circle", tooltip);
}

void SvgBuilder::Triangle(double x, double y, double size, std::string_view cls, std::string_view tooltip) {
  const double half = size * 0.6;
  body_ += fmt::format("<path d=\"M{} {}L{} {}L{} {}Z\" class=\"{}\"", SvgNumber(x), SvgNumber(y), SvgNumber(x - half),
                       SvgNumber(y + size), SvgNumber(x + half), SvgNumber(y + size), HtmlAttr(cls));
  Close("path", tooltip);
}

void SvgBuilder::Polyline(const std::vector<std::pair<double, double>>& points, std::string_view cls) {
  if (points.size() < 2) return;
  std::string d;
  for (const auto& [x, y] : points) d += (d.empty() ? "" : " ") + SvgNumber(x) + "," + SvgNumber(y);
  body_ += fmt::format("<polyline points=\"{}\" class=\"{}\"/>\n", d, HtmlAttr(cls));
}

void SvgBuilder::Text(double x, double y, std::string_view text, std::string_view cls, Anchor anchor,
                      std::string_view tooltip) {
  const char* a = anchor == Anchor::kStart ? "start" : anchor == Anchor::kMiddle ? "middle" : "end";
  body_ += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\" class=\"{}\">{}", SvgNumber(x), SvgNumber(y), a,
                       HtmlAttr(cls), HtmlText(text));
  if (!tooltip.empty()) body_ += fmt::format("<title>{}</title>", HtmlText(tooltip));
  body_ += "</text>\n";
}

void SvgBuilder::VerticalText(double x, double y, std::string_view text, std::string_view cls) {
  body_ += fmt::format(
      "<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\" transform=\"rotate(-90 {0} {1})\" "
      "class=\"{2}\">{3}</text>\n",
      SvgNumber(x), SvgNumber(y), HtmlAttr(cls), HtmlText(text));
}

std::string SvgBuilder::Finish() const {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "role=\"img\" aria-label=\"{2}\">\n{3}</svg>\n",
      SvgNumber(width_), SvgNumber(height_), HtmlAttr(label_), body_);
}

void DrawYAxis(SvgBuilder& svg, const LinearScale& y, const std::vector<double>& ticks, double x, double grid_to,
               const TickFormat& format) {
  svg.Line(x, y.r0(), x, y.r1(), "axis");
  for (double t : ticks) {
    const double py = y(t);
    svg.Line(x, py, grid_to, py, "grid");
    svg.Line(x - 4, py, x, py, "axis");
    svg.Text(x - 6, py + 4, format(t), "tick", Anchor::kEnd);
  }
}

void DrawXAxis(SvgBuilder& svg, const LinearScale& x, const std::vector<double>& ticks, double y, double grid_to,
               const TickFormat& format) {
  svg.Line(x.r0(), y, x.r1(), y, "axis");
  for (double t : ticks) {
    const double px = x(t);
    svg.Line(px, y, px, grid_to, "grid");
    svg.Line(px, y, px, y + 4, "axis");
    svg.Text(px, y + 16, format(t), "tick", Anchor::kMiddle);
  }
}

std::string Shorten(std::string_view text, size_t max_chars) {
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    // A code point starts at every byte that is not a continuation byte (10xxxxxx).
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (chars == max_chars) return std::string(text.substr(0, i)) + "…";
      ++chars;
    }
  }
  return std::string(text);
}

}  // namespace tare::html
