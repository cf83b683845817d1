#include "campaign/exact_plan.h"

#include <cmath>

#include <fmt/core.h>

#include "report/ledger.h"

namespace tare::campaign {
namespace {

// The value of `metric` in an arm's block, or nullptr when the sample is missing, failed or lacks it.
const double* ValueOf(const CellSamples& samples, const std::string& arm, int64_t block, const std::string& metric) {
  auto a = samples.find(arm);
  if (a == samples.end()) return nullptr;
  auto b = a->second.find(block);
  if (b == a->second.end() || !b->second.ok()) return nullptr;
  auto v = b->second.values.find(metric);
  return v == b->second.values.end() ? nullptr : &v->second;
}

std::string Number(double v) { return fmt::format("{:.15g}", v); }

}  // namespace

bool ExactPlanApplies(const CampaignSpec& spec) {
  if (spec.sampling_declared) return false;
  if (spec.instrument != Instrument::kSim && spec.instrument != Instrument::kMem) return false;
  // Under sim and mem the default metrics do not depend on the target kind.
  const std::vector<MetricSpec> metrics =
      spec.metrics.empty() ? DefaultMetrics(TargetKind::kCommand, spec.instrument) : spec.metrics;
  for (const auto& m : metrics) {
    if (!LookupMetric(m.name).deterministic) return false;
  }
  return !metrics.empty();
}

int64_t ExactPlanBlocks(bool null_arm) { return null_arm ? 1 : 2; }

std::string DeterminismCheck(const CellSamples& samples, int64_t blocks, const AnalysisSettings& settings) {
  std::vector<std::string> arms = {"base"};
  arms.insert(arms.end(), settings.heads.begin(), settings.heads.end());
  if (settings.null_arm) arms.push_back("null");
  for (const MetricSpec& spec : settings.metrics) {
    const std::string& metric = spec.name;
    for (const auto& arm : arms) {
      for (int64_t b = 0; b < blocks; ++b) {
        if (ValueOf(samples, arm, b, metric) == nullptr) {
          return fmt::format("{} block {} has no {} (a failed or missing sample)", arm, b, metric);
        }
      }
    }
    for (int64_t b = 0; b < blocks; ++b) {
      const double base = *ValueOf(samples, "base", b, metric);
      if (settings.null_arm) {
        // The null arm is base again: a rerun of base that must read the same.
        const double null = *ValueOf(samples, "null", b, metric);
        if (null != base) {
          return fmt::format("{} differs between base and its rerun, the null arm, in block {}: {} against {} ({})",
                             metric, b, Number(base), Number(null), report::SignedPercent(null / base - 1.0));
        }
        continue;
      }
      for (const auto& arm : arms) {
        const double first = *ValueOf(samples, arm, 0, metric);
        const double again = *ValueOf(samples, arm, b, metric);
        if (again != first) {
          return fmt::format("{} of {} differs between blocks 0 and {}: {} against {} ({})", metric, arm, b,
                             Number(first), Number(again), report::SignedPercent(again / first - 1.0));
        }
      }
    }
  }
  return "";
}

std::vector<AbComparison> JudgeCellExact(const CellSamples& samples, const std::string& cell, CellRole role,
                                         int64_t blocks, const AnalysisSettings& settings) {
  std::vector<AbComparison> out;
  for (const std::string& head : settings.heads) {
    AbComparison c;
    c.cell = cell;
    c.role = role;
    c.head = head;
    c.blocks = blocks;
    c.looks = 1;
    std::vector<Verdict> verdicts;
    for (const MetricSpec& spec : settings.MetricsOf(cell)) {
      std::string allowance_note;
      Allowance allowance;
      // Exact: no confidence level (the store needs a number; the JSON writes null).
      AbMetricResult m = MetricResultFor(spec, cell, settings, /*confidence=*/1.0, &allowance, &allowance_note);
      m.exact = true;
      m.pairs = blocks;
      const double* base = ValueOf(samples, "base", 0, spec.name);
      const double* value = ValueOf(samples, head, 0, spec.name);
      double change = kNaN;
      if (base != nullptr && value != nullptr) {
        m.base_median = *base;
        m.head_median = *value;
        if (*base > 0 && *value > 0) change = *value / *base - 1.0;
      }
      m.estimate = m.lo = m.hi = change;
      if (settings.null_arm) m.null_estimate = m.null_lo = m.null_hi = 0.0;  // the check: null = base
      MetricVerdict v = JudgeExact(change, m.direction, allowance);
      m.verdict = v.verdict;
      m.supported_gain = v.supported_gain;
      m.delta = v.delta;
      m.pass_bound = v.pass_bound;
      m.noise_floor = 0;
      m.changed = v.changed;
      m.reasons = v.reasons;
      if (!allowance_note.empty()) m.reasons.push_back(allowance_note);
      verdicts.push_back(m.verdict);
      c.metrics.push_back(std::move(m));
    }
    c.verdict = WorstVerdict(verdicts);
    for (const auto& m : c.metrics) c.supported_gain = c.supported_gain || m.supported_gain;
    c.layout_hint = LayoutHint(c);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace tare::campaign
