#include "session/sample_recorder.h"

#include <fmt/core.h>

#include "stats/summary.h"

namespace tare::session {

void SampleRecorder::Seed(const RunData& stored) {
  for (const auto& m : stored.metrics) {
    metrics_.insert(m.name);
    // Stored as higher-is-better although its name does not say so: the target called it a rate.
    if (m.direction == Direction::kHigherIsBetter && LookupMetric(m.name).direction != m.direction) {
      rates_.insert(m.name);
    }
  }
  for (const auto& n : stored.notes) {
    if (n.level == "warn") {
      warnings_.push_back(n.message);
    } else if (reasons_.insert(n.message).second) {
      unavailable_.push_back(n.message);
    }
  }
}

bool SampleRecorder::HaveWarning(const std::string& key) const {
  for (const auto& w : warnings_) {
    if (w == key || w.rfind(key + ":", 0) == 0) return true;
  }
  return false;
}

StatusOr<int64_t> SampleRecorder::Record(int64_t benchmark_id, const std::string& uri, const std::string& bench_name,
                                         const std::string& label, const Measured& m) {
  for (const auto& name : m.extras.rates) {
    if (m.sample.values.count(name)) rates_.insert(name);
  }
  // What the program said about its own figures ($TARE_METRICS_FILE): the first sample that
  // reports a metric defines its unit and direction for the run.
  for (const auto& def : m.extras.reported) {
    if (metrics_.count(def.name)) continue;
    if (def.direction == Direction::kHigherIsBetter) rates_.insert(def.name);
    TARE_RETURN_IF_ERROR(writer_.AddMetric(run_id_, def));
    metrics_.insert(def.name);
  }
  for (const auto& [name, value] : m.sample.values) {
    if (metrics_.count(name)) continue;
    MetricDef def = LookupMetric(name);
    if (rates_.count(name)) {
      // A rate whatever its name (Counter::kIsRate): per second, and more is better.
      def.direction = Direction::kHigherIsBetter;
      if (def.unit == "count") def.unit = "/s";
      def.description = "Google Benchmark rate counter (per second)";
    }
    TARE_RETURN_IF_ERROR(writer_.AddMetric(run_id_, def));
    metrics_.insert(name);
  }
  for (const auto& reason : m.unavailable) {
    if (reasons_.count(reason)) continue;
    TARE_RETURN_IF_ERROR(writer_.AddNote(run_id_, {"info", reason}));
    reasons_.insert(reason);
    unavailable_.push_back(reason);
  }
  for (std::string w : m.extras.warnings) {
    // Warnings may start with the benchmark's own name; the label names it already.
    if (!bench_name.empty() && w.rfind(bench_name + ": ", 0) == 0) w.erase(0, bench_name.size() + 2);
    const std::string key = label + ": " + w.substr(0, w.find(':'));
    if (HaveWarning(key)) continue;
    const std::string note = label + ": " + w;
    TARE_RETURN_IF_ERROR(writer_.AddNote(run_id_, {"warn", note}));
    warnings_.push_back(note);
  }
  if (!m.sample.warmup && m.sample.ok()) {
    auto u = m.sample.values.find("user_ns"), y = m.sample.values.find("sys_ns");
    if (u != m.sample.values.end() && y != m.sample.values.end()) {
      if (!cpu_.count(label)) cpu_order_.push_back(label);
      cpu_[label].first.push_back(u->second);
      cpu_[label].second.push_back(y->second);
    }
  }
  const std::string& arm = m.sample.arm;
  if (!m.extras.artifacts.empty() && m.sample.ok() && !profiles_.count(uri + "\x1f" + arm)) {
    for (const auto& [name, content] : m.extras.artifacts) {
      TARE_RETURN_IF_ERROR(writer_.AddArtifact(run_id_, benchmark_id, arm.empty() ? name : arm + "/" + name, content));
    }
    profiles_.insert(uri + "\x1f" + arm);
  }
  return writer_.AppendSample(run_id_, benchmark_id, m.sample);
}

Status SampleRecorder::WriteRunWarnings() {
  for (const auto& label : cpu_order_) {
    const auto& [user, sys] = cpu_[label];
    if (user.empty()) continue;
    const double mu = stats::Median(user), ms = stats::Median(sys);
    if (mu + ms < kSyscallJudgedCpuNs || ms / (mu + ms) <= kSyscallHeavyShare) continue;
    const std::string key = label + ": syscall-heavy";
    if (HaveWarning(key)) continue;
    const std::string note = fmt::format(
        "{}: syscall-heavy: the median system time is {:.0f}% of the process's CPU time over {} samples; kernel "
        "work varies more than user code and `--instrument sim` does not count it, so compare with wall",
        label, 100 * ms / (mu + ms), user.size());
    TARE_RETURN_IF_ERROR(writer_.AddNote(run_id_, {"warn", note}));
    warnings_.push_back(note);
  }
  return Status::Ok();
}

}  // namespace tare::session
