#include "instrument/process_metrics.h"
#include "model/metric_names.h"

#include <fmt/format.h>

namespace tare::instrument {

std::string PerfMetricName(const std::string& event) {
  std::string name = metric_name::kPerfPrefix;
  for (char c : event) name += (c == '-') ? '_' : c;
  if (event == "task-clock") name += "_ns";  // task-clock counts nanoseconds
  return name;
}

void AddProcessMetrics(const proc::SpawnResult& r, std::map<std::string, double>* values,
                       std::vector<std::string>* unavailable) {
  auto& v = *values;
  v["wall_ns"] = static_cast<double>(r.wall_ns);
  v["user_ns"] = static_cast<double>(r.user_ns);
  v["sys_ns"] = static_cast<double>(r.sys_ns);
  if (r.peak_rss_floor_bytes > 0) {
    if (unavailable != nullptr) {
      unavailable->push_back(
          fmt::format("peak_rss_bytes: not measured in samples whose process stayed at or below {} KiB: the spawn "
                      "helper's own pages, shared with the child until its exec, cannot be told apart from the child's",
                      r.peak_rss_floor_bytes / 1024));
    }
  } else {
    v["peak_rss_bytes"] = static_cast<double>(r.peak_rss_bytes);
  }
  v["minor_faults"] = static_cast<double>(r.minor_faults);
  v["major_faults"] = static_cast<double>(r.major_faults);
  v["voluntary_ctx_switches"] = static_cast<double>(r.voluntary_ctx_switches);
  v["involuntary_ctx_switches"] = static_cast<double>(r.involuntary_ctx_switches);
  for (const auto& p : r.perf) {
    if (p.value) {
      v[PerfMetricName(p.event)] = *p.value;
    } else if (unavailable != nullptr && !p.unavailable.empty()) {
      unavailable->push_back(p.unavailable);
    }
  }
}

}  // namespace tare::instrument
