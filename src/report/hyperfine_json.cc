#include "report/hyperfine_json.h"

#include <cmath>
#include <vector>

#include "report/run_report.h"
#include "stats/summary.h"

namespace tare::report {

nlohmann::ordered_json RunToHyperfineJson(const RunData& data) {
  using json = nlohmann::ordered_json;
  constexpr double kSecondsPerNs = 1e-9;
  auto seconds = [](double ns) { return std::isnan(ns) ? json(nullptr) : json(ns * kSecondsPerNs); };
  json results = json::array();
  for (const auto& b : data.benchmarks) {
    std::vector<double> wall_ns, user_ns, sys_ns;
    json times = json::array();
    json exit_codes = json::array();
    for (const auto& ss : data.samples) {
      const Sample& x = ss.sample;
      if (ss.benchmark_id != b.id || x.warmup || !x.ok()) continue;
      auto wall = x.values.find("wall_ns");
      if (wall == x.values.end()) continue;
      wall_ns.push_back(wall->second);
      times.push_back(wall->second * kSecondsPerNs);
      exit_codes.push_back(x.exit_code);
      if (auto u = x.values.find("user_ns"); u != x.values.end()) user_ns.push_back(u->second);
      if (auto s = x.values.find("sys_ns"); s != x.values.end()) sys_ns.push_back(s->second);
    }
    const stats::Summary wall = stats::Summarize(wall_ns);
    const stats::Summary user = stats::Summarize(user_ns);
    const stats::Summary sys = stats::Summarize(sys_ns);
    results.push_back({{"command", json(BytesToJson(b.kind == TargetKind::kCommand ? b.name : b.uri))},
                       {"mean", seconds(wall.mean)},
                       {"stddev", seconds(wall.stddev)},
                       {"median", seconds(wall.median)},
                       {"user", seconds(user.mean)},
                       {"system", seconds(sys.mean)},
                       {"min", seconds(wall.min)},
                       {"max", seconds(wall.max)},
                       {"times", times},
                       {"exit_codes", exit_codes}});
  }
  return {{"results", results}};
}

}  // namespace tare::report
