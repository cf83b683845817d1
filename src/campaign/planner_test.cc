// The planner's predictions against campaigns drawn afresh from the distribution the pilot came
// from, through the same decision code (SimulateCampaign: JudgeCell at every planned look).
//
// Model: every block shares a host factor exp(0.01 z) (what the arms of one block have in common);
// each sample adds its own exp(0.02 z). Plan 20/20/60 at 95%, null arm, allowance noise (cap 2%):
// tare ab's defaults. A pilot is 20 blocks (the --pilot default); the planner resamples it.
//
// Figures (seed 7, 12 pilots, 400 resampled campaigns each, 2000 fresh campaigns per change): in
// the tests' comments; the fresh-campaign rates have SE <= 0.011.
#include "campaign/planner.h"

#include <set>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "campaign/plan_from_pilot.h"
#include "campaign/planner_report.h"

namespace tare::campaign {
namespace {

constexpr double kHostSigma = 0.01;
constexpr double kSampleSigma = 0.02;
constexpr int kPilots = 12;
constexpr int kPilotBlocks = 20;
constexpr int kFresh = 2000;

// Standard normals by Box–Muller from mt19937_64 (the same sequence everywhere).
class Normal {
 public:
  explicit Normal(uint64_t seed) : rng_(seed) {}
  double operator()() {
    const double u1 = (static_cast<double>(rng_() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = (static_cast<double>(rng_() >> 11) + 0.5) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

 private:
  std::mt19937_64 rng_;
};

std::vector<PilotBlock> Blocks(Normal& normal, int n) {
  std::vector<PilotBlock> out;
  for (int i = 0; i < n; ++i) {
    const double host = 1e7 * std::exp(kHostSigma * normal());
    out.push_back({host * std::exp(kSampleSigma * normal()), host * std::exp(kSampleSigma * normal()),
                   host * std::exp(kSampleSigma * normal())});
  }
  return out;
}

// The planner's accuracy tests were calibrated on null-interval-edge-v1; the default rule,
// null-split-v1, is checked by PredictedRatesAreWhatCampaignsGetUnderTheSplitRule below.
PlanQuery Query(NoiseFloorRule rule = NoiseFloorRule::kIntervalEdge) {
  PlanQuery q;
  q.metric.name = "bench.cpu_ns";
  q.cell = "cell";
  q.settings.null_arm = true;
  q.settings.noise_floor = rule;
  q.sampling = {20, 20, 60};
  q.confidence = 0.95;
  return q;
}

struct Rates {
  double pass = 0, fail = 0;
};

// What campaigns get: fresh blocks for every campaign.
Rates Fresh(double change, uint64_t seed, NoiseFloorRule rule = NoiseFloorRule::kIntervalEdge) {
  const PlanQuery q = Query(rule);
  auto looks = PlanLooks(q.sampling, q.confidence, q.look_scheme);
  EXPECT_TRUE(looks.ok());
  Normal normal(seed);
  Rates r;
  for (int i = 0; i < kFresh; ++i) {
    const SimulatedCampaign c = SimulateCampaign(Blocks(normal, 60), change, *looks, q);
    r.pass += c.verdict == Verdict::kPass ? 1 : 0;
    r.fail += c.verdict == Verdict::kFail ? 1 : 0;
  }
  r.pass /= kFresh;
  r.fail /= kFresh;
  return r;
}

TEST(PlannerSimulation, PredictedRatesAreWhatCampaignsGet) {
  for (double change : {0.0, 0.01, 0.02, 0.03}) {
    const Rates actual = Fresh(change, 99);
    Normal normal(7);
    double pass = 0, fail = 0, worst = 0;
    for (int p = 0; p < kPilots; ++p) {
      PlanQuery q = Query();
      q.seed = 100 + static_cast<uint64_t>(p);
      auto predicted = PredictOutcome(Blocks(normal, kPilotBlocks), change, q);
      ASSERT_TRUE(predicted.ok()) << predicted.status().message();
      pass += predicted->pass / kPilots;
      fail += predicted->fail / kPilots;
      worst = std::max(worst, std::abs(predicted->fail - actual.fail));
    }
    const std::string figures = fmt::format(
        "change {:.1f}%: fresh campaigns PASS {:.3f} FAIL {:.3f}; predicted (mean of {} pilots) "
        "PASS {:.3f} FAIL {:.3f}; worst single pilot's FAIL error {:.3f}",
        change * 100, actual.pass, actual.fail, kPilots, pass, fail, worst);
    std::printf("%s\n", figures.c_str());
    // Measured (seeds above): 0%: PASS 0.710 vs 0.692; 1%: FAIL 0.002 vs 0.010; 2%: FAIL 0.142
    // vs 0.308; 3%: FAIL 0.738 vs 0.679. At the foot of the power curve (2% here) one 20-block
    // pilot can be far off (its spread is itself uncertain by ~16%, and the curve is steep there;
    // worst 0.71), and the mean over pilots leans high; elsewhere the mean is within 0.06.
    // Since issue 21 a PASS adds the null arm's edge to the interval's worse end, so at this noise
    // an unchanged head PASSes in ~16% of campaigns: the foot of the PASS curve, where the mean
    // prediction leans high as it does at the foot of the FAIL curve (0%: PASS 0.158 vs 0.298).
    const double tolerance = change == 0.02 ? 0.2 : 0.08;
    EXPECT_NEAR(pass, actual.pass, change == 0.0 ? 0.2 : tolerance) << figures;
    EXPECT_NEAR(fail, actual.fail, tolerance) << figures;
  }
}

// The same under the default rule, null-split-v1, whose power curve is steeper and sits lower: its
// foot is at +1% here. Measured (seeds below): 0%: PASS 0.689 vs 0.672, FAIL 0.004 vs 0.005; 1%:
// FAIL 0.202 vs 0.335; 2%: FAIL 0.844 vs 0.767; 3%: FAIL 0.995 vs 0.948. The mean over pilots leans
// high at the foot, as under the edge rule.
TEST(PlannerSimulation, PredictedRatesAreWhatCampaignsGetUnderTheSplitRule) {
  for (double change : {0.0, 0.01, 0.02, 0.03}) {
    const Rates actual = Fresh(change, 99, NoiseFloorRule::kSplit);
    Normal normal(7);
    double pass = 0, fail = 0;
    for (int p = 0; p < kPilots; ++p) {
      PlanQuery q = Query(NoiseFloorRule::kSplit);
      q.seed = 100 + static_cast<uint64_t>(p);
      auto predicted = PredictOutcome(Blocks(normal, kPilotBlocks), change, q);
      ASSERT_TRUE(predicted.ok()) << predicted.status().message();
      pass += predicted->pass / kPilots;
      fail += predicted->fail / kPilots;
    }
    const std::string figures =
        fmt::format("split rule, change {:.1f}%: fresh PASS {:.3f} FAIL {:.3f}; predicted PASS {:.3f} FAIL {:.3f}",
                    change * 100, actual.pass, actual.fail, pass, fail);
    std::printf("%s\n", figures.c_str());
    const double tolerance = change == 0.01 ? 0.2 : 0.1;
    // The foot of the PASS curve under the issue-21 PASS rule (0%: PASS 0.144 vs 0.290), as above.
    EXPECT_NEAR(pass, actual.pass, change == 0.0 ? 0.2 : tolerance) << figures;
    EXPECT_NEAR(fail, actual.fail, tolerance) << figures;
  }
}

// The headline, "FAIL in >= 90% of campaigns from +X%": the truth from fresh campaigns on the
// grid, against each pilot's prediction. Measured: true 4%; the pilots say 3%, 4% or 5%.
TEST(PlannerSimulation, TheDetectableChangeIsWithinOneGridStepOfTheTruth) {
  const auto& grid = PlanChangeGrid();
  size_t truth = grid.size();
  for (size_t i = 0; i < grid.size() && truth == grid.size(); ++i) {
    if (Fresh(grid[i], 99).fail >= 0.9) truth = i;
  }
  ASSERT_LT(truth, grid.size());
  Normal normal(7);
  int within = 0;
  std::string seen;
  for (int p = 0; p < kPilots; ++p) {
    PlanQuery q = Query();
    q.seed = 100 + static_cast<uint64_t>(p);
    q.max_pairs = 100;  // the pairs search is not what this test is about
    auto plan = PlanCell(Blocks(normal, kPilotBlocks), q);
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    const auto at = std::find(grid.begin(), grid.end(), plan->detectable) - grid.begin();
    seen += fmt::format(" {:.2g}%", plan->detectable * 100);
    within += std::abs(static_cast<long>(at) - static_cast<long>(truth)) <= 1 ? 1 : 0;
  }
  std::printf("true detectable change %.2g%%; predicted by %d pilots:%s\n", grid[truth] * 100, kPilots, seen.c_str());
  EXPECT_GE(within, kPilots - 2) << "true " << grid[truth] << "; predicted" << seen;
}

TEST(PlannerSimulation, PowerRisesWithTheChangeAndTheHeadlineIsOnTheCurve) {
  Normal normal(11);
  auto plan = PlanCell(Blocks(normal, kPilotBlocks), Query());
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_FALSE(plan->curve.empty());
  for (size_t i = 1; i < plan->curve.size(); ++i) {
    EXPECT_GE(plan->curve[i].fail + 1e-12, plan->curve[i - 1].fail) << "at " << plan->curve[i].change;
  }
  ASSERT_FALSE(std::isnan(plan->detectable));
  EXPECT_GE(plan->curve.back().fail, 0.9);
  EXPECT_EQ(plan->curve.back().change, plan->detectable);
  // Per-pair spread: ln(head/base) of two independent 2% samples: sd 2.83%; the robust estimate
  // from 20 blocks lands near it.
  EXPECT_NEAR(plan->pair_spread, 0.0283, 0.012);
  // Since issue 21 a PASS must fit the interval's worse end plus the null arm's edge within the 2%
  // noise cap: at 60 pairs with this noise an unchanged head PASSes in about a fifth of campaigns
  // (0.20; it mostly PASSed under the older rule), so the plan says it needs more pairs than 60.
  EXPECT_GT(plan->unchanged.pass, 0.1);
  EXPECT_LT(plan->unchanged.pass, 0.5);
  EXPECT_TRUE(plan->pairs_for_pass == -1 || plan->pairs_for_pass > 60) << plan->pairs_for_pass;
}

TEST(PlannerSimulation, NoisyPilotNeedsMorePairsThanAQuietOne) {
  PlanQuery q = Query();
  // 3%: a PASS certifies the interval's worse end plus the null arm's edge (issue 21), which for
  // this 2.8% per-pair spread fits 2% only past the plan's limits.
  q.metric.allowance = Allowance::Fraction(0.03);
  q.max_pairs = 300;
  Normal normal(5);
  std::vector<PilotBlock> quiet = Blocks(normal, kPilotBlocks);
  std::vector<PilotBlock> noisy = quiet;
  // Three times the per-sample noise on the head: the same blocks, spread out.
  for (auto& b : noisy) b.head = b.base * std::pow(b.head / b.base, 3.0);
  auto a = PlanCell(quiet, q);
  auto b = PlanCell(noisy, q);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(b->pair_spread, 2 * a->pair_spread);
  EXPECT_GT(b->detectable, a->detectable);
  ASSERT_GT(a->pairs_for_pass, 0);
  EXPECT_TRUE(b->pairs_for_pass == -1 || b->pairs_for_pass > a->pairs_for_pass)
      << a->pairs_for_pass << " vs " << b->pairs_for_pass;
}

TEST(PlannerSimulation, TooFewUsableBlocksIsAClearError) {
  std::vector<PilotBlock> pilot = {{1, 1, 1}, {1, 1, 1}, {1, 0, 1}, {1, 1, std::nan("")}};
  auto plan = PlanCell(pilot, Query());
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("2 usable blocks"), std::string::npos) << plan.status().message();
  EXPECT_NE(plan.status().message().find("--pilot"), std::string::npos);
}

TEST(PlannerSimulation, DeterministicMetricIsDecidedAtTheFirstLook) {
  PlanQuery q = Query();
  q.metric.name = "sim.Ir";
  std::vector<PilotBlock> pilot(10, PilotBlock{1e6, 1e6, 1e6});
  auto plan = PlanCell(pilot, q);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->pair_spread, 0);
  EXPECT_DOUBLE_EQ(plan->unchanged.pass, 1.0);
  EXPECT_DOUBLE_EQ(plan->unchanged.mean_pairs, 20.0);
  // The smallest grid change above the deterministic allowance (0.1%) is always caught.
  EXPECT_DOUBLE_EQ(plan->detectable, 0.0025);
  EXPECT_EQ(plan->pairs_for_pass, 20);
}

// The budget as the campaign spends it (issue 42): --plan predicted the cap's 1280 pairs ("8 min,
// PASS 98-100%") for a campaign whose budget stops every cell far sooner.
TEST(PlannerSimulation, TheBudgetEndsTheLooksWithALastLookWhereItStops) {
  auto doubling = PlanLooks({20, 20, 1280, 2}, 0.95, LookScheme::kBonferroni);
  ASSERT_TRUE(doubling.ok());
  EXPECT_EQ(BudgetedLooks(*doubling, 0).pairs, doubling->pairs) << "no budget";
  EXPECT_EQ(BudgetedLooks(*doubling, 100).pairs, (std::vector<int64_t>{20, 40, 80, 100}));
  EXPECT_EQ(BudgetedLooks(*doubling, 160).pairs, (std::vector<int64_t>{20, 40, 80, 160}));
  EXPECT_EQ(BudgetedLooks(*doubling, 5).pairs, (std::vector<int64_t>{20})) << "the first look is never cut";
  EXPECT_EQ(BudgetedLooks(*doubling, 100).per_look_confidence, doubling->per_look_confidence);
  auto calibrated = PlanLooks({20, 20, 100}, 0.95, LookScheme::kSignTestCalibrated);
  ASSERT_TRUE(calibrated.ok());
  EXPECT_EQ(BudgetedLooks(*calibrated, 70).pairs, (std::vector<int64_t>{20, 40, 60}))
      << "sign-test-calibrated-v1 keeps its planned counts";

  // A noisy pilot: the budget's 60 pairs decide fewer unchanged heads than the cap's 1280.
  PlanQuery q = Query();
  q.sampling = {20, 20, 1280, 2};
  Normal normal(11);
  std::vector<PilotBlock> pilot = Blocks(normal, kPilotBlocks);
  for (auto& b : pilot) {
    b.head = b.base * std::pow(b.head / b.base, 3.0);
    b.null = b.base * std::pow(b.null / b.base, 3.0);
  }
  auto capped = PlanCell(pilot, q);
  q.budget_pairs = 60;
  auto budgeted = PlanCell(pilot, q);
  ASSERT_TRUE(capped.ok() && budgeted.ok());
  EXPECT_LE(budgeted->unchanged.mean_pairs, 60.0);
  EXPECT_GT(capped->unchanged.mean_pairs, budgeted->unchanged.mean_pairs);
  EXPECT_LT(budgeted->unchanged.pass, capped->unchanged.pass);
}

}  // namespace
}  // namespace tare::campaign

// tare ab --plan under the work tier (work_tier.h): the pilot's head is a copy of base, so the tier
// reads the same work and the pilot judged the time metric against the same-work allowance. The plan
// keeps that allowance for an unchanged head (PASS) and plans the FAIL curve at the campaign's own
// allowance (noise), where a head whose work changed is judged.
namespace tare::campaign {
namespace {
PlanReport PlanOfAPilot(bool same_work) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> z(0.0, 1.0);
  RunData run;
  for (int64_t b = 0; b < 30; ++b) {
    const double host = std::exp(kHostSigma * z(rng));
    for (const char* arm : {"base", "head", "null"}) {
      StoredSample s;
      s.benchmark_id = 1;
      s.sample.arm = arm;
      s.sample.block = b;
      s.sample.values["gb.cpu_time_ns"] = 1e6 * host * std::exp(kSampleSigma * z(rng));
      run.samples.push_back(s);
    }
  }
  report::AbReport report;
  AbComparison c;
  c.cell = "BM_X";
  AbMetricResult m;
  m.metric = "gb.cpu_time_ns";
  m.direction = Direction::kLowerIsBetter;
  m.allowance = same_work ? "10%" : "noise";
  if (same_work) m.reasons = {"the same work: instructions 1,000 → 1,000 (+0.00%) under valgrind"};
  c.metrics = {m};
  report.comparisons = {c};
  std::vector<CellRecord> cells = {{0, "BM_X", CellRole::kTarget, 1, {}, {}}};
  std::set<int64_t> discarded;
  PilotRun pilot{&report, &run, &cells, &discarded, 30, 1.0};
  CampaignSpec declared;
  return PlanFromPilot(declared, pilot);
}
}  // namespace

TEST(PlanFromPilot, ASameWorkPilotPlansThePassAtTheSameWorkAllowanceAndTheFailAtTheCampaigns) {
  const PlanReport same = PlanOfAPilot(true);
  const PlanReport plain = PlanOfAPilot(false);
  ASSERT_EQ(same.cells.size(), 1u);
  ASSERT_EQ(plain.cells.size(), 1u);
  EXPECT_EQ(same.cells[0].allowance, "10%");
  EXPECT_EQ(same.cells[0].changed_allowance, "noise");
  EXPECT_EQ(plain.cells[0].changed_allowance, "");
  // The FAIL curve is the campaign's own allowance's in both: the same detectable change.
  EXPECT_EQ(same.cells[0].detectable, plain.cells[0].detectable);
  EXPECT_LT(same.cells[0].detectable, 0.05);
  // An unchanged head PASSes at least as often against 10% as under the noise cap (2%).
  EXPECT_GE(same.cells[0].unchanged.pass, plain.cells[0].unchanged.pass);
  EXPECT_GT(same.cells[0].unchanged.pass, 0.9);
}

}  // namespace tare::campaign

namespace tare::campaign {
namespace {

// A running cell's projection against what really follows its first look. The cell is the model
// above with more sample noise (3%): at tare ab's default doubling looks (20, 40, 80, ... 640) an
// unchanged head is often undecided at 20 pairs. For each cell: its first 20 blocks; the truth is
// the mean pairs of the continuations drawn afresh from the model after those same 20
// blocks (the first look is the same in both); ProjectCell sees only the 20 blocks. 24 cells, 100
// continuations each (seed 11).
TEST(ProjectCell, PredictsThePairsFreshContinuationsOfTheSameFirstLookUse) {
  constexpr int kCells = 24, kContinuations = 100;
  PlanQuery q = Query(NoiseFloorRule::kSplit);
  q.sampling = {20, 20, 640, 2};
  q.simulations = kContinuations;
  auto looks = PlanLooks(q.sampling, q.confidence, q.look_scheme);
  ASSERT_TRUE(looks.ok());
  Normal normal(11);
  auto blocks = [&normal](int n) {
    std::vector<PilotBlock> out;
    for (int i = 0; i < n; ++i) {
      const double host = 1e7 * std::exp(kHostSigma * normal());
      out.push_back(
          {host * std::exp(0.03 * normal()), host * std::exp(0.03 * normal()), host * std::exp(0.03 * normal())});
    }
    return out;
  };
  double projected_sum = 0, true_sum = 0;
  int undecided_at_first = 0, within = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    const std::vector<PilotBlock> first = blocks(20);
    double truth = 0;
    for (int k = 0; k < kContinuations; ++k) {
      std::vector<PilotBlock> all = first;
      const auto more = blocks(620);
      all.insert(all.end(), more.begin(), more.end());
      truth += static_cast<double>(SimulateCampaign(all, 0.0, *looks, q).pairs);
    }
    truth /= kContinuations;
    q.seed = static_cast<uint64_t>(cell) + 1;
    auto p = ProjectCell(first, q);
    ASSERT_TRUE(p.ok()) << p.status().message();
    if (truth > 20) ++undecided_at_first;
    if (truth == 20) {
      EXPECT_EQ(p->mean_pairs, 20) << "a first look that decided decides in every continuation";
    }
    if (p->mean_pairs <= truth * 1.5 && p->mean_pairs >= truth / 1.5) ++within;
    projected_sum += p->mean_pairs;
    true_sum += truth;
  }
  // The model is noisy enough that the question is real: most first looks leave the cell undecided.
  EXPECT_GE(undecided_at_first, kCells / 2);
  // In all (what the campaign's estimate adds up), within 25% of the truth; per cell, within a
  // factor 1.5 for at least half: 20 blocks misjudge some cells' spread, in both directions, and the
  // errors largely cancel in the sum.
  EXPECT_NEAR(projected_sum / true_sum, 1.0, 0.25) << projected_sum << " vs " << true_sum;
  EXPECT_GE(within, kCells / 2);
  std::printf(
      "projected %.0f pairs, fresh continuations %.0f; %d of %d cells within a factor 1.5; %d undecided at 20\n",
      projected_sum, true_sum, within, kCells, undecided_at_first);
}

TEST(ProjectCell, ABudgetThatEndsTheLooksEarlyLeavesANoisyCellUndecided) {
  PlanQuery q = Query(NoiseFloorRule::kSplit);
  q.sampling = {20, 20, 640, 2};
  q.simulations = 200;
  Normal normal(5);
  std::vector<PilotBlock> first;
  for (int i = 0; i < 20; ++i) {  // 15% sample noise: the noise cap (2%) needs hundreds of pairs
    first.push_back(
        {1e7 * std::exp(0.15 * normal()), 1e7 * std::exp(0.15 * normal()), 1e7 * std::exp(0.15 * normal())});
  }
  auto open = ProjectCell(first, q);
  q.budget_pairs = 32;
  auto budgeted = ProjectCell(first, q);
  ASSERT_TRUE(open.ok() && budgeted.ok());
  EXPECT_GT(open->mean_pairs, 80);
  EXPECT_LE(budgeted->mean_pairs, 32);
  EXPECT_GT(budgeted->inconclusive, 0.9);
  EXPECT_LT(open->inconclusive, budgeted->inconclusive);
}

TEST(ProjectCell, TooFewBlocksIsAnError) {
  std::vector<PilotBlock> few(5, PilotBlock{1, 1, 1});
  EXPECT_FALSE(ProjectCell(few, Query(NoiseFloorRule::kSplit)).ok());
}

}  // namespace
}  // namespace tare::campaign
