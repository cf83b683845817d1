#include "oracle/stability.h"

#include <gtest/gtest.h>

#include <cmath>

#include "oracle/flip.h"

namespace tare::oracle {
namespace {

// A tally of `m` trials in which item i appeared in counts[i] of them.
Tally MakeTally(int m, const std::map<std::string, int>& counts) {
  Tally t;
  t.trials = m;
  t.headers.push_back({{"# h"}, {}});
  for (int i = 1; i <= m; ++i) t.headers[0].trials.push_back(i);
  t.counts = counts;
  return t;
}

const ItemStability& Find(const StabilityResult& r, const std::string& item) {
  for (const ItemStability& s : r.items) {
    if (s.item == item) return s;
  }
  ADD_FAILURE() << "no item " << item;
  static ItemStability none;
  return none;
}

TEST(AnalyzeStability, FlagsTheMotivatingSpotAndNotTheSolidOnes) {
  StabilityOptions o;  // 9-trial vote, 1 retry, 95%, P(red) > 0.1% flagged
  StabilityResult r = AnalyzeStability(MakeTally(100, {{"loop 12", 100}, {"entry 32", 62}, {"rare 7", 3}}), nullptr, o);
  const ItemStability& entry = Find(r, "entry 32");
  EXPECT_EQ(entry.item_class, ItemClass::kMarginal);
  EXPECT_TRUE(entry.pinned_present);
  EXPECT_DOUBLE_EQ(entry.p, 0.62);
  EXPECT_NEAR(entry.q, 0.22622365624257537, 1e-12);   // P(Binom(9, 0.62) <= 4)
  EXPECT_NEAR(entry.red, 0.0511771426437589, 1e-12);  // squared: one retry
  EXPECT_LT(entry.interval.lo, 0.62);
  EXPECT_GT(entry.interval.hi, 0.62);
  EXPECT_DOUBLE_EQ(entry.q_worst, VoteWrongProbability(entry.interval.lo, 9, true));
  EXPECT_GT(entry.red_worst, entry.red);

  // 100/100: Clopper–Pearson's lower end is (alpha/2)^(1/n) = 0.025^(1/100) in closed form.
  const ItemStability& loop = Find(r, "loop 12");
  EXPECT_NEAR(loop.interval.lo, std::pow(0.025, 1.0 / 100), 1e-9);
  EXPECT_EQ(loop.q, 0);
  EXPECT_EQ(loop.item_class, ItemClass::kStable);

  const ItemStability& rare = Find(r, "rare 7");
  EXPECT_FALSE(rare.pinned_present);
  EXPECT_EQ(rare.item_class, ItemClass::kStable);

  EXPECT_EQ(r.items.front().item, "entry 32");  // riskiest first
  EXPECT_EQ(r.flagged(), 1);
  EXPECT_NEAR(r.attempt_mismatch_lo, entry.q, 1e-15);
}

TEST(AnalyzeStability, TooFewTrialsIsUncertainNotStable) {
  // 10 of 10: at p = 1 the vote never flips, but the interval reaches down to ~0.69.
  StabilityResult r = AnalyzeStability(MakeTally(10, {{"x", 10}}), nullptr, StabilityOptions{});
  EXPECT_EQ(r.items[0].item_class, ItemClass::kUncertain);
  EXPECT_EQ(r.flagged(), 0);
  EXPECT_EQ(r.uncertain(), 1);
}

TEST(AnalyzeStability, RetriesAndThresholdChangeTheVerdict) {
  // p = 0.8: q = 1.96%; with no retry that exceeds 1%, with one retry P(red) = 0.038% does not.
  StabilityOptions o;
  o.max_red = 0.01;
  o.retries = 0;
  StabilityOptions o1 = o;
  o1.retries = 1;
  Tally t = MakeTally(1000, {{"x", 800}});
  EXPECT_EQ(AnalyzeStability(t, nullptr, o).items[0].item_class, ItemClass::kMarginal);
  EXPECT_NE(AnalyzeStability(t, nullptr, o1).items[0].item_class, ItemClass::kMarginal);
}

TEST(AnalyzeStability, JudgesAgainstTheGoldenWhenGiven) {
  Golden g{{"# h"}, {"gone", "split"}};
  StabilityResult r = AnalyzeStability(MakeTally(50, {{"split", 20}, {"new", 50}}), &g, StabilityOptions{});
  EXPECT_EQ(Find(r, "gone").item_class, ItemClass::kContradicts);
  EXPECT_EQ(Find(r, "gone").count, 0);
  EXPECT_EQ(Find(r, "new").item_class, ItemClass::kContradicts);
  EXPECT_EQ(Find(r, "split").item_class, ItemClass::kContradicts);
  // Only the split one is a quarantine candidate; the unanimous ones are real changes.
  std::string suggestion = SuggestedQuarantine(r);
  EXPECT_NE(suggestion.find("item: split\n"), std::string::npos) << suggestion;
  EXPECT_EQ(suggestion.find("item: gone"), std::string::npos);
  EXPECT_EQ(suggestion.find("item: new"), std::string::npos);
  auto q = Quarantine::Parse(suggestion, "suggested");
  ASSERT_TRUE(q.ok()) << q.status().message();
}

TEST(AnalyzeStability, QuarantinedItemsAreShownButNotFlagged) {
  auto q = Quarantine::Parse("tare-oracle-quarantine v1\nitem: m\nreason: known marginal\n", "q");
  ASSERT_TRUE(q.ok());
  StabilityOptions o;
  o.quarantine = &*q;
  StabilityResult r = AnalyzeStability(MakeTally(100, {{"m", 55}, {"a", 100}}), nullptr, o);
  EXPECT_EQ(Find(r, "m").quarantined, &q->entries()[0]);
  EXPECT_EQ(r.flagged(), 0);
  EXPECT_EQ(SuggestedQuarantine(r), "");
  EXPECT_EQ(r.attempt_mismatch_hi, 0);  // only the quarantined item could flip
}

TEST(AnalyzeStability, WholeCheckBoundsHoldWhateverTheDependence) {
  StabilityResult r = AnalyzeStability(MakeTally(100, {{"a", 70}, {"b", 60}}), nullptr, StabilityOptions{});
  const double qa = VoteWrongProbability(0.7, 9, true), qb = VoteWrongProbability(0.6, 9, true);
  EXPECT_NEAR(r.attempt_mismatch_lo, std::max(qa, qb), 1e-15);
  EXPECT_NEAR(r.attempt_mismatch_hi, qa + qb, 1e-15);
  EXPECT_NEAR(r.attempt_mismatch_independent, 1 - (1 - qa) * (1 - qb), 1e-15);
}

TEST(FormatProbability, ReadsNaturally) {
  EXPECT_EQ(FormatProbability(0), "0");
  EXPECT_EQ(FormatProbability(0.26656768), "27%");
  EXPECT_EQ(FormatProbability(0.01958144), "2%");
  EXPECT_EQ(FormatProbability(0.0003834), "0.038%");
  EXPECT_EQ(FormatProbability(3.8e-7), "3.8e-07");
}

TEST(FormatStabilityResult, ShowsEveryItemAndTheSuggestion) {
  StabilityResult r =
      AnalyzeStability(MakeTally(100, {{"entry 32", 62}, {"loop 12", 100}}), nullptr, StabilityOptions{});
  r.command = "./trace";
  r.run_dir = "/tmp/run";
  r.processes = 100;
  std::string text = FormatStabilityResult(r);
  EXPECT_NE(text.find("MARGINAL"), std::string::npos) << text;
  EXPECT_NE(text.find("62/100"), std::string::npos) << text;
  EXPECT_NE(text.find("loop 12"), std::string::npos) << text;
  EXPECT_NE(text.find("item: entry 32\nreason: p ≈ 0.62"), std::string::npos) << text;
  EXPECT_NE(text.find("result: 1 item cannot be pinned"), std::string::npos) << text;
}

}  // namespace
}  // namespace tare::oracle
