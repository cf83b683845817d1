// CampaignRunner::Cohort: the looks (sequential and exact), the budget, the plan's cost and the
// estimate (internal/running_cohort.h). Opening, resuming and the loop's hooks: cohort.cc.
#include "internal/running_cohort.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/units.h"
#include "campaign/broken_cell.h"
#include "campaign/exact_plan.h"
#include "campaign/planner.h"
#include "report/ledger.h"

namespace tare::campaign {
namespace {

std::string CountVerdicts(const std::vector<AbComparison>& comps) {
  int pass = 0, inconclusive = 0, fail = 0;
  for (const auto& c : comps) {
    (c.verdict == Verdict::kPass ? pass : c.verdict == Verdict::kFail ? fail : inconclusive)++;
  }
  std::vector<std::string> parts;
  if (pass) parts.push_back(fmt::format("{} PASS", pass));
  if (fail) parts.push_back(fmt::format("{} FAIL", fail));
  if (inconclusive) parts.push_back(fmt::format("{} INCONCLUSIVE", inconclusive));
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

bool CampaignRunner::Cohort::FirstLooksTaken() const {
  for (const auto& st : cells_) {
    if (st.active && (st.exact || st.look_index == 0)) return false;
  }
  return true;
}

void CampaignRunner::Cohort::NoticePlanCost() const {
  const int64_t cells = static_cast<int64_t>(cells_.size());
  const int64_t arms = static_cast<int64_t>(r_.arms_.size());
  const int64_t lo = cells * arms * plan_.pairs.front();
  const int64_t hi = cells * arms * plan_.pairs.back();
  if (exact_blocks_ > 0) {
    Notice(fmt::format(
        "plan: {} cell{} x {} arms x {} block{} = {} processes (exact plan: the metrics are deterministic; {}; a "
        "cell whose values differ continues to {} to {} pairs)",
        cells, cells == 1 ? "" : "s", arms, exact_blocks_, exact_blocks_ == 1 ? "" : "s", cells * arms * exact_blocks_,
        spec_.null_arm ? "the null arm, a rerun of base, must read what base reads"
                       : "every arm runs twice and must read the same",
        plan_.pairs.front(), plan_.pairs.back()));
    return;
  }
  Notice(fmt::format(
      "plan: {} cell{} x {} arms x {} pairs = {} processes{}", cells, cells == 1 ? "" : "s", arms,
      lo == hi ? std::to_string(plan_.pairs.front()) : fmt::format("{} to {}", plan_.pairs.front(), plan_.pairs.back()),
      lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi),
      budget_ns_ > 0
          ? fmt::format("; budget {}{}", FormatDurationNs(static_cast<double>(budget_ns_)),
                        spec_.budget_ns == kDefaultBudget ? " (the default: 30 s per cell, at most 10 min)" : "")
          : ""));
}

void CampaignRunner::Cohort::NoticeEstimate(bool early) const {
  // Each sample's own start-to-end time, over every arm of every cell's first block, and the wall
  // time this Run has taken per sample: the difference is tare's own work between samples (spawn,
  // store, checks), which the estimate includes (issue 21: estimates without it overran by 25-50%).
  double own_ns = 0;
  int64_t n = 0;
  for (const auto& st : cells_) {
    for (const auto& [arm, by_block] : st.samples) {
      auto first = by_block.find(0);
      // A failed sample (a broken benchmark fails at once) says nothing about what a block costs.
      if (first == by_block.end() || !first->second.ok() ||
          first->second.ended_unix_ns <= first->second.started_unix_ns) {
        continue;
      }
      own_ns += static_cast<double>(first->second.ended_unix_ns - first->second.started_unix_ns);
      ++n;
    }
  }
  if (n == 0 || samples_run_ == 0) return;
  const double own = own_ns / static_cast<double>(n);
  // The work tier ran before the first sample (work_tier.h): not a sample's cost, but part of the whole.
  const double tier = static_cast<double>(work_tier_ns_);
  const double per_sample =
      std::max(own, (static_cast<double>(r_.options_.clock->UnixNowNs() - session_started_ns_) - tier) /
                        static_cast<double>(samples_run_));
  const double arms_cells = static_cast<double>(cells_.size() * r_.arms_.size());
  const double lo =
      tier + per_sample * arms_cells * static_cast<double>(exact_blocks_ > 0 ? exact_blocks_ : plan_.pairs.front());
  const double cap = tier + per_sample * arms_cells * static_cast<double>(plan_.pairs.back());
  const double budget = static_cast<double>(budget_ns_);
  std::string plan;
  if (exact_blocks_ > 0) {
    plan = fmt::format("the plan takes about {}", FormatDurationNs(lo));
  } else if (budget_ns_ > 0 && cap > std::max(lo, budget)) {
    // The budget runs from the first sample and can end nothing before every cell's first look, so
    // a campaign takes between its first looks and the larger of them and the budget: issue 42 saw
    // "about 43 s" (the first looks alone) printed for a campaign that took 5 minutes.
    plan = lo > budget
               ? fmt::format(
                     "the first looks take about {}; the first look alone outlasts the budget of {}, which "
                     "is spent after it: about {} in all",
                     FormatDurationNs(lo), FormatDurationNs(budget), FormatDurationNs(lo))
               : fmt::format(
                     "the first looks take about {}; cells still undecided then go on until the budget, "
                     "{} from the first sample, is spent: {} to {} in all",
                     FormatDurationNs(lo), FormatDurationNs(budget), FormatDurationNs(lo), FormatDurationNs(budget));
  } else {
    plan = fmt::format("the first looks take about {}; cells still undecided then go on to the cap: {} to {} in all",
                       FormatDurationNs(lo), FormatDurationNs(lo), FormatDurationNs(cap));
  }
  const std::string so_far =
      early ? fmt::format("first {} samples of the first block's {}", samples_run_, static_cast<int64_t>(arms_cells))
            : "first block";
  Notice(fmt::format("{}: {} per sample ({} of it tare's own); {}{}", so_far, FormatDurationNs(per_sample),
                     FormatDurationNs(per_sample - own),
                     tier > 0 ? fmt::format("with the work tier's {} before them, ", FormatDurationNs(tier)) : "",
                     plan));
}

Status CampaignRunner::Cohort::SpendBudget() {
  budget_spent_ = true;
  const std::string budget = fmt::format("budget of {}{} spent", FormatDurationNs(static_cast<double>(budget_ns_)),
                                         spec_.budget_ns == kDefaultBudget ? " (the default)" : "");
  const std::string undecided_reason =
      budget +
      ": undecided when it ran out, so INCONCLUSIVE; a larger --budget, a quieter host or --instrument sim would "
      "decide it";
  const std::string gain_reason = budget +
                                  ": the PASS stands; whether the head is better beyond the floor (a "
                                  "supported gain) was still being decided";
  // bonferroni-v1 spends the same confidence on each of at most K looks wherever they fall, so the
  // samples measured since a cell's last look are judged at one more (issue 42: a fifth of a large
  // A/A's samples were never judged). sign-test-calibrated-v1 is calibrated for the planned pair
  // counts alone: its cells keep their last planned look.
  const bool late_look = spec_.look_scheme == LookScheme::kBonferroni;
  int undecided = 0, gain_open = 0, judged_late = 0;
  for (size_t c = 0; c < cells_.size(); ++c) {
    CellState& st = cells_[c];
    if (!st.active) continue;
    st.active = false;
    // Every cell has had its first look (FirstLooksTaken), so look_index >= 1 and it is below the
    // plan's count (a cell past its last look is not active).
    const int64_t last = plan_.pairs[st.look_index - 1];
    if (late_look && BlocksDone(c) > last && st.look_index < plan_.pairs.size()) {
      st.comparisons = Judge(c, BlocksDone(c), static_cast<int64_t>(st.look_index) + 1);
      ++judged_late;
    }
    bool any_undecided = false, any_gain_open = false;
    for (auto& comp : st.comparisons) {
      const bool inconclusive = comp.verdict == Verdict::kInconclusive;
      any_undecided = any_undecided || inconclusive;
      any_gain_open = any_gain_open || (!inconclusive && NeedsMorePairs({comp}));
      if (inconclusive) {
        comp.reasons.push_back(undecided_reason);
      } else if (NeedsMorePairs({comp})) {
        comp.reasons.push_back(gain_reason);
      }
    }
    undecided += any_undecided;
    gain_open += !any_undecided && any_gain_open;
    ++st.look_index;
    TARE_RETURN_IF_ERROR(SaveLook(c, static_cast<int64_t>(st.look_index), true));
  }
  if (undecided + gain_open + judged_late > 0) {
    Progress("");
    std::vector<std::string> parts;
    if (judged_late > 0) {
      parts.push_back(fmt::format("{} cell{} judged once more on every pair measured since {} last look", judged_late,
                                  judged_late == 1 ? "" : "s", judged_late == 1 ? "its" : "their"));
    }
    if (undecided > 0) parts.push_back(fmt::format("{} INCONCLUSIVE", undecided));
    if (gain_open > 0) parts.push_back(fmt::format("{} PASS whose gain was still undecided", gain_open));
    std::string line;
    for (size_t i = 0; i < parts.size(); ++i) line += (i ? "; " : "") + parts[i];
    Notice(fmt::format("{}: {}", budget, line));
  }
  return Status::Ok();
}

int64_t CampaignRunner::Cohort::NextLookBlocks(const CellState& st) const {
  if (st.exact) return exact_blocks_;
  return st.look_index < plan_.pairs.size() ? plan_.pairs[st.look_index] : std::numeric_limits<int64_t>::max();
}

Status CampaignRunner::Cohort::ExactLook(size_t cell) {
  CellState& st = cells_[cell];
  const Cell& c = r_.cells_[cell];
  st.exact = false;
  const AnalysisSettings settings = Settings();
  const std::string differs = DeterminismCheck(st.samples, exact_blocks_, settings);
  if (!differs.empty()) {
    // Not deterministic here: the statistical plan decides, and the blocks run so far count.
    st.fallback = fmt::format("determinism check failed: {}; fell back to the statistical plan ({} pairs, up to {})",
                              differs, plan_.pairs.front(), plan_.pairs.back());
    st.target = plan_.pairs.front();
    Progress("");
    Notice(fmt::format("{}: {}", c.name, st.fallback));
    return Status::Ok();
  }
  st.comparisons = JudgeCellExact(st.samples, c.name, c.role, exact_blocks_, settings);
  st.look_index = 1;
  st.active = false;
  TARE_RETURN_IF_ERROR(SaveLook(cell, 1, true));
  Progress("");
  Notice(fmt::format(
      "exact look at {} block{}: {}: {} (deterministic: {})", exact_blocks_, exact_blocks_ == 1 ? "" : "s", c.name,
      CountVerdicts(st.comparisons),
      spec_.null_arm ? "base and its rerun, the null arm, read the same" : "every arm read the same twice"));
  return Status::Ok();
}

Status CampaignRunner::Cohort::Look(size_t cell) {
  if (cells_[cell].exact) return ExactLook(cell);
  CellState& st = cells_[cell];
  const Cell& c = r_.cells_[cell];
  const int64_t pairs = plan_.pairs[st.look_index];
  st.comparisons = Judge(cell, pairs, static_cast<int64_t>(st.look_index) + 1);
  ++st.look_index;
  const bool last = st.look_index >= plan_.pairs.size();
  // A cell of the same work (work_tier.h) does not chase a gain: its time changes are placement's.
  const bool same_work = cell < work_.size() && work_[cell].Same();
  const bool final = last || !NeedsMorePairs(st.comparisons, /*chase_gains=*/!same_work);
  TARE_RETURN_IF_ERROR(SaveLook(cell, static_cast<int64_t>(st.look_index), final));
  if (final) {
    st.active = false;
  } else {
    st.target = plan_.pairs[st.look_index];
  }
  Progress("");
  Notice(fmt::format("look {}/{} at {} pairs: {}: {}{}", st.look_index, plan_.pairs.size(), pairs, c.name,
                     CountVerdicts(st.comparisons),
                     final ? "" : fmt::format("; undecided, continuing to {} pairs", st.target)));
  return Status::Ok();
}

Status CampaignRunner::Cohort::ReplayLooks() {
  bool all_started = !cells_.empty();
  for (size_t c = 0; c < cells_.size(); ++c) all_started = all_started && BlocksDone(c) >= 1;
  if (all_started) TARE_RETURN_IF_ERROR(CheckGates());
  for (size_t c = 0; c < cells_.size(); ++c) {
    CellState& st = cells_[c];
    while (st.active) {
      // As AfterRound did after each block: a breakage that settles the cell first, then the look
      // (exact or planned).
      const int64_t next_look = NextLookBlocks(st);
      const bool has_look = next_look != std::numeric_limits<int64_t>::max();
      const int64_t upto = has_look ? std::min(next_look, BlocksDone(c)) : BlocksDone(c);
      if (const int64_t at = BreakageSettlesAt(st.samples, r_.arms_, Heads(), upto); at > 0) {
        TARE_RETURN_IF_ERROR(SettleBroken(c, at));
        break;
      }
      if (!has_look || BlocksDone(c) < next_look) break;
      TARE_RETURN_IF_ERROR(Look(c));
    }
  }
  return Status::Ok();
}

std::vector<std::string> CampaignRunner::Cohort::Heads() const {
  std::vector<std::string> heads;
  for (const auto& arm : r_.arms_) {
    if (RoleOfArm(arm) == ArmRole::kHead) heads.push_back(arm);
  }
  return heads;
}

std::vector<AbComparison> CampaignRunner::Cohort::Judge(size_t cell, int64_t blocks, int64_t looks) const {
  const Cell& c = r_.cells_[cell];
  std::vector<AbComparison> out =
      JudgeCell(cells_[cell].samples, c.name, c.role, blocks, looks, plan_.per_look_confidence, Settings());
  for (auto& comp : out) {
    if (comp.broken.any()) comp.broken.fix = BrokenCellFix(r_.kind_, c.bench.name);
  }
  return out;
}

Status CampaignRunner::Cohort::SettleBroken(size_t cell, int64_t blocks) {
  CellState& st = cells_[cell];
  st.comparisons = Judge(cell, blocks, static_cast<int64_t>(st.look_index));
  st.active = false;
  TARE_RETURN_IF_ERROR(SaveLook(cell, static_cast<int64_t>(st.look_index) + 1, true));
  std::vector<std::string> arms;  // broken in any comparison, in arm order
  bool unmeasurable = false;
  for (const auto& arm : r_.arms_) {
    for (const auto& comp : st.comparisons) {
      unmeasurable = unmeasurable || comp.broken.cannot_be_measured();
      if (std::find(comp.broken.arms.begin(), comp.broken.arms.end(), arm) != comp.broken.arms.end()) {
        arms.push_back(arm);
        break;
      }
    }
  }
  Progress("");
  Notice(
      fmt::format("{}: BROKEN{}: {} failed every sample of its first {} (the error above); it gets no "
                  "more blocks, the other cells go on",
                  r_.cells_[cell].name, unmeasurable ? ", cannot be measured" : " in the head, a FAIL", ArmList(arms),
                  blocks == 1 ? std::string("block") : fmt::format("{} blocks", blocks)));
  return Status::Ok();
}

}  // namespace tare::campaign

namespace tare::campaign {

Status CampaignRunner::Cohort::SaveLook(size_t cell, int64_t look, bool final) {
  CellState& st = cells_[cell];
  st.saved_look = look;
  st.saved_final = final;
  return store_.SaveVerdicts(run_id_, static_cast<int64_t>(cell), look, final, st.comparisons);
}

Status CampaignRunner::Cohort::StoreShownLooks() {
  for (size_t c = 0; c < cells_.size(); ++c) {
    const CellState& st = cells_[c];
    if (st.saved_look == 0) continue;
    std::vector<AbComparison> shown = st.comparisons;
    if (!st.fallback.empty()) {
      for (auto& comp : shown) comp.reasons.push_back(st.fallback);
    }
    TARE_RETURN_IF_ERROR(store_.SaveVerdicts(run_id_, static_cast<int64_t>(c), st.saved_look, st.saved_final, shown));
  }
  return Status::Ok();
}

}  // namespace tare::campaign

namespace tare::campaign {

void CampaignRunner::Cohort::NoticeProjection() const {
  const int64_t now = r_.options_.clock->UnixNowNs();
  // What one of a cell's samples costs: its own samples' start-to-end time, times the share tare's
  // work between samples adds over the whole run so far (NoticeEstimate's reading).
  std::vector<double> cost(cells_.size(), 0);
  double own_ns = 0;
  int64_t own_n = 0;
  for (size_t c = 0; c < cells_.size(); ++c) {
    double sum = 0;
    int64_t n = 0;
    for (const auto& [arm, by_block] : cells_[c].samples) {
      for (const auto& [block, s] : by_block) {
        if (!s.ok() || s.ended_unix_ns <= s.started_unix_ns) continue;
        sum += static_cast<double>(s.ended_unix_ns - s.started_unix_ns);
        ++n;
      }
    }
    if (n > 0) cost[c] = sum / static_cast<double>(n);
    own_ns += sum;
    own_n += n;
  }
  if (own_n == 0 || samples_run_ == 0) return;
  const double sampling_ns = static_cast<double>(now - session_started_ns_ - work_tier_ns_);
  const double overhead =
      std::max(1.0, (sampling_ns / static_cast<double>(samples_run_)) / (own_ns / static_cast<double>(own_n)));
  const double arms = static_cast<double>(r_.arms_.size());

  std::vector<size_t> active;
  for (size_t c = 0; c < cells_.size(); ++c) {
    if (cells_[c].active) active.push_back(c);
  }
  if (active.empty()) return;
  const double left_ns = budget_ns_ > 0 ? static_cast<double>(session_started_ns_ + budget_ns_ - now) : 0;
  const AnalysisSettings settings = Settings();
  // At most kProjectedCells cells are simulated (every k-th, in cell order), each standing for
  // `scale` cells: a campaign of thousands of cells pauses for a second or two here, not for minutes.
  constexpr size_t kProjectedCells = 200;
  const size_t stride = (active.size() + kProjectedCells - 1) / kProjectedCells;
  const size_t simulated = (active.size() + stride - 1) / stride;  // cells simulated, a whole count
  const double scale = static_cast<double>(active.size()) / static_cast<double>(simulated);
  struct Projected {
    size_t cell = 0;
    int64_t done = 0;
    std::vector<std::pair<PlanQuery, std::vector<PilotBlock>>> queries;  // one per head and metric
    double extra = 0;      // pairs still to come, on average, with no budget
    double pair_ns = 0;    // what one more pair of it costs (all arms, tare's own work included)
    double undecided = 0;  // the share of continuations still undecided at the end
  };
  std::vector<Projected> projected;
  for (size_t i = 0; i < active.size(); i += stride) {
    Projected p;
    p.cell = active[i];
    p.done = BlocksDone(p.cell);
    p.pair_ns = arms * cost[p.cell] * overhead;
    const Cell& cell = r_.cells_[p.cell];
    for (const auto& head : Heads()) {
      for (const auto& metric : settings.MetricsOf(cell.name)) {
        auto value = [&](const std::string& arm, int64_t b) {
          auto a = cells_[p.cell].samples.find(arm);
          if (a == cells_[p.cell].samples.end()) return std::nan("");
          auto s = a->second.find(b);
          if (s == a->second.end() || !s->second.ok()) return std::nan("");
          auto v = s->second.values.find(metric.name);
          return v == s->second.values.end() ? std::nan("") : v->second;
        };
        std::vector<PilotBlock> blocks;
        for (int64_t b = 0; b < p.done; ++b) {
          blocks.push_back({value(std::string(kBaseArm), b), value(head, b),
                            spec_.null_arm ? value(std::string(kNullArm), b) : std::nan("")});
        }
        PlanQuery q;
        q.cell = cell.name;
        q.settings = settings;
        q.metric = metric;
        q.sampling = spec_.sampling;
        q.confidence = spec_.confidence;
        q.look_scheme = spec_.look_scheme;
        q.simulations = 100;
        q.seed = p.cell + 1;
        auto rates = ProjectCell(blocks, q);
        if (!rates.ok()) continue;  // too few usable pairs: counted as what it has
        p.extra = std::max(p.extra, rates->mean_pairs - static_cast<double>(p.done));
        p.undecided = std::max(p.undecided, rates->inconclusive);
        p.queries.emplace_back(std::move(q), std::move(blocks));
      }
    }
    projected.push_back(std::move(p));
  }
  // The budget as the session spends it: rounds of one more pair of every cell still sampling, a
  // cell leaving once it has its pairs. k rounds cost the sum of min(k, extra) pairs; the budget
  // buys the largest k it pays for (no budget: every cell gets what it needs, up to the cap).
  auto rounds_cost = [&](double k) {
    double ns = 0;
    for (const auto& p : projected) ns += std::min(k, p.extra) * p.pair_ns * scale;
    return ns;
  };
  double most = 0;
  for (const auto& p : projected) most = std::max(most, p.extra);
  double rounds = most;
  if (budget_ns_ > 0 && rounds_cost(most) > left_ns) {
    double lo = 0, hi = most;
    for (int i = 0; i < 50; ++i) {
      const double mid = (lo + hi) / 2;
      (rounds_cost(mid) <= std::max(0.0, left_ns) ? lo : hi) = mid;
    }
    rounds = lo;
  }
  // A cell the budget stops before its average need: how often its continuations are still
  // undecided when the looks stop where the budget leaves it.
  std::vector<std::string> undecided;
  double more_pairs = 0;
  for (auto& p : projected) {
    more_pairs += std::min(rounds, p.extra) * scale;
    if (p.extra > rounds) {
      p.undecided = 0;
      for (auto& [q, blocks] : p.queries) {
        q.budget_pairs = p.done + static_cast<int64_t>(rounds);
        auto rates = ProjectCell(blocks, q);
        if (rates.ok()) p.undecided = std::max(p.undecided, rates->inconclusive);
      }
    }
    if (p.undecided >= 0.5) undecided.push_back(r_.cells_[p.cell].name);
  }
  const double budget_end = static_cast<double>(session_started_ns_ + budget_ns_);
  const double total_ns = static_cast<double>(now - session_started_ns_) + rounds_cost(rounds);
  const auto more = static_cast<int64_t>(std::lround(more_pairs));

  const size_t cells = cells_.size();
  std::string line = fmt::format(
      "first looks taken ({}): {} of {} cell{} decided; the {} still sampling, each projected from its own pairs "
      "through the looks to come, need about {} more pair{}: about {} in all",
      FormatDurationNs(static_cast<double>(now - session_started_ns_)), cells - active.size(), cells,
      cells == 1 ? "" : "s", active.size(), more, more == 1 ? "" : "s", FormatDurationNs(total_ns));
  if (budget_ns_ > 0) {
    line += fmt::format(
        " (the budget ends it by {} at the latest)",
        FormatDurationNs(std::max(budget_end, static_cast<double>(now)) - static_cast<double>(session_started_ns_)));
  }
  if (!undecided.empty() && stride > 1) {
    line += fmt::format(
        "; about {} of them will likely still be undecided when {} is spent, at this host's noise "
        "(of {} cells simulated, {} would: e.g. {}): INCONCLUSIVE unless it quiets (a quieter host, a "
        "larger --budget or --instrument sim decides them)",
        std::lround(static_cast<double>(undecided.size()) * scale), budget_ns_ > 0 ? "the budget" : "the cap",
        simulated, undecided.size(), undecided.front());
  } else if (!undecided.empty()) {
    std::string names;
    for (size_t i = 0; i < undecided.size() && i < 3; ++i) names += (i ? ", " : "") + undecided[i];
    if (undecided.size() > 3) names += fmt::format(" and {} more", undecided.size() - 3);
    line += fmt::format(
        "; {} of them ({}) will likely still be undecided when {} is spent, at this host's noise: INCONCLUSIVE "
        "unless it quiets (a quieter host, a larger --budget or --instrument sim decides them)",
        undecided.size(), names, budget_ns_ > 0 ? "the budget" : "the cap");
  }
  Notice(line);
}

}  // namespace tare::campaign

namespace tare::campaign {

void CampaignRunner::Cohort::NoticeEarlierCohort() const {
  auto all = store_.CohortsOf(r_.input_.campaign_sha256);
  if (!all.ok()) return;  // an estimate is not worth failing the campaign for
  // Newest first, and the first that fits is taken: one run read for a campaign of many cohorts.
  std::sort(all->begin(), all->end(), [](const CohortRecord& a, const CohortRecord& b) { return a.cohort > b.cohort; });
  const CohortRecord* latest = nullptr;
  RunRecord latest_run;
  for (const auto& c : *all) {
    if (c.run_id == run_id_ || c.state != CohortState::kComplete) continue;
    auto head = store_.LoadRunHead(c.run_id);
    // Another host type's duration says nothing about this one's.
    if (!head.ok() || head->run.fingerprint_digest != fingerprint_.HardDigest() ||
        head->run.ended_unix_ns <= head->run.started_unix_ns) {
      continue;
    }
    latest = &c;
    latest_run = head->run;
    break;
  }
  if (latest == nullptr) return;
  auto cells = store_.CellsOf(latest->run_id);
  if (!cells.ok() || cells->empty()) return;
  const double took = static_cast<double>(latest_run.ended_unix_ns - latest_run.started_unix_ns);
  const size_t n = cells->size();
  const std::string scaled =
      n == cells_.size()
          ? ""
          : fmt::format("; for this cohort's {} cell{}, about {}", cells_.size(), cells_.size() == 1 ? "" : "s",
                        FormatDurationNs(took * static_cast<double>(cells_.size()) / static_cast<double>(n)));
  Notice(
      fmt::format("the campaign's last cohort on this host type (cohort {}, run {}) took {} for {} cell{}{}; the "
                  "estimate below and the projection after the first looks read this cohort's own samples",
                  latest->cohort, latest->run_id, FormatDurationNs(took), n, n == 1 ? "" : "s", scaled));
}

}  // namespace tare::campaign
