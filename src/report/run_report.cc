#include "report/run_report.h"

#include <fmt/format.h>

#include <set>

#include <algorithm>
#include <cmath>

#include "base/bytes_text.h"
#include "base/json_read.h"
#include "base/terminal_text.h"
#include "base/units.h"
#include "model/metric_roles.h"

namespace tare::report {

Status CheckShownMetrics(const RunData& data, const std::vector<std::string>& metrics) {
  std::set<std::string> carried;
  bool any_ok = false;
  for (const auto& s : data.samples) {
    if (!s.sample.ok()) continue;
    any_ok = true;
    for (const auto& [name, value] : s.sample.values) carried.insert(name);
  }
  if (!any_ok) return Status::Ok();  // every sample failed: the failures say why, not the names
  for (const auto& name : metrics) {
    if (carried.count(name)) continue;
    std::string names;
    for (const auto& c : carried) names += (names.empty() ? "" : ", ") + c;
    return Status::InvalidArgument(fmt::format(
        "--metrics: no sample of run {} carries '{}' (a counter or figure its benchmarks do not report); they "
        "carry: {}. The run is stored: `tare export --run {}` shows it whole",
        data.run.id, name, names, data.run.id));
  }
  return Status::Ok();
}

RunReport BuildRunReport(const RunData& data) {
  RunReport report;
  report.run = data.run;
  report.notes = data.notes;
  std::map<std::string, MetricDef> defs;
  for (const auto& m : data.metrics) defs[m.name] = m;
  for (const auto& b : data.benchmarks) {
    BenchmarkReport br;
    br.bench = b;
    std::map<std::string, std::vector<double>> values;
    std::map<std::string, int> failure_counts;
    for (const auto& ss : data.samples) {
      if (ss.benchmark_id != b.id || ss.sample.warmup) continue;
      if (!ss.sample.ok()) {
        if (ss.sample.outcome == SampleOutcome::kInterrupted) continue;
        ++br.failed_samples;
        ++failure_counts[ss.sample.error.empty() ? SampleOutcomeName(ss.sample.outcome) : ss.sample.error];
        continue;
      }
      ++br.ok_samples;
      for (const auto& [k, v] : ss.sample.values) values[k].push_back(v);
    }
    for (const auto& [msg, count] : failure_counts) br.failures.push_back(fmt::format("{} x{}", msg, count));
    for (auto& [name, vs] : values) {
      auto it = defs.find(name);
      br.metrics.push_back({it != defs.end() ? it->second : LookupMetric(name), stats::Summarize(vs)});
    }
    std::stable_sort(br.metrics.begin(), br.metrics.end(), [](const MetricSummary& a, const MetricSummary& c) {
      return TableRank(a.metric.name) < TableRank(c.metric.name);
    });
    for (const auto& name : PrimaryMetrics()) {
      if (values.count(name) > 0) {
        br.primary = name;
        break;
      }
    }
    if (br.primary.empty() && !br.metrics.empty()) br.primary = br.metrics.front().metric.name;
    if (!br.primary.empty()) {
      // Below 6 samples there is no 95% interval (stats/sign_interval.h): the line shows the MAD.
      auto interval = stats::SignTestMedianInterval(values[br.primary], 0.95);
      if (interval.ok()) br.primary_interval = *interval;
    }
    report.total_failed += br.failed_samples;
    report.benchmarks.push_back(std::move(br));
  }
  return report;
}

namespace {

size_t Width(const std::string& t) {  // code points: names may hold UTF-8
  size_t n = 0;
  for (unsigned char c : t) n += (c & 0xC0) != 0x80;
  return n;
}

std::string FailureLines(const BenchmarkReport& b, const ConsoleOptions& options) {
  std::string out;
  for (const auto& f : b.failures) {
    out += fmt::format("  {}FAILED{}: {}\n", options.color ? "\x1b[31m" : "", options.color ? "\x1b[0m" : "",
                       SingleLineText(f));
  }
  return out;
}

// One line per benchmark: name, n, median, its 95% interval (or MAD), the median of the CPU time
// it reports beside a wall-clock primary (Google Benchmark's "Time" and "CPU" columns; the column
// only when some benchmark has one), the metric.
std::string RenderLines(const RunReport& report, const ConsoleOptions& options) {
  using Row = std::vector<std::string>;
  Row head = {"benchmark", "n", "median", "95% interval of the median", "cpu median", "metric"};
  std::vector<Row> rows;
  bool any_cpu = false;
  for (const auto& b : report.benchmarks) {
    const MetricSummary* m = nullptr;
    const MetricSummary* cpu = nullptr;
    const std::string companion = CpuCompanion(b.primary);
    for (const auto& x : b.metrics) {
      if (x.metric.name == b.primary) m = &x;
      if (!companion.empty() && x.metric.name == companion && x.summary.n > 0) cpu = &x;
    }
    if (b.ok_samples == 0 || m == nullptr) {
      rows.push_back({SingleLineText(b.bench.name), "0", "-", "no successful samples", "", ""});
      continue;
    }
    const std::string& unit = m->metric.unit;
    const std::string spread = b.primary_interval
                                   ? fmt::format("[{}, {}]", FormatValue(b.primary_interval->lo, unit),
                                                 FormatValue(b.primary_interval->hi, unit))
                                   : fmt::format("MAD {} (n < 6: no interval)", FormatValue(m->summary.mad, unit));
    any_cpu = any_cpu || cpu != nullptr;
    rows.push_back({SingleLineText(b.bench.name), std::to_string(m->summary.n), FormatValue(m->summary.median, unit),
                    spread, cpu ? FormatValue(cpu->summary.median, cpu->metric.unit) : "",
                    SingleLineText(m->metric.name) + (cpu ? ", " + SingleLineText(cpu->metric.name) : "")});
  }
  if (any_cpu) head.back() = "metrics";
  if (!any_cpu) {
    head.erase(head.begin() + 4);
    for (auto& r : rows) r.erase(r.begin() + 4);
  }
  std::vector<size_t> w(head.size());
  for (size_t i = 0; i < head.size(); ++i) w[i] = Width(head[i]);
  for (const auto& r : rows) {
    for (size_t i = 0; i < head.size(); ++i) w[i] = std::max(w[i], Width(r[i]));
  }
  // Names and the interval left-aligned, numbers right-aligned; the last column is not padded.
  auto line = [&](const Row& r, bool bold) {
    const char* on = bold && options.color ? "\x1b[1m" : "";
    const char* off = bold && options.color ? "\x1b[0m" : "";
    std::string l = on + r[0] + off + std::string(w[0] - Width(r[0]), ' ');
    l += "  " + std::string(w[1] - Width(r[1]), ' ') + r[1];
    l += "  " + std::string(w[2] - Width(r[2]), ' ') + r[2];
    l += "  " + r[3] + std::string(w[3] - Width(r[3]), ' ');
    if (any_cpu) l += "  " + std::string(w[4] - Width(r[4]), ' ') + r[4];
    l += "  " + r.back();
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
  };
  std::string out = line(head, false);
  for (size_t i = 0; i < rows.size(); ++i) {
    out += line(rows[i], true);
    out += FailureLines(report.benchmarks[i], options);
  }
  return out;
}

}  // namespace

// Benchmark and metric names come from the target (a Google Benchmark binary names its own
// benchmarks and counters) and failures quote its output: each is printed as one line with its
// controls made visible (base/terminal_text.h), so no escape sequence reaches the terminal.
std::string RenderConsole(const RunReport& report, const ConsoleOptions& options) {
  if (!options.all_metrics && options.metrics.empty()) return RenderLines(report, options);
  // Columns sized to their content over the whole table (every benchmark's block aligns): a long
  // metric name or a value in GiB/s widens its column instead of shifting the rest of the row.
  using Row = std::vector<std::string>;
  const Row head = {"metric", "n", "median", "MAD", "CV", "min", "max"};
  std::vector<std::vector<Row>> rows(report.benchmarks.size());
  const auto width = Width;
  std::vector<size_t> w(head.size());
  for (size_t i = 0; i < head.size(); ++i) w[i] = width(head[i]);
  for (size_t bi = 0; bi < report.benchmarks.size(); ++bi) {
    const auto& b = report.benchmarks[bi];
    for (const auto& m : b.metrics) {
      bool shown =
          options.all_metrics || (options.metrics.empty() ? ShownByDefault(m.metric.name, b.bench.kind)
                                                          : std::find(options.metrics.begin(), options.metrics.end(),
                                                                      m.metric.name) != options.metrics.end());
      if (!shown) continue;
      const auto& s = m.summary;
      const std::string unit = m.metric.unit;
      rows[bi].push_back({SingleLineText(m.metric.name), std::to_string(s.n), FormatValue(s.median, unit),
                          FormatValue(s.mad, unit), std::isnan(s.cv) ? "-" : fmt::format("{:.2f}%", s.cv * 100),
                          FormatValue(s.min, unit), FormatValue(s.max, unit)});
      for (size_t i = 0; i < head.size(); ++i) w[i] = std::max(w[i], width(rows[bi].back()[i]));
    }
  }
  auto line = [&](const Row& r) {
    std::string l = "  " + r[0] + std::string(w[0] - width(r[0]), ' ');
    for (size_t i = 1; i < r.size(); ++i) l += "  " + std::string(w[i] - width(r[i]), ' ') + r[i];
    return l + "\n";
  };
  std::string out;
  for (size_t bi = 0; bi < report.benchmarks.size(); ++bi) {
    const auto& b = report.benchmarks[bi];
    const char* reset = options.color ? "\x1b[0m" : "";
    out += fmt::format("{}{}{}\n", options.color ? "\x1b[1m" : "", SingleLineText(b.bench.name), reset);
    if (b.ok_samples == 0) {
      out += "  no successful samples\n";
    } else {
      out += line(head);
      for (const auto& r : rows[bi]) out += line(r);
    }
    out += FailureLines(b, options);
  }
  return out;
}

nlohmann::json BytesToJson(const std::string& bytes) {
  if (IsValidUtf8(bytes)) return bytes;
  return {{"base64", Base64Encode(bytes)}};
}

StatusOr<std::string> BytesFromJson(const nlohmann::json& j, const std::string& field) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_object() && j.contains("base64") && j.at("base64").is_string()) {
    auto bytes = Base64Decode(j.at("base64").get<std::string>());
    if (!bytes.ok()) return bytes.status().WithContext(field);
    return *bytes;
  }
  return Status::DataLoss(fmt::format("{}: expected a string or {{\"base64\": ...}}", field));
}

nlohmann::json RunToJson(const RunData& data, const std::map<int64_t, std::string>& discarded) {
  using nlohmann::json;
  json command_line = json::array();
  for (const auto& a : data.run.command_line) command_line.push_back(BytesToJson(a));
  json run = {{"id", data.run.id},
              {"uid", data.run.uid},
              {"kind", data.run.kind},
              {"status", RunStatusName(data.run.status)},
              {"started_unix_ns", data.run.started_unix_ns},
              {"ended_unix_ns", data.run.ended_unix_ns},
              {"tare_version", data.run.tare_version},
              {"command_line", command_line},
              {"options", EmbedJson(data.run.options_json, json::object())},
              {"fingerprint_digest", data.run.fingerprint_digest}};
  {
    const Provenance& p = data.run.provenance;
    json tags = json::object();
    for (const auto& [k, v] : p.tags) tags[k] = v;
    run["provenance"] = {{"commit", p.commit.empty() ? json(nullptr) : json(p.commit)},
                         {"branch", p.branch.empty() ? json(nullptr) : json(p.branch)},
                         {"dirty", p.dirty ? json(*p.dirty) : json(nullptr)},
                         {"tags", tags}};
  }
  if (data.run.shard) {
    // --shard K/N (schema version 5): this run's shard and the whole split, names as bytes.
    const ShardRecord& sh = *data.run.shard;
    json assignment = json::array();
    for (const auto& [name, k] : sh.assignment) assignment.push_back({BytesToJson(name), k});
    run["shard"] = {{"shard", sh.index},     {"count", sh.count},
                    {"group", sh.group},     {"assignment_sha256", sh.assignment_sha256},
                    {"weights", sh.weights}, {"assignment", assignment}};
  }
  // Stored JSON columns as their values (base/json_read.h: text that is not JSON stays a string).
  json fingerprint = EmbedJson(data.run.fingerprint_json, json::object());
  json executables = json::array();
  for (const auto& e : data.executables) {
    executables.push_back({{"role", e.role},
                           {"path", BytesToJson(e.path)},
                           {"sha256", e.sha256},
                           {"info", EmbedJson(e.info_json, json::object())}});
  }
  json metrics = json::array();
  std::map<std::string, MetricDef> defs;
  for (const auto& m : data.metrics) {
    defs[m.name] = m;
    metrics.push_back({{"name", m.name},
                       {"unit", m.unit},
                       {"direction", DirectionName(m.direction)},
                       {"kind", MetricKindName(m.kind)},
                       {"description", m.description},
                       {"model", m.model}});
  }
  json notes = json::array();
  for (const auto& n : data.notes) notes.push_back({{"level", n.level}, {"message", BytesToJson(n.message)}});
  auto num = [](double v) { return std::isnan(v) ? json(nullptr) : json(v); };
  json benchmarks = json::array();
  for (const auto& b : data.benchmarks) {
    // Per arm, in the order arms first appear: the measured, successful, kept samples' values.
    std::vector<std::string> arms;
    std::map<std::string, std::map<std::string, std::vector<double>>> values;
    std::map<std::string, int64_t> arm_ok;
    int64_t ok = 0, failed = 0, set_aside = 0;
    json samples = json::array();
    for (const auto& ss : data.samples) {
      if (ss.benchmark_id != b.id) continue;
      const Sample& x = ss.sample;
      auto d = discarded.find(ss.id);
      json values_json = json::object();
      for (const auto& [k, v] : x.values) values_json[k] = num(v);
      samples.push_back({{"id", ss.id},
                         {"seq", x.seq},
                         {"arm", x.arm},
                         {"block", x.block},
                         {"warmup", x.warmup},
                         {"outcome", SampleOutcomeName(x.outcome)},
                         {"exit_code", x.exit_code},
                         {"signal", x.signal},
                         {"error", BytesToJson(x.error)},
                         {"started_unix_ns", x.started_unix_ns},
                         {"ended_unix_ns", x.ended_unix_ns},
                         {"stdout_tail", BytesToJson(x.stdout_tail)},
                         {"stderr_tail", BytesToJson(x.stderr_tail)},
                         {"values", values_json},
                         {"discarded", d == discarded.end() ? json(nullptr) : json(d->second)}});
      if (std::find(arms.begin(), arms.end(), x.arm) == arms.end()) arms.push_back(x.arm);
      if (d != discarded.end()) {
        ++set_aside;
        continue;
      }
      if (x.warmup || x.outcome == SampleOutcome::kInterrupted) continue;
      if (!x.ok()) {
        ++failed;
        continue;
      }
      ++ok;
      ++arm_ok[x.arm];
      for (const auto& [k, v] : x.values) values[x.arm][k].push_back(v);
    }
    json summaries = json::array();
    for (const auto& arm : arms) {
      std::vector<MetricSummary> ms;
      for (auto& [name, vs] : values[arm]) {
        auto it = defs.find(name);
        ms.push_back({it != defs.end() ? it->second : LookupMetric(name), stats::Summarize(vs)});
      }
      std::stable_sort(ms.begin(), ms.end(), [](const MetricSummary& a, const MetricSummary& c) {
        return TableRank(a.metric.name) < TableRank(c.metric.name);
      });
      json summary = json::object();
      for (const auto& m : ms) {
        const auto& s = m.summary;
        summary[m.metric.name] = {{"n", s.n},
                                  {"median", num(s.median)},
                                  {"mad", num(s.mad)},
                                  {"mean", num(s.mean)},
                                  {"stddev", num(s.stddev)},
                                  {"cv", num(s.cv)},
                                  {"min", num(s.min)},
                                  {"max", num(s.max)},
                                  {"p95", num(s.p95)},
                                  {"p99", num(s.p99)}};
      }
      summaries.push_back({{"arm", arm}, {"ok_samples", arm_ok[arm]}, {"metrics", summary}});
    }
    benchmarks.push_back({{"id", b.id},
                          {"uri", BytesToJson(b.uri)},
                          {"name", BytesToJson(b.name)},
                          {"kind", b.kind},
                          {"ok_samples", ok},
                          {"failed_samples", failed},
                          {"discarded_samples", set_aside},
                          {"summaries", summaries},
                          {"samples", samples}});
  }
  return {{"schema", kRunJsonSchema}, {"run", run},     {"fingerprint", fingerprint}, {"executables", executables},
          {"metrics", metrics},       {"notes", notes}, {"benchmarks", benchmarks}};
}

}  // namespace tare::report
