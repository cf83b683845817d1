// CampaignRunner::Cohort: sanity gates, checked once every cell has run its first block (every
// arm's first sample that ran must carry every metric, then the declared gates), and release
// bounds over the whole cohort (internal/running_cohort.h).
#include "internal/running_cohort.h"

#include <fmt/core.h>

#include <cmath>

#include "base/units.h"
#include "campaign/campaign_setup.h"

namespace tare::campaign {

Status CampaignRunner::Cohort::CheckGates() {
  gates_checked_ = true;
  gate_checks_.clear();
  std::string violation;
  const AnalysisSettings settings = Settings();
  // Built in: every arm's first sample that ran must carry every metric of the campaign (a metric
  // the host cannot measure would leave every cell without a verdict). A failed first sample is
  // its cell's business, not the campaign's: a failed sample, or a broken cell (broken_cell.h) that
  // is reported and settled on its own while the other cells go on.
  for (size_t c = 0; c < cells_.size(); ++c) {
    for (const auto& arm : r_.arms_) {
      auto& by_block = cells_[c].samples[arm];
      auto it = by_block.find(0);
      if (it == by_block.end()) continue;
      const Sample& s = it->second;
      if (!s.ok()) continue;
      for (const auto& m : settings.MetricsOf(r_.cells_[c].name)) {
        if (s.values.count(m.name)) continue;
        // Perf events the host cannot count leave a note "<event>: <why>".
        std::string why;
        for (const auto& event : PerfEventsFor({m})) {
          for (const auto& note : session_->recorder().unavailable()) {
            if (note.rfind(event + ":", 0) == 0) why = " (" + note + ")";
          }
        }
        violation = fmt::format(
            "metric {} was not measured for the {} arm in cell '{}'{}; remove it "
            "from the campaign's metrics",
            m.name, arm, r_.cells_[c].name, why);
        gate_checks_.push_back(
            {CheckKind::kGate, "every metric is measured", r_.cells_[c].name, arm, kNaN, kNaN, "", false});
        break;
      }
      if (!violation.empty()) break;
    }
    if (!violation.empty()) break;
  }
  if (violation.empty()) {
    for (const auto& g : r_.gates_) {
      const MetricDef def = LookupMetric(g.metric);
      for (size_t c = 0; c < cells_.size(); ++c) {
        const auto& samples = cells_[c].samples;
        auto value_of = [&](const std::string& a, const std::string& metric) {
          auto s = samples.find(a);
          if (s == samples.end()) return kNaN;
          auto b = s->second.find(0);
          if (b == s->second.end()) return kNaN;
          auto v = b->second.values.find(metric);
          return v == b->second.values.end() ? kNaN : v->second;
        };
        const auto refs = ExpandRuleArm(g.ref_arm, r_.arms_);
        for (const auto& arm : ExpandRuleArm(g.arm, r_.arms_)) {
          // "head" on both sides means each head against itself; "head" on the right side alone
          // means every head, each its own check.
          std::vector<std::string> against;
          if (g.ref_arm == kFirstHeadArm && RoleOfArm(arm) == ArmRole::kHead) {
            against = {arm};
          } else {
            against = refs;
          }
          if (against.empty()) against.push_back("");
          for (const auto& ref : against) {
            const double value = value_of(arm, g.metric);
            const double limit = ref.empty() ? kNaN : GateLimit(g, value_of(ref, g.ref_metric));
            const bool ok = !(value > limit);  // a missing value cannot violate
            const std::string who = against.size() > 1 ? fmt::format("{} vs {}", arm, ref) : arm;
            gate_checks_.push_back({CheckKind::kGate, g.text, r_.cells_[c].name, who, value, limit, def.unit, ok});
            if (!ok && violation.empty()) {
              violation =
                  fmt::format("sanity gate \"{}\" is violated in cell '{}': {} is {}, the limit is {}", g.text,
                              r_.cells_[c].name, who, FormatValue(value, def.unit), FormatValue(limit, def.unit));
            }
          }
        }
      }
    }
  }
  if (!violation.empty()) {
    session_->Stop(StopKind::kGate, violation + "; the campaign stopped after its first block");
  }
  return store_.SaveChecks(run_id_, CheckKind::kGate, gate_checks_);
}

std::vector<AbCheck> CampaignRunner::Cohort::EvaluateBounds() const {
  std::vector<AbCheck> out;
  for (const auto& b : spec_.bounds) {
    const MetricDef def = LookupMetric(b.metric);
    for (size_t c = 0; c < cells_.size(); ++c) {
      for (const auto& arm : ExpandRuleArm(b.arm, r_.arms_)) {
        std::vector<double> values;
        auto it = cells_[c].samples.find(arm);
        if (it != cells_[c].samples.end()) {
          for (const auto& [block, s] : it->second) {
            auto v = s.values.find(b.metric);
            if (s.ok() && v != s.values.end()) values.push_back(v->second);
          }
        }
        const double value = BoundStatistic(b.stat, values);
        out.push_back({CheckKind::kBound, b.text, r_.cells_[c].name, arm, value, b.limit, def.unit,
                       !(value > b.limit) && !std::isnan(value)});
      }
    }
  }
  return out;
}

}  // namespace tare::campaign
