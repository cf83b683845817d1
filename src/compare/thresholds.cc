#include "compare/thresholds.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include <fmt/core.h>
#include <toml++/toml.h>

#include "base/toml_read.h"

namespace tare::compare {
namespace {

StatusOr<double> ThresholdNode(const toml::node& n, const std::string& what) {
  if (auto s = n.value<std::string>()) return ParseThreshold(*s, what);
  if (n.is_integer() || n.is_floating_point()) {
    return ParseThreshold(fmt::format("{}", n.value<double>().value_or(-1)), what);
  }
  return Status::InvalidArgument(fmt::format("{} must be a string like \"5%\"", what));
}

}  // namespace

StatusOr<double> ParseThreshold(const std::string& text, const std::string& what) {
  std::string t = text;
  while (!t.empty() && t.back() == ' ') t.pop_back();
  bool percent = !t.empty() && t.back() == '%';
  if (percent) t.pop_back();
  while (!t.empty() && t.back() == ' ') t.pop_back();
  char* end = nullptr;
  const double v = t.empty() ? NAN : std::strtod(t.c_str(), &end);
  if (t.empty() || end == nullptr || *end != '\0' || !std::isfinite(v)) {
    return Status::InvalidArgument(fmt::format("{} '{}' is not a threshold; write e.g. 5% or 0.5%", what, text));
  }
  const double f = percent ? v / 100 : v;
  if (f < 0 || f > 10) {
    return Status::InvalidArgument(fmt::format("{} '{}' must be between 0% and 1000%", what, text));
  }
  return f;
}

std::pair<double, std::string> CompareConfig::ThresholdFor(const std::string& benchmark, const std::string& metric,
                                                           bool deterministic) const {
  if (auto m = flag_metrics.find(metric); m != flag_metrics.end())
    return {m->second, fmt::format("--threshold {}", metric)};
  if (flag_threshold) return {*flag_threshold, "--threshold"};
  for (auto it = rules.rbegin(); it != rules.rend(); ++it) {
    if ((it->metric.empty() || it->metric == metric) && it->pattern->Match(benchmark)) {
      return {it->threshold, fmt::format("rule '{}'", it->benchmark)};
    }
  }
  if (auto m = metrics.find(metric); m != metrics.end()) return {m->second, fmt::format("{} threshold", metric)};
  if (threshold) return {*threshold, "threshold"};
  if (deterministic) return {kDefaultDeterministicThreshold, "default (deterministic)"};
  return {kDefaultThreshold, "default"};
}

std::optional<std::string> CompareConfig::IgnoredBy(const std::string& benchmark) const {
  for (const auto& [text, re] : ignore) {
    if (re.Match(benchmark)) return text;
  }
  return std::nullopt;
}

StatusOr<CompareConfig> ParseCompareConfig(const std::string& text, const std::string& path) {
  CompareConfig c;
  c.source = path;
  TARE_ASSIGN_OR_RETURN(toml::table root, ParseToml(text, path));
  TARE_ASSIGN_OR_RETURN(const toml::table* cmp, TomlSection(root, "compare", path));
  if (cmp == nullptr) return c;
  for (const auto& [key, value] : *cmp) {
    const std::string k(key.str());
    const std::string what = fmt::format("{}: compare.{}", path, k);
    if (k == "threshold") {
      TARE_ASSIGN_OR_RETURN(double t, ThresholdNode(value, what));
      c.threshold = t;
    } else if (k == "confidence") {
      auto v = value.value<double>();
      if (!v || !(*v > 0 && *v < 1))
        return Status::InvalidArgument(fmt::format("{} must be a number in (0, 1), e.g. 0.95", what));
      c.confidence = *v;
    } else if (k == "ignore") {
      const toml::array* a = value.as_array();
      if (a == nullptr) return Status::InvalidArgument(fmt::format("{} must be an array of patterns", what));
      for (const auto& e : *a) {
        auto s = e.value<std::string>();
        if (!s) return Status::InvalidArgument(fmt::format("{}: every pattern is a string", what));
        TARE_ASSIGN_OR_RETURN(Regex re, Regex::Compile(*s, what));
        c.ignore.emplace_back(*s, std::move(re));
      }
    } else if (k == "metrics") {
      const toml::table* t = value.as_table();
      if (t == nullptr) return Status::InvalidArgument(fmt::format("{} must be a table of METRIC = \"T%\"", what));
      for (const auto& [mk, mv] : *t) {
        TARE_ASSIGN_OR_RETURN(double th, ThresholdNode(mv, fmt::format("{}.{}", what, mk.str())));
        c.metrics[std::string(mk.str())] = th;
      }
    } else if (k == "rules") {
      const toml::array* a = value.as_array();
      if (a == nullptr) return Status::InvalidArgument(fmt::format("{} must be [[compare.rules]] tables", what));
      size_t i = 0;
      for (const auto& e : *a) {
        ++i;
        const std::string rw = fmt::format("{}: compare.rules[{}]", path, i);
        const toml::table* r = e.as_table();
        if (r == nullptr) return Status::InvalidArgument(fmt::format("{} must be a table", rw));
        ThresholdRule rule;
        bool has_threshold = false;
        for (const auto& [rk, rv] : *r) {
          const std::string rks(rk.str());
          if (rks == "benchmark") {
            auto s = rv.value<std::string>();
            if (!s) return Status::InvalidArgument(fmt::format("{}.benchmark must be a pattern string", rw));
            rule.benchmark = *s;
          } else if (rks == "metric") {
            auto s = rv.value<std::string>();
            if (!s) return Status::InvalidArgument(fmt::format("{}.metric must be a metric name", rw));
            rule.metric = *s;
          } else if (rks == "threshold") {
            TARE_ASSIGN_OR_RETURN(rule.threshold, ThresholdNode(rv, rw + ".threshold"));
            has_threshold = true;
          } else {
            return Status::InvalidArgument(
                fmt::format("{}: unknown key '{}'; a rule has benchmark, metric, threshold", rw, rks));
          }
        }
        if (rule.benchmark.empty() || !has_threshold) {
          return Status::InvalidArgument(fmt::format("{} needs benchmark = \"PATTERN\" and threshold = \"T%\"", rw));
        }
        TARE_ASSIGN_OR_RETURN(rule.pattern, Regex::Compile(rule.benchmark, rw + ".benchmark"));
        c.rules.push_back(std::move(rule));
      }
    } else {
      return Status::InvalidArgument(fmt::format(
          "{}: unknown key 'compare.{}'; [compare] has threshold, confidence, ignore, metrics, rules", path, k));
    }
  }
  return c;
}

std::string FindConfigFile(const std::string& dir) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(dir.empty() ? "." : dir, ec);
  if (ec) return "";
  for (;;) {
    auto candidate = p / "tare.toml";
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
    if (!p.has_parent_path() || p.parent_path() == p) return "";
    p = p.parent_path();
  }
}

Status ApplyFlags(CompareConfig* c, const std::vector<std::string>& thresholds, const std::vector<std::string>& ignore,
                  std::optional<double> confidence) {
  for (const auto& t : thresholds) {
    const auto eq = t.find('=');
    if (eq == std::string::npos) {
      TARE_ASSIGN_OR_RETURN(double v, ParseThreshold(t, "--threshold"));
      c->flag_threshold = v;
    } else {
      const std::string metric = t.substr(0, eq);
      if (metric.empty()) return Status::InvalidArgument(fmt::format("--threshold '{}': write METRIC=T%", t));
      TARE_ASSIGN_OR_RETURN(double v, ParseThreshold(t.substr(eq + 1), "--threshold " + metric));
      c->flag_metrics[metric] = v;
    }
  }
  for (const auto& i : ignore) {
    TARE_ASSIGN_OR_RETURN(Regex re, Regex::Compile(i, "--ignore"));
    c->ignore.emplace_back(i, std::move(re));
  }
  if (confidence) {
    if (!(*confidence > 0 && *confidence < 1)) {
      return Status::InvalidArgument(fmt::format("--confidence {} must be in (0, 1), e.g. 0.95", *confidence));
    }
    c->confidence = confidence;
  }
  return Status::Ok();
}

}  // namespace tare::compare
