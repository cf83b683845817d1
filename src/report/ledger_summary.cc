// RenderAbSummary (report/ledger.h): the short summary `tare ab` prints on a terminal, the whole
// ledger going to a file.
#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "base/terminal_text.h"
#include "base/units.h"
#include "report/ab_outcome.h"
#include "report/ledger.h"
#include "report/ledger_sections.h"
#include "report/medians.h"

namespace tare::report {

std::string RenderAbSummary(const AbReport& r, const std::string& ledger_where) {
  const VerdictCounts n = CountVerdicts(r);
  // The word is the ledger title's, ranked as the exit status (report/ab_outcome.h).
  const std::string gate = GateText(r);
  const std::string word = !r.has_verdicts && OutcomeOf(r) == AbOutcome::kInconclusive ? "no verdict" : OutcomeWord(r);
  // An interrupted or stopped cohort's word says so (INTERRUPTED, STOPPED).
  std::string out = fmt::format("tare ab: {} cohort {} (run {}): {} — {} PASS, {} FAIL, {} INCONCLUSIVE{}{}\n",
                                SingleLineText(r.campaign_name.empty() ? "campaign" : "'" + r.campaign_name + "'"),
                                r.cohort, r.run_id, word, n.pass, n.fail, n.inconclusive,
                                n.broken > 0 ? fmt::format(", {} BROKEN", n.broken) : "",
                                gate.empty() ? "" : "; " + gate + " (exit 4)");
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> why;      // per row: an INCONCLUSIVE's decisive reason, printed under it
  std::vector<std::string> medians;  // per row: medians that disagree with the change (report/medians.h)
  for (const auto& c : r.comparisons) {
    if (c.broken.any()) continue;  // no pair, no figures: its own line below
    for (const auto& m : c.metrics) {
      why.push_back(m.verdict == Verdict::kInconclusive && !m.reasons.empty() ? m.reasons.front() : "");
      medians.push_back(MediansNote(m));
      std::string verdict(VerdictName(m.verdict));
      if (m.verdict == Verdict::kPass && std::isfinite(m.pass_bound)) verdict += " " + CertifiedBound(m, true);
      if (m.supported_gain) verdict += " (gain)";
      if (c.cross_check && c.cross_check->metric == m.metric && !WorkClass(c).empty())
        verdict += " (" + WorkClass(c) + ")";
      const std::string change = m.exact            ? SignedPercent(m.estimate) + " exact"
                                 : std::isnan(m.lo) ? SignedPercent(m.estimate)
                                                    : fmt::format("{} [{}, {}]", SignedPercent(m.estimate),
                                                                  SignedPercent(m.lo), SignedPercent(m.hi));
      std::string allowance = m.allowance == "noise" && m.noise_floor > 0
                                  ? fmt::format("noise (floor {})", SignedPercent(m.noise_floor))
                                  : m.allowance;
      std::string cell = c.cell;
      if (r.arms.size() > 3 || c.head != "head") cell += " / " + ArmLabel(r, c.head);
      rows.push_back({verdict, SingleLineText(cell), SingleLineText(m.metric), change, allowance,
                      fmt::format("{} pair{}", m.pairs, m.pairs == 1 ? "" : "s")});
    }
  }
  std::vector<size_t> w(6, 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], row[i].size());
  }
  for (size_t k = 0; k < rows.size(); ++k) {
    std::string line = "  ";
    for (size_t i = 0; i < rows[k].size(); ++i) line += fmt::format("{:<{}}  ", rows[k][i], w[i]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (!why[k].empty()) out += "    why: " + SingleLineText(why[k]) + "\n";
    if (!medians[k].empty()) out += "    note: " + SingleLineText(medians[k]) + "\n";
  }
  for (const auto& c : r.comparisons) {
    if (c.broken.any())
      out += fmt::format("  {}: {}\n", SingleLineText(c.cell),
                         SingleLineText(c.reasons.empty() ? c.broken.error : c.reasons.front()));
  }
  for (const auto& c : r.comparisons) {
    if (!c.cross_check || c.cross_check->line.empty()) continue;
    std::string cell = c.cell;
    if (r.arms.size() > 3 || c.head != "head") cell += " / " + ArmLabel(r, c.head);
    out += fmt::format("  cross-check {}: {}\n", SingleLineText(cell), SingleLineText(c.cross_check->line));
  }
  out += ledger_detail::SuiteSummaryLines(r);
  for (const auto& ch : r.checks) {
    if (!ch.ok)
      out += fmt::format("  {} violated: {} ({} {})\n", CheckKindName(ch.kind), SingleLineText(ch.rule),
                         SingleLineText(ch.cell), SingleLineText(ch.arm));
  }
  if (!r.stop_reason.empty()) out += "  stopped: " + SingleLineText(r.stop_reason) + "\n";
  out +=
      "INCONCLUSIVE is not a pass. Full ledger (lock, host, plan, every look): " + SingleLineText(ledger_where) + "\n";
  return out;
}

std::string RenderAbWarnings(const AbReport& r, bool with_bounds) {
  std::string out;
  if (r.AnyHostTooNoisy()) {
    out +=
        "tare: WARNING: HOST TOO NOISY: two copies of the same base program differ beyond the bound a PASS "
        "must certify, so only a head clearly better than base can PASS (see the ledger's null-arm table). "
        "Quiet the host (`tare env` lists what to fix) and run again.\n";
  }
  // Each broken benchmark once: a cell whose base (or null arm) is broken is broken for every head.
  for (const auto& c : r.comparisons) {
    if (!c.broken.any()) continue;
    bool told = false;
    for (const auto& earlier : r.comparisons) {
      if (&earlier == &c) break;
      told = told || (earlier.cell == c.cell && earlier.broken.cannot_be_measured() && c.broken.cannot_be_measured());
    }
    if (told) continue;
    out += fmt::format("tare: {}: {}\n  to fix: {}\n", SingleLineText(c.cell),
                       SingleLineText(c.reasons.empty() ? c.broken.error : c.reasons.front()),
                       SingleLineText(c.broken.fix));
  }
  if (!with_bounds) return out;
  for (const auto& c : r.checks) {
    if (c.kind != CheckKind::kBound || c.ok) continue;
    out += fmt::format("tare: release bound violated: {} in cell '{}' for {}: {} > {}\n", SingleLineText(c.rule),
                       SingleLineText(c.cell), SingleLineText(c.arm), FormatValue(c.value, c.unit),
                       FormatValue(c.limit, c.unit));
  }
  return out;
}

}  // namespace tare::report
