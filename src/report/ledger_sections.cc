// The ledger's sections after its cell tables (report/ledger.h has the order), and the helpers the
// cell tables share with them.
#include "report/ledger_sections.h"

#include <algorithm>
#include <tuple>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <limits>

#include <fmt/core.h>

#include "base/terminal_text.h"
#include "base/units.h"
#include "report/escape.h"
#include "report/ledger.h"

namespace tare::report::ledger_detail {

std::string Short(const std::string& sha) { return sha.substr(0, 12); }

std::string UtcTime(int64_t unix_ns) {
  if (unix_ns <= 0) return "—";
  std::time_t t = static_cast<std::time_t>(unix_ns / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
  return std::string(buf) + " UTC";
}

std::string Percent2(double fraction) { return fmt::format("{:.2f}%", fraction * 100.0); }

// "98.75%", "95%": confidences without trailing zeros.
std::string Confidence(double c) {
  std::string s = fmt::format("{:.2f}", c * 100.0);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + "%";
}

std::string Value(double v, const std::string& unit) {
  if (std::isnan(v)) return "n/a";
  return FormatValue(v, unit);
}

std::string JoinInts(const std::vector<int64_t>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += i + 1 == v.size() ? " and " : ", ";
    out += std::to_string(v[i]);
  }
  return out;
}

std::string Basename(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::string VerdictText(Verdict v) { return std::string(VerdictName(v)); }

bool SeveralHeads(const AbReport& r) {
  for (const auto& c : r.comparisons) {
    if (c.head != "head") return true;
  }
  return false;
}

std::string Provenance(const AbReport& r) {
  std::string out = "<details><summary>How it was measured: campaign, cohort, lock, host, arms, plan</summary>\n\n";
  std::string source =
      r.campaign_source == "flags" ? "built from flags" : "file " + MarkdownCode(r.campaign_source.substr(5));
  out += fmt::format("- **Campaign** {}: {}, sha256 `{}`\n", MarkdownCode(r.campaign_name), source,
                     Short(r.campaign_sha256));
  out += fmt::format("- **Cohort** {} (run {}): {}, {} samples, started {}{}\n", r.cohort, r.run_id,
                     CohortStateName(r.state), r.samples, UtcTime(r.started_unix_ns),
                     r.resumed > 0 ? fmt::format(", resumed {} time{}", r.resumed, r.resumed == 1 ? "" : "s") : "");
  out += fmt::format(
      "- **Lock** `{}` (sha256 of its tare.lock/1 record, written before the first "
      "sample) · tare {}\n",
      Short(r.lock_sha256), r.tare_version);
  out += fmt::format("- **Host** {} · fingerprint `{}`\n", MarkdownText(r.host), Short(r.fingerprint_digest));
  std::string arms;
  for (const auto& a : r.arms) {
    if (!arms.empty()) arms += " · ";
    if (a.role == ArmRole::kNull) {
      arms += "null: a second copy of base";
    } else {
      arms += fmt::format("{} {} `{}`", MarkdownText(a.name), MarkdownCode(Basename(a.source)), Short(a.sha256));
    }
  }
  out += fmt::format(
      "- **Arms** {}; each runs from its own copy `<store>/bin/<arm>` (paths of "
      "equal length) with the same argv and environment\n",
      arms);
  out += fmt::format("- **Instrument** {} ({} target{})\n", InstrumentName(r.instrument), TargetKindName(r.kind),
                     r.instrument == Instrument::kSim
                         ? "; valgrind callgrind: simulated counts, identical on every rerun of the same binary"
                     : r.instrument == Instrument::kMem ? "; allocation shim: allocations and heap bytes"
                                                        : "");
  if (!r.args.empty()) {
    std::string args;
    for (const auto& a : r.args) args += (args.empty() ? "" : " ") + a;
    out += fmt::format("- **Argv** {} after the executable, for every arm\n", MarkdownCode(args));
  }
  out += fmt::format("- **Arm order** {} (seed {}), all arms of a cell back to back in every block\n", r.arm_order,
                     r.seed);
  out += fmt::format("- **Sampling** {}\n", CohortSamplingText(r));
  if (CohortStatesBudget(r)) out += fmt::format("- **Budget** {}\n", BudgetText(r.budget_ns, r.budget_default));
  out += fmt::format("- **Confidence** {} per cell and metric ({}: every look's {} interval at {}){}\n",
                     Confidence(r.confidence), r.look_scheme, r.interval_method, Confidence(r.per_look_confidence),
                     r.exact_blocks > 0 ? " for a cell that falls back; an exact verdict has no interval and needs no "
                                          "confidence level"
                                        : "");
  out += fmt::format(
      "- **A PASS certifies** its printed bound C: the interval's worse end plus the "
      "null arm's floor, which must be within the declared allowance (under `noise`: "
      "the noise cap, {}){}; a head better than base beyond the floor PASSes as a gain. "
      "An undecided cell gets more pairs, then INCONCLUSIVE with its reason\n",
      Percent2(r.noise_cap),
      r.same_work_allowance > 0
          ? fmt::format(", or, for a time metric of a cell whose head did the same work under valgrind "
                        "(the work tier), within {}: the same instructions, and no more time than "
                        "placement can add (docs/methodology.md §5a)",
                        Percent2(r.same_work_allowance))
          : "");
  out += "\n</details>\n\n";
  return out;
}

// Every broken comparison once per cell and state: why (the verdict's first reason, with the
// error), what the program's stderr ended with, and what to do.
void BrokenCells(const AbReport& r, std::vector<LedgerBlock>& blocks) {
  std::vector<const AbComparison*> broken;
  for (const auto& c : r.comparisons) {
    if (!c.broken.any()) continue;
    const bool told = std::any_of(broken.begin(), broken.end(), [&](const AbComparison* b) {
      return b->cell == c.cell && b->broken.cannot_be_measured() && c.broken.cannot_be_measured();
    });
    if (!told) broken.push_back(&c);
  }
  if (broken.empty()) return;
  LedgerBlock b{.head =
                    "### Broken cells\n\n"
                    "A broken benchmark fails every sample in some arm (it reports an error, crashes, exits non-zero "
                    "or times out every time). Each is one failed cell: it got no more blocks once that was known, "
                    "and every other cell was measured and judged. Base broken too: the cell cannot be measured, "
                    "whatever the head does. Only the head broken: the head breaks where base runs, a FAIL.\n\n",
                .tail = "\n",
                .rank = 4,
                .cut_rows = true,
                .row_noun = "broken cells"};
  const bool several_heads = SeveralHeads(r);
  for (const AbComparison* c : broken) {
    const std::string who =
        MarkdownCode(c->cell) +
        (several_heads && !c->broken.cannot_be_measured() ? " " + MarkdownText(ArmLabel(r, c->head)) : "");
    std::string entry =
        fmt::format("- {}: {}\n", who, MarkdownText(c->reasons.empty() ? c->broken.error : c->reasons.front()));
    const std::vector<std::string> lines = LastLines(c->broken.stderr_tail, 5);
    if (!lines.empty()) {
      std::string said;
      for (const auto& line : lines) said += (said.empty() ? "" : "<br>") + MarkdownText(line);
      entry += fmt::format("  - its stderr ended: {}\n", said);
    }
    if (!c->broken.fix.empty()) entry += fmt::format("  - to fix: {}\n", MarkdownText(c->broken.fix));
    b.rows.push_back(std::move(entry));
  }
  blocks.push_back(std::move(b));
}

void NullArm(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks) {
  bool has_null = false;
  for (const auto& a : r.arms) has_null = has_null || a.role == ArmRole::kNull;
  if (!has_null) {
    blocks.push_back({.head = "**No null arm**: this host's noise was not measured, so every verdict is read against "
                              "the declared allowance alone (\"noise\" means 0: any change the interval confirms "
                              "counts). Add `--null` (or `null = true` under `[arms]`) to measure it.\n\n"});
    return;
  }
  LedgerBlock b{.rank = 2, .cut_rows = true};
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  int64_t noisy = 0;
  for (const auto& c : r.comparisons) {
    if (c.head != "head") continue;  // the null arm does not depend on the head
    if (c.broken.any()) continue;    // no pair, no floor: "Broken cells" says why
    for (const auto& m : c.metrics) {
      std::string interval = std::isnan(m.null_lo) ? "no interval"
                                                   : fmt::format("{} [{}, {}]", SignedPercent(m.null_estimate),
                                                                 SignedPercent(m.null_lo), SignedPercent(m.null_hi));
      b.rows.push_back(fmt::format("| {} | {} | {} | {} | {} |\n", MarkdownCode(c.cell), MarkdownText(m.metric),
                                   interval, std::isinf(m.noise_floor) ? "unknown" : Percent2(m.noise_floor),
                                   m.host_too_noisy ? "**too noisy**" : "ok"));
      if (std::isfinite(m.noise_floor)) {
        lowest = std::min(lowest, m.noise_floor);
        highest = std::max(highest, m.noise_floor);
      }
      noisy += m.host_too_noisy ? 1 : 0;
    }
  }
  std::string floors = !std::isfinite(lowest) ? "no floor measured"
                       : lowest == highest    ? fmt::format("floor {}", Percent2(lowest))
                                              : fmt::format("floors {} to {}", Percent2(lowest), Percent2(highest));
  std::string verdict = noisy > 0 ? fmt::format("**too noisy** in {} of {} rows", noisy, b.rows.size()) : "host ok";
  b.head = fmt::format(
      "<details{}><summary>Null arm, the host's own noise: {}, {}</summary>\n\n"
      "Base against a second copy of itself, over the same blocks and at the same confidence. The "
      "noise floor ({}) is added to what every verdict allows: δ = max(declared allowance, floor).\n\n"
      "| cell | metric | null vs base | noise floor | host |\n|---|---|---|---:|---|\n",
      noisy > 0 ? " open" : "", floors, verdict, r.noise_floor_rule);
  b.tail = "\n</details>\n\n";
  b.stand_in = fmt::format("_Null arm, the host's own noise: {}, {}; the table: {}._\n\n", floors, verdict, where);
  blocks.push_back(std::move(b));
}

void Checks(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks) {
  if (r.checks.empty()) {
    blocks.push_back({.head = "**Sanity gates and release bounds**: none declared.\n\n"});
    return;
  }
  LedgerBlock b{.rank = 2, .cut_rows = true};
  std::vector<const AbCheck*> order;
  for (const auto& c : r.checks) order.push_back(&c);
  // Violated first; within each, one rule's cells together, the rule said on its first row only
  // (issue 44, item 7: the default gate's 60 characters repeated on every cell's row).
  std::stable_sort(order.begin(), order.end(), [](const AbCheck* a, const AbCheck* x) {
    return std::tie(a->ok, a->kind, a->rule) < std::tie(x->ok, x->kind, x->rule);
  });
  size_t violated = 0;
  const AbCheck* previous = nullptr;
  for (const AbCheck* c : order) {
    violated += c->ok ? 0 : 1;
    const bool same_rule =
        previous != nullptr && previous->ok == c->ok && previous->kind == c->kind && previous->rule == c->rule;
    b.rows.push_back(fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n",
                                 same_rule                     ? ""
                                 : c->kind == CheckKind::kGate ? "gate (first block)"
                                                               : "release bound",
                                 same_rule ? "″" : MarkdownCode(c->rule), MarkdownCode(c->cell), MarkdownText(c->arm),
                                 Value(c->value, c->unit), Value(c->limit, c->unit), c->ok ? "ok" : "**VIOLATED**"));
    previous = c;
  }
  const std::string table = "| check | rule | cell | arm | value | limit | result |\n|---|---|---|---|---:|---:|---|\n";
  const std::string count = violated == 0 ? fmt::format("all {} ok", order.size())
                                          : fmt::format("**{} of {} VIOLATED**", violated, order.size());
  if (violated == 0) {
    b.head = fmt::format("<details><summary>Sanity gates and release bounds: {}</summary>\n\n{}", count, table);
    b.tail = "\n</details>\n\n";
  } else {
    b.head = fmt::format("### Sanity gates and release bounds\n\n{} (violated first):\n\n{}", count, table);
    b.tail = "\n";
  }
  b.stand_in = fmt::format("**Sanity gates and release bounds**: {}; the table: {}.\n\n", count, where);
  blocks.push_back(std::move(b));
}

// --layouts K: per declared cell, head and metric, the verdict and change in every layout.
void Layouts(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks) {
  if (r.layout_rows.empty()) return;
  int sensitive = 0;
  for (const auto& row : r.layout_rows) sensitive += row.sensitive ? 1 : 0;
  LedgerBlock b{.rank = 2, .cut_rows = true};
  const std::string count = fmt::format("{} of {} rows LAYOUT-SENSITIVE", sensitive, r.layout_rows.size());
  std::string intro = fmt::format(
      "Every cell ran under {} layouts (the initial stack moved by environment "
      "padding; nothing rebuilt). A change that is real holds in every layout; **LAYOUT-SENSITIVE**: "
      "some layouts FAIL and others do not, or two layouts' intervals lie on opposite sides of 0 — "
      "an accident of where things sit in memory, not of the code change alone. {} of {} "
      "rows {}.\n\n| cell | head | metric |",
      r.layouts, sensitive, r.layout_rows.size(), sensitive == 1 ? "is" : "are");
  for (int64_t k = 0; k < r.layouts; ++k) intro += fmt::format(" layout {} |", k);
  intro += " spread | |\n|---|---|---|";
  for (int64_t k = 0; k < r.layouts; ++k) intro += "---|";
  intro += "---:|---|\n";
  b.head = sensitive > 0 ? "### Layouts\n\n" + intro
                         : fmt::format("<details><summary>Layouts: every change holds in all {}</summary>\n\n{}",
                                       r.layouts, intro);
  b.tail = sensitive > 0 ? "\n" : "\n</details>\n\n";
  for (const auto& row : r.layout_rows) {
    std::string line =
        fmt::format("| {} | {} | {} |", MarkdownCode(row.cell), MarkdownText(row.head), MarkdownCode(row.metric));
    for (size_t k = 0; k < row.verdicts.size(); ++k) {
      line += fmt::format(" {} {} |", VerdictText(row.verdicts[k]),
                          std::isnan(row.estimates[k]) ? std::string("n/a") : SignedPercent(row.estimates[k]));
    }
    line += fmt::format(" {} | {} |\n", Percent2(row.spread), row.sensitive ? "**LAYOUT-SENSITIVE**" : "holds");
    // The sensitive rows first: they are the finding.
    if (row.sensitive) {
      b.rows.insert(b.rows.begin() + std::count_if(b.rows.begin(), b.rows.end(),
                                                   [](const std::string& s) {
                                                     return s.find("**LAYOUT-SENSITIVE**") != std::string::npos;
                                                   }),
                    std::move(line));
    } else {
      b.rows.push_back(std::move(line));
    }
  }
  b.stand_in = fmt::format("**Layouts**: {} over {} layouts; the table: {}.\n\n", count, r.layouts, where);
  blocks.push_back(std::move(b));
}

// The cross-check of time verdicts with instruction counts (campaign/cross_check.h): one line per
// comparison whose time FAILed or gained, when it ran.
void CrossChecks(const AbReport& r, std::vector<LedgerBlock>& blocks) {
  LedgerBlock b{.head =
                    "### Cross-check: instructions under valgrind\n\n"
                    "Each cell whose time FAILed or gained, with its counts under `--instrument sim` (base, the "
                    "head, and base again, which must read the same instructions: read by the work tier before "
                    "timing, or once more after it; these samples are not stored): does the head execute more (or "
                    "fewer) instructions, or does the same work take longer? It points; it changes no verdict.\n\n",
                .tail = "\n",
                .rank = 4,
                .cut_rows = true,
                .row_noun = "cross-checks"};
  const bool several_heads = SeveralHeads(r);
  for (const auto& c : r.comparisons) {
    if (!c.cross_check || c.cross_check->line.empty()) continue;
    b.rows.push_back(fmt::format("- {}{}: **{}**\n", MarkdownCode(c.cell),
                                 several_heads ? " " + MarkdownText(ArmLabel(r, c.head)) : "",
                                 MarkdownText(c.cross_check->line)));
  }
  if (!b.rows.empty()) blocks.push_back(std::move(b));
}

// Newest first, so that a ledger cut for size keeps the cohorts that matter.
void Cohorts(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks) {
  LedgerBlock b{.rank = 1, .cut_rows = true, .row_noun = "cohorts"};
  b.head = fmt::format(
      "<details><summary>Cohorts of this campaign: {}, newest first</summary>\n\n"
      "Every run of the campaign is a cohort of its own; none is overwritten or left out, "
      "rejected ones included.\n\n"
      "| cohort | run | started | state | lock | head sha256 | samples | outcome |\n"
      "|---|---:|---|---|---|---|---:|---|\n",
      r.cohorts.size());
  b.tail = "\n</details>\n\n";
  for (auto it = r.cohorts.rbegin(); it != r.cohorts.rend(); ++it) {
    const AbCohort& c = *it;
    std::string heads;
    for (const auto& h : c.head_sha256) heads += (heads.empty() ? "" : " ") + ("`" + Short(h) + "`");
    std::string state = CohortStateName(c.state);
    if (!c.stop_reason.empty()) state += ": " + MarkdownText(c.stop_reason);
    b.rows.push_back(fmt::format("| {} | {} | {} | {} | `{}` | {} | {} | {} |\n",
                                 c.current ? fmt::format("**{}** (this)", c.cohort) : std::to_string(c.cohort),
                                 c.run_id, UtcTime(c.started_unix_ns), state, Short(c.lock_sha256), heads, c.samples,
                                 c.outcome.empty() ? "—" : c.outcome));
  }
  b.stand_in = fmt::format("_Cohorts of this campaign: {}; the table: {}._\n\n", r.cohorts.size(), where);
  if (!r.cohorts.empty()) blocks.push_back(std::move(b));
}

void Notes(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks) {
  if (r.notes.empty() && r.host_warnings.empty()) return;
  LedgerBlock b{.tail = "\n</details>\n\n", .rank = 1, .cut_rows = true, .row_noun = "notes"};
  for (const auto& n : r.notes) b.rows.push_back("- " + MarkdownText(n) + "\n");
  for (const auto& w : r.host_warnings) b.rows.push_back("- host: " + MarkdownText(w) + "\n");
  b.head = fmt::format("<details><summary>Notes: {}{}</summary>\n\n", b.rows.size(),
                       r.host_warnings.empty() ? "" : fmt::format(", {} about the host", r.host_warnings.size()));
  b.stand_in = fmt::format("_Notes: {}; {}._\n\n", b.rows.size(), where);
  blocks.push_back(std::move(b));
}

std::string Legend(const AbReport& r) {
  const bool signed_rank = r.interval_method == "signed-rank-v1";
  const bool split = r.noise_floor_rule == "null-split-v1";
  std::string out = "<details><summary>How to read this ledger</summary>\n\n";
  out += signed_rank ? "Each metric: the Hodges–Lehmann paired change of head against base, exp(median of the "
                       "Walsh averages of ln(head/base)) − 1, with its Wilcoxon signed-rank interval [lo, hi] "
                       "at the look's confidence; "
                     : "Each metric: the median paired change of head against base, exp(median ln(head/base)) − 1, "
                       "with its exact sign-test interval [lo, hi] at the look's confidence; ";
  out +=
      "then the allowance "
      "(δ = max(declared allowance, null-arm noise floor)) and the verdict, then the base → head "
      "medians. **FAIL**: the whole interval is worse than δ. **PASS** ≤ C (≥ C for a metric where "
      "higher is better; C in the metric's worse direction): head is not worse than base by more "
      "than C, where C is the interval's worse end plus the null arm's floor (what the host could "
      "hide in it), and C is within the declared allowance, or under `noise` the noise cap; a head "
      "whose whole interval is better than base beyond the floor is a PASS too, C negative: better "
      "by at least |C|. **INCONCLUSIVE**: neither, with the reason; more pairs, a quieter host or "
      "`--instrument sim` may decide it. **INCONCLUSIVE is not a pass.** A supported gain: the "
      "whole interval is better than 0 and beyond the noise floor. A cell's verdict is its worst "
      "metric's; nothing is averaged across cells or hosts.";
  bool exact = false;
  for (const auto& c : r.comparisons) {
    for (const auto& m : c.metrics) exact = exact || m.exact;
  }
  if (exact) {
    out +=
        " **exact (deterministic)**: the metric read the same on a rerun (the determinism check), so the "
        "change is head/base − 1 itself, with no interval: FAIL when it is worse than the allowance, PASS "
        "otherwise (certifying that change), a supported gain when it is better beyond the allowance.";
  }
  if (split) {
    out +=
        " Under null-split-v1 the floor of δ (FAIL, gains) is |the null arm's estimate| and the "
        "floor a PASS adds is the edge of its interval.";
  }
  out += "\n\n</details>\n";
  return out;
}

}  // namespace tare::report::ledger_detail
