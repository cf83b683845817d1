#include "html/ab_page.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/units.h"
#include "html/html_text.h"
#include "html/page.h"
#include "html/plots.h"
#include "html/run_page.h"
#include "report/ab_outcome.h"
#include "report/medians.h"
#include "report/ledger.h"

namespace tare::html {
namespace {

// Benchmarks base and a head do not share (campaign/suite_diff.h): new ones with their figures, no
// verdict; missing ones listed.
std::string SuiteSection(const report::AbReport& r) {
  if (r.suite.empty()) return "";
  std::string html = fmt::format(
      "<h2 id=\"suite\">The suite changed</h2>\n<p class=\"note\">Benchmarks that base and a head do not share: no "
      "verdict, since nothing pairs them; the shared ones are the cells above.{}</p>\n<table><tr><th>benchmark</th>"
      "<th>change</th><th>head</th><th>figures (median [least, greatest], samples)</th></tr>\n",
      r.strict_suite ? " --strict-suite: the gate fails (exit 4)." : "");
  for (const auto& e : r.suite) {
    std::string heads;
    for (const auto& h : e.heads) heads += (heads.empty() ? "" : ", ") + report::ArmLabel(r, h);
    std::string figures;
    for (const auto& f : e.figures) {
      figures += fmt::format("{}{}{}: {} [{}, {}], {}", figures.empty() ? "" : "; ",
                             e.heads.size() > 1 ? f.head + " " : "", f.metric, FormatValue(f.median, f.unit),
                             FormatValue(f.min, f.unit), FormatValue(f.max, f.unit), f.samples);
    }
    if (figures.empty())
      figures = e.change == SuiteChange::kMissing ? "—" : e.error.empty() ? "no figures" : "not measured: " + e.error;
    html += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n", HtmlText(e.benchmark),
                        SuiteChangeName(e.change),
                        HtmlText(e.change == SuiteChange::kMissing ? "not in " + heads : heads), HtmlText(figures));
  }
  return html + "</table>\n";
}

std::string ShortSha(const std::string& sha) { return sha.substr(0, 12); }

// 0 for FAIL, 1 for INCONCLUSIVE, 2 for PASS: the page's order.
int Severity(Verdict v) { return v == Verdict::kFail ? 0 : v == Verdict::kInconclusive ? 1 : 2; }

// Time checked against instructions (the ledger's "Cross-check" section): for each cell whose time
// FAILed or gained, whether the head executes more work or the same work took longer. The most
// convincing line of a verdict, near the top of the page (issue 44, item 6).
std::string CrossCheckSection(const report::AbReport& r) {
  std::set<std::string> heads;
  for (const auto& c : r.comparisons) heads.insert(c.head);
  std::string items;
  for (const auto& c : r.comparisons) {
    if (!c.cross_check || c.cross_check->line.empty()) continue;
    items +=
        fmt::format("<li><a href=\"#cell-{}\">{}</a>{}: <strong>{}</strong></li>\n", HtmlAttr(c.cell), HtmlText(c.cell),
                    heads.size() > 1 ? " " + HtmlText(report::ArmLabel(r, c.head)) : "", HtmlText(c.cross_check->line));
  }
  if (items.empty()) return "";
  return "<h2 id=\"cross-check\">Cross-check: instructions under valgrind</h2>\n<p class=\"note\">Each cell whose time "
         "FAILed or gained, counted once more under <code>--instrument sim</code> (base, the head, base again): does "
         "the head execute more (or fewer) instructions, or does the same work take longer? It points; it changes no "
         "verdict.</p>\n<ul>\n" +
         items + "</ul>\n";
}

std::string VerdictWord(Verdict v) { return std::string(VerdictName(v)); }

// δ sits on the worse side: above 0 when lower is better (times), below 0 when higher is better.
double WorseSide(const AbMetricResult& m, double fraction) {
  return m.direction == Direction::kHigherIsBetter ? -fraction : fraction;
}

ForestRow AbRowFor(const report::AbReport& r, const AbComparison& c, const AbMetricResult& m, bool several_heads) {
  ForestRow row;
  const std::string head = report::ArmLabel(r, c.head);
  row.label = several_heads ? fmt::format("{} · {}", head, m.metric) : m.metric;
  row.cls = BadgeClass(VerdictWord(m.verdict));
  row.estimate = m.estimate;
  row.lo = m.lo;
  row.hi = m.hi;
  row.limits = {WorseSide(m, m.delta)};
  if (m.has_null) {
    row.band_lo = m.null_lo;
    row.band_hi = m.null_hi;
    row.band_tooltip =
        fmt::format("null arm (base against its own copy): {} [{}, {}]; noise floor {}", Percent(m.null_estimate),
                    Percent(m.null_lo), Percent(m.null_hi), UnsignedPercent(m.noise_floor));
  }
  row.value_text =
      fmt::format("{} [{}, {}] {}", Percent(m.estimate), Percent(m.lo), Percent(m.hi), VerdictWord(m.verdict));
  row.tooltip =
      fmt::format("{} {}: {} [{}, {}] over {} pairs at {:.2f}% confidence; allowance {} (δ {}); {} → {}", head,
                  m.metric, Percent(m.estimate), Percent(m.lo), Percent(m.hi), m.pairs, m.confidence * 100, m.allowance,
                  UnsignedPercent(m.delta), FormatValue(m.base_median, m.unit), FormatValue(m.head_median, m.unit));
  return row;
}

std::string CellTable(const report::AbReport& r, const std::vector<const AbComparison*>& comparisons) {
  std::string rows;
  for (const AbComparison* c : comparisons) {
    for (const AbMetricResult& m : c->metrics) {
      // Medians that disagree with the change come first (report/medians.h), then the verdict's reasons.
      std::string reasons = report::MediansNote(m);
      for (const auto& r : m.reasons) reasons += (reasons.empty() ? "" : "; ") + r;
      const std::string null_text = m.has_null ? fmt::format("[{}, {}] floor {}", Percent(m.null_lo),
                                                             Percent(m.null_hi), UnsignedPercent(m.noise_floor))
                                               : "no null arm";
      rows += fmt::format(
          "<tr><td>{}</td><td>{}{}</td><td>{}{}</td><td class=\"num\">{} [{}, {}]</td>"
          "<td class=\"num\">{} (δ {})</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
          "<td class=\"num\">{} → {}</td><td class=\"reasons\">{}</td></tr>\n",
          HtmlText(report::ArmLabel(r, c->head)), HtmlToken(m.metric),
          m.direction == Direction::kHigherIsBetter ? " (higher is better)" : "", Badge(VerdictWord(m.verdict)),
          m.supported_gain ? " gain" : "", HtmlText(Percent(m.estimate)), HtmlText(Percent(m.lo)),
          HtmlText(Percent(m.hi)), HtmlText(m.allowance), HtmlText(UnsignedPercent(m.delta)), HtmlText(null_text),
          m.pairs, HtmlText(FormatValue(m.base_median, m.unit)), HtmlText(FormatValue(m.head_median, m.unit)),
          HtmlText(reasons));
    }
  }
  return "<table><tr><th>head</th><th>metric</th><th>verdict</th><th>change [interval]</th><th>allowance</th>"
         "<th>null arm</th><th>pairs</th><th>base → head median</th><th>reasons</th></tr>\n" +
         rows + "</table>\n";
}

std::string CellSamplesFigure(const std::string& cell, const std::string& metric, const report::AbReport& r,
                              const RunData& run, const std::vector<CellRecord>& cells) {
  int64_t bench_id = -1;
  for (const auto& c : cells) {
    if (c.name == cell) bench_id = c.benchmark_id;
  }
  if (bench_id < 0) {
    for (const auto& b : run.benchmarks) {
      if (b.name == cell) bench_id = b.id;
    }
  }
  if (bench_id < 0 || metric.empty()) return "";
  std::vector<std::string> arms;
  for (const auto& a : r.arms) arms.push_back(a.name);
  if (arms.empty()) arms = ArmsOf(run);
  SamplePlotSpec spec = SamplesOf(run, bench_id, metric, arms);
  if (spec.points.empty()) return "";
  return "<figure>" + SamplePlot(spec) +
         fmt::format(
             "<figcaption>{} of every sample of this cell in the order taken, one colour per arm (the arms of "
             "a block run back to back); right: each arm's distribution.</figcaption></figure>\n",
             HtmlText(metric));
}

std::string Facts(const report::AbReport& r, const RunData& run) {
  std::string args;
  for (const auto& a : r.args) args += (args.empty() ? "" : " ") + a;
  std::string f = "<dl class=\"facts\">\n";
  f += fmt::format("<dt>Campaign</dt><dd>{} · {} · sha256 <code>{}</code></dd>\n", HtmlText(r.campaign_name),
                   HtmlText(r.campaign_source), HtmlText(ShortSha(r.campaign_sha256)));
  f += fmt::format("<dt>Cohort</dt><dd>{} (run {}): {}, {} samples, started {}{}</dd>\n", r.cohort, r.run_id,
                   CohortStateName(r.state), r.samples, HtmlText(FormatUnixTime(r.started_unix_ns)),
                   r.resumed > 0 ? fmt::format(", resumed {} times", r.resumed) : "");
  f += fmt::format(
      "<dt>Lock</dt><dd><code title=\"{}\">{}</code> (sha256 of its tare.lock/1 record, written before "
      "the first sample) · tare {}</dd>\n",
      HtmlAttr(r.lock_sha256), HtmlText(ShortSha(r.lock_sha256)), HtmlText(r.tare_version));
  if (!run.run.command_line.empty()) {
    f += fmt::format("<dt>Code</dt><dd>{}</dd>\n", HtmlText(ProvenanceText(run.run.provenance)));
  }
  f += fmt::format("<dt>Host</dt><dd>{} · fingerprint <code>{}</code></dd>\n", HtmlText(r.host),
                   HtmlText(ShortSha(r.fingerprint_digest)));
  f +=
      fmt::format("<dt>Target</dt><dd>{}, instrument {}{}</dd>\n", TargetKindName(r.kind), InstrumentName(r.instrument),
                  args.empty() ? "" : fmt::format(", argv <code>{}</code>", HtmlText(args)));
  f += fmt::format("<dt>Arm order</dt><dd>{} (seed {})</dd>\n", HtmlText(r.arm_order), r.seed);
  // As the ledger says it: an exact-plan cohort had one block per cell, not looks and a budget.
  f += fmt::format("<dt>Sampling</dt><dd>{}</dd>\n", HtmlText(report::CohortSamplingText(r)));
  if (report::CohortStatesBudget(r)) {
    f += fmt::format("<dt>Budget</dt><dd>{}</dd>\n", HtmlText(report::BudgetText(r.budget_ns, r.budget_default)));
  }
  f += fmt::format(
      "<dt>Confidence</dt><dd>{:.0f}% per cell and metric ({}: every look's {} interval at {:.2f}%)</dd>\n",
      r.confidence * 100, HtmlText(r.look_scheme), HtmlText(r.interval_method), r.per_look_confidence * 100);
  f += fmt::format("<dt>Noise floor</dt><dd>{} (cap {})</dd>\n", HtmlText(r.noise_floor_rule),
                   HtmlText(UnsignedPercent(r.noise_cap)));
  if (r.same_work_allowance > 0) {
    f += fmt::format(
        "<dt>Work tier</dt><dd>every cell once under valgrind per arm before timing; a cell whose head "
        "did the same work is judged on time against {} (docs/methodology.md §5a)</dd>\n",
        HtmlText(UnsignedPercent(r.same_work_allowance)));
  }
  return f + "</dl>\n";
}

// The whole cohort at a glance, first on the page (issue 23, item 6): one row per cell, head and
// metric -- its verdict, the change with its interval (exact verdicts: the change alone) and delta.
std::string AbSummaryTable(const report::AbReport& r) {
  if (r.comparisons.empty()) return "";
  std::set<std::string> heads;
  for (const auto& c : r.comparisons) heads.insert(c.head);
  std::string t = "<table class=\"summary\"><tr><th>cell</th>";
  if (heads.size() > 1) t += "<th>head</th>";
  t += "<th>metric</th><th>verdict</th><th>change [interval]</th><th>δ</th></tr>\n";
  // FAIL rows first, then INCONCLUSIVE, then PASS (issue 44, item 6): what needs the reader's
  // attention opens the page; within a verdict the cohort's order.
  std::vector<std::pair<const AbComparison*, const AbMetricResult*>> rows;
  for (const auto& c : r.comparisons) {
    for (const auto& m : c.metrics) rows.emplace_back(&c, &m);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return Severity(a.second->verdict) < Severity(b.second->verdict);
  });
  for (const auto& [c, m] : rows) {
    const std::string change = m->exact
                                   ? Percent(m->estimate) + " (exact)"
                                   : fmt::format("{} [{}, {}]", Percent(m->estimate), Percent(m->lo), Percent(m->hi));
    t += fmt::format(
        "<tr><td><a href=\"#cell-{}\">{}</a></td>{}<td>{}</td><td>{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        HtmlAttr(c->cell), HtmlText(c->cell), heads.size() > 1 ? "<td>" + HtmlText(c->head) + "</td>" : "",
        HtmlToken(m->metric), Badge(VerdictWord(m->verdict)), HtmlText(change), HtmlText(UnsignedPercent(m->delta)));
  }
  return t + "</table>\n";
}

}  // namespace

std::string RenderAbHtml(const report::AbReport& r, const RunData& run, const std::vector<CellRecord>& cells,
                         const std::vector<CellFigure>& figures) {
  // The ledger title's word, ranked as the exit status: a violated bound outranks a PASS (issue 42).
  const bool no_verdict = !r.has_verdicts && report::OutcomeOf(r) == report::AbOutcome::kInconclusive;
  const std::string outcome = no_verdict ? "no verdict" : report::OutcomeWord(r);
  std::string html = PageStart(fmt::format("tare ab: {} — {}", r.campaign_name, outcome));
  html += fmt::format("<p class=\"headline\">Outcome {}</p>\n", Badge(outcome));
  for (const auto& c : r.checks) {
    if (c.kind != CheckKind::kBound || c.ok) continue;
    html += fmt::format(
        "<p class=\"banner\">BOUND VIOLATED: <code>{}</code> in {} for {}: {} &gt; {} — the gate fails "
        "(exit 4) whatever the verdicts say.</p>\n",
        HtmlText(c.rule), HtmlText(c.cell), HtmlText(report::ArmLabel(r, c.arm)),
        HtmlText(FormatValue(c.value, c.unit)), HtmlText(FormatValue(c.limit, c.unit)));
  }
  if (r.state != CohortState::kComplete) {
    html += fmt::format("<p class=\"banner\">{}{}</p>\n",
                        r.state == CohortState::kStopped       ? "STOPPED"
                        : r.state == CohortState::kInterrupted ? "INTERRUPTED"
                                                               : "RUNNING",
                        r.stop_reason.empty() ? "" : ": " + HtmlText(r.stop_reason));
  }
  if (r.AnyHostTooNoisy()) {
    html +=
        "<p class=\"banner\">HOST TOO NOISY: two copies of the same base program differ beyond the declared "
        "allowance, so no PASS is certified. Quiet the host (<code>tare env</code> lists what to fix) and run "
        "again.</p>\n";
  }
  if (!r.suite.empty()) {
    html += fmt::format(
        "<p class=\"banner\">SUITE CHANGED: {} benchmark{} new or missing; see <a href=\"#suite\">the "
        "suite changed</a>{}</p>\n",
        r.suite.size(), r.suite.size() == 1 ? "" : "s", r.strict_suite ? " (--strict-suite: exit 4)" : "");
  }
  html += AbSummaryTable(r);
  html += CrossCheckSection(r);
  for (const auto& w : r.host_warnings) html += fmt::format("<p class=\"warn\">host: {}</p>\n", HtmlText(w));
  html += Facts(r, run);
  html += "<table><tr><th>arm</th><th>role</th><th>executable</th><th>sha256</th></tr>\n";
  for (const auto& a : r.arms) {
    html += fmt::format(
        "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td><code title=\"{}\">{}</code></td></tr>\n",
        HtmlText(a.name), ArmRoleName(a.role), HtmlText(a.source), HtmlAttr(a.sha256), HtmlText(ShortSha(a.sha256)));
  }
  html += "</table>\n";

  html +=
      "<h2>Cells</h2>\n<p class=\"note\">Forest plots: the dot is the median paired change of head against base, "
      "the bar its interval at the look's confidence; the dashed line is δ, the allowance (or the noise floor, when "
      "larger) on the worse side; the grey band is the null arm's interval — what two copies of base differ by on "
      "this host. FAIL: the whole bar is beyond δ. PASS: the whole bar is on the better side of the bound a PASS "
      "certifies. Otherwise INCONCLUSIVE, which is not a pass.</p>\n";
  // Cells worst first (FAIL, INCONCLUSIVE, PASS), as the summary table.
  std::vector<std::string> order;
  std::map<std::string, int> severity;
  for (const auto& c : r.comparisons) {
    if (std::find(order.begin(), order.end(), c.cell) == order.end()) order.push_back(c.cell);
    auto [it, fresh] = severity.emplace(c.cell, Severity(c.verdict));
    if (!fresh) it->second = std::min(it->second, Severity(c.verdict));
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](const std::string& a, const std::string& b) { return severity[a] < severity[b]; });
  for (const auto& cell : order) {
    std::vector<const AbComparison*> comparisons;
    std::vector<Verdict> verdicts;
    for (const auto& c : r.comparisons) {
      if (c.cell == cell) {
        comparisons.push_back(&c);
        verdicts.push_back(c.verdict);
      }
    }
    const AbComparison& first = *comparisons.front();
    html += fmt::format("<h3 id=\"cell-{}\">{} <span class=\"note\">({}, {} blocks, {} looks)</span> {}</h3>\n",
                        HtmlAttr(cell), HtmlText(cell), CellRoleName(first.role), first.blocks, first.looks,
                        Badge(VerdictWord(WorstVerdict(verdicts))));
    for (const AbComparison* c : comparisons) {
      for (const auto& reason : c->reasons) html += fmt::format("<p class=\"warn\">{}</p>\n", HtmlText(reason));
      if (!c->layout_hint.empty()) html += fmt::format("<p class=\"warn\">{}</p>\n", HtmlText(c->layout_hint));
    }
    std::vector<ForestRow> rows;
    for (const AbComparison* c : comparisons) {
      for (const auto& m : c->metrics) rows.push_back(AbRowFor(r, *c, m, comparisons.size() > 1));
    }
    if (!rows.empty()) html += "<figure>" + ForestPlot(rows, "changes in cell " + cell) + "</figure>\n";
    html += CellTable(r, comparisons);
    const std::string metric = first.metrics.empty() ? "" : first.metrics[0].metric;
    // A PASS cell's samples are folded (issue 44, item 6: a cohort's page was ~8,400 px); the cells a
    // reviewer must look at, FAIL and INCONCLUSIVE, show theirs.
    const std::string samples = CellSamplesFigure(cell, metric, r, run, cells);
    if (!samples.empty() && WorstVerdict(verdicts) == Verdict::kPass) {
      html += "<details><summary>every sample of this PASS cell</summary>\n" + samples + "</details>\n";
    } else {
      html += samples;
    }
    for (const auto& f : figures) {
      if (f.cell != cell) continue;
      html +=
          fmt::format("<figure class=\"flame\">{}<figcaption>{}</figcaption></figure>\n", f.svg, HtmlText(f.caption));
    }
  }
  if (order.empty()) html += "<p class=\"note\">No cell was judged.</p>\n";
  html += SuiteSection(r);

  if (!r.checks.empty()) {
    html +=
        "<h2>Sanity gates and release bounds</h2>\n<table><tr><th>kind</th><th>rule</th><th>cell</th><th>arm</th>"
        "<th>value</th><th>limit</th><th>ok</th></tr>\n";
    for (const auto& c : r.checks) {
      html += fmt::format(
          "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td class=\"num\">{}</td>"
          "<td class=\"num\">{}</td><td>{}</td></tr>\n",
          CheckKindName(c.kind), HtmlText(c.rule), HtmlText(c.cell), HtmlText(c.arm),
          HtmlText(FormatValue(c.value, c.unit)), HtmlText(FormatValue(c.limit, c.unit)), c.ok ? "ok" : Badge("FAIL"));
    }
    html += "</table>\n";
  }
  if (!r.cohorts.empty()) {
    html +=
        "<h2>Cohorts of this campaign</h2>\n<table><tr><th>cohort</th><th>run</th><th>started</th><th>state</th>"
        "<th>outcome</th><th>lock</th><th>heads</th><th>samples</th></tr>\n";
    for (const auto& c : r.cohorts) {
      std::string heads;
      for (const auto& h : c.head_sha256) heads += (heads.empty() ? "" : " ") + ShortSha(h);
      html += fmt::format(
          "<tr><td>{}{}</td><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td><code>{}</code></td>"
          "<td><code>{}</code></td><td class=\"num\">{}</td></tr>\n",
          c.cohort, c.current ? " (this)" : "", c.run_id, HtmlText(FormatUnixTime(c.started_unix_ns)),
          CohortStateName(c.state), c.stop_reason.empty() ? "" : ": " + HtmlText(c.stop_reason),
          c.outcome.empty() ? "—" : Badge(c.outcome), HtmlText(ShortSha(c.lock_sha256)), HtmlText(heads), c.samples);
    }
    html += "</table>\n";
  }
  if (!r.notes.empty()) {
    html += "<h2>Notes</h2>\n<ul>\n";
    for (const auto& n : r.notes) html += "<li>" + HtmlText(n) + "</li>\n";
    html += "</ul>\n";
  }
  if (!run.run.fingerprint_json.empty()) html += FingerprintBlock(run.run.fingerprint_json, run.run.fingerprint_digest);
  html +=
      "<p class=\"note\">PASS: head is not worse than base by more than the bound it certifies. FAIL: head is worse "
      "by more than δ. INCONCLUSIVE: the data cannot tell yet — it is not a pass. A supported gain: the whole "
      "interval is better than the noise floor.</p>\n";
  return html + PageEnd();
}

}  // namespace tare::html
