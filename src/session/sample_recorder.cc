#include "session/sample_recorder.h"

namespace tare::session {

void SampleRecorder::Seed(const RunData& stored) {
  for (const auto& m : stored.metrics) metrics_.insert(m.name);
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

StatusOr<int64_t> SampleRecorder::Record(int64_t benchmark_id, const std::string& uri,
                                         const std::string& bench_name, const std::string& label,
                                         const Measured& m) {
  for (const auto& [name, value] : m.sample.values) {
    if (metrics_.count(name)) continue;
    TARE_RETURN_IF_ERROR(writer_.AddMetric(run_id_, LookupMetric(name)));
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
  const std::string& arm = m.sample.arm;
  if (!m.extras.artifacts.empty() && m.sample.ok() && !profiles_.count(uri + "\x1f" + arm)) {
    for (const auto& [name, content] : m.extras.artifacts) {
      TARE_RETURN_IF_ERROR(writer_.AddArtifact(run_id_, benchmark_id, arm.empty() ? name : arm + "/" + name, content));
    }
    profiles_.insert(uri + "\x1f" + arm);
  }
  return writer_.AppendSample(run_id_, benchmark_id, m.sample);
}

}  // namespace tare::session
