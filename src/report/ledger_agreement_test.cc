// Issue 42, item 5: every line of a cohort's outputs agrees with itself and its neighbours — the
// ledger's title and counts with the exit status, a gain's bound with its interval, the medians
// with the paired change, the Google Benchmark note with the samples' length. Each test renders the
// fixed report of ab_report_fixture.h with the case at hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/record_fields.h"
#include "report/ab_json.h"
#include "report/ab_outcome.h"
#include "report/ab_report_fixture.h"
#include "report/ledger.h"
#include "report/medians.h"

namespace tare::report {
namespace {

using fixture::Fixed;

// The control cell alone, a PASS.
AbReport OnePass() {
  AbReport r = Fixed();
  r.comparisons.erase(r.comparisons.begin());
  r.comparisons[0].verdict = Verdict::kPass;
  r.comparisons[0].reasons.clear();
  r.outcome = Verdict::kPass;
  return r;
}

// A release bound violated under a PASS used to read PASS in the title, the counts, the summary
// and the JSON; `tare ab` exits 4, which ranks above every verdict.
TEST(LedgerAgreement, AViolatedBoundOutranksEveryVerdict) {
  AbReport r = OnePass();
  r.checks[1] = {CheckKind::kBound, "p95(wall_ns, head) <= 1ms", "--work 2", "head", 1.3e6, 1e6, "ns", false};
  EXPECT_EQ(OutcomeOf(r), AbOutcome::kBoundViolated);
  const std::string ledger = RenderLedger(r);
  EXPECT_EQ(
      ledger.find(
          "## tare ab: ab_knob: +3% extra work — **BOUND VIOLATED**\n\n"
          "0 FAIL · 0 INCONCLUSIVE · 1 PASS — 1 cell; **1 release bound violated** (exit 4); "
          "INCONCLUSIVE is not a pass.\n\n"
          "> **BOUND VIOLATED.** <code>p95(wall_ns, head) &lt;= 1ms</code> in `--work 2` for head (ab_knob_plus3): "
          "1.3 ms > 1 ms — the gate fails (exit 4) whatever the verdicts below say.\n\n"),
      0u)
      << ledger;
  EXPECT_EQ(ledger.find("— **PASS**"), std::string::npos) << ledger;
  const std::string summary = RenderAbSummary(r, "l.md");
  EXPECT_EQ(summary.find("tare ab: 'ab_knob: +3% extra work' cohort 2 (run 14): BOUND VIOLATED — 1 PASS, 0 FAIL, 0 "
                         "INCONCLUSIVE; 1 release bound violated (exit 4)\n"),
            0u)
      << summary;
  const nlohmann::json j = AbReportToJson(r);
  EXPECT_EQ(j["outcome"], "PASS") << "tare.ab/1's outcome keeps its meaning: the worst comparison's";
  EXPECT_EQ(j["gate_outcome"], "BOUND VIOLATED");
  EXPECT_EQ(j["bounds_ok"], false);
  // Above a FAIL too: 4 ranks above 1.
  AbReport fail = Fixed();
  fail.checks[1].ok = false;
  EXPECT_EQ(OutcomeWord(fail), "BOUND VIOLATED");
  EXPECT_EQ(RenderLedger(fail).find("## tare ab: ab_knob: +3% extra work — **BOUND VIOLATED**\n\n**1 FAIL**"), 0u);
}

// The one ranking the title, the summary, the JSON and `tare ab`'s exit status share.
TEST(LedgerAgreement, TheOutcomeRanksAsTheExitStatus) {
  struct Case {
    const char* what;
    void (*change)(AbReport&);
    AbOutcome outcome;
  };
  const Case cases[] = {
      {"a PASS", [](AbReport&) {}, AbOutcome::kPass},
      {"an INCONCLUSIVE", [](AbReport& r) { r.outcome = Verdict::kInconclusive; }, AbOutcome::kInconclusive},
      {"nothing judged", [](AbReport& r) { r.has_verdicts = false; }, AbOutcome::kInconclusive},
      {"a cell that cannot be measured",
       [](AbReport& r) {
         r.comparisons[0].broken.arms = {"base"};
         r.outcome = Verdict::kInconclusive;
       },
       AbOutcome::kBroken},
      {"a FAIL beside a broken cell",
       [](AbReport& r) {
         r.comparisons[0].broken.arms = {"base"};
         r.outcome = Verdict::kFail;
       },
       AbOutcome::kFail},
      {"a changed suite, --strict-suite",
       [](AbReport& r) {
         r.outcome = Verdict::kFail;
         r.strict_suite = true;
         r.suite.push_back({});
       },
       AbOutcome::kSuiteChanged},
      {"a changed suite without --strict-suite", [](AbReport& r) { r.suite.push_back({}); }, AbOutcome::kPass},
      {"a violated bound beside a changed suite",
       [](AbReport& r) {
         r.strict_suite = true;
         r.suite.push_back({});
         r.checks[1].ok = false;
       },
       AbOutcome::kBoundViolated},
      {"a violated gate", [](AbReport& r) { r.checks[0].ok = false; }, AbOutcome::kStopped},
      {"a stopped cohort", [](AbReport& r) { r.state = CohortState::kStopped; }, AbOutcome::kStopped},
      {"an interrupted cohort with a violated bound",
       [](AbReport& r) {
         r.state = CohortState::kInterrupted;
         r.checks[1].ok = false;
       },
       AbOutcome::kInterrupted},
  };
  for (const Case& c : cases) {
    AbReport r = OnePass();
    c.change(r);
    EXPECT_EQ(AbOutcomeName(OutcomeOf(r)), AbOutcomeName(c.outcome)) << c.what;
    const std::string word(AbOutcomeName(c.outcome));
    EXPECT_EQ(AbReportToJson(r)["gate_outcome"], word) << c.what;
    if (r.has_verdicts) {
      EXPECT_EQ(RenderLedger(r).find("## tare ab: ab_knob: +3% extra work — **" + word + "**"), 0u) << c.what;
      EXPECT_NE(RenderAbSummary(r, "l.md").find("(run 14): " + word + " — "), std::string::npos) << c.what;
    }
  }
}

// Bimodal samples: the arms' medians differ by +34% beside a +5.67% paired change; the line says so
// in the ledger, the summary, the JSON (and the HTML: pages_test.cc).
TEST(LedgerAgreement, MediansThatDisagreeWithTheChangeSaySo) {
  AbReport r = Fixed();
  AbMetricResult& m = r.comparisons[0].metrics[0];
  m.estimate = 0.0567;
  m.lo = 0.0402;
  m.hi = 0.0713;
  m.base_median = 39e3;
  m.head_median = 52.4e3;
  ASSERT_TRUE(MediansDisagree(m));
  const std::string note =
      "medians of each arm differ by +34.36%, outside the interval: bimodal or drifting samples; the verdict is on "
      "the paired change, +5.67%";
  EXPECT_EQ(MediansNote(m), note);
  const std::string ledger = RenderLedger(r);
  EXPECT_NE(ledger.find("<br>39 us → 52.4 us; " + note + " |"), std::string::npos) << ledger;
  const std::string summary = RenderAbSummary(r, "l.md");
  EXPECT_NE(summary.find("\n    note: " + note + "\n"), std::string::npos) << summary;
  const nlohmann::json j = AbReportToJson(r);
  const auto& metric = j["comparisons"][0]["metrics"][0];
  EXPECT_NEAR(metric["medians_change"].get<double>(), 52.4 / 39 - 1, 1e-12);
  EXPECT_EQ(metric["medians_disagree"], true);
  // Inside the interval, or within a point of it, they agree: nothing is added.
  m.head_median = 39e3 * 1.075;  // +7.50%, 0.37 points past +7.13%
  EXPECT_FALSE(MediansDisagree(m));
  EXPECT_EQ(RenderLedger(r).find("medians of each arm"), std::string::npos);
  EXPECT_EQ(AbReportToJson(r)["comparisons"][0]["metrics"][0]["medians_disagree"], false);
  // An exact verdict's change is the medians' ratio.
  m.exact = true;
  m.head_median = 52.4e3;
  EXPECT_FALSE(MediansDisagree(m));
}

// The Google Benchmark note says what a sample cost here, not "about a second" beside 50 ms samples.
TEST(LedgerAgreement, TheGbenchNoteStatesTheSamplesLength) {
  AbReport r = Fixed();
  r.kind = TargetKind::kGbench;
  r.instrument = Instrument::kWall;
  r.samples = 1200;  // 60 s over 1200 samples: 50 ms each
  r.gbench_locked_min_time_ns = 20'000'000;
  const std::string note = GbenchRouteNote(r);  // the INCONCLUSIVE control cell calls for it
  ASSERT_NE(note, "");
  EXPECT_EQ(note.find("about a second"), std::string::npos) << note;
  EXPECT_NE(note.find("runs for at least its minimum time, 20 ms here (`--benchmark_min_time=0.02`, kept in the "
                      "lock) in every process, plus its estimation runs, so the counts differ between arms: 50 ms a "
                      "sample on average in this cohort, process start included."),
            std::string::npos)
      << note;
  r.gbench_counts_fixed = true;
  r.gbench_locked_min_time_ns = 0;
  EXPECT_NE(GbenchRouteNote(r).find("Here Google Benchmark ran one count fixed per cell"), std::string::npos)
      << GbenchRouteNote(r);
  EXPECT_EQ(GbenchRouteNote(r).find("the counts differ between arms"), std::string::npos) << GbenchRouteNote(r);
}

// The cross-check's words on the row agree with the signs of both figures.
TEST(LedgerAgreement, ACrossCheckedRowCarriesWordsThatAgreeWithItsFigures) {
  AbReport r = OnePass();
  AbComparison& c = r.comparisons[0];
  AbCrossCheck x;
  x.metric = "wall_ns";
  x.time_change = -0.08;
  x.instructions_change = -0.0114;
  x.reading = "not less work";
  x.phrase = "less work, but far less than the time";
  x.line = "wall_ns -8.00%, instructions -1.14%: less work, but far less than the time — ...";
  c.cross_check = x;
  EXPECT_NE(RenderLedger(r).find("| **PASS** (less work, but far less than the time) |"), std::string::npos)
      << RenderLedger(r);
  EXPECT_EQ(AbReportToJson(r)["comparisons"][0]["cross_check"]["phrase"], "less work, but far less than the time");
  EXPECT_EQ(AbReportToJson(r)["comparisons"][0]["cross_check"]["reading"], "not less work");
}

}  // namespace
}  // namespace tare::report

namespace tare::report {
namespace {

// Issue 47, item 1: tare.ab/1 carries every field of a gate or bound and of a cross-check, as their
// field lists (model/record_fields.h) name them, with the values the record holds.
TEST(AbJsonFields, EveryFieldOfACheckAndOfACrossCheckIsInTheDocument) {
  AbReport r = fixture::Fixed();
  ASSERT_FALSE(r.checks.empty());
  AbCrossCheck x;
  x.metric = "wall_ns";
  x.time_change = 0.05;
  x.instructions_change = 0.0001;
  x.reading = "the same work";
  x.line = "instructions +0.01% while wall_ns +5.00%";
  x.base = {{"sim.Ir", 1000}};
  x.head = {{"sim.Ir", 1000.1}};
  r.comparisons[0].cross_check = x;
  const nlohmann::json j = AbReportToJson(r);
  for (const auto& f : CheckFields()) {
    EXPECT_TRUE(j["checks"][0].contains(f.name)) << f.name << " of a check is missing: " << j["checks"][0].dump();
  }
  EXPECT_EQ(j["checks"][0]["rule"], r.checks[0].rule);
  EXPECT_EQ(j["checks"][0]["ok"], r.checks[0].ok);
  const nlohmann::json& xj = j["comparisons"][0]["cross_check"];
  for (const auto& f : CrossCheckFields()) {
    EXPECT_TRUE(xj.contains(f.name)) << f.name << " of a cross-check is missing: " << xj.dump();
  }
  // tare.ab/1's own shapes: figures by name, an empty phrase as null.
  EXPECT_EQ(xj["head"]["sim.Ir"], 1000.1);
  EXPECT_TRUE(xj["phrase"].is_null());
  EXPECT_EQ(xj["reading"], "the same work");
  EXPECT_EQ(xj["time_change"], 0.05);
}

}  // namespace
}  // namespace tare::report
