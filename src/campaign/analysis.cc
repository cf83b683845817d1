#include "campaign/analysis.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "campaign/broken_cell.h"
#include "campaign/cross_check.h"
#include "report/ledger.h"
#include "stats/sign_interval.h"
#include "stats/summary.h"

namespace tare::campaign {
namespace {

const Sample* Find(const CellSamples& samples, const std::string& arm, int64_t block) {
  auto a = samples.find(arm);
  if (a == samples.end()) return nullptr;
  auto b = a->second.find(block);
  return b == a->second.end() ? nullptr : &b->second;
}

bool Has(const Sample* s, const std::string& metric) {
  if (s == nullptr || !s->ok()) return false;
  auto it = s->values.find(metric);
  return it != s->values.end();
}

// The arms of one head's comparison among the cell's broken arms, with the first broken arm's
// first failure (its error and stderr, told once for the cell).
AbBroken BrokenFor(const CellSamples& samples, const std::vector<std::string>& broken_in_cell, const std::string& head,
                   int64_t blocks) {
  AbBroken b;
  for (const auto& arm : broken_in_cell) {
    if (arm == head || RoleOfArm(arm) != ArmRole::kHead) b.arms.push_back(arm);
  }
  if (b.arms.empty()) return b;
  for (const auto& [block, s] : samples.at(b.arms.front())) {
    if (block >= blocks || s.outcome == SampleOutcome::kInterrupted) continue;
    if (b.samples++ == 0) {
      b.error = s.error;
      b.stderr_tail = s.stderr_tail;
    }
  }
  return b;
}

}  // namespace

MetricDef ResolvedMetric(const MetricSpec& m) {
  MetricDef def = LookupMetric(m.name);
  if (m.direction) def.direction = *m.direction;
  return def;
}

AbMetricResult MetricResultFor(const MetricSpec& spec, const std::string& cell, const AnalysisSettings& settings,
                               double confidence, Allowance* allowance, std::string* allowance_note) {
  const MetricDef def = ResolvedMetric(spec);
  *allowance = EffectiveAllowance(spec, cell, settings, allowance_note);
  AbMetricResult m;
  m.metric = spec.name;
  m.unit = def.unit;
  m.direction = def.direction;
  m.allowance = AllowanceText(*allowance);
  m.declared = allowance->declared();
  m.confidence = confidence;
  m.has_null = settings.null_arm;
  return m;
}

Allowance EffectiveAllowance(const MetricSpec& metric, const std::string& cell, const AnalysisSettings& settings,
                             std::string* note) {
  Allowance a = metric.allowance;
  auto c = settings.cell_allowances.find(cell);
  if (c != settings.cell_allowances.end()) {
    auto m = c->second.find(metric.name);
    if (m != c->second.end()) a = m->second;
  }
  if (a.noise && LookupMetric(metric.name).deterministic) {
    a = Allowance::Fraction(kDeterministicAllowance);
    if (note != nullptr) {
      *note = fmt::format(
          "{} is deterministic (identical on every rerun), so its allowance noise "
          "means {}: smaller changes are reported as changed, not failed; set "
          "another with --metric {}=P or per cell",
          metric.name, AllowanceText(a), metric.name);
    }
  }
  auto same = settings.same_work.find(cell);
  if (same != settings.same_work.end() && settings.same_work_allowance > a.declared()) {
    const MetricDef def = LookupMetric(metric.name);
    if (def.kind == MetricKind::kTime && !def.deterministic) {
      a = Allowance::Fraction(settings.same_work_allowance);
      if (note != nullptr) *note = same->second;
    }
  }
  return a;
}

std::vector<AbComparison> JudgeCell(const CellSamples& samples, const std::string& cell, CellRole role, int64_t blocks,
                                    int64_t looks, double confidence, const AnalysisSettings& settings) {
  std::vector<AbComparison> out;
  // Failures, per arm, over the blocks judged.
  std::map<std::string, int64_t> failed;
  std::string first_error;
  for (const auto& [arm, by_block] : samples) {
    for (const auto& [block, s] : by_block) {
      if (block >= blocks || s.ok()) continue;
      ++failed[arm];
      if (first_error.empty()) first_error = fmt::format("{} block {}: {}", arm, block, s.error);
    }
  }
  int64_t failed_total = 0;
  for (const auto& [arm, n] : failed) failed_total += n;
  std::vector<std::string> arms = {"base"};
  arms.insert(arms.end(), settings.heads.begin(), settings.heads.end());
  if (settings.null_arm) arms.push_back("null");
  const std::vector<std::string> broken = BrokenArms(samples, arms, blocks);

  for (const std::string& head : settings.heads) {
    AbComparison c;
    c.cell = cell;
    c.role = role;
    c.head = head;
    c.blocks = blocks;
    c.looks = looks;
    c.failed_samples = failed_total;

    std::vector<Verdict> verdicts;
    for (const MetricSpec& spec : settings.MetricsOf(cell)) {
      std::string allowance_note;
      Allowance allowance;
      AbMetricResult m = MetricResultFor(spec, cell, settings, confidence, &allowance, &allowance_note);

      std::vector<double> base, head_values, null_values;
      for (int64_t b = 0; b < blocks; ++b) {
        const Sample* sb = Find(samples, "base", b);
        const Sample* sh = Find(samples, head, b);
        const Sample* sn = settings.null_arm ? Find(samples, "null", b) : nullptr;
        if (!Has(sb, spec.name) || !Has(sh, spec.name)) continue;
        if (settings.null_arm && !Has(sn, spec.name)) continue;
        base.push_back(sb->values.at(spec.name));
        head_values.push_back(sh->values.at(spec.name));
        if (sn != nullptr) null_values.push_back(sn->values.at(spec.name));
      }
      m.pairs = static_cast<int64_t>(base.size());
      m.base_median = stats::Median(base);
      m.head_median = stats::Median(head_values);

      stats::Interval interval{kNaN, kNaN};
      std::string no_interval;
      auto change = PairedInterval(settings.interval, base, head_values, confidence);
      if (change.ok()) {
        m.estimate = change->estimate;
        m.lo = change->lo;
        m.hi = change->hi;
        interval = {change->lo, change->hi};
      } else {
        no_interval = change.status().message();
        if (!base.empty()) m.estimate = m.head_median / m.base_median - 1.0;
      }
      std::optional<NullArm> null_arm;
      if (settings.null_arm) {
        auto null_change = PairedInterval(settings.interval, base, null_values, confidence);
        null_arm = null_change.ok()
                       ? ReadNullArm(null_change->estimate, {null_change->lo, null_change->hi}, allowance,
                                     settings.noise_floor, settings.noise_cap)
                       : ReadNullArm(kNaN, {kNaN, kNaN}, allowance, settings.noise_floor, settings.noise_cap);
        m.null_estimate = null_arm->estimate;
        m.null_lo = null_arm->change.lo;
        m.null_hi = null_arm->change.hi;
      }
      MetricVerdict v = JudgeMetric(interval, m.direction, allowance, null_arm, settings.noise_cap);
      m.verdict = v.verdict;
      m.supported_gain = v.supported_gain;
      m.delta = v.delta;
      m.pass_bound = v.pass_bound;
      m.noise_floor = v.noise_floor;
      m.host_too_noisy = v.host_too_noisy;
      m.reasons = v.reasons;
      m.changed = v.changed;
      // reasons.front() is the decisive one (the ledger prints it on the verdict's line): a missing
      // interval says why it is missing; the allowance note is context, after the verdict's reasons.
      if (!allowance_note.empty()) m.reasons.push_back(allowance_note);
      if (!no_interval.empty()) m.reasons.insert(m.reasons.begin(), no_interval);
      verdicts.push_back(m.verdict);
      c.metrics.push_back(std::move(m));
    }

    c.verdict = WorstVerdict(verdicts);
    c.broken = BrokenFor(samples, broken, head, blocks);
    const int64_t head_failed = failed.count(head) ? failed.at(head) : 0;
    const int64_t base_failed = failed.count("base") ? failed.at("base") : 0;
    const bool head_broken = std::find(c.broken.arms.begin(), c.broken.arms.end(), head) != c.broken.arms.end();
    if (c.broken.any()) {
      // No pair, so no null interval: that says nothing about the host (no HOST TOO NOISY).
      for (auto& m : c.metrics) m.host_too_noisy = false;
    }
    if (c.broken.cannot_be_measured()) {
      // No pair can exist: nothing about the change can be said, and more blocks would not help.
      c.verdict = Verdict::kInconclusive;
      c.reasons.push_back(fmt::format("BROKEN, cannot be measured: {} failed every sample ({} of {}){}: {}",
                                      ArmList(c.broken.arms), c.broken.samples, c.broken.samples,
                                      head_broken
                                          ? "; base fails too, so it is broken without the change"
                                          : fmt::format(" while {} ran, so there is no base to compare with", head),
                                      c.broken.error));
    } else if (head_broken) {
      c.verdict = Verdict::kFail;
      c.reasons.push_back(
          fmt::format("BROKEN in the head, a FAIL: {} failed every sample ({} of {}) where base ran: {}", head,
                      c.broken.samples, c.broken.samples, c.broken.error));
    } else if (head_failed > 0 && base_failed == 0) {
      c.verdict = Verdict::kFail;
      c.reasons.push_back(fmt::format("FAIL: {} failed {} of {} samples where base failed none (first: {})", head,
                                      head_failed, blocks, first_error));
    } else if (failed_total > 0) {
      if (c.verdict == Verdict::kPass) c.verdict = Verdict::kInconclusive;
      c.reasons.push_back(
          fmt::format("{} failed sample{} in this cell (first: {}); blocks with a failed sample are left out "
                      "of the pairs, and no PASS is certified",
                      failed_total, failed_total == 1 ? "" : "s", first_error));
    }
    for (const auto& m : c.metrics) c.supported_gain = c.supported_gain || m.supported_gain;
    c.layout_hint = LayoutHint(c);
    out.push_back(std::move(c));
  }
  return out;
}

WorkReading ReadWork(double time_change, double instructions_estimate, double instructions_lo, double instructions_hi) {
  const bool quiet = std::fabs(instructions_lo) <= kLayoutHintQuietInstructions &&
                     std::fabs(instructions_hi) <= kLayoutHintQuietInstructions;
  const bool far = std::fabs(time_change) >= kLayoutHintRatio * std::fabs(instructions_estimate);
  if (quiet && far) return WorkReading::kSameInstructions;
  const bool same_way =
      (time_change > 0 && instructions_estimate > 0) || (time_change < 0 && instructions_estimate < 0);
  if (!same_way || far) return WorkReading::kNotTheInstructions;
  return WorkReading::kExplained;
}

std::string LayoutHint(const AbComparison& c) {
  const AbMetricResult* instructions = nullptr;
  for (const auto& m : c.metrics) {
    if (CountsInstructions(m.metric) && !std::isnan(m.lo) && !std::isnan(m.hi)) {
      instructions = &m;
      break;
    }
  }
  if (instructions == nullptr) return "";
  for (const auto& m : c.metrics) {
    const MetricDef def = LookupMetric(m.metric);
    if (def.kind != MetricKind::kTime || def.deterministic) continue;
    if (m.verdict != Verdict::kFail && !m.supported_gain) continue;
    if (std::isnan(m.estimate)) continue;
    const WorkReading reading = ReadWork(m.estimate, instructions->estimate, instructions->lo, instructions->hi);
    if (reading == WorkReading::kExplained) continue;
    if (reading == WorkReading::kSameInstructions) {
      return fmt::format(
          "likely a layout effect: {} changed {} while {} changed {} (interval [{}, {}]), so the same "
          "instructions took {}; code or stack placement moves timings by several percent. Check with "
          "--layouts 4 (a change that holds in every layout is real) or judge --instrument sim",
          m.metric, report::SignedPercent(m.estimate), instructions->metric,
          report::SignedPercent(instructions->estimate), report::SignedPercent(instructions->lo),
          report::SignedPercent(instructions->hi), m.estimate > 0 ? "longer" : "less time");
    }
    // In words that agree with both signs (cross_check.h, WorkPhrase; issue 42).
    const bool with_time = (instructions->estimate > 0) == (m.estimate > 0);
    return fmt::format(
        "{}: {} changed {} while {} changed {} (interval [{}, {}]); {}. Check with --layouts 4, and the cache "
        "misses with --instrument sim",
        WorkPhrase(reading, m.estimate, instructions->estimate), m.metric, report::SignedPercent(m.estimate),
        instructions->metric, report::SignedPercent(instructions->estimate), report::SignedPercent(instructions->lo),
        report::SignedPercent(instructions->hi),
        with_time ? "most of it is memory, branch or layout effects, not the amount of work"
                  : "memory, branch or layout effects, not the amount of work");
  }
  return "";
}

bool GainUndecided(const AbMetricResult& m) {
  if (std::isnan(m.estimate) || std::isnan(m.lo) || std::isnan(m.hi) || m.supported_gain) return false;
  const bool lower_is_better = m.direction == Direction::kLowerIsBetter;
  const double w_estimate = lower_is_better ? m.estimate : -m.estimate;
  const double w_hi = lower_is_better ? m.hi : -m.lo;
  // Worth more pairs only when the estimate lies beyond what two copies of base differ by (the null
  // interval's far edge, the floor a PASS adds): issue 42 saw unchanged cells whose estimates sat at
  // -0.04% and -0.13%, just past a null estimate of about 0, chase a gain to 721 pairs while the
  // cell had PASSed at 40, spending most of a 5-minute campaign.
  double chase = m.noise_floor;
  if (m.has_null && std::isfinite(m.null_lo) && std::isfinite(m.null_hi)) {
    chase = std::max({chase, std::fabs(m.null_lo), std::fabs(m.null_hi)});
  }
  return w_estimate < -chase && w_hi >= -m.noise_floor;
}

bool NeedsMorePairs(const std::vector<AbComparison>& comparisons, bool chase_gains) {
  for (const auto& c : comparisons) {
    if (c.verdict == Verdict::kInconclusive) return true;
    if (c.verdict == Verdict::kFail || !chase_gains) continue;
    for (const auto& m : c.metrics) {
      if (GainUndecided(m)) return true;
    }
  }
  return false;
}

}  // namespace tare::campaign
