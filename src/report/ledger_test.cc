// The ledger's exact text is its contract: a fixed report is rendered and compared with the golden
// files in testdata/. After an intended change, regenerate them with
//   TARE_UPDATE_GOLDEN=1 build-dir/src/report/ab_report_test
// and read the diff before committing.
#include "report/ledger.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "report/ab_json.h"
#include "report/ab_report_fixture.h"
#include "report/ledger_fit.h"

namespace tare::report {
namespace {

std::string Golden(const std::string& name) {
  return std::string(std::getenv("TARE_SOURCE_DIR") ? std::getenv("TARE_SOURCE_DIR") : ".") + "/src/report/testdata/" +
         name;
}

void ExpectGolden(const std::string& name, const std::string& text) {
  const std::string path = Golden(name);
  if (std::getenv("TARE_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path) << text;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << "missing golden file " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(text, ss.str()) << "the ledger differs from " << path;
}

using fixture::Fixed;
using fixture::Wall;

TEST(Ledger, MatchesTheGoldenFile) { ExpectGolden("ledger_fail.md", RenderLedger(Fixed())); }

TEST(Ledger, APassSaysTheBoundItCertifies) {
  AbReport r = Fixed();
  r.comparisons.erase(r.comparisons.begin());  // only the PASS of the control cell is left
  r.comparisons[0].verdict = Verdict::kPass;
  r.outcome = Verdict::kPass;
  const std::string text = RenderLedger(r);
  EXPECT_NE(text.find("## tare ab: ab_knob: +3% extra work — **PASS**: no regression beyond 2.00% (95%)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("2% **PASS** ≤ +2.00%"), std::string::npos) << text;
  EXPECT_NE(text.find("the noise cap"), std::string::npos);
}

TEST(Ledger, ANoisyHostIsSaidLoudlyAtTheTop) {
  AbReport r = Fixed();
  r.comparisons[0].metrics[0].host_too_noisy = true;
  r.comparisons[0].metrics[0].null_lo = 0.012;
  r.comparisons[0].metrics[0].null_hi = 0.034;
  const std::string text = RenderLedger(r);
  const size_t banner = text.find("> **HOST TOO NOISY.**");
  ASSERT_NE(banner, std::string::npos) << text;
  EXPECT_LT(banner, text.find("- **Campaign**"));
  EXPECT_NE(text.find("`--work 8` wall_ns: null vs base [+1.20%, +3.40%]"), std::string::npos);
  EXPECT_NE(text.find("| **too noisy** |"), std::string::npos);
}

// Issue 21: a line never contradicts its numbers. A throughput PASS prints its bound in the
// metric's worse direction (lower), a gain a negative bound, an INCONCLUSIVE its reason.
TEST(Ledger, EveryLineSaysWhatItsVerdictMeans) {
  AbReport r = Fixed();
  AbMetricResult& m = r.comparisons[1].metrics[0];
  m.direction = Direction::kHigherIsBetter;
  m.estimate = 0.0036;
  m.lo = -0.0056;
  m.hi = 0.016;
  m.pass_bound = 0.0106;  // C in the worse direction: 0.56% + a 0.5% floor
  std::string text = RenderLedger(r);
  EXPECT_NE(text.find("+0.36% [-0.56%, +1.60%] / 2% **PASS** ≥ −1.06%"), std::string::npos) << text;
  m.direction = Direction::kLowerIsBetter;
  m.estimate = -0.0367;
  m.lo = -0.0686;
  m.hi = -0.0165;
  m.pass_bound = -0.0125;
  m.supported_gain = true;
  text = RenderLedger(r);
  EXPECT_NE(text.find("-3.67% [-6.86%, -1.65%] / 2% **PASS** ≤ −1.25%"), std::string::npos) << text;
  r.comparisons.erase(r.comparisons.begin());
  r.outcome = Verdict::kPass;
  EXPECT_NE(RenderLedger(r).find("**PASS**: better than base by at least 1.25% in every metric (95%)"),
            std::string::npos);
  EXPECT_NE(RenderAbSummary(r, "l.md").find("PASS <= -1.25% (gain)"), std::string::npos) << RenderAbSummary(r, "l.md");

  m.verdict = Verdict::kInconclusive;
  m.supported_gain = false;
  m.reasons = {"the interval [-0.90%, +2.71%] reaches +2.71%, past the noise cap +2.00%; more pairs may decide it",
               "context that is not decisive"};
  text = RenderLedger(r);
  EXPECT_NE(text.find("**INCONCLUSIVE**: the interval \\[-0.90%, +2.71%\\] reaches +2.71%, past the noise cap"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("context that is not decisive"), std::string::npos);
  const std::string summary = RenderAbSummary(r, "l.md");
  EXPECT_NE(summary.find("\n    why: the interval [-0.90%, +2.71%] reaches +2.71%, past the noise cap +2.00%; more "
                         "pairs may decide it\n"),
            std::string::npos)
      << summary;
}

TEST(Ledger, StoppedAndHeadlessStatesAreExplained) {
  AbReport r = Fixed();
  r.state = CohortState::kStopped;
  r.stop_reason = "sanity gate \"x\" is violated";
  r.comparisons.clear();
  r.has_verdicts = false;
  const std::string text = RenderLedger(r);
  // Stopped ranks as its exit status (4) does: above every verdict (report/ab_outcome.h).
  EXPECT_NE(text.find("## tare ab: ab_knob: +3% extra work — **STOPPED** (no verdict)"), std::string::npos) << text;
  EXPECT_NE(text.find("> **STOPPED:** sanity gate \"x\" is violated"), std::string::npos);
  EXPECT_NE(text.find("No cell was judged"), std::string::npos);
  r.arms.pop_back();  // no null arm
  EXPECT_NE(RenderLedger(r).find("**No null arm**: this host's noise was not measured"), std::string::npos);
}

TEST(Ledger, SeveralHeadsGetAHeadColumn) {
  AbReport r = Fixed();
  AbComparison second = r.comparisons[0];
  second.head = "hd02";
  second.verdict = Verdict::kPass;
  second.supported_gain = true;
  second.metrics[0].supported_gain = true;
  second.metrics[0].estimate = -0.031;
  r.comparisons.insert(r.comparisons.begin() + 1, second);
  r.arms.insert(r.arms.begin() + 2,
                {"hd02", ArmRole::kHead, "/b/knob_minus3", "/w/.tare/bin/hd02", std::string(64, 'c')});
  const std::string text = RenderLedger(r);
  EXPECT_NE(text.find("| cell | head | role | verdict | supported gain | pairs | wall_ns |"), std::string::npos)
      << text;
  // Each head is named by the executable the user gave, not only by its four-character arm name.
  EXPECT_NE(text.find("| `--work 8` | hd02 (knob_minus3) | target | **PASS** | yes: wall_ns -3.10% | 40 |"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| `--work 8` | head (ab_knob_plus3) | target |"), std::string::npos) << text;
  // tare.ab/1 names the executable behind every head arm too.
  nlohmann::json j = AbReportToJson(r);
  EXPECT_EQ(j["comparisons"][0]["head"], "head");
  EXPECT_EQ(j["comparisons"][0]["head_executable"], "ab_knob_plus3");
  EXPECT_EQ(j["comparisons"][1]["head"], "hd02");
  EXPECT_EQ(j["comparisons"][1]["head_executable"], "knob_minus3");
}

TEST(Ledger, SlowOrNoisyGoogleBenchmarkCellsShowTheGbenchCompatRoute) {
  AbReport r = Fixed();
  r.kind = TargetKind::kGbench;
  r.instrument = Instrument::kWall;
  for (auto& c : r.comparisons) {
    c.verdict = Verdict::kFail;
    for (auto& m : c.metrics) m.noise_floor = 0.004;
  }
  // 60 s over 600 samples: 100 ms each, narrow floors, nothing INCONCLUSIVE: nothing to say.
  r.samples = 600;
  EXPECT_EQ(GbenchRouteNote(r), "");
  EXPECT_EQ(RenderLedger(r).find("Faster, tighter"), std::string::npos);
  // 60 s over 60 samples: a second each.
  r.samples = 60;
  std::string note = GbenchRouteNote(r);
  EXPECT_NE(note.find("In this cohort a sample took 1 s on average."), std::string::npos) << note;
  EXPECT_NE(
      RenderLedger(r).find("<details><summary>Faster, tighter Google Benchmark cells</summary>\n\nIn this cohort"),
      std::string::npos)
      << RenderLedger(r);
  // The samples' length is advised only to a cohort that did not set it (issue 26).
  EXPECT_NE(note.find("Until then, `--gbench-min-time` sets every sample's length"), std::string::npos) << note;
  r.gbench_min_time_ns = 50'000'000;
  EXPECT_EQ(GbenchRouteNote(r).find("Until then"), std::string::npos) << GbenchRouteNote(r);
  EXPECT_NE(GbenchRouteNote(r).find("This cohort's samples were 50 ms long (`--gbench-min-time`)."), std::string::npos)
      << GbenchRouteNote(r);
  r.gbench_min_time_ns = 0;
  r.args = {"--benchmark_min_time=0.05"};
  EXPECT_EQ(GbenchRouteNote(r).find("Until then"), std::string::npos) << GbenchRouteNote(r);
  r.args = {};
  EXPECT_NE(note.find("`#include <tare/gbench_compat.hpp>`"), std::string::npos);
  EXPECT_NE(note.find("$(pkg-config --cflags --libs tare-gbench-compat)"), std::string::npos);
  EXPECT_NE(RenderLedger(r).find(note), std::string::npos);
  // Fast samples, but a wide floor and an INCONCLUSIVE cell.
  r.samples = 600;
  r.comparisons[0].metrics[0].noise_floor = 0.07;
  r.comparisons[1].verdict = Verdict::kInconclusive;
  note = GbenchRouteNote(r);
  EXPECT_NE(note.find("In this cohort the widest null-arm floor was 7.00% and 1 comparison ended INCONCLUSIVE."),
            std::string::npos)
      << note;
  // Not for commands, nor under sim.
  r.instrument = Instrument::kSim;
  EXPECT_EQ(GbenchRouteNote(r), "");
  r.instrument = Instrument::kWall;
  r.kind = TargetKind::kCommand;
  EXPECT_EQ(GbenchRouteNote(r), "");
}

// Issue 26: a pull request's reader sees the outcome, the counts and the rows that need a look first;
// the plain PASS rows and everything about how it was measured are folded away below them.
TEST(Ledger, OpensWithTheOutcomeTheCountsAndTheRowsThatNeedALook) {
  AbReport r = Fixed();
  AbComparison pass = r.comparisons[1];
  pass.cell = "--work 1";
  pass.verdict = Verdict::kPass;
  pass.reasons.clear();
  AbComparison gain = pass;
  gain.cell = "--work 3";
  gain.metrics[0].supported_gain = true;
  gain.metrics[0].estimate = -0.05;
  r.comparisons.insert(r.comparisons.begin(), pass);  // report order: PASS, FAIL, INCONCLUSIVE, gain
  r.comparisons.push_back(gain);
  const std::string text = RenderLedger(r);
  const VerdictCounts n = CountVerdicts(r);
  EXPECT_EQ(n.fail, 1);
  EXPECT_EQ(n.inconclusive, 1);
  EXPECT_EQ(n.pass, 2);
  EXPECT_EQ(n.gains, 1);
  EXPECT_EQ(n.broken, 0);
  EXPECT_EQ(text.find("## tare ab: ab_knob: +3% extra work — **FAIL**\n\n"
                      "**1 FAIL** · 1 INCONCLUSIVE · 2 PASS (1 gain) — 4 cells; INCONCLUSIVE is not a pass.\n\n"
                      "| cell | role |"),
            0u)
      << text;
  const size_t fail = text.find("| `--work 8` |"), gain_row = text.find("| `--work 3` |"),
               inconclusive = text.find("| `--work 2` |"),
               folded = text.find("<details><summary>1 PASS without a supported gain"),
               plain = text.find("| `--work 1` |"), how = text.find("<summary>How it was measured"),
               lock = text.find("- **Lock** `"), legend = text.find("<summary>How to read this ledger</summary>");
  ASSERT_NE(legend, std::string::npos) << text;
  EXPECT_LT(fail, gain_row) << text;
  EXPECT_LT(gain_row, inconclusive) << text;
  EXPECT_LT(inconclusive, folded) << text;
  EXPECT_LT(folded, plain) << text;
  EXPECT_LT(plain, how) << text;
  EXPECT_LT(how, lock) << text;
  // The INCONCLUSIVE row's reason sits under the open table, before anything folded.
  EXPECT_LT(text.find("- `--work 2`: 1 failed sample"), folded) << text;
  // Gates all ok: one folded line. Every <details> is closed.
  EXPECT_NE(text.find("<details><summary>Sanity gates and release bounds: all 2 ok</summary>"), std::string::npos)
      << text;
  size_t open = 0, close = 0;
  for (size_t at = text.find("<details"); at != std::string::npos; at = text.find("<details", at + 1)) ++open;
  for (size_t at = text.find("</details>"); at != std::string::npos; at = text.find("</details>", at + 1)) ++close;
  EXPECT_EQ(open, close) << text;
  EXPECT_GE(open, 6u) << text;
  // A violated check is shown open, first.
  r.checks[1].ok = false;
  const std::string violated = RenderLedger(r);
  EXPECT_NE(violated.find("### Sanity gates and release bounds\n\n**1 of 2 VIOLATED** (violated first):"),
            std::string::npos)
      << violated;
  const size_t gates = violated.find("### Sanity gates");
  EXPECT_LT(violated.find("**VIOLATED** |", gates), violated.find("| ok |", gates)) << violated;
}

// 500 cells fit a GitHub comment (65,536 characters): the outcome, the counts and the rows that need
// a look come first, and what does not fit is named, with where the whole ledger is.
TEST(Ledger, FiveHundredCellsStayUnderTheCommentLimit) {
  AbReport r = Fixed();
  const AbComparison fail = r.comparisons[0], inconclusive = r.comparisons[1];
  AbComparison pass = inconclusive;
  pass.verdict = Verdict::kPass;
  pass.reasons.clear();
  r.comparisons.clear();
  for (int i = 0; i < 500; ++i) {
    AbComparison c = i < 100 ? fail : i < 400 ? inconclusive : pass;
    c.cell = "BM_Codec/" + std::to_string(i);
    c.metrics.push_back(c.metrics[0]);
    c.metrics[1].metric = "perf.task_clock_ns";
    r.comparisons.push_back(c);
  }
  const std::string whole = RenderLedger(r);
  ASSERT_GT(whole.size(), 200'000u) << "the whole ledger is several comment limits long";
  for (int i = 0; i < 500; ++i) EXPECT_NE(whole.find("| `BM_Codec/" + std::to_string(i) + "` |"), std::string::npos);

  const Ledger fitted =
      RenderLedger(r, {.max_chars = kLedgerCommentLimit, .full_ledger_where = "in the whole ledger, `ledger.full.md`"});
  EXPECT_TRUE(fitted.shortened);
  const std::string& text = fitted.markdown;
  EXPECT_LE(text.size(), kLedgerCommentLimit);
  EXPECT_NE(text.find("**100 FAIL** · 300 INCONCLUSIVE · 100 PASS — 500 cells"), std::string::npos)
      << text.substr(0, 400);
  // The open table: every FAIL row, then as many INCONCLUSIVE rows as fit, the rest counted. The
  // plain PASS rows and the reasons (the same for every INCONCLUSIVE row here) give way first.
  const size_t table_end = text.find("\n_… and ");
  ASSERT_NE(table_end, std::string::npos) << text;
  const std::string table = text.substr(0, table_end);
  for (int i = 0; i < 100; ++i)
    EXPECT_NE(table.find("| `BM_Codec/" + std::to_string(i) + "` |"), std::string::npos) << i;
  size_t kept = 0;
  for (size_t at = table.find("| `BM_Codec/"); at != std::string::npos; at = table.find("| `BM_Codec/", at + 1)) ++kept;
  const size_t cut = std::stoul(text.substr(table_end + std::string("\n_… and ").size()));
  EXPECT_GT(kept, 100u);
  EXPECT_EQ(kept + cut, 400u) << "the open table holds the 400 FAIL and INCONCLUSIVE rows, kept or counted";
  EXPECT_EQ(text.find(" more rows: in the whole ledger, `ledger.full.md`._", table_end),
            table_end + std::string("\n_… and ").size() + std::to_string(cut).size())
      << text.substr(table_end, 200);
  EXPECT_NE(text.find("_100 PASS rows without a supported gain: in the whole ledger, `ledger.full.md`._"),
            std::string::npos);
  // Still whole where it matters: how it was measured and how to read it, every <details> closed.
  EXPECT_NE(text.find("- **Lock** `"), std::string::npos);
  EXPECT_NE(text.find("<summary>How to read this ledger</summary>"), std::string::npos);
  size_t open = 0, close = 0;
  for (size_t at = text.find("<details"); at != std::string::npos; at = text.find("<details", at + 1)) ++open;
  for (size_t at = text.find("</details>"); at != std::string::npos; at = text.find("</details>", at + 1)) ++close;
  EXPECT_EQ(open, close) << text;
  // Under the limit already: nothing is cut.
  const Ledger small = RenderLedger(Fixed(), {.max_chars = kLedgerCommentLimit, .full_ledger_where = "x"});
  EXPECT_FALSE(small.shortened);
  EXPECT_EQ(small.markdown, RenderLedger(Fixed()));
}

TEST(Ledger, ALayoutHintIsListedUnderTheVerdicts) {
  AbReport r = Fixed();
  r.comparisons[0].layout_hint = "likely a layout effect: wall_ns changed +3.00% | # not a heading";
  const std::string text = RenderLedger(r);
  EXPECT_NE(text.find("- `--work 8`: **likely a layout effect: wall_ns changed +3.00% &#124; "), std::string::npos)
      << text;
  EXPECT_EQ(text.find("| # not a heading"), std::string::npos) << "the hint is escaped: " << text;
  EXPECT_EQ(AbReportToJson(r)["comparisons"][0]["layout_hint"], r.comparisons[0].layout_hint);
  EXPECT_EQ(AbReportToJson(r)["comparisons"][1]["layout_hint"], "");
}

// Cell and benchmark names come from the head binary, i.e. from the pull request under test; the
// campaign name, argv and rules from the campaign. None of them may add a table column, a heading,
// raw HTML or a comment that hides the rest of the ledger.
// Issue 42: a time FAIL the cross-check read as the same work says so on its verdict, in the row and
// the terminal summary, not only in the section below.
TEST(Ledger, ACrossCheckedVerdictCarriesItsReadingOnItsLine) {
  AbReport r = Fixed();
  AbComparison& c = r.comparisons[0];
  c.verdict = Verdict::kFail;
  AbCrossCheck x;
  x.metric = c.metrics[0].metric;
  x.reading = "same work";
  x.line = "the line";
  c.cross_check = x;
  const std::string ledger = RenderLedger(r);
  EXPECT_NE(ledger.find("| **FAIL** (same work) |"), std::string::npos) << ledger;
  const std::string summary = RenderAbSummary(r, "ledger.md");
  EXPECT_NE(summary.find("FAIL (same work)"), std::string::npos) << summary;
  c.cross_check.reset();
  EXPECT_EQ(RenderLedger(r).find("(same work)"), std::string::npos);
}

TEST(Ledger, HostileNamesCannotChangeTheLedgersStructure) {
  const std::string hostile = "a|b\n# H <img src=x onerror=alert(1)> <!-- `x`";
  AbReport r = Fixed();
  r.campaign_name = hostile;
  r.campaign_source = "file:" + hostile;
  r.args = {hostile};
  r.stop_reason = hostile;
  r.state = CohortState::kStopped;
  r.host = hostile;
  r.notes = {hostile};
  r.host_warnings = {hostile};
  r.arms[1].source = "/b/" + hostile;
  for (auto& c : r.comparisons) {
    c.cell = hostile;
    c.reasons.push_back(hostile);
    for (auto& m : c.metrics) m.metric = "gb.counter." + hostile;
    c.metrics[0].verdict = Verdict::kPass;
    c.metrics[0].noise_floor = 0.5;
    c.metrics[0].host_too_noisy = true;  // and so does HOST TOO NOISY
  }
  for (auto& c : r.checks) {
    c.rule = hostile;
    c.cell = hostile;
  }
  r.cohorts[0].stop_reason = hostile;
  // What a broken benchmark printed is the program's own text too.
  r.comparisons[1].broken.arms = {"base", "head", "null"};
  r.comparisons[1].broken.error = hostile;
  r.comparisons[1].broken.stderr_tail = hostile + "\n" + hostile + "\n";
  r.comparisons[1].broken.fix = hostile;
  // A living suite's names come from the head binary as well.
  AbSuiteEntry added{
      hostile, SuiteChange::kNew, {"head"}, {{"head", "gb.counter." + hostile, "ns", 5, 1e6, 9e5, 2e6}}, ""};
  AbSuiteEntry missing{hostile + "2", SuiteChange::kMissing, {"head"}, {}, ""};
  AbSuiteEntry failed{hostile + "3", SuiteChange::kNew, {"head"}, {}, hostile};
  r.suite = {added, missing, failed};
  const std::string text = RenderLedger(r);
  EXPECT_NE(text.find("### Broken cells"), std::string::npos) << text;
  EXPECT_NE(text.find("### The suite changed"), std::string::npos) << text;
  EXPECT_NE(text.find(" | 1 ms [900 us, 2 ms], 5 samples |"), std::string::npos) << text;

  EXPECT_EQ(text.find("<img"), std::string::npos) << text;
  EXPECT_EQ(text.find("<!--"), std::string::npos) << text;
  // Every line starting with # is one of tare's own headings.
  std::istringstream lines(text);
  std::string line;
  int table_columns = 0;  // of the table being read; 0 outside tables
  while (std::getline(lines, line)) {
    if (line.rfind('#', 0) == 0) {
      EXPECT_TRUE(line.rfind("## tare ab: ", 0) == 0 || line.rfind("### ", 0) == 0) << line;
    }
    if (line.rfind('|', 0) != 0) {
      table_columns = 0;
      continue;
    }
    const int columns = static_cast<int>(std::count(line.begin(), line.end(), '|')) - 1;
    if (table_columns == 0) table_columns = columns;  // the header row
    EXPECT_EQ(columns, table_columns) << "a row with a different column count: " << line;
  }
  // The names are still there for a reader, escaped.
  EXPECT_NE(text.find("a&#124;b\\\\n\\# H &lt;img src=x onerror=alert(1)&gt; &lt;!-- \\`x\\`"), std::string::npos)
      << text;
}

// A broken benchmark: base (and so every arm) fails every sample of --work 2, which is BROKEN,
// cannot be measured; told once in its row, the banner and "Broken cells", with the fix.
AbReport WithBrokenCell() {
  AbReport r = Fixed();
  AbComparison& c = r.comparisons[1];
  c.verdict = Verdict::kInconclusive;
  c.failed_samples = 3;
  c.broken.arms = {"base", "head", "null"};
  c.broken.samples = 1;
  c.broken.error = "benchmark 'BM_NeedsData' reported an error: cannot open data.txt";
  c.broken.stderr_tail =
      "2026-12-02T14:00:00+00:00\nRunning /w/.tare/bin/base\nRun on (2 X 2445 MHz CPU s)\n"
      "CPU Caches:\n  L1 Data 32 KiB (x1)\n  L2 Unified 512 KiB (x1)\nLoad Average: 2.1\n\n";
  c.broken.fix =
      "give every arm what it needs: ... --cwd DIR ...; or leave it out: -- '--benchmark_filter=-^BM_NeedsData$'";
  c.reasons = {
      "BROKEN, cannot be measured: base, head and null failed every sample (1 of 1); base fails too, so it "
      "is broken without the change: " +
      c.broken.error};
  return r;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Ledger, ABrokenCellIsToldOnceWithWhatItSaidAndTheFix) {
  AbReport r = WithBrokenCell();
  std::string text = RenderLedger(r);
  EXPECT_NE(text.find("## tare ab: ab_knob: +3% extra work — **FAIL**"), std::string::npos)
      << "a FAIL elsewhere is the headline\n"
      << text;
  EXPECT_NE(text.find("> **BROKEN.** `--work 2` cannot be measured (base, or its null copy, fails every sample)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| `--work 2` | control | **BROKEN** (cannot be measured) | — | 9 | — |"), std::string::npos)
      << text;
  EXPECT_EQ(Count(text, "cannot open data.txt"), 1u) << "the error once\n" << text;
  EXPECT_EQ(Count(text, "Run on (2 X 2445 MHz CPU s)"), 1u) << text;
  // The last five lines of what it said, blank ones at the end dropped.
  EXPECT_NE(text.find("  - its stderr ended: Run on (2 X 2445 MHz CPU s)<br>CPU Caches:<br>  L1 Data 32 KiB (x1)<br>  "
                      "L2 Unified 512 KiB (x1)<br>Load Average: 2.1\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Running /w/"), std::string::npos) << "only the last five lines";
  EXPECT_NE(text.find("  - to fix: give every arm what it needs"), std::string::npos) << text;

  // Without a FAIL, the headline is BROKEN: what the exit status (5) says.
  r.comparisons[0].verdict = Verdict::kPass;
  r.comparisons[0].metrics[0].verdict = Verdict::kPass;
  r.outcome = Verdict::kInconclusive;
  text = RenderLedger(r);
  EXPECT_NE(text.find("— **BROKEN**\n"), std::string::npos) << text;
  EXPECT_EQ(OutcomeWord(r), "BROKEN");
  const std::string summary = RenderAbSummary(r, "ledger.md");
  EXPECT_NE(summary.find(": BROKEN — 1 PASS, 0 FAIL, 0 INCONCLUSIVE, 1 BROKEN\n"), std::string::npos) << summary;
  EXPECT_NE(summary.find("  --work 2: BROKEN, cannot be measured:"), std::string::npos) << summary;
}

// Issue 48, item 4: the fit covers every block, the banners under the title too. 800 broken cells
// made an 84,688-byte ledger under --ledger's 65,536 limit, one 30,000-character name 185,116 bytes.
TEST(Ledger, EveryBlockIsFittedTheBrokenBannerToo) {
  const AbReport one = WithBrokenCell();
  AbReport many = one;
  many.comparisons.clear();
  for (int i = 0; i < 800; ++i) {
    AbComparison c = one.comparisons[1];
    c.cell = "BM_NeedsData/" + std::to_string(i) + "/" + std::string(90, 'n');
    many.comparisons.push_back(c);
  }
  AbReport long_name = one;
  long_name.comparisons[1].cell = "BM_" + std::string(30'000, 'x');
  for (char k : {'y', 'z'}) {
    long_name.comparisons.push_back(long_name.comparisons[1]);
    long_name.comparisons.back().cell = "BM_" + std::string(30'000, k);
  }
  for (const AbReport* r : {&many, &long_name}) {
    const Ledger fitted =
        RenderLedger(*r, {.max_chars = kLedgerCommentLimit, .full_ledger_where = "in `ledger.full.md`"});
    EXPECT_TRUE(fitted.shortened);
    EXPECT_LE(fitted.markdown.size(), kLedgerCommentLimit) << fitted.markdown.substr(0, 2000);
    EXPECT_NE(fitted.markdown.find("> **BROKEN.** "), std::string::npos) << "the banner is kept, shortened";
    EXPECT_NE(fitted.markdown.find("## tare ab: "), std::string::npos);
    EXPECT_NE(fitted.markdown.find("<summary>How to read this ledger</summary>"), std::string::npos);
  }
  // The banner names as many cells as fit and counts the rest.
  const std::string text =
      RenderLedger(many, {.max_chars = kLedgerCommentLimit, .full_ledger_where = "in `ledger.full.md`"}).markdown;
  EXPECT_NE(text.find("`BM_NeedsData/0/" + std::string(90, 'n') + "`"), std::string::npos);
  EXPECT_NE(text.find(" more cells (in `ledger.full.md`) cannot be measured"), std::string::npos)
      << text.substr(0, 3000);
  // Without a limit, every cell is named.
  EXPECT_NE(RenderLedger(many).find("`BM_NeedsData/799/" + std::string(90, 'n') + "`"), std::string::npos);
  EXPECT_NE(RenderLedger(long_name).find(long_name.comparisons[1].cell), std::string::npos);
}

// The last resort of the fit: blocks kept whole (rank 0) that alone exceed the limit are cut
// short, the longest first, at a character's boundary, and say so.
TEST(LedgerFit, BlocksKeptWholeAreCutShortWhenTheyAloneExceedTheLimit) {
  std::string long_head;
  for (int i = 0; i < 5000; ++i) long_head += "é ";  // two-byte characters
  std::vector<LedgerBlock> blocks = {{.head = "## title\n\n"}, {.head = long_head}, {.head = "legend\n"}};
  EXPECT_TRUE(FitBlocks(blocks, 1000, "in `full.md`"));
  const std::string text = JoinBlocks(blocks, "in `full.md`");
  EXPECT_LE(text.size(), 1000u);
  EXPECT_EQ(text.rfind("## title\n\n", 0), 0u) << "the short blocks are kept whole";
  EXPECT_NE(text.find("_… cut for size: in `full.md`._"), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - 7), "legend\n");
  const size_t cut = text.find("\n\n_… cut");
  EXPECT_NE(static_cast<unsigned char>(text[cut - 1]), 0xC3u) << "not inside a character";
}

TEST(Ledger, AHeadBrokenWhereBaseRunsIsAFailRow) {
  AbReport r = Fixed();
  AbComparison& c = r.comparisons[1];
  c.verdict = Verdict::kFail;
  c.broken.arms = {"head"};
  c.broken.samples = 3;
  c.broken.error = "killed by signal 6 (SIGABRT)";
  c.broken.fix = "give every arm what it needs";
  c.reasons = {
      "BROKEN in the head, a FAIL: head failed every sample (3 of 3) where base ran: killed by signal 6 (SIGABRT)"};
  const std::string text = RenderLedger(r);
  EXPECT_NE(text.find("| **FAIL** (BROKEN in the head) |"), std::string::npos) << text;
  EXPECT_NE(text.find("`--work 2` fails every sample in the head where base runs: a FAIL"), std::string::npos) << text;
  EXPECT_EQ(Count(text, "killed by signal 6"), 1u) << text;
  EXPECT_EQ(OutcomeWord(r), "FAIL");
  EXPECT_TRUE(r.UnmeasurableCells().empty());
}

TEST(AbJson, ABrokenComparisonCarriesItsArmsErrorAndFix) {
  nlohmann::json j = AbReportToJson(WithBrokenCell());
  EXPECT_TRUE(j["comparisons"][0]["broken"].is_null());
  const auto& b = j["comparisons"][1]["broken"];
  EXPECT_EQ(b["arms"], nlohmann::json({"base", "head", "null"}));
  EXPECT_EQ(b["cannot_be_measured"], true);
  EXPECT_EQ(b["samples"], 1);
  EXPECT_NE(b["fix"].get<std::string>().find("--cwd DIR"), std::string::npos);
  EXPECT_EQ(j["cannot_be_measured"], nlohmann::json({"--work 2"}));
  EXPECT_EQ(j["comparisons"][1]["verdict"], "INCONCLUSIVE");
}

TEST(AbJson, CarriesTheSchemaAndNullsForMissingValues) {
  AbReport r = Fixed();
  r.comparisons[1].metrics[0].lo = kNaN;
  nlohmann::json j = AbReportToJson(r);
  EXPECT_EQ(j["schema"], "tare.ab/1");
  EXPECT_EQ(j["outcome"], "FAIL");
  EXPECT_EQ(j["comparisons"][0]["metrics"][0]["verdict"], "FAIL");
  EXPECT_DOUBLE_EQ(j["comparisons"][0]["metrics"][0]["change"]["lo"].get<double>(), 0.0241);
  EXPECT_TRUE(j["comparisons"][1]["metrics"][0]["change"]["lo"].is_null());
  EXPECT_EQ(j["cohorts"].size(), 2u);
  EXPECT_EQ(j["look_pairs"], nlohmann::json({10, 20, 30, 40}));
  EXPECT_EQ(j["gates_ok"], true);
  EXPECT_EQ(j["host_too_noisy"], false);
}

// Issue 21: LAYOUT-SENSITIVE only when the layouts disagree about the change.
TEST(Layouts, SensitiveOnlyWhenTheLayoutsDisagreeAboutTheChange) {
  AbLayoutRow gain;  // four layouts agree on a -2.7..-4.9% gain; only the PASS certification differs
  gain.verdicts = {Verdict::kPass, Verdict::kInconclusive, Verdict::kPass, Verdict::kInconclusive};
  gain.estimates = {-0.027, -0.049, -0.031, -0.035};
  gain.los = {-0.04, -0.08, -0.05, -0.06};
  gain.his = {-0.012, -0.005, -0.015, 0.002};
  JudgeLayoutRow(gain);
  EXPECT_FALSE(gain.sensitive);
  EXPECT_NEAR(gain.spread, 0.022, 1e-12);
  AbLayoutRow some_fail = gain;  // a FAIL in one layout, not in the others
  some_fail.verdicts[1] = Verdict::kFail;
  JudgeLayoutRow(some_fail);
  EXPECT_TRUE(some_fail.sensitive);
  AbLayoutRow all_fail = gain;
  all_fail.verdicts.assign(4, Verdict::kFail);
  JudgeLayoutRow(all_fail);
  EXPECT_FALSE(all_fail.sensitive);
  AbLayoutRow opposite = gain;  // one layout's interval wholly above 0
  opposite.los[3] = 0.001;
  opposite.his[3] = 0.01;
  JudgeLayoutRow(opposite);
  EXPECT_TRUE(opposite.sensitive);
}

// Issue 44, item 7: the default gate's rule was repeated on every cell's row; it is said once, on
// the first row of its cells, violated rows still first.
TEST(Ledger, AGateOverManyCellsSaysItsRuleOnce) {
  AbReport r = Fixed();
  const std::string rule = "peak_rss_bytes(head) <= 1.5 * peak_rss_bytes(base) + 8MiB";
  r.checks.clear();
  for (const char* cell : {"BM_A", "BM_B", "BM_C"}) {
    r.checks.push_back({CheckKind::kGate, rule, cell, "head", 1.5e6, 10.6e6, "bytes", true});
  }
  std::string text = RenderLedger(r);
  const std::string shown = "peak_rss_bytes(base) + 8MiB</code>";  // the rule as its cell shows it
  EXPECT_EQ(Count(text, shown), 1u) << text;
  EXPECT_NE(text.find("|  | ″ | `BM_B` | head |"), std::string::npos) << text;
  r.checks[2].ok = false;
  text = RenderLedger(r);
  EXPECT_EQ(Count(text, shown), 2u) << "once among the violated, once among the rest\n" << text;
  EXPECT_LT(text.find("`BM_C`"), text.find("`BM_A`")) << text;
}

}  // namespace
}  // namespace tare::report
