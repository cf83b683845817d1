#include "campaign/cross_check.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "base/units.h"
#include "campaign/analysis.h"
#include "model/metric_names.h"
#include "report/ledger.h"

namespace tare::campaign {
namespace {

// The figures shown beside the reading, in this order: what the instruction count does not see.
struct Figure {
  const char* label;
  std::vector<const char*> metrics;  // summed
};
const std::vector<Figure>& Figures() {
  static const std::vector<Figure> figures = {
      {"I1 misses", {metric_name::kSimI1mr}},
      {"D1 misses", {metric_name::kSimD1mr, metric_name::kSimD1mw}},
      {"LL misses", {metric_name::kSimILmr, metric_name::kSimDLmr, metric_name::kSimDLmw}},
      {"est. cycles", {metric_name::kSimEstCycles}},
  };
  return figures;
}

double Sum(const std::map<std::string, double>& values, const std::vector<const char*>& metrics, bool* all) {
  double sum = 0;
  for (const char* m : metrics) {
    auto it = values.find(m);
    if (it == values.end()) {
      *all = false;
      return 0;
    }
    sum += it->second;
  }
  return sum;
}

// "1.20k → 250k (+20733%)"
std::string Move(double base, double head) {
  std::string change = base > 0 ? " (" + report::SignedPercent(head / base - 1.0) + ")" : "";
  return fmt::format("{} → {}{}", FormatCount(base), FormatCount(head), change);
}

}  // namespace

std::string WorkPhrase(WorkReading reading, double time_change, double instructions_change) {
  const bool slower = time_change > 0;
  switch (reading) {
    case WorkReading::kExplained:
      return slower ? "more work" : "less work";
    case WorkReading::kSameInstructions:
      return "same work";
    case WorkReading::kNotTheInstructions:
      break;
  }
  // The instructions moved with the time but far less (ReadWork: under a quarter of it), or the
  // other way. Either says so; "not less work" beside "instructions -1.14%" read as a contradiction.
  if (instructions_change > 0 && slower) return "more work, but far less than the time";
  if (instructions_change < 0 && !slower) return "less work, but far less than the time";
  return slower ? "fewer instructions, yet slower" : "more instructions, yet faster";
}

std::string KernelTimeMove(const std::map<std::string, double>& base, const std::map<std::string, double>& head) {
  auto value = [](const std::map<std::string, double>& m, const char* name) {
    auto it = m.find(name);
    return it == m.end() ? -1.0 : it->second;
  };
  const double calls_b = value(base, metric_name::kSimSyscalls), calls_h = value(head, metric_name::kSimSyscalls);
  const double cpu_b = value(base, metric_name::kSimSyscallCpuNs), cpu_h = value(head, metric_name::kSimSyscallCpuNs);
  if (calls_b < 0 || calls_h < 0 || cpu_b < 0 || cpu_h < 0) return "";
  // The count is exact (the same program makes the same calls); the CPU time is real, so noisy:
  // it counts only beyond half of itself and a millisecond.
  const bool calls_moved = std::abs(calls_h - calls_b) > std::max(10.0, 0.1 * std::max(calls_b, calls_h));
  const bool cpu_moved = std::abs(cpu_h - cpu_b) > std::max(1e6, 0.5 * std::max(cpu_b, cpu_h));
  if (!calls_moved && !cpu_moved) return "";
  return fmt::format("system calls {}, their CPU time {} → {}", Move(calls_b, calls_h), FormatDurationNs(cpu_b),
                     FormatDurationNs(cpu_h));
}

const AbMetricResult* CrossCheckedMetric(const AbComparison& c) {
  for (const auto& m : c.metrics) {
    const MetricDef def = LookupMetric(m.metric);
    if (def.kind != MetricKind::kTime || def.deterministic || std::isnan(m.estimate)) continue;
    if (m.verdict == Verdict::kFail || m.supported_gain) return &m;
  }
  return nullptr;
}

AbCrossCheck ReadCrossCheck(const AbMetricResult& time, const std::map<std::string, double>& base,
                            const std::map<std::string, double>& head, int64_t layouts) {
  AbCrossCheck x;
  x.metric = time.metric;
  x.time_change = time.estimate;
  for (const auto& [name, value] : base) {
    if (name.rfind(metric_name::kSimPrefix, 0) == 0) x.base.emplace_back(name, value);
  }
  for (const auto& [name, value] : head) {
    if (name.rfind(metric_name::kSimPrefix, 0) == 0) x.head.emplace_back(name, value);
  }
  auto b = base.find(metric_name::kSimIr);
  auto h = head.find(metric_name::kSimIr);
  if (b == base.end() || h == head.end() || !(b->second > 0) || !(h->second > 0)) {
    x.error = "valgrind read no instructions for base or head";
    return x;
  }
  x.instructions_change = h->second / b->second - 1.0;
  const bool worse_time = (time.direction == Direction::kLowerIsBetter) == (time.estimate > 0);
  const std::string more = worse_time ? "more" : "less";
  const std::string time_text = fmt::format("{} {}", time.metric, report::SignedPercent(time.estimate));
  const std::string instructions_text = fmt::format("instructions {}", report::SignedPercent(x.instructions_change));
  const WorkReading work = ReadWork(time.estimate, x.instructions_change, x.instructions_change, x.instructions_change);
  // `reading` keeps its tare.ab/1 values ("not less work": the instructions do not account for the
  // gain); `phrase` says it in words that agree with the signs of both figures.
  x.reading = work == WorkReading::kExplained          ? more + " work"
              : work == WorkReading::kSameInstructions ? "same work"
                                                       : "not " + more + " work";
  x.phrase = WorkPhrase(work, time.estimate, x.instructions_change);
  // Valgrind counts no instruction of the kernel (issue 48, item 5): a time change made by system
  // calls reads as the same work, which is not a layout effect.
  const std::string kernel = KernelTimeMove(base, head);
  const std::string kernel_why =
      "valgrind counts no instruction of the kernel; compare sys_ns, or `strace -c` each arm";
  std::string reading;
  switch (work) {
    case WorkReading::kExplained:
      reading = fmt::format("{} — the head executes {} instructions", x.phrase, worse_time ? "more" : "fewer");
      break;
    case WorkReading::kSameInstructions:
      if (!kernel.empty()) {
        reading = fmt::format("the same user-space work, but kernel time moved: {} — {}", kernel, kernel_why);
        break;
      }
      // Once --layouts ran, the advice is what they could not vary (issue 42: "check with --layouts 4"
      // was printed under every layout of a --layouts 4 cohort).
      reading = layouts > 1 ? fmt::format(
                                  "the same work — a placement effect the {} layouts that ran (where the stack and "
                                  "the heap sit) did not remove; code placement moves only with a rebuild (e.g. "
                                  "-falign-functions=64, or another link order)",
                                  layouts)
                            : "the same work — likely a layout effect (check with --layouts 4)";
      break;
    case WorkReading::kNotTheInstructions:
      if (!kernel.empty()) {
        reading = fmt::format("{} — kernel time moved: {} ({})", x.phrase, kernel, kernel_why);
        break;
      }
      reading = x.phrase + ((x.instructions_change > 0) == (time.estimate > 0)
                                ? " — the instructions account for at most a quarter of it; memory, branch or "
                                  "layout effects do the rest"
                                : " — memory, branch or layout effects");
      break;
  }
  std::string figures;
  for (const auto& f : Figures()) {
    bool all_b = true, all_h = true;
    const double vb = Sum(base, f.metrics, &all_b);
    const double vh = Sum(head, f.metrics, &all_h);
    if (!all_b || !all_h) continue;
    figures += fmt::format("{}{} {}", figures.empty() ? "" : ", ", f.label, Move(vb, vh));
  }
  x.line = fmt::format("{}, {}: {}{}", time_text, instructions_text, reading,
                       figures.empty() ? "" : fmt::format(" (sim: {})", figures));
  return x;
}

}  // namespace tare::campaign
