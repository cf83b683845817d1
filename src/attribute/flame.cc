#include "attribute/flame.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "attribute/attribution.h"
#include "base/terminal_text.h"

namespace tare::attribute {
namespace {

using instrument::Profile;

constexpr char kProgramKey[] = "\x01program";

// One side's call graph, summed over its parts.
struct Fn {
  std::string key;
  std::string name;
  std::string object;  // file name, for display
  double self = 0;
  std::map<std::string, double> edges;  // callee key -> inclusive cost of the calls
  // Whether another function calls it in the profile. Not the count of calls: a call already on
  // the stack when a window opened (Google Benchmark's windows open inside StartKeepRunning) is
  // recorded with calls=0 and the window's cost, and the functions under it are not roots.
  bool called = false;
  double Inclusive() const {
    double sum = self;
    for (const auto& [k, e] : edges) sum += e;
    return sum;
  }
};
using Graph = std::map<std::string, Fn>;

std::string FileName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

StatusOr<Graph> GraphOf(const std::vector<Profile>& parts, const std::string& side, const std::string& event) {
  if (parts.empty()) return Status::InvalidArgument(fmt::format("the {} side has no profile to draw", side));
  const std::string program = ProgramObjectOf(parts);
  Graph g;
  for (const auto& p : parts) {
    auto ev = p.EventIndex(event);
    if (!ev) {
      return Status::InvalidArgument(fmt::format("the {} profile '{}' has no event '{}' to draw", side, p.path, event));
    }
    std::vector<std::string> keys;
    keys.reserve(p.functions.size());
    for (const auto& f : p.functions) {
      const std::string name = AttributionName(f.name);
      keys.push_back((!program.empty() && f.object == program ? std::string(kProgramKey) : f.object) + '\x1f' + name);
      Fn& fn = g[keys.back()];
      fn.key = keys.back();
      fn.name = name;
      fn.object = FileName(f.object);
      fn.self += static_cast<double>(f.self[*ev]);
    }
    for (const auto& e : p.calls) {
      if (keys[e.caller] == keys[e.callee]) {
        // A call between recursion levels of one function: its cost is the function's own.
        continue;
      }
      g[keys[e.caller]].edges[keys[e.callee]] += static_cast<double>(e.inclusive[*ev]);
      g[keys[e.callee]].called = true;
    }
  }
  return g;
}

// Grows the tree of one side into `base` (see flame.h).
FlameFrame Grow(const Graph& g, const std::string& key, double cost, std::set<std::string>& path, size_t depth,
                double min_cost, const FlameOptions& o) {
  const Fn& fn = g.at(key);
  FlameFrame frame{fn.name, fn.object, fn.key, cost, cost, {}};
  const double inclusive = fn.Inclusive();
  if (depth >= o.max_depth || inclusive <= 0) return frame;
  path.insert(key);
  const double k = cost / inclusive;
  for (const auto& [callee, e] : fn.edges) {
    const double c = k * e;
    if (c < min_cost || path.count(callee) || !g.count(callee)) continue;
    frame.children.push_back(Grow(g, callee, c, path, depth + 1, min_cost, o));
  }
  path.erase(key);
  return frame;
}

FlameFrame TreeOf(const Graph& g, const FlameOptions& o) {
  FlameFrame root{"all", "", "all", 0, 0, {}};
  std::vector<std::pair<std::string, double>> roots;
  for (const auto& [key, fn] : g) {
    const double inclusive = fn.Inclusive();
    if (!fn.called && inclusive > 0) {
      roots.emplace_back(key, inclusive);
      root.base += inclusive;
    }
  }
  root.head = root.base;
  const double min_cost = root.base * o.min_fraction;
  for (const auto& [key, inclusive] : roots) {
    if (inclusive < min_cost) continue;
    std::set<std::string> path;
    root.children.push_back(Grow(g, key, inclusive, path, 1, min_cost, o));
  }
  return root;
}

// Base's tree and head's tree merged by path: `base` from the first, `head` from the second.
FlameFrame Merge(const FlameFrame* b, const FlameFrame* h) {
  const FlameFrame& any = b != nullptr ? *b : *h;
  FlameFrame out{any.name, any.object, any.key, b != nullptr ? b->base : 0, h != nullptr ? h->base : 0, {}};
  std::map<std::string, std::pair<const FlameFrame*, const FlameFrame*>> children;
  if (b != nullptr) {
    for (const auto& c : b->children) children[c.key].first = &c;
  }
  if (h != nullptr) {
    for (const auto& c : h->children) children[c.key].second = &c;
  }
  for (const auto& [key, pair] : children) out.children.push_back(Merge(pair.first, pair.second));
  return out;
}

// --- SVG ---------------------------------------------------------------------------------------

std::string Xml(std::string_view text) { return EscapeMarkup(SingleLineText(text)); }

std::string Count(double v) {
  const double r = std::round(v);
  return std::fabs(r) < 9e15 ? fmt::format("{}", static_cast<int64_t>(r)) : fmt::format("{:.3g}", v);
}

double Width(const FlameFrame& f) {
  double base_children = 0, head_children = 0, children = 0;
  for (const auto& c : f.children) {
    base_children += c.base;
    head_children += c.head;
    children += Width(c);
  }
  return std::max(std::max(f.base - base_children, 0.0), std::max(f.head - head_children, 0.0)) + children;
}

size_t Depth(const FlameFrame& f) {
  size_t d = 0;
  for (const auto& c : f.children) d = std::max(d, Depth(c));
  return d + 1;
}

double MaxChange(const FlameFrame& f, bool is_root) {
  double m = is_root ? 0 : std::fabs(f.head - f.base);
  for (const auto& c : f.children) m = std::max(m, MaxChange(c, false));
  return m;
}

std::string Colour(const FlameFrame& f, bool differential, double max_change) {
  if (differential) {
    const double d = f.head - f.base;
    if (d == 0 || max_change <= 0) return "rgb(240,240,240)";
    const int r = static_cast<int>(std::lround(40 + 180 * std::min(1.0, std::fabs(d) / max_change)));
    return d > 0 ? fmt::format("rgb(255,{},{})", 255 - r, 255 - r) : fmt::format("rgb({},{},255)", 255 - r, 255 - r);
  }
  const size_t h = std::hash<std::string>{}(f.name);
  return fmt::format("rgb({},{},{})", 205 + h % 50, 80 + (h / 50) % 140, 30 + (h / 7000) % 50);
}

constexpr double kSvgWidth = 1200, kFrameHeight = 17, kTop = 48, kCharWidth = 7.0;

void Draw(const FlameFrame& f, double x, size_t depth, size_t max_depth, double scale, double root_base,
          bool differential, double max_change, const std::string& event, std::string& out) {
  const double w = Width(f) * scale;
  if (w < 0.3) return;
  const double y = kTop + static_cast<double>(max_depth - 1 - depth) * kFrameHeight;
  std::string label = f.name + (f.object.empty() ? "" : " [" + f.object + "]");
  std::string title =
      differential
          ? fmt::format(
                "{}: {} base {} → head {} ({}{}{})", label, event, Count(f.base), Count(f.head),
                f.head - f.base > 0 ? "+" : "", Count(f.head - f.base),
                root_base > 0 ? fmt::format(", {:+.2f}% of the base total", 100 * (f.head - f.base) / root_base) : "")
          : fmt::format("{}: {} {} ({:.2f}%)", label, event, Count(f.base),
                        root_base > 0 ? 100 * f.base / root_base : 0.0);
  out += fmt::format(
      "<g class=\"frame\"><title>{}</title><rect x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{}\" "
      "fill=\"{}\" stroke=\"white\" stroke-width=\"0.5\"/>",
      Xml(title), x, y, w, kFrameHeight - 1, Colour(f, differential, max_change));
  const size_t fits = w > 6 ? static_cast<size_t>((w - 6) / kCharWidth) : 0;
  if (fits >= 3) {
    std::string text = SingleLineText(f.name);
    if (text.size() > fits) text = text.substr(0, fits - 2) + "..";
    out += fmt::format("<text x=\"{:.2f}\" y=\"{:.1f}\">{}</text>", x + 3, y + 12, Xml(text));
  }
  out += "</g>\n";
  // Children left to right by name; the frame's own (self) cost is the rest, at its right.
  double cx = x;
  for (const auto& c : f.children) {
    Draw(c, cx, depth + 1, max_depth, scale, root_base, differential, max_change, event, out);
    cx += Width(c) * scale;
  }
}

}  // namespace

StatusOr<FlameFrame> BuildFlameTree(const std::vector<Profile>& base, const std::vector<Profile>& head,
                                    const FlameOptions& options) {
  TARE_ASSIGN_OR_RETURN(Graph b, GraphOf(base, "base", options.event));
  TARE_ASSIGN_OR_RETURN(Graph h, GraphOf(head, "head", options.event));
  const FlameFrame bt = TreeOf(b, options), ht = TreeOf(h, options);
  return Merge(&bt, &ht);
}

StatusOr<FlameFrame> BuildFlameTree(const std::vector<Profile>& side, const FlameOptions& options) {
  TARE_ASSIGN_OR_RETURN(Graph g, GraphOf(side, "profiled", options.event));
  return TreeOf(g, options);
}

std::string RenderFlameSvg(const FlameFrame& root, const std::string& title, const std::string& event,
                           bool differential) {
  const size_t depth = Depth(root);
  const double height = kTop + static_cast<double>(depth) * kFrameHeight + 8;
  const double total = Width(root);
  const double scale = total > 0 ? (kSvgWidth - 20) / total : 0;
  const double max_change = MaxChange(root, true);
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" "
      "font-family=\"monospace\" font-size=\"12\">\n"
      "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"10\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{}</text>\n"
      "<text x=\"10\" y=\"36\" fill=\"#444\">{}</text>\n",
      kSvgWidth, height, kSvgWidth, height, Xml(title),
      Xml(differential ? fmt::format("{} base {} → head {}. Width: the larger of the two; red: more {} in head, blue: "
                                     "less, white: unchanged. Hover a frame for its numbers.",
                                     event, Count(root.base), Count(root.head), event)
                       : fmt::format("{} {}. Width: the cost of a call path. Hover a frame for its numbers.", event,
                                     Count(root.base))));
  Draw(root, 10, 0, depth, scale, root.base, differential, max_change, event, out);
  out += "</svg>\n";
  return out;
}

}  // namespace tare::attribute
