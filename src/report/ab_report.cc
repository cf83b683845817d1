#include "report/ab_report.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/core.h>

#include "base/units.h"
#include "report/ledger_sections.h"

namespace tare::report {

void JudgeLayoutRow(AbLayoutRow& row) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  bool above = false, below = false, fail = false, not_fail = false;
  row.sensitive = false;
  for (size_t k = 0; k < row.estimates.size(); ++k) {
    if (std::isfinite(row.estimates[k])) {
      lo = std::min(lo, row.estimates[k]);
      hi = std::max(hi, row.estimates[k]);
    }
    if (k < row.los.size()) above = above || row.los[k] > 0;
    if (k < row.his.size()) below = below || row.his[k] < 0;
    if (k < row.verdicts.size()) {
      fail = fail || row.verdicts[k] == Verdict::kFail;
      not_fail = not_fail || row.verdicts[k] != Verdict::kFail;
    }
  }
  row.spread = hi >= lo ? hi - lo : 0.0;
  // FAIL in some layouts and not in others, or intervals on opposite sides of 0. PASS in one layout
  // and INCONCLUSIVE in another is the same change, certified in one (issue 21).
  row.sensitive = (fail && not_fail) || (above && below);
}

bool AbReport::AnyHostTooNoisy() const {
  for (const auto& c : comparisons) {
    for (const auto& m : c.metrics) {
      if (m.host_too_noisy) return true;
    }
  }
  return false;
}

bool AbReport::GatesOk() const {
  for (const auto& c : checks) {
    if (c.kind == CheckKind::kGate && !c.ok) return false;
  }
  return true;
}

bool AbReport::BoundsOk() const {
  for (const auto& c : checks) {
    if (c.kind == CheckKind::kBound && !c.ok) return false;
  }
  return true;
}

std::vector<std::string> AbReport::UnmeasurableCells() const {
  std::vector<std::string> out;
  for (const auto& c : comparisons) {
    if (c.broken.cannot_be_measured() && std::find(out.begin(), out.end(), c.cell) == out.end()) {
      out.push_back(c.cell);
    }
  }
  return out;
}

std::string SamplingText(const SamplingPlan& plan) {
  if (plan.cap <= plan.initial) return fmt::format("{} pairs per cell, one look", plan.initial);
  if (plan.growth > 1) {
    return fmt::format("{} pairs per cell, then, for each cell still undecided, looks that double up to {}",
                       plan.initial, plan.cap);
  }
  return fmt::format("{} pairs per cell, then {} more per look for each cell still undecided, up to {}", plan.initial,
                     plan.step, plan.cap);
}

std::string BudgetText(int64_t budget_ns, bool is_default) {
  if (budget_ns <= 0) return "none (the cap alone ends sampling)";
  return fmt::format("{}{}, from the first sample, never cutting a cell's first look short",
                     FormatDurationNs(static_cast<double>(budget_ns)),
                     is_default ? " (the default: 30 s per cell, at most 10 min)" : "");
}

std::string CohortSamplingText(const AbReport& r) {
  if (r.exact_blocks > 0) {
    return fmt::format(
        "exact plan (every metric deterministic): {} per cell, then the determinism check — {}; a cell "
        "that passes gets the exact verdict on head/base − 1, a cell whose values differ falls back to "
        "the statistical plan: {}",
        r.exact_blocks == 1 ? "1 block (each arm once)"
                            : fmt::format("{} blocks (each arm {} times)", r.exact_blocks, r.exact_blocks),
        r.exact_blocks == 1 ? "the null arm, a rerun of base, must read exactly what base reads"
                            : "every arm must read exactly the same in every block",
        SamplingText(r.sampling));
  }
  if (r.sampling.cap > r.sampling.initial) {
    return fmt::format("{}; looks at {} pairs", SamplingText(r.sampling), ledger_detail::JoinInts(r.look_pairs));
  }
  return SamplingText(r.sampling);
}

bool CohortStatesBudget(const AbReport& r) { return r.exact_blocks == 0 || r.budget_ns > 0; }

}  // namespace tare::report
