// The consistency checker (ab_consistency.h) on outputs rendered from a report whose every line
// agrees, then on the same outputs doctored the ways issue 42 found them: a checker that cannot
// find a contradiction is no check.
#include "report/ab_consistency.h"

#include <gtest/gtest.h>

#include "report/ab_json.h"
#include "report/ledger.h"

namespace tare::report {
namespace {

// Two cells of one campaign judged by null-split-v1 with the default noise cap: a supported gain
// (F = 0.44%, P = 2.82%: it certifies -1.50% + 0.44%) and a PASS near 0 (+0.50% + P 0.61%).
AbReport Agreeing() {
  AbReport r;
  r.campaign_name = "base/bench vs head/bench";
  r.campaign_source = "flags";
  r.run_id = 7;
  r.cohort = 1;
  r.state = CohortState::kComplete;
  r.kind = TargetKind::kCommand;
  r.confidence = 0.95;
  r.per_look_confidence = 0.975;
  r.noise_floor_rule = "null-split-v1";
  r.noise_cap = 0.02;
  r.arms = {{"base", ArmRole::kBase, "/w/base/bench", "/s/bin/base", "aa"},
            {"head", ArmRole::kHead, "/w/head/bench", "/s/bin/head", "bb"},
            {"null", ArmRole::kNull, "/w/base/bench", "/s/bin/null", "aa"}};
  AbMetricResult gain;
  gain.metric = "perf.task_clock_ns";
  gain.unit = "ns";
  gain.pairs = 20;
  gain.confidence = 0.975;
  gain.estimate = -0.0285;
  gain.lo = -0.040;
  gain.hi = -0.015;
  gain.base_median = 15.0e6;
  gain.head_median = 14.6e6;
  gain.has_null = true;
  gain.null_estimate = -0.0044;
  gain.null_lo = -0.0282;
  gain.null_hi = 0.0200;
  gain.noise_floor = 0.0044;
  gain.delta = 0.0044;
  gain.pass_bound = -0.0106;
  gain.verdict = Verdict::kPass;
  gain.supported_gain = true;
  gain.changed = true;
  gain.reasons = {
      "better than base by at least 1.06%: the whole interval [-4.00%, -1.50%] is better than base beyond "
      "the noise floor 0.44%"};
  AbMetricResult near = gain;
  near.estimate = 0.001;
  near.lo = -0.004;
  near.hi = 0.005;
  near.base_median = 4.0e6;
  near.head_median = 4.004e6;
  near.null_estimate = 0.0005;
  near.null_lo = -0.004;
  near.null_hi = 0.0061;
  near.noise_floor = 0.0005;
  near.delta = 0.0005;
  near.pass_bound = 0.0111;
  near.supported_gain = false;
  near.changed = false;
  near.reasons = {
      "no regression beyond +1.11%: the interval's worse end +0.50% plus the null arm's floor 0.61% is "
      "within the noise cap +2.00%"};
  AbComparison a;
  a.cell = "--work 12";
  a.head = "head";
  a.blocks = 20;
  a.looks = 1;
  a.verdict = Verdict::kPass;
  a.supported_gain = true;
  a.metrics = {gain};
  AbComparison b = a;
  b.cell = "--work 2";
  b.role = CellRole::kControl;
  b.supported_gain = false;
  b.metrics = {near};
  r.comparisons = {a, b};
  r.checks = {{CheckKind::kBound, "p95(wall_ns, head) <= 25ms", "--work 12", "head", 15.5e6, 25e6, "ns", true}};
  r.cohorts = {{1, 7, 0, CohortState::kComplete, "", "PASS", "cc", {"bb"}, 120, true}};
  r.samples = 120;
  r.outcome = Verdict::kPass;
  r.has_verdicts = true;
  return r;
}

AbOutputs Render(const AbReport& r, int exit_status) {
  AbOutputs o;
  o.ledger = RenderLedger(r);
  o.json = AbReportToJson(r).dump();
  o.summary = RenderAbSummary(r, "ledger.md");
  o.html = "<title>tare ab: " + r.campaign_name + " — " + OutcomeWord(r) + "</title>";
  o.exit_status = exit_status;
  return o;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "not in the text: " << from << "\n" << text;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Whether some problem mentions `words`.
bool Finds(const std::vector<std::string>& problems, const std::string& words) {
  for (const auto& p : problems) {
    if (p.find(words) != std::string::npos) return true;
  }
  return false;
}

TEST(AbConsistency, OutputsThatAgreePass) {
  const AbOutputs o = Render(Agreeing(), 0);
  EXPECT_EQ(CheckAbOutputs(o), std::vector<std::string>{}) << DescribeProblems(CheckAbOutputs(o)) << "\n" << o.ledger;
}

TEST(AbConsistency, ATitleThatIsNotTheOutcomeIsFound) {
  AbOutputs o = Render(Agreeing(), 0);
  o.ledger = Replace(o.ledger, "— **PASS**", "— **FAIL**");
  EXPECT_TRUE(Finds(CheckAbOutputs(o), "the ledger's title says FAIL but the outcome is PASS"))
      << DescribeProblems(CheckAbOutputs(o));
}

// Issue 42, as it was: a violated release bound, exit 4, under a PASS title, counts, summary and HTML.
TEST(AbConsistency, AViolatedBoundUnderAPassTitleIsFound) {
  AbReport r = Agreeing();
  r.checks[0].ok = false;
  r.checks[0].value = 30e6;
  r.cohorts[0].outcome = "BOUND VIOLATED";
  const AbOutputs fixed = Render(r, 4);
  EXPECT_EQ(CheckAbOutputs(fixed), std::vector<std::string>{}) << DescribeProblems(CheckAbOutputs(fixed));
  AbOutputs o = fixed;
  o.ledger = Replace(o.ledger, "— **BOUND VIOLATED**", "— **PASS**: better than base by at least");
  o.ledger = Replace(o.ledger, "; **1 release bound violated** (exit 4)", "");
  o.summary = Replace(o.summary, "BOUND VIOLATED —", "PASS —");
  o.html = Replace(o.html, "BOUND VIOLATED", "PASS");
  const auto problems = CheckAbOutputs(o);
  EXPECT_TRUE(Finds(problems, "the ledger's title says PASS but the outcome is BOUND VIOLATED"))
      << DescribeProblems(problems);
  EXPECT_TRUE(Finds(problems, "the counts line omits a violated bound")) << DescribeProblems(problems);
  EXPECT_TRUE(Finds(problems, "the summary says PASS but the outcome is BOUND VIOLATED")) << DescribeProblems(problems);
  EXPECT_TRUE(Finds(problems, "the HTML title says PASS")) << DescribeProblems(problems);
  o = fixed;
  o.exit_status = 0;
  EXPECT_TRUE(Finds(CheckAbOutputs(o), "tare ab exited 0 but the outcome BOUND VIOLATED is exit 4"));
  nlohmann::json j = nlohmann::json::parse(fixed.json);
  j["gate_outcome"] = "PASS";
  o = fixed;
  o.json = j.dump();
  EXPECT_TRUE(Finds(CheckAbOutputs(o), "JSON gate_outcome is PASS"));
}

TEST(AbConsistency, CountsThatAreNotTheRowsAreFound) {
  AbOutputs o = Render(Agreeing(), 0);
  o.ledger = Replace(o.ledger, "2 PASS (1 gain)", "2 PASS (2 gains)");
  EXPECT_TRUE(Finds(CheckAbOutputs(o), "the counts line says")) << DescribeProblems(CheckAbOutputs(o));
  o = Render(Agreeing(), 0);
  o.ledger = Replace(o.ledger, "| **PASS** | yes", "| **INCONCLUSIVE** | yes");
  const auto problems = CheckAbOutputs(o);
  EXPECT_TRUE(Finds(problems, "--work 12 / head: the row says INCONCLUSIVE, the JSON PASS"))
      << DescribeProblems(problems);
  EXPECT_TRUE(Finds(problems, "the rows are")) << DescribeProblems(problems);
}

// Issue 42, as it was: a supported gain printed "PASS ≤ +1.32%": the null arm's edge added, not F.
TEST(AbConsistency, AGainCertifyingTheEdgeIsFound) {
  AbReport r = Agreeing();
  r.comparisons[0].metrics[0].pass_bound = 0.0132;
  const auto problems = CheckAbOutputs(Render(r, 0));
  EXPECT_TRUE(Finds(problems, "--work 12 / head perf.task_clock_ns: PASS certifies +1.32% where §5 gives -1.06%"))
      << DescribeProblems(problems);
  // And a line that prints another bound than its JSON.
  AbOutputs o = Render(Agreeing(), 0);
  o.ledger = Replace(o.ledger, "**PASS** ≤ −1.06%, changed", "**PASS** ≤ +1.32%, changed");
  EXPECT_TRUE(Finds(CheckAbOutputs(o), "the PASS certifies \" ≤ +1.32%, changed\""))
      << DescribeProblems(CheckAbOutputs(o));
}

TEST(AbConsistency, AVerdictAgainstItsIntervalIsFound) {
  AbReport r = Agreeing();
  r.comparisons[1].verdict = Verdict::kFail;
  r.comparisons[1].metrics[0].verdict = Verdict::kFail;
  r.outcome = Verdict::kFail;
  r.cohorts[0].outcome = "FAIL";
  const auto problems = CheckAbOutputs(Render(r, 1));
  EXPECT_TRUE(Finds(problems, "--work 2 / head perf.task_clock_ns: FAIL where §5 gives PASS"))
      << DescribeProblems(problems);
}

TEST(AbConsistency, APassWithAnInconclusiveReasonIsFound) {
  AbReport r = Agreeing();
  r.comparisons[1].reasons = {
      "budget of 30 s spent: undecided when it ran out, so INCONCLUSIVE; a larger --budget ..."};
  const auto problems = CheckAbOutputs(Render(r, 0));
  EXPECT_TRUE(Finds(problems, "--work 2 / head: a PASS with the reason \"budget of 30 s spent"))
      << DescribeProblems(problems);
}

TEST(AbConsistency, CrossCheckWordsAgainstTheirFiguresAreFound) {
  AbReport r = Agreeing();
  AbCrossCheck x;
  x.metric = "perf.task_clock_ns";
  x.time_change = -0.0285;
  x.instructions_change = -0.0114;
  x.reading = "not less work";
  x.phrase = "less work, but far less than the time";
  x.line = "...";
  r.comparisons[0].cross_check = x;
  EXPECT_EQ(CheckAbOutputs(Render(r, 0)), std::vector<std::string>{}) << DescribeProblems(CheckAbOutputs(Render(r, 0)));
  r.comparisons[0].cross_check->phrase = "not less work";  // as it read before issue 42
  EXPECT_TRUE(Finds(CheckAbOutputs(Render(r, 0)),
                    "the cross-check says \"not less work\" for time -2.85% and instructions -1.14%"));
  // A row that does not carry the cross-check's words.
  r.comparisons[0].cross_check->phrase = "less work, but far less than the time";
  AbOutputs o = Render(r, 0);
  o.ledger = Replace(o.ledger, "**PASS** (less work, but far less than the time)", "**PASS** (not less work)");
  EXPECT_TRUE(Finds(CheckAbOutputs(o), "the row's verdict reads")) << DescribeProblems(CheckAbOutputs(o));
}

TEST(AbConsistency, MediansThatDisagreeWithoutANoteAreFound) {
  AbReport r = Agreeing();
  r.comparisons[1].metrics[0].base_median = 39e3;
  r.comparisons[1].metrics[0].head_median = 52.4e3;
  AbOutputs o = Render(r, 0);
  EXPECT_EQ(CheckAbOutputs(o), std::vector<std::string>{}) << DescribeProblems(CheckAbOutputs(o));
  o.ledger = Replace(o.ledger, "; medians of each arm differ by +34.36%", "; ");
  EXPECT_TRUE(Finds(CheckAbOutputs(o),
                    "--work 2 / head perf.task_clock_ns: medians +34.36% beside [-0.40%, +0.50%], not noted"))
      << DescribeProblems(CheckAbOutputs(o));
}

TEST(AbConsistency, ASummaryLineThatIsNotItsMetricIsFound) {
  AbOutputs o = Render(Agreeing(), 0);
  o.summary = Replace(o.summary, "PASS <= +1.11%", "PASS <= +2.00%");
  EXPECT_TRUE(Finds(CheckAbOutputs(o), "the summary reads")) << DescribeProblems(CheckAbOutputs(o));
}

}  // namespace
}  // namespace tare::report
