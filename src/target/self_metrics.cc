#include "target/self_metrics.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_read.h"

namespace tare::target {
namespace {

bool NameOk(std::string_view name) {
  if (name.empty() || name.size() > kMaxSelfMetricName) return false;
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool UnitOk(std::string_view unit) {
  if (unit.empty() || unit.size() > 16) return false;
  for (unsigned char c : unit) {
    if (c < 0x21 || c > 0x7e) return false;  // printable ASCII, no space
  }
  return true;
}

// A name as an error message shows it: JSON-quoted, so control bytes are visible and bounded.
std::string Quoted(std::string_view name) {
  return nlohmann::json(std::string(name.substr(0, 80))).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

std::string Kind(const nlohmann::json& v) { return v.type_name(); }

// The first key given twice in one object of `text` (JSON keeps the last, silently: issue 48,
// item 8), as "metric \"NAME\"" or "metric \"NAME\": \"KEY\""; "" when none is, or the text
// is not JSON (the parse proper says why).
std::string RepeatedKey(std::string_view text) {
  std::vector<std::set<std::string>> objects;  // the keys of each open object, outermost first
  std::string metric, repeated;
  auto on_event = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    if (event == E::object_start) objects.emplace_back();
    if (event == E::object_end && !objects.empty()) objects.pop_back();
    if (event == E::key && !objects.empty() && repeated.empty()) {
      const std::string key = parsed.get<std::string>();
      if (depth == 1) metric = key;
      if (!objects.back().insert(key).second) {
        repeated = depth == 1 ? fmt::format("metric {}", Quoted(key))
                              : fmt::format("metric {}: {}", Quoted(metric), Quoted(key));
      }
    }
    return true;
  };
  // Named, not cast to void: g++ does not let (void) silence warn_unused_result (nlohmann's parse).
  [[maybe_unused]] const nlohmann::json whole =
      nlohmann::json::parse(text.begin(), text.end(), on_event, /*allow_exceptions=*/false);
  return repeated;
}

}  // namespace

StatusOr<std::vector<SelfMetric>> ParseSelfMetrics(std::string_view text) {
  TARE_ASSIGN_OR_RETURN(nlohmann::json j, ParseJson(text, "$TARE_METRICS_FILE"));
  if (!j.is_object()) {
    return Status::InvalidArgument(fmt::format(
        "$TARE_METRICS_FILE: the file holds a JSON {}, not an object of name: number (e.g. {{\"throughput\": 1234.5}})",
        Kind(j)));
  }
  if (j.size() > kMaxSelfMetrics) {
    return Status::InvalidArgument(
        fmt::format("$TARE_METRICS_FILE: {} metrics; at most {} are read", j.size(), kMaxSelfMetrics));
  }
  if (const std::string repeated = RepeatedKey(text); !repeated.empty()) {
    return Status::InvalidArgument(fmt::format(
        "$TARE_METRICS_FILE: {} is given twice; write each name (and each of value, unit, direction) once", repeated));
  }
  std::vector<SelfMetric> out;
  for (const auto& [name, v] : j.items()) {
    if (!NameOk(name)) {
      return Status::InvalidArgument(
          fmt::format("$TARE_METRICS_FILE: metric name {} is not 1 to {} letters, digits, '_', '.' or '-'",
                      Quoted(name), kMaxSelfMetricName));
    }
    SelfMetric m;
    m.name = kAppPrefix + name;
    const nlohmann::json* value = &v;
    if (v.is_object()) {
      for (const auto& [key, field] : v.items()) {
        if (key != "value" && key != "unit" && key != "direction") {
          return Status::InvalidArgument(
              fmt::format("$TARE_METRICS_FILE: metric {}: unknown key {}; the keys are value, unit, direction",
                          Quoted(name), Quoted(key)));
        }
      }
      if (!v.contains("value")) {
        return Status::InvalidArgument(fmt::format("$TARE_METRICS_FILE: metric {} has no \"value\"", Quoted(name)));
      }
      value = &v["value"];
      if (v.contains("unit")) {
        if (!v["unit"].is_string() || !UnitOk(v["unit"].get_ref<const std::string&>())) {
          return Status::InvalidArgument(
              fmt::format("$TARE_METRICS_FILE: metric {}: \"unit\" must be 1 to 16 printable characters without "
                          "spaces, e.g. \"ms\"",
                          Quoted(name)));
        }
        m.unit = v["unit"].get<std::string>();
      }
      if (v.contains("direction")) {
        const auto& d = v["direction"];
        if (d == "lower") {
          m.direction = Direction::kLowerIsBetter;
        } else if (d == "higher") {
          m.direction = Direction::kHigherIsBetter;
        } else {
          return Status::InvalidArgument(fmt::format(
              "$TARE_METRICS_FILE: metric {}: \"direction\" must be \"lower\" or \"higher\" (which way is better)",
              Quoted(name)));
        }
      }
    }
    if (!value->is_number()) {
      return Status::InvalidArgument(
          fmt::format("$TARE_METRICS_FILE: metric {} is a {}, not a number", Quoted(name), Kind(*value)));
    }
    m.value = value->get<double>();
    if (!std::isfinite(m.value)) {
      return Status::InvalidArgument(fmt::format("$TARE_METRICS_FILE: metric {} is not finite", Quoted(name)));
    }
    out.push_back(std::move(m));
  }
  return out;
}

StatusOr<std::optional<std::vector<SelfMetric>>> ReadSelfMetrics(const std::string& path) {
  // O_NONBLOCK: a FIFO put there opens at once instead of waiting for a writer, and is refused below.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<std::vector<SelfMetric>>();
    return Status::FailedPrecondition(
        fmt::format("$TARE_METRICS_FILE: cannot open what the program left there: {}", std::strerror(errno)));
  }
  struct stat st;
  std::string text;
  Status s = Status::Ok();
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    s = Status::FailedPrecondition("$TARE_METRICS_FILE: the program left something other than a regular file there");
  } else if (static_cast<uint64_t>(st.st_size) > kMaxMetricsFileBytes) {
    s = Status::FailedPrecondition(
        fmt::format("$TARE_METRICS_FILE: {} bytes; at most {} are read", st.st_size, kMaxMetricsFileBytes));
  } else {
    text.resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    text.resize(got);
  }
  close(fd);
  if (!s.ok()) return s;
  TARE_ASSIGN_OR_RETURN(std::vector<SelfMetric> metrics, ParseSelfMetrics(text));
  return std::optional<std::vector<SelfMetric>>(std::move(metrics));
}

MetricDef SelfMetricDef(const SelfMetric& m) {
  MetricDef def = LookupMetric(m.name);
  if (!m.unit.empty()) {
    def.unit = m.unit;
    const std::string& u = m.unit;
    if (u == "ns" || u == "us" || u == "ms" || u == "s") {
      def.kind = MetricKind::kTime;
    } else if (u == "B" || u == "bytes" || u == "KiB" || u == "MiB" || u == "GiB") {
      def.kind = MetricKind::kBytes;
    }
  }
  if (m.direction) def.direction = *m.direction;
  return def;
}

}  // namespace tare::target
