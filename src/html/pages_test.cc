// The three pages from synthetic runs, comparisons and cohorts whose every name is hostile: the
// pages must show the names as text and contain no element, attribute or script of theirs. The
// real binary's pages, rendered by a real browser, are tested in tests/e2e/report.
#include <gtest/gtest.h>

#include "base/json_text.h"
#include "env/fingerprint_json.h"
#include "html/ab_page.h"
#include "html/compare_page.h"
#include "html/run_page.h"
#include "html/site_pages.h"

namespace tare::html {
namespace {

const std::string kHostile = "<script>alert(1)</script>";
const std::string kHostileText = "&lt;script&gt;alert(1)&lt;/script&gt;";

void ExpectSafe(const std::string& html) {
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  // Every '<' on the page opens one of tare's own tags: none carries an event handler attribute.
  for (size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
    const std::string tag = html.substr(at, html.find('>', at) - at);
    EXPECT_EQ(tag.find("onerror"), std::string::npos) << tag;
    EXPECT_EQ(tag.find("onmouseover"), std::string::npos) << tag;
  }
  EXPECT_EQ(html.find('\x1b'), std::string::npos);
  EXPECT_EQ(html.find("nan\""), std::string::npos);
  EXPECT_EQ(html.find("=\"inf"), std::string::npos);
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  EXPECT_EQ(html.rfind("</html>\n"), html.size() - 8);
}

RunData HostileRun(int64_t id, const std::string& arm_a, const std::string& arm_b) {
  RunData d;
  d.run.id = id;
  d.run.kind = arm_a.empty() ? RunKind::kRun : RunKind::kAb;
  d.run.status = RunStatus::kComplete;
  d.run.tare_version = "0.1.0";
  d.run.started_unix_ns = 1735787045000000000;
  d.run.command_line = {"tare", "run", kHostile};
  d.run.provenance = {"0123456789abcdef0123", "feat/<b>x</b>", true, {{"pr", "\"><img src=x onerror=alert(1)>"}}};
  Fingerprint fp;
  fp.keys = {{"cpu.model", "<i>CPU</i>", true}, {"os.loadavg", "0.5", false}};
  fp.checks = {{"governor", CheckLevel::kWarn, "<u>", "fix"}};
  d.run.fingerprint_json = DumpJson(env::FingerprintToJson(fp));
  d.run.fingerprint_digest = fp.HardDigest();
  d.executables = {{"target", "/bin/" + kHostile, "abcdef0123456789", "{}"}};
  d.benchmarks = {{1, "x::" + kHostile, kHostile, TargetKind::kCommand},
                  {2, "x::BM_Ok", "BM_Ok", TargetKind::kCommand}};
  d.metrics = {{"wall_ns", "ns", Direction::kLowerIsBetter, MetricKind::kTime, "", false, MetricSource::kProcess}};
  d.notes = {{"warn", "note \x1b[2J " + kHostile}};
  int64_t seq = 0;
  for (int64_t bench : {1, 2}) {
    for (int i = 0; i < 6; ++i) {
      Sample s;
      s.seq = seq++;
      s.arm = i % 2 == 0 ? arm_a : arm_b;
      s.block = i / 2;
      s.warmup = arm_a.empty() && i == 0;
      if (i == 3) {
        s.outcome = SampleOutcome::kFailed;
        s.exit_code = 3;
        s.error = "exit status 3 " + kHostile;
      } else {
        s.values["wall_ns"] = bench == 2 ? 5e6 : 1e6 + 1e4 * i;  // BM_Ok: constant values
      }
      d.samples.push_back({s.seq, bench, s});
    }
  }
  return d;
}

TEST(RunPage, HostileNamesAreTextAndEverySampleIsDrawn) {
  const std::string html = RenderRunHtml(HostileRun(7, "", ""));
  ExpectSafe(html);
  EXPECT_NE(html.find("<h3>" + kHostileText + "</h3>"), std::string::npos);
  EXPECT_NE(html.find("&lt;i&gt;CPU&lt;/i&gt;"), std::string::npos) << "hard keys shown";
  EXPECT_NE(html.find("<details>"), std::string::npos) << "soft keys folded";
  EXPECT_NE(html.find("\\x1b[2J"), std::string::npos);
  EXPECT_NE(html.find("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"), std::string::npos) << "a tag value, as text";
  EXPECT_NE(html.find("failed: exit status 3 " + kHostileText), std::string::npos) << "the reason in a tooltip";
  EXPECT_NE(html.find("feat/&lt;b&gt;x&lt;/b&gt;@0123456789ab, uncommitted changes"), std::string::npos);
  EXPECT_NE(html.find("class=\"pt warm s0\""), std::string::npos);
  EXPECT_NE(html.find("2 measured samples failed"), std::string::npos);
}

TEST(RunPage, AnAbCohortsSamplesAreShownPerArm) {
  const std::string html = RenderRunHtml(HostileRun(8, "base", "head"));
  ExpectSafe(html);
  EXPECT_NE(html.find("class=\"pt strip s1\""), std::string::npos);
  EXPECT_NE(html.find(">head</text>"), std::string::npos);
}

// tare report --run builds a plain run's page a benchmark at a time (issue 48, item 7: a run of
// 1,000,000 samples was held whole): the same page as from the whole run, each benchmark's samples
// asked for once; an error of the source is the page's.
TEST(RunPage, ABenchmarkAtATimeIsTheSamePage) {
  const RunData whole = HostileRun(7, "", "");
  RunData head = whole;
  head.samples.clear();
  std::vector<int64_t> asked;
  auto page = RenderRunHtmlByBenchmark(head, [&](int64_t bench) -> StatusOr<std::vector<StoredSample>> {
    asked.push_back(bench);
    std::vector<StoredSample> out;
    for (const auto& s : whole.samples) {
      if (s.benchmark_id == bench) out.push_back(s);
    }
    return out;
  });
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(*page, RenderRunHtml(whole));
  EXPECT_EQ(asked, (std::vector<int64_t>{1, 2}));
  auto failed = RenderRunHtmlByBenchmark(
      head, [](int64_t) -> StatusOr<std::vector<StoredSample>> { return Status::DataLoss("the store is damaged"); });
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "the store is damaged");
}

TEST(RunPage, AnUnreadableFingerprintIsSaidNotFatal) {
  RunData d = HostileRun(9, "", "");
  d.run.fingerprint_json = "{not json";
  const std::string html = RenderRunHtml(d);
  EXPECT_NE(html.find("The stored fingerprint cannot be read"), std::string::npos);
  d.samples.clear();
  d.benchmarks.clear();
  EXPECT_NE(RenderRunHtml(d).find("This run has no benchmarks"), std::string::npos);
}

TEST(ComparePage, ForestPerBenchmarkAgainstTheThreshold) {
  const RunData base = HostileRun(1, "", ""), head = HostileRun(2, "", "");
  compare::SuiteComparison c;
  c.base = base.run;
  c.head = head.run;
  c.warnings = {"the host was busy " + kHostile};
  compare::BenchmarkChange b;
  b.name = kHostile;
  b.cls = compare::ChangeClass::kRegressed;
  compare::MetricChange m;
  m.metric = "wall_ns";
  m.unit = "ns";
  m.cls = compare::ChangeClass::kRegressed;
  m.n_base = m.n_head = 5;
  m.base_median = 1e6;
  m.head_median = 1.1e6;
  m.change = 0.1;
  m.lo = 0.07;
  m.hi = std::numeric_limits<double>::infinity();
  m.threshold = 0.05;
  m.threshold_source = "default";
  m.method = "mann-whitney";
  b.metrics = {m};
  compare::BenchmarkChange gone;
  gone.name = "BM_Gone";
  gone.cls = compare::ChangeClass::kMissing;
  gone.reason = "only in base";
  c.benchmarks = {b, gone};
  const std::string html = RenderCompareHtml(c, base, head);
  ExpectSafe(html);
  EXPECT_NE(html.find("1 regressed, 1 missing"), std::string::npos) << html.substr(0, 3000);
  EXPECT_NE(html.find("class=\"ci regressed\""), std::string::npos);
  EXPECT_NE(html.find("class=\"band threshold\""), std::string::npos);
  EXPECT_NE(html.find("WARNING: the host was busy " + kHostileText), std::string::npos);
  EXPECT_NE(html.find("base (run 1)"), std::string::npos) << "both runs' samples are plotted";
}

TEST(AbPage, ForestPerCellColouredByVerdict) {
  const RunData run = HostileRun(3, "base", "head");
  report::AbReport r;
  r.campaign_name = kHostile;
  r.campaign_source = "flags";
  r.run_id = 3;
  r.cohort = 1;
  r.lock_sha256 = "d4d402680ebc0000";
  r.has_verdicts = true;
  r.outcome = Verdict::kFail;
  r.arms = {{"base", ArmRole::kBase, "/b/" + kHostile, "/s/bin/base", "aa"},
            {"head", ArmRole::kHead, "/h", "/s/bin/head", "bb"}};
  AbComparison c;
  c.cell = kHostile;
  c.verdict = Verdict::kFail;
  AbMetricResult m;
  m.metric = "wall_ns";
  m.unit = "ns";
  m.estimate = 0.03;
  m.lo = 0.02;
  m.hi = 0.04;
  m.has_null = true;
  m.null_lo = -0.004;
  m.null_hi = 0.005;
  m.null_estimate = 0;
  m.noise_floor = 0.005;
  m.delta = 0.005;
  m.verdict = Verdict::kFail;
  m.reasons = {"worse " + kHostile};
  c.metrics = {m};
  AbComparison pass = c;
  pass.cell = "BM_Ok";
  pass.verdict = Verdict::kPass;
  pass.metrics[0].verdict = Verdict::kPass;
  pass.metrics[0].estimate = pass.metrics[0].lo = pass.metrics[0].hi = 0;  // sim: exactly 0
  r.comparisons = {c, pass};
  r.checks = {{CheckKind::kGate, "failed_samples == 0", kHostile, "head", 0, 0, "count", true}};
  r.cohorts = {{1, 3, 0, CohortState::kComplete, "", "FAIL", "d4d4", {"bb"}, 12, true}};
  r.notes = {"iteration counts " + kHostile};
  const std::string html =
      RenderAbHtml(r, run, {{0, kHostile, CellRole::kTarget, 1, {}, {}}, {1, "BM_Ok", CellRole::kTarget, 2, {}, {}}});
  ExpectSafe(html);
  EXPECT_NE(html.find("class=\"ci fail\""), std::string::npos);
  EXPECT_NE(html.find("class=\"ci pass\""), std::string::npos);
  EXPECT_NE(html.find("class=\"band\""), std::string::npos) << "the null arm's interval";
  EXPECT_NE(html.find("class=\"limit\""), std::string::npos) << "δ";
  EXPECT_NE(html.find("class=\"pt strip s1\""), std::string::npos) << "the cell's samples per arm";
  // The FAIL cell (first: worst first) shows its samples; the PASS cell's are folded (issue 44, item 6).
  const size_t folded = html.find("<details><summary>every sample of this PASS cell</summary>");
  ASSERT_NE(folded, std::string::npos);
  EXPECT_EQ(html.find("every sample of this PASS cell", html.find("</summary>", folded)), std::string::npos)
      << "one PASS cell";
  EXPECT_LT(html.find("class=\"pt strip s1\""), folded) << "the FAIL cell's plot is not folded";
  EXPECT_NE(html.find("class=\"pt strip s1\"", folded), std::string::npos) << "the PASS cell's plot is in the fold";
  EXPECT_NE(html.find("tare ab: " + kHostileText + " — FAIL"), std::string::npos);
  // Without the run, the page still renders (no sample plots).
  ExpectSafe(RenderAbHtml(r, RunData{}, {}));
}

// Issue 42: the page's title has the ledger's word, ranked as the exit status: a violated release
// bound beside a PASS reads BOUND VIOLATED (exit 4), not PASS; medians that disagree with the paired
// change say so on their row.
TEST(AbPage, TheTitleSaysWhatTheExitStatusSays) {
  report::AbReport r;
  r.campaign_name = "bench";
  r.has_verdicts = true;
  r.outcome = Verdict::kPass;
  r.arms = {{"base", ArmRole::kBase, "/b/bench", "/s/bin/base", "aa"},
            {"head", ArmRole::kHead, "/h/bench", "/s/bin/head", "bb"}};
  AbComparison c;
  c.cell = "BM_Work";
  c.verdict = Verdict::kPass;
  AbMetricResult m;
  m.metric = "wall_ns";
  m.unit = "ns";
  m.estimate = 0.0567;
  m.lo = 0.0402;
  m.hi = 0.0713;
  m.base_median = 39e3;
  m.head_median = 52.4e3;
  m.verdict = Verdict::kPass;
  m.pass_bound = 0.0713;
  c.metrics = {m};
  r.comparisons = {c};
  r.checks = {{CheckKind::kBound, "p95(wall_ns, head) <= 1ms", "BM_Work", "head", 1.3e6, 1e6, "ns", false}};
  const std::string html = RenderAbHtml(r, RunData{}, {});
  ExpectSafe(html);
  EXPECT_NE(html.find("<title>tare ab: bench — BOUND VIOLATED</title>"), std::string::npos) << html;
  EXPECT_NE(html.find("<p class=\"headline\">Outcome <span class=\"badge boundviolated\">BOUND VIOLATED</span>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("BOUND VIOLATED: <code>p95(wall_ns, head) &lt;= 1ms</code> in BM_Work for head (bench): 1.3 ms "
                      "&gt; 1 ms"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("medians of each arm differ by +34.36%, outside the interval"), std::string::npos) << html;
  r.checks[0].ok = true;
  EXPECT_NE(RenderAbHtml(r, RunData{}, {}).find("<title>tare ab: bench — PASS</title>"), std::string::npos);
}

// Issue 44, item 6: the page opens with the FAIL rows (the cohort listed the PASS cell first), and
// the valgrind cross-check — the ledger's most convincing line — is on the page, before the cells.
TEST(AbPage, FailRowsComeFirstAndTheCrossCheckIsOnThePage) {
  report::AbReport r;
  r.campaign_name = "bench";
  r.has_verdicts = true;
  r.outcome = Verdict::kFail;
  auto cell = [](const std::string& name, Verdict v, double estimate) {
    AbComparison c;
    c.cell = name;
    c.head = "head";
    c.verdict = v;
    AbMetricResult m;
    m.metric = "gb.cpu_time_ns";
    m.unit = "ns";
    m.estimate = estimate;
    m.lo = estimate - 0.01;
    m.hi = estimate + 0.01;
    m.verdict = v;
    c.metrics = {m};
    return c;
  };
  AbComparison pass = cell("BM_Quiet", Verdict::kPass, 0.0);
  AbComparison fail = cell("BM_Memcpy", Verdict::kFail, 0.04);
  AbCrossCheck x;
  x.metric = "gb.cpu_time_ns";
  x.reading = "same work";
  x.line = "instructions +0.00% (exact) while gb.cpu_time_ns moved +4.00%: the same work took longer";
  fail.cross_check = x;
  r.comparisons = {pass, fail};
  const std::string html = RenderAbHtml(r, RunData{}, {});
  ExpectSafe(html);
  const size_t fail_row = html.find("<tr><td><a href=\"#cell-BM_Memcpy\">BM_Memcpy</a>");
  const size_t pass_row = html.find("<tr><td><a href=\"#cell-BM_Quiet\">BM_Quiet</a>");
  ASSERT_NE(fail_row, std::string::npos) << html;
  ASSERT_NE(pass_row, std::string::npos) << html;
  EXPECT_LT(fail_row, pass_row) << html;
  EXPECT_LT(html.find("<h3 id=\"cell-BM_Memcpy\">"), html.find("<h3 id=\"cell-BM_Quiet\">")) << html;
  const size_t cross = html.find("<h2 id=\"cross-check\">Cross-check: instructions under valgrind</h2>");
  ASSERT_NE(cross, std::string::npos) << html;
  EXPECT_LT(cross, html.find("<h2>Cells</h2>"));
  EXPECT_NE(html.find("<strong>instructions +0.00% (exact) while gb.cpu_time_ns moved +4.00%: the same work took "
                      "longer</strong>",
                      cross),
            std::string::npos)
      << html;
}

}  // namespace
}  // namespace tare::html

namespace tare::html {
namespace {

// Issue 44, item 7: an exact-plan sim cohort's page described looks up to 1,280 pairs and a budget
// it never had; it says what the ledger says — one block, the determinism check, the fallback.
TEST(AbPage, AnExactPlanCohortSaysItsPlanNotLooksAndABudget) {
  report::AbReport r;
  r.campaign_name = "sim";
  r.sampling = {20, 20, 1280, 2};
  r.look_pairs = {20, 40, 80, 160, 320, 640, 1280};
  r.exact_blocks = 1;
  r.budget_ns = 0;
  const std::string html = RenderAbHtml(r, RunData{}, {});
  EXPECT_NE(html.find("<dt>Sampling</dt><dd>exact plan (every metric deterministic): 1 block (each arm once)"),
            std::string::npos)
      << html;
  EXPECT_EQ(html.find("looks at 20"), std::string::npos) << html;
  EXPECT_EQ(html.find("<dt>Budget</dt>"), std::string::npos) << html;
  r.exact_blocks = 0;
  r.budget_ns = 90'000'000'000;
  const std::string timed = RenderAbHtml(r, RunData{}, {});
  EXPECT_NE(timed.find("looks at 20, 40, 80, 160, 320, 640 and 1280 pairs"), std::string::npos) << timed;
  EXPECT_NE(timed.find("<dt>Budget</dt>"), std::string::npos) << timed;
}

// Issue 45, item 3: each host type of the site says what sets it apart — the hard keys it differs
// on from another host type, with its own value, "(absent)" where it has none — and a hostile value
// stays text; one host type alone has nothing to set it apart from.
TEST(SitePages, EachHostTypeSaysWhatSetsItApart) {
  auto fingerprint = [](const std::string& target_env) {
    Fingerprint fp;
    fp.keys = {{"cpu.model_name", "Xeon <b>", true},
               {"cpu.logical", "2", true},
               {"os.kernel", "6.1.0", true},
               {"os.loadavg", "0.5", false}};
    if (!target_env.empty()) fp.keys.push_back({"target.env", target_env, true});
    return env::FingerprintToJson(fp).dump();
  };
  const std::vector<SiteHost> hosts = {
      {"aaaa", fingerprint("MALLOC_ARENA_MAX=2")}, {"bbbb", fingerprint("")}, {"cccc", ""}};
  const auto texts = DescribeHostTypes(hosts);
  ASSERT_EQ(texts.size(), 3u);
  EXPECT_EQ(texts[0].machine, "Xeon <b>, 2 CPUs, kernel 6.1.0");
  EXPECT_EQ(texts[0].apart, std::vector<std::string>{"target.env = MALLOC_ARENA_MAX=2"});
  EXPECT_EQ(texts[1].apart, std::vector<std::string>{"target.env (absent)"});
  EXPECT_EQ(texts[2].machine, "its runs kept no fingerprint");
  EXPECT_TRUE(DescribeHostTypes({hosts[0]})[0].apart.empty());
  // One benchmark on two host types: two distinct, safe pages.
  EXPECT_NE(SitePagePath(kHostile, "aaaa"), SitePagePath(kHostile, "bbbb"));
  EXPECT_EQ(SitePagePath(kHostile, "aaaa").find('<'), std::string::npos);
  SiteEntry e;
  e.benchmark = kHostile;
  e.host = "bbbb";
  e.problem = "no history";
  const std::string index = RenderSiteIndex(hosts, {e}, "s.db");
  ExpectSafe(index);
  EXPECT_NE(index.find("Xeon &lt;b&gt;"), std::string::npos);
  EXPECT_NE(index.find("<h2 id=\"host-bbbb\">"), std::string::npos);
}

}  // namespace
}  // namespace tare::html
