#include "campaign/planner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "base/numbers.h"
#include "stats/summary.h"

namespace tare::campaign {
namespace {

constexpr size_t kMinPilotBlocks = 6;
// Robust SD of a normal sample from its median absolute deviation.
constexpr double kMadToSd = 1.4826;

double RobustSpread(const std::vector<PilotBlock>& pilot, double PilotBlock::*arm) {
  std::vector<double> logs;
  logs.reserve(pilot.size());
  for (const auto& b : pilot) logs.push_back(std::log(b.*arm / b.base));
  return kMadToSd * stats::MedianAbsoluteDeviation(logs);
}

// Uniform index in [0, n) from the generator's raw bits: the same sequence on every platform
// (std::uniform_int_distribution's is implementation-defined).
size_t Draw(std::mt19937_64& rng, size_t n) {
  return static_cast<size_t>((static_cast<double>(rng() >> 11) * 0x1.0p-53) * static_cast<double>(n));
}

// Rates over `draws` (each a list of blocks as long as the plan's cap) at one change.
OutcomeRates Rates(const std::vector<std::vector<PilotBlock>>& draws, double change, const LookPlan& looks,
                   const PlanQuery& q) {
  OutcomeRates r;
  r.change = change;
  double pairs = 0;
  for (const auto& blocks : draws) {
    const SimulatedCampaign c = SimulateCampaign(blocks, change, looks, q);
    switch (c.verdict) {
      case Verdict::kPass:
        r.pass += 1;
        break;
      case Verdict::kFail:
        r.fail += 1;
        break;
      case Verdict::kInconclusive:
        r.inconclusive += 1;
        break;
    }
    pairs += static_cast<double>(c.pairs);
  }
  const double n = static_cast<double>(draws.size());
  r.pass /= n;
  r.fail /= n;
  r.inconclusive /= n;
  r.mean_pairs = pairs / n;
  return r;
}

double StandardNormal(std::mt19937_64& rng) {
  const double u1 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
  const double u2 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

// A smoothed block bootstrap. Drawing whole blocks keeps what the arms of a block share; but a
// plain bootstrap of n blocks can only ever put one of n pilot values at the rank the sign-test
// interval reads, so with 20 blocks the predicted rates jump in steps and ignore the spread between
// the values (seen: tripling the head's noise left the FAIL rate at +3% unchanged). So each drawn
// block's head and null log ratios to base get a Gaussian kernel (Silverman's bandwidth
// h = 1.06 s n^-1/5, s their robust spread), shrunk by 1/sqrt(1 + h^2/s^2) so the spread is kept.
std::vector<std::vector<PilotBlock>> Resample(const std::vector<PilotBlock>& pilot, int64_t blocks, int simulations,
                                              uint64_t seed) {
  const double n = static_cast<double>(pilot.size());
  struct Kernel {
    double h = 0, shrink = 1;
  };
  auto kernel = [&](double PilotBlock::*arm) {
    Kernel k;
    const double s = RobustSpread(pilot, arm);
    if (!(s > 0)) return k;
    k.h = 1.06 * s * std::pow(n, -0.2);
    k.shrink = 1.0 / std::sqrt(1.0 + (k.h * k.h) / (s * s));
    return k;
  };
  const Kernel kh = kernel(&PilotBlock::head);
  const bool has_null = std::isfinite(pilot.front().null) && pilot.front().null > 0;
  const Kernel kn = has_null ? kernel(&PilotBlock::null) : Kernel{};
  auto smooth = [](double base, double value, const Kernel& k, double z) {
    if (k.h == 0) return value;
    return base * std::exp((std::log(value / base) + k.h * z) * k.shrink);
  };
  std::mt19937_64 rng(seed);
  std::vector<std::vector<PilotBlock>> draws(static_cast<size_t>(simulations));
  for (auto& d : draws) {
    d.reserve(static_cast<size_t>(blocks));
    for (int64_t i = 0; i < blocks; ++i) {
      PilotBlock b = pilot[Draw(rng, pilot.size())];
      b.head = smooth(b.base, b.head, kh, StandardNormal(rng));
      if (has_null) b.null = smooth(b.base, b.null, kn, StandardNormal(rng));
      d.push_back(b);
    }
  }
  return draws;
}

// Candidate caps grow by a quarter at a time, rounded up to whole steps (so "--cap 740", not 737).
int64_t NextCandidateCap(int64_t cap, int64_t step) {
  const int64_t next = std::max(cap + step, cap + cap / 4);
  return (next + step - 1) / step * step;
}

}  // namespace

const std::vector<double>& PlanChangeGrid() {
  static const std::vector<double> grid = {0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04,
                                           0.05,   0.075, 0.1,    0.15, 0.2,   0.3,  0.5};
  return grid;
}

SimulatedCampaign SimulateCampaign(const std::vector<PilotBlock>& blocks, double change, const LookPlan& looks,
                                   const PlanQuery& q) {
  const MetricDef def = ResolvedMetric(q.metric);
  const double factor = def.direction == Direction::kHigherIsBetter ? 1.0 / (1.0 + change) : 1.0 + change;
  AnalysisSettings settings = q.settings;
  settings.heads = {"head"};
  settings.metrics = {q.metric};

  CellSamples samples;
  auto put = [&](const char* arm, int64_t b, double v) {
    Sample s;
    s.arm = arm;
    s.block = b;
    s.values[q.metric.name] = v;
    samples[arm][b] = std::move(s);
  };
  SimulatedCampaign out;
  size_t filled = 0;
  for (size_t look = 0; look < looks.pairs.size(); ++look) {
    const int64_t pairs = looks.pairs[look];
    for (; filled < static_cast<size_t>(pairs) && filled < blocks.size(); ++filled) {
      const auto b = static_cast<int64_t>(filled);
      put("base", b, blocks[filled].base);
      put("head", b, blocks[filled].head * factor);
      if (settings.null_arm) put("null", b, blocks[filled].null);
    }
    const std::vector<AbComparison> judged = JudgeCell(
        samples, q.cell, CellRole::kTarget, pairs, static_cast<int64_t>(look) + 1, looks.per_look_confidence, settings);
    out.verdict = judged.front().verdict;
    out.pairs = pairs;
    // A same-work cell (the work tier) does not chase a gain: the runner's Look does the same.
    if (!NeedsMorePairs(judged, /*chase_gains=*/settings.same_work.count(q.cell) == 0)) break;
  }
  return out;
}

namespace {

StatusOr<std::vector<PilotBlock>> UsablePilot(const std::vector<PilotBlock>& pilot_in, const PlanQuery& q) {
  std::vector<PilotBlock> pilot;
  for (const auto& b : pilot_in) {
    const bool null_ok = !q.settings.null_arm || (std::isfinite(b.null) && b.null > 0);
    if (std::isfinite(b.base) && b.base > 0 && std::isfinite(b.head) && b.head > 0 && null_ok) {
      pilot.push_back(b);
    }
  }
  if (pilot.size() < kMinPilotBlocks) {
    return Status::FailedPrecondition(
        fmt::format("cell '{}', metric {}: the pilot has {} usable block{} (every arm's sample succeeded and "
                    "carries the metric, values > 0); planning needs at least {}: raise --pilot, or fix the "
                    "failing samples",
                    q.cell, q.metric.name, pilot.size(), pilot.size() == 1 ? "" : "s", kMinPilotBlocks));
  }
  // The bootstrap world must have no change between the copies: the pilot's own A/A sampling error
  // (its median ln(head/base) is never exactly 0) would otherwise become a true shift in every
  // simulated campaign, and bias every prediction (seen: PASS at no change predicted 0.35 where
  // fresh campaigns give 0.72). So head and null are recentred on base: their median log ratio is
  // made exactly 0, their spread kept.
  auto recentre = [&pilot](double PilotBlock::*arm) {
    std::vector<double> logs;
    for (const auto& b : pilot) logs.push_back(std::log(b.*arm / b.base));
    const double shift = std::exp(-stats::Median(logs));
    for (auto& b : pilot) b.*arm *= shift;
  };
  recentre(&PilotBlock::head);
  if (q.settings.null_arm) recentre(&PilotBlock::null);
  return pilot;
}

}  // namespace

LookPlan BudgetedLooks(LookPlan looks, int64_t budget_pairs) {
  if (budget_pairs <= 0 || looks.pairs.empty() || budget_pairs >= looks.pairs.back()) return looks;
  std::vector<int64_t> kept = {looks.pairs.front()};
  for (size_t i = 1; i < looks.pairs.size() && looks.pairs[i] <= budget_pairs; ++i) kept.push_back(looks.pairs[i]);
  if (looks.scheme == LookScheme::kBonferroni && budget_pairs > kept.back()) kept.push_back(budget_pairs);
  looks.pairs = std::move(kept);
  return looks;
}

StatusOr<OutcomeRates> PredictOutcome(const std::vector<PilotBlock>& pilot_in, double change, const PlanQuery& q) {
  TARE_ASSIGN_OR_RETURN(std::vector<PilotBlock> pilot, UsablePilot(pilot_in, q));
  TARE_ASSIGN_OR_RETURN(LookPlan planned, PlanLooks(q.sampling, q.confidence, q.look_scheme));
  const LookPlan looks = BudgetedLooks(planned, q.budget_pairs);
  return Rates(Resample(pilot, q.sampling.cap, q.simulations, q.seed), change, looks, q);
}

StatusOr<OutcomeRates> ProjectCell(const std::vector<PilotBlock>& so_far, const PlanQuery& q) {
  std::vector<PilotBlock> usable;
  for (const auto& b : so_far) {
    const bool null_ok = !q.settings.null_arm || (std::isfinite(b.null) && b.null > 0);
    if (std::isfinite(b.base) && b.base > 0 && std::isfinite(b.head) && b.head > 0 && null_ok) usable.push_back(b);
  }
  if (usable.size() < kMinPilotBlocks) {
    return Status::FailedPrecondition(fmt::format("cell '{}', metric {}: {} usable block{}, too few to project from",
                                                  q.cell, q.metric.name, usable.size(), usable.size() == 1 ? "" : "s"));
  }
  TARE_ASSIGN_OR_RETURN(LookPlan planned, PlanLooks(q.sampling, q.confidence, q.look_scheme));
  const LookPlan looks = BudgetedLooks(planned, q.budget_pairs);
  const auto n = static_cast<int64_t>(usable.size());
  const int64_t more = std::max<int64_t>(0, looks.pairs.back() - n);
  auto draws = Resample(usable, more, q.simulations, q.seed);
  for (auto& d : draws) d.insert(d.begin(), usable.begin(), usable.end());
  return Rates(draws, 0.0, looks, q);
}

StatusOr<CellPlan> PlanCell(const std::vector<PilotBlock>& pilot_in, const PlanQuery& q) {
  TARE_ASSIGN_OR_RETURN(std::vector<PilotBlock> pilot, UsablePilot(pilot_in, q));
  TARE_ASSIGN_OR_RETURN(LookPlan planned, PlanLooks(q.sampling, q.confidence, q.look_scheme));
  // What the campaign will do: its looks as far as the budget reaches. The pairs a PASS needs
  // (below) are searched without it: they say how far the budget would have to reach.
  const LookPlan looks = BudgetedLooks(planned, q.budget_pairs);

  CellPlan plan;
  plan.cell = q.cell;
  plan.metric = q.metric.name;
  plan.allowance = AllowanceText(EffectiveAllowance(q.metric, q.cell, q.settings, nullptr));
  plan.pilot_blocks = static_cast<int64_t>(pilot.size());
  plan.pair_spread = RobustSpread(pilot, &PilotBlock::head);
  plan.null_spread = q.settings.null_arm ? RobustSpread(pilot, &PilotBlock::null) : 0.0;

  const auto draws = Resample(pilot, q.sampling.cap, q.simulations, q.seed);
  plan.unchanged = Rates(draws, 0.0, looks, q);
  plan.detectable = kNaN;
  for (double change : PlanChangeGrid()) {
    plan.curve.push_back(Rates(draws, change, looks, q));
    if (std::isnan(plan.detectable) && plan.curve.back().fail >= q.target_power) {
      plan.detectable = change;
      break;  // the rest of the curve is not needed for the headline
    }
  }

  // Pairs: the smallest cap, in the plan's own steps, at which an unchanged head PASSes often
  // enough. Each candidate is its own plan (more looks make every look stricter).
  if (plan.unchanged.pass >= q.target_power) {
    plan.pairs_for_pass = q.sampling.cap;
    // A smaller cap might do as well: try the plan's earlier looks as caps.
    for (int64_t cap : LookPairCounts(q.sampling)) {
      if (cap >= q.sampling.cap) break;
      SamplingPlan smaller = q.sampling;
      smaller.cap = cap;
      auto l = PlanLooks(smaller, q.confidence, q.look_scheme);
      if (!l.ok()) continue;
      if (Rates(draws, 0.0, *l, q).pass >= q.target_power) {
        plan.pairs_for_pass = cap;
        break;
      }
    }
  } else {
    // Doubling looks grow by their own rule (one more look each); even ones by a quarter.
    const auto next_cap = [&](int64_t cap) {
      return q.sampling.growth > 1 ? 2 * cap - q.sampling.initial + q.sampling.step
                                   : NextCandidateCap(cap, q.sampling.step);
    };
    for (int64_t cap = q.sampling.growth > 1 ? next_cap(q.sampling.cap) : q.sampling.cap + q.sampling.step;
         cap <= q.max_pairs; cap = next_cap(cap)) {
      SamplingPlan larger = q.sampling;
      larger.cap = cap;
      auto l = PlanLooks(larger, q.confidence, q.look_scheme);
      if (!l.ok()) break;  // too many looks: the plan's limits
      const auto more = Resample(pilot, cap, q.simulations, q.seed);
      if (Rates(more, 0.0, *l, q).pass >= q.target_power) {
        plan.pairs_for_pass = cap;
        break;
      }
    }
  }
  return plan;
}

}  // namespace tare::campaign
