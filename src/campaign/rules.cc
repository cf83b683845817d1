#include "campaign/rules.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/core.h>

#include "model/kinds.h"
#include "model/metric.h"
#include "stats/summary.h"

namespace tare::campaign {
namespace {

constexpr char kGateForm[] =
    "write it as METRIC(ARM) <= [FACTOR *] METRIC(ARM) [+ QUANTITY], e.g. "
    "\"peak_rss_bytes(head) <= 1.5 * peak_rss_bytes(base) + 8MiB\"";
constexpr char kBoundForm[] =
    "write it as STAT(METRIC, ARM) <= QUANTITY with STAT one of median p50 p90 p95 p99 max mean, "
    "e.g. \"p95(wall_ns, head) <= 25ms\"";

// A tiny cursor over a rule's text.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Eat(std::string_view token) {
    SkipSpace();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  // Letters, digits, '_', '.', '-' (metric and arm names, numbers with units).
  std::string Word() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      bool sign_in_exponent = (c == '-' || c == '+') && pos_ > start &&
                              (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E') &&
                              std::isdigit(static_cast<unsigned char>(text_[start]));
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || sign_in_exponent) {
        ++pos_;
      } else {
        break;
      }
    }
    return std::string(text_.substr(start, pos_ - start));
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

bool IsName(const std::string& s) {
  return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_');
}

struct Unit {
  std::string_view suffix;
  double scale;
  MetricKind kind;
};
constexpr Unit kUnits[] = {
    {"ns", 1, MetricKind::kTime},
    {"us", 1e3, MetricKind::kTime},
    {"ms", 1e6, MetricKind::kTime},
    {"s", 1e9, MetricKind::kTime},
    {"KiB", 1024.0, MetricKind::kBytes},
    {"MiB", 1048576.0, MetricKind::kBytes},
    {"GiB", 1073741824.0, MetricKind::kBytes},
    {"KB", 1e3, MetricKind::kBytes},
    {"MB", 1e6, MetricKind::kBytes},
    {"GB", 1e9, MetricKind::kBytes},
    {"B", 1, MetricKind::kBytes},
};

}  // namespace

StatusOr<double> ParseQuantity(std::string_view text, const std::string& metric) {
  double number = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [rest, ec] = std::from_chars(begin, end, number);
  if (ec != std::errc() || !std::isfinite(number)) {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a quantity; write a number with an optional unit (25ms, 8MiB, 1000)", text));
  }
  std::string_view suffix(rest, static_cast<size_t>(end - rest));
  if (suffix.empty()) return number;
  const MetricDef def = LookupMetric(metric);
  for (const Unit& u : kUnits) {
    if (suffix != u.suffix) continue;
    if (u.kind != def.kind) {
      return Status::InvalidArgument(
          fmt::format("'{}': the unit '{}' does not suit {} (a {} metric in {}); give the number in {} or "
                      "a unit of that kind",
                      text, suffix, metric, MetricKindName(def.kind), def.unit, def.unit));
    }
    return number * u.scale;
  }
  return Status::InvalidArgument(
      fmt::format("'{}': unknown unit '{}'; use ns us ms s for times, B KiB MiB GiB KB MB GB for bytes, or "
                  "none for the metric's base unit",
                  text, suffix));
}

StatusOr<GateRule> ParseGate(std::string_view text) {
  GateRule g;
  g.text = std::string(text);
  auto bad = [&](std::string_view what) {
    return Status::InvalidArgument(fmt::format("gate \"{}\": {}; {}", text, what, kGateForm));
  };
  Cursor c(text);
  g.metric = c.Word();
  if (!IsName(g.metric) || !c.Eat("(")) return bad("expected METRIC(ARM) on the left");
  g.arm = c.Word();
  if (!IsName(g.arm) || !c.Eat(")")) return bad("expected an arm name in the left parentheses");
  if (!c.Eat("<=")) return bad("expected '<='");
  std::string word = c.Word();
  if (c.Eat("*")) {
    auto [p, ec] = std::from_chars(word.data(), word.data() + word.size(), g.factor);
    if (ec != std::errc() || p != word.data() + word.size() || !(g.factor >= 0)) {
      return bad(fmt::format("'{}' is not a factor (a number >= 0)", word));
    }
    word = c.Word();
  }
  g.ref_metric = word;
  if (!IsName(g.ref_metric) || !c.Eat("(")) return bad("expected METRIC(ARM) on the right");
  g.ref_arm = c.Word();
  if (!IsName(g.ref_arm) || !c.Eat(")")) return bad("expected an arm name in the right parentheses");
  if (c.Eat("+")) {
    std::string quantity = c.Word();
    auto q = ParseQuantity(quantity, g.metric);
    if (!q.ok()) return bad(q.status().message());
    g.offset = *q;
  }
  if (!c.AtEnd()) return bad("unexpected text after the rule");
  return g;
}

StatusOr<BoundRule> ParseBound(std::string_view text) {
  BoundRule b;
  b.text = std::string(text);
  auto bad = [&](std::string_view what) {
    return Status::InvalidArgument(fmt::format("bound \"{}\": {}; {}", text, what, kBoundForm));
  };
  Cursor c(text);
  b.stat = c.Word();
  static const std::vector<std::string> kStats = {"median", "p50", "p90", "p95", "p99", "max", "mean"};
  if (std::find(kStats.begin(), kStats.end(), b.stat) == kStats.end()) {
    return bad(fmt::format("'{}' is not a statistic", b.stat));
  }
  if (!c.Eat("(")) return bad("expected '(' after the statistic");
  b.metric = c.Word();
  if (!IsName(b.metric) || !c.Eat(",")) return bad("expected METRIC, ARM in the parentheses");
  b.arm = c.Word();
  if (!IsName(b.arm) || !c.Eat(")")) return bad("expected an arm name and ')'");
  if (!c.Eat("<=")) return bad("expected '<='");
  std::string quantity = c.Word();
  auto q = ParseQuantity(quantity, b.metric);
  if (!q.ok()) return bad(q.status().message());
  b.limit = *q;
  if (!c.AtEnd()) return bad("unexpected text after the bound");
  return b;
}

double BoundStatistic(const std::string& stat, std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sorted = stats::Sorted(values);
  if (stat == "median" || stat == "p50") return stats::Quantile(sorted, 0.5);
  if (stat == "p90") return stats::Quantile(sorted, 0.90);
  if (stat == "p95") return stats::Quantile(sorted, 0.95);
  if (stat == "p99") return stats::Quantile(sorted, 0.99);
  if (stat == "max") return sorted.back();
  if (stat == "mean") {
    double sum = 0;
    for (double v : sorted) sum += v;
    return sum / static_cast<double>(sorted.size());
  }
  return std::numeric_limits<double>::quiet_NaN();
}

std::vector<std::string> ExpandRuleArm(const std::string& arm, const std::vector<std::string>& arms) {
  std::vector<std::string> out;
  for (const auto& a : arms) {
    if (a == arm || (arm == kFirstHeadArm && RoleOfArm(a) == ArmRole::kHead)) out.push_back(a);
  }
  return out;
}

}  // namespace tare::campaign
