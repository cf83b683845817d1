#include "report/ledger.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <limits>

#include <fmt/core.h>

#include "base/terminal_text.h"
#include "base/units.h"
#include "report/ab_outcome.h"
#include "report/escape.h"
#include "report/ledger_fit.h"
#include "report/ledger_sections.h"
#include "report/medians.h"

namespace tare::report {
namespace {

using namespace ledger_detail;

// "+3.02% [+2.41%, +3.70%] / noise (δ 0.61%) FAIL<br>12.1 ms → 12.5 ms"; a PASS adds what it
// certifies, an INCONCLUSIVE its decisive reason (the first).
std::string MetricText(const AbMetricResult& m) {
  std::string change =
      m.exact ? fmt::format("{} exact (deterministic)", SignedPercent(m.estimate))
      : std::isnan(m.lo) || std::isnan(m.hi)
          ? fmt::format("{} [no interval at {} pairs]", SignedPercent(m.estimate), m.pairs)
          : fmt::format("{} [{}, {}]", SignedPercent(m.estimate), SignedPercent(m.lo), SignedPercent(m.hi));
  std::string allowance = MarkdownText(m.allowance);
  if (m.allowance == "noise" || !(m.delta <= m.declared)) {
    allowance += fmt::format(" (δ {})", std::isinf(m.delta) ? "unknown" : Percent2(m.delta));
  }
  std::string after;
  if (m.verdict == Verdict::kPass && std::isfinite(m.pass_bound)) {
    after = " " + CertifiedBound(m, false);
    if (m.changed) after += ", changed";
  } else if (m.verdict == Verdict::kInconclusive && !m.reasons.empty()) {
    after = ": " + MarkdownText(m.reasons.front());
  }
  // Medians that tell another story than the paired change say so on the line (report/medians.h).
  const std::string medians = MediansNote(m);
  return fmt::format("{} / {} **{}**{}<br>{} → {}{}", change, allowance, VerdictText(m.verdict), after,
                     Value(m.base_median, m.unit), Value(m.head_median, m.unit),
                     medians.empty() ? "" : "; " + MarkdownText(medians));
}

std::string GainText(const AbComparison& c) {
  std::string out;
  for (const auto& m : c.metrics) {
    if (!m.supported_gain) continue;
    if (!out.empty()) out += "<br>";
    out += fmt::format("yes: {} {}", MarkdownText(m.metric), SignedPercent(m.estimate));
  }
  return out.empty() ? "—" : out;
}

// "no regression beyond 1.00% (95%)": the widest bound any PASS of the report certifies (a negative
// one, every PASS a gain: "every head better than base by at least 1.25%").
std::string PassClaim(const AbReport& r) {
  double widest = -std::numeric_limits<double>::infinity();
  bool all_exact = true;  // exact verdicts (the exact plan) have no confidence level
  for (const auto& c : r.comparisons) {
    for (const auto& m : c.metrics) {
      if (m.verdict == Verdict::kPass && std::isfinite(m.pass_bound)) widest = std::max(widest, m.pass_bound);
      all_exact = all_exact && m.exact;
    }
  }
  if (!std::isfinite(widest)) return "";
  const std::string level = all_exact ? std::string("exact") : Confidence(r.confidence);
  if (widest < 0) {
    return fmt::format(": better than base by at least {} in every metric ({})", Percent2(-widest), level);
  }
  return fmt::format(": no regression beyond {} ({})", Percent2(widest), level);
}

// A broken comparison's verdict as its row shows it.
std::string RowVerdict(const AbComparison& c) {
  if (c.broken.cannot_be_measured()) return "**BROKEN** (cannot be measured)";
  if (c.broken.any()) return "**" + VerdictText(c.verdict) + "** (BROKEN in the head)";
  // What the cross-check read, on the verdict itself (issue 42: a reviewer reading only the row took
  // a same-work FAIL for a regression of the code): "FAIL (same work)".
  const std::string work = WorkClass(c);
  return "**" + VerdictText(c.verdict) + "**" + (work.empty() ? "" : " (" + work + ")");
}

// How much of a ledger limited to `max_chars` the names of the BROKEN banner may take, and how
// long one name may be there (issue 48, item 4: 800 broken cells made it 84,688 bytes, one
// 30,000-character name 185,116); "Broken cells" below has them all.
constexpr size_t kBannerNamesShare = 16;  // 3,750 bytes of --ledger's 60,000 (kLedgerCommentLimit)
constexpr size_t kBannerNameBytes = 200;

// Under the title: which cells are broken, and that the others were judged. `names_budget` > 0
// (a limited ledger): the names listed take at most about that many bytes, each at most
// kBannerNameBytes, and the rest are counted ("and 790 more cells: <where>").
void BrokenBanner(const AbReport& r, std::string& out, size_t names_budget, const std::string& where) {
  std::vector<std::string> unmeasurable = r.UnmeasurableCells(), head_broken;
  for (const auto& c : r.comparisons) {
    if (c.broken.any() && !c.broken.cannot_be_measured() &&
        std::find(head_broken.begin(), head_broken.end(), c.cell) == head_broken.end()) {
      head_broken.push_back(c.cell);
    }
  }
  if (unmeasurable.empty() && head_broken.empty()) return;
  size_t budget_left = names_budget;
  auto list = [&](const std::vector<std::string>& cells) {
    std::string text;
    size_t named = 0;
    for (const auto& c : cells) {
      std::string name = MarkdownCode(c);
      if (names_budget > 0) {
        if (c.size() > kBannerNameBytes) {
          size_t n = kBannerNameBytes;
          while (n > 0 && (static_cast<unsigned char>(c[n]) & 0xC0) == 0x80) --n;  // a character's boundary
          name = MarkdownCode(c.substr(0, n) + "…");
        }
        if (named > 0 && name.size() + 2 > budget_left) break;
        budget_left -= std::min(budget_left, name.size() + 2);
      }
      text += (text.empty() ? "" : ", ") + name;
      ++named;
    }
    if (named < cells.size()) text += fmt::format(" and {} more cells ({})", cells.size() - named, where);
    return text;
  };
  std::string what;
  if (!unmeasurable.empty()) {
    what += fmt::format("{} cannot be measured (base, or its null copy, fails every sample) ", list(unmeasurable));
  }
  if (!head_broken.empty()) {
    what += fmt::format("{}{} fail{} every sample in the head where base runs: a FAIL ", what.empty() ? "" : "and ",
                        list(head_broken), head_broken.size() == 1 ? "s" : "");
  }
  out += fmt::format(
      "> **BROKEN.** {}— one failed cell each: no more blocks once known, and every other cell was "
      "measured and judged. What each said and how to fix it: \"Broken cells\" below.\n\n",
      what);
}

// Each violated release bound, under the title: the exit status (4) ranks it above every verdict, so
// the reader learns it before the rows (issue 42: it was told only in the folded checks).
void BoundBanner(const AbReport& r, std::string& out) {
  std::string what;
  for (const auto& c : r.checks) {
    if (c.kind != CheckKind::kBound || c.ok) continue;
    what +=
        fmt::format("{}{} in {} for {}: {} > {}", what.empty() ? "" : "; ", MarkdownCode(c.rule), MarkdownCode(c.cell),
                    MarkdownText(ArmLabel(r, c.arm)), Value(c.value, c.unit), Value(c.limit, c.unit));
  }
  if (what.empty()) return;
  out += fmt::format("> **BOUND VIOLATED.** {} — the gate fails (exit 4) whatever the verdicts below say.\n\n", what);
}

// The banners under the title: stopped or interrupted, violated bounds, broken cells, a host too noisy.
std::string Banners(const AbReport& r, size_t names_budget, const std::string& where) {
  std::string out;
  if (r.state == CohortState::kStopped) {
    out += fmt::format("> **STOPPED:** {}\n\n", MarkdownText(r.stop_reason));
  } else if (r.state == CohortState::kInterrupted) {
    out +=
        "> **INTERRUPTED:** the cohort is incomplete; its samples are stored. Continue it with "
        "`tare ab ... --resume`. The verdicts below are from the samples so far.\n\n";
  }
  BoundBanner(r, out);
  BrokenBanner(r, out, names_budget, where);
  out += SuiteBanner(r);
  if (r.AnyHostTooNoisy()) {
    std::string where;
    for (const auto& c : r.comparisons) {
      for (const auto& m : c.metrics) {
        if (!m.host_too_noisy) continue;
        if (!where.empty()) where += "; ";
        where += fmt::format("{} {}: null vs base [{}, {}]", MarkdownCode(c.cell), MarkdownText(m.metric),
                             SignedPercent(m.null_lo), SignedPercent(m.null_hi));
      }
    }
    out += fmt::format(
        "> **HOST TOO NOISY.** Two copies of the same base program differ beyond the bound a PASS "
        "must certify ({}). A PASS adds that floor to what it certifies, so on this host only a head "
        "clearly better than base can PASS; FAIL and supported gains stand, since they clear the "
        "floor. Quiet the host (`tare env` lists what to fix) and run again.\n\n",
        where);
  }
  return out;
}

// The title, the counts and the banners: what a reviewer reads in five seconds.
std::string Headline(const AbReport& r, size_t names_budget, const std::string& where) {
  // The title's word is the exit status's (report/ab_outcome.h): a violated bound outranks a PASS.
  const AbOutcome outcome = OutcomeOf(r);
  std::string word = "**" + OutcomeWord(r) + "**";
  if (outcome == AbOutcome::kPass) word += PassClaim(r);
  if (!r.has_verdicts) word = outcome == AbOutcome::kInconclusive ? "no verdict" : word + " (no verdict)";
  std::string out = fmt::format("## tare ab: {} — {}\n\n", MarkdownText(r.campaign_name), word);
  const std::string gate = GateText(r);
  if (!r.comparisons.empty()) {
    const VerdictCounts n = CountVerdicts(r);
    std::vector<std::string> cells;
    for (const auto& c : r.comparisons) {
      if (std::find(cells.begin(), cells.end(), c.cell) == cells.end()) cells.push_back(c.cell);
    }
    const size_t heads = r.comparisons.size() / std::max<size_t>(cells.size(), 1);
    out += fmt::format("{} — {}{}; INCONCLUSIVE is not a pass.\n\n", CountsText(n, true),
                       heads > 1 ? fmt::format("{} comparisons ({} cell{} × {} heads)", r.comparisons.size(),
                                               cells.size(), cells.size() == 1 ? "" : "s", heads)
                                 : fmt::format("{} cell{}", cells.size(), cells.size() == 1 ? "" : "s"),
                       gate.empty() ? "" : "; **" + gate + "** (exit 4)");
  }
  out += Banners(r, names_budget, where);
  return out;
}

// What a row of the cell tables is: the ledger opens with the rows that need a look (FAIL, BROKEN,
// supported gains, INCONCLUSIVE, in that order) and folds the plain PASS rows away.
int LookRank(const AbComparison& c) {
  if (c.broken.cannot_be_measured()) return 1;
  if (c.verdict == Verdict::kFail) return 0;
  if (c.verdict == Verdict::kInconclusive) return 3;
  for (const auto& m : c.metrics) {
    if (m.supported_gain) return 2;
  }
  return 4;  // a plain PASS
}

struct CellTables {
  std::vector<std::string> metrics;
  bool several_heads = false;
  std::string header;
};

CellTables TableShape(const AbReport& r) {
  CellTables t;
  t.several_heads = SeveralHeads(r);
  for (const auto& c : r.comparisons) {
    for (const auto& m : c.metrics) {
      if (std::find(t.metrics.begin(), t.metrics.end(), m.metric) == t.metrics.end()) t.metrics.push_back(m.metric);
    }
  }
  t.header = t.several_heads ? "| cell | head | role | verdict | supported gain | pairs |"
                             : "| cell | role | verdict | supported gain | pairs |";
  for (const auto& m : t.metrics) t.header += fmt::format(" {} |", MarkdownText(m));
  t.header += t.several_heads ? "\n|---|---|---|---|---|---:|" : "\n|---|---|---|---|---:|";
  for (size_t i = 0; i < t.metrics.size(); ++i) t.header += "---|";
  t.header += "\n";
  return t;
}

std::string CellRow(const AbReport& r, const CellTables& t, const AbComparison& c) {
  int64_t pairs = c.metrics.empty() ? 0 : c.metrics.front().pairs;
  std::string out = fmt::format("| {} |", MarkdownCode(c.cell));
  if (t.several_heads) out += fmt::format(" {} |", MarkdownText(ArmLabel(r, c.head)));
  out += fmt::format(" {} | {} | {} | {} |", CellRoleName(c.role), RowVerdict(c), GainText(c), pairs);
  for (const auto& name : t.metrics) {
    auto it =
        std::find_if(c.metrics.begin(), c.metrics.end(), [&](const AbMetricResult& m) { return m.metric == name; });
    // A broken comparison has no pair: its metrics say nothing ("Broken cells" says why).
    out += it == c.metrics.end() || c.broken.any() ? " — |" : " " + MetricText(*it) + " |";
  }
  return out + "\n";
}

// Reasons that are not visible in the numbers: failures, downgrades. A broken comparison's are in
// "Broken cells", once per cell.
std::vector<std::string> ReasonLines(const AbReport& r, const CellTables& t, const AbComparison& c) {
  std::vector<std::string> out;
  if (c.broken.any()) return out;
  const std::string who = MarkdownCode(c.cell) + (t.several_heads ? " " + MarkdownText(ArmLabel(r, c.head)) : "");
  for (const auto& reason : c.reasons) out.push_back(fmt::format("- {}: {}\n", who, MarkdownText(reason)));
  if (!c.layout_hint.empty()) out.push_back(fmt::format("- {}: **{}**\n", who, MarkdownText(c.layout_hint)));
  return out;
}

// The rows that need a look, open, with their reasons; the plain PASS rows folded away.
void CellBlocks(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks) {
  const CellTables t = TableShape(r);
  std::vector<const AbComparison*> order;
  for (const auto& c : r.comparisons) order.push_back(&c);
  std::stable_sort(order.begin(), order.end(),
                   [](const AbComparison* a, const AbComparison* b) { return LookRank(*a) < LookRank(*b); });
  LedgerBlock look{.head = t.header, .tail = "\n", .rank = 6, .cut_rows = true};
  LedgerBlock look_reasons{.rank = 4, .cut_rows = true, .row_noun = "reasons"};
  LedgerBlock pass{.rank = 3, .cut_rows = true, .row_noun = "PASS rows"};
  LedgerBlock pass_reasons{
      .tail = "\n</details>\n\n", .rank = 3, .cut_rows = true, .row_noun = "reasons", .goes_with_previous = true};
  for (const AbComparison* c : order) {
    const bool plain_pass = LookRank(*c) == 4;
    (plain_pass ? pass : look).rows.push_back(CellRow(r, t, *c));
    for (auto& line : ReasonLines(r, t, *c)) (plain_pass ? pass_reasons : look_reasons).rows.push_back(std::move(line));
  }
  if (!look.rows.empty()) {
    if (!look_reasons.rows.empty()) look_reasons.tail = "\n";
    blocks.push_back(std::move(look));
    blocks.push_back(std::move(look_reasons));
  }
  if (!pass.rows.empty()) {
    const size_t n = pass.rows.size();
    pass.head = fmt::format(
        "<details><summary>{} PASS without a supported gain: the bound each certifies</summary>\n\n{}", n, t.header);
    pass.tail = "\n";
    pass.stand_in = fmt::format("_{} PASS row{} without a supported gain: {}._\n\n", n, n == 1 ? "" : "s", where);
    blocks.push_back(std::move(pass));
    // Closes the <details>; left out with the PASS table, which then opens none.
    blocks.push_back(std::move(pass_reasons));
  }
}

}  // namespace

// An arm as people know it: "hd02 (bench_v3)". Arm names have four characters so that every copy's
// path has one length (campaign/arm_stage.h); the user gave executables, so say which.
std::string ArmLabel(const AbReport& r, const std::string& arm) {
  for (const auto& a : r.arms) {
    if (a.name == arm && !a.source.empty()) return fmt::format("{} ({})", arm, Basename(a.source));
  }
  return arm;
}

std::string CertifiedBound(const AbMetricResult& m, bool ascii) {
  const bool lower = m.direction == Direction::kLowerIsBetter;
  const char* op = lower ? (ascii ? "<=" : "≤") : (ascii ? ">=" : "≥");
  std::string value = SignedPercent(lower ? m.pass_bound : -m.pass_bound);
  if (!ascii && !value.empty() && value[0] == '-') value = "−" + value.substr(1);
  return fmt::format("{} {}", op, value);
}

std::string WorkClass(const AbComparison& c) {
  if (!c.cross_check || c.cross_check->reading.empty()) return "";
  // The words, not the tare.ab/1 category: "not less work" beside fallen instructions read as a
  // contradiction (issue 42).
  return c.cross_check->phrase.empty() ? c.cross_check->reading : c.cross_check->phrase;
}

std::string OutcomeWord(const AbReport& r) { return std::string(AbOutcomeName(OutcomeOf(r))); }

std::string SignedPercent(double fraction) {
  if (std::isnan(fraction)) return "n/a";
  return fmt::format("{:+.2f}%", fraction * 100.0);
}

std::string GbenchRouteNote(const AbReport& r) {
  if (r.kind != TargetKind::kGbench || r.instrument != Instrument::kWall || r.samples <= 0 ||
      r.ended_unix_ns <= r.started_unix_ns) {
    return "";
  }
  const double per_sample_ns =
      static_cast<double>(r.ended_unix_ns - r.started_unix_ns) / static_cast<double>(r.samples);
  double widest = 0;
  int64_t inconclusive = 0;
  for (const auto& c : r.comparisons) {
    if (c.verdict == Verdict::kInconclusive) ++inconclusive;
    for (const auto& m : c.metrics) {
      if (m.has_null && std::isfinite(m.noise_floor)) widest = std::max(widest, m.noise_floor);
    }
  }
  const bool slow = per_sample_ns >= kGbenchSlowSampleNs;
  const bool wide = widest > kGbenchWideFloor;
  if (!slow && !wide && inconclusive == 0) return "";
  std::vector<std::string> why;
  if (slow) why.push_back(fmt::format("a sample took {} on average", FormatDurationNs(per_sample_ns)));
  if (wide) why.push_back(fmt::format("the widest null-arm floor was {}", Percent2(widest)));
  if (inconclusive > 0)
    why.push_back(fmt::format("{} comparison{} ended INCONCLUSIVE", inconclusive, inconclusive == 1 ? "" : "s"));
  std::string reasons;
  for (size_t i = 0; i < why.size(); ++i) reasons += (i == 0 ? "" : i + 1 == why.size() ? " and " : ", ") + why[i];
  // What a sample of this cohort cost, from what it ran (the lock's work) and what it took: issue 42
  // saw "each sample costs about a second" beside 50 ms samples.
  const std::string took =
      fmt::format("{} a sample on average in this cohort, process start included", FormatDurationNs(per_sample_ns));
  std::string cost;
  if (r.gbench_counts_fixed) {
    cost = fmt::format(
        "Here Google Benchmark ran one count fixed per cell (`--benchmark_min_time=<N>x`, kept in "
        "the lock), and every sample still paid for its process and Google Benchmark's own set-up: {}.",
        took);
  } else {
    std::string length = "for its minimum time";
    if (r.gbench_locked_min_time_ns > 0) {
      const auto ns = static_cast<double>(r.gbench_locked_min_time_ns);
      length = fmt::format("for at least its minimum time, {} here (`--benchmark_min_time={:g}`, kept in the lock)",
                           FormatDurationNs(ns), ns / 1e9);
    } else if (std::any_of(r.args.begin(), r.args.end(),
                           [](const std::string& a) { return a.rfind("--benchmark_min_time", 0) == 0; })) {
      length = "for at least the minimum time its argv's `--benchmark_min_time` sets";
    }
    cost = fmt::format(
        "An unmodified Google Benchmark binary estimates its own iteration count and runs {} in every "
        "process, plus its estimation runs, so the counts differ between arms: {}.",
        length, took);
  }
  // The samples' length is the other lever; say it only to someone who has not pulled it.
  std::string min_time = "Until then, `--gbench-min-time` sets every sample's length (20 ms by default).";
  if (r.gbench_min_time_ns > 0) {
    min_time = fmt::format("This cohort's samples were {} long (`--gbench-min-time`).",
                           FormatDurationNs(static_cast<double>(r.gbench_min_time_ns)));
  } else if (std::any_of(r.args.begin(), r.args.end(),
                         [](const std::string& a) { return a.rfind("--benchmark_min_time", 0) == 0; })) {
    min_time = "This cohort's samples were as long as its argv's `--benchmark_min_time` says.";
  }
  return fmt::format(
      "In this cohort {}. {} The same sources compiled against `tare/gbench_compat.hpp` run one fixed "
      "iteration count, calibrated on base, in every arm, in samples of tens of milliseconds (on a real "
      "suite: the A/B in 23 s with floors of 0.7–1.7%, against 3.5 min and no verdict unmodified):\n\n"
      "1. change `#include <benchmark/benchmark.h>` to `#include <tare/gbench_compat.hpp>`;\n"
      "2. link `tare::gbench_compat` (CMake: `find_package(tare)`) instead of `benchmark::benchmark`, or "
      "build with `g++ -O2 bench.cc $(pkg-config --cflags --libs tare-gbench-compat)`;\n"
      "3. run the same `tare ab` on the two new binaries.\n\n"
      "{} docs/library.md, \"Google Benchmark sources\".\n",
      reasons, cost, min_time);
}

Ledger RenderLedger(const AbReport& r, const LedgerOptions& o) {
  const std::string where = o.full_ledger_where.empty() ? std::string("left out for size") : o.full_ledger_where;
  std::vector<LedgerBlock> blocks;
  const std::string headline = Headline(r, o.max_chars / kBannerNamesShare, where);
  const bool banner_cut = o.max_chars > 0 && headline != Headline(r, 0, where);
  blocks.push_back({.head = headline});
  if (r.comparisons.empty()) {
    blocks.push_back({.head = "No cell was judged: the cohort stopped before its first look.\n\n"});
  } else {
    CellBlocks(r, where, blocks);
  }
  BrokenCells(r, blocks);
  SuiteChanges(r, blocks);
  CrossChecks(r, blocks);
  if (!o.appendix.empty()) {
    blocks.push_back(
        {.head = o.appendix + "\n", .stand_in = fmt::format("_{}: {}._\n\n", o.appendix_name, where), .rank = 3});
  }
  blocks.push_back({.head = Provenance(r)});
  NullArm(r, where, blocks);
  Layouts(r, where, blocks);
  Checks(r, where, blocks);
  Cohorts(r, where, blocks);
  if (std::string note = GbenchRouteNote(r); !note.empty()) {
    blocks.push_back(
        {.head = "<details><summary>Faster, tighter Google Benchmark cells</summary>\n\n" + note + "\n</details>\n\n"});
  }
  Notes(r, where, blocks);
  blocks.push_back({.head = Legend(r)});
  Ledger out;
  out.shortened = FitBlocks(blocks, o.max_chars, where) || banner_cut;
  out.markdown = JoinBlocks(blocks, where);
  return out;
}

std::string RenderLedger(const AbReport& r) { return RenderLedger(r, LedgerOptions{}).markdown; }

VerdictCounts CountVerdicts(const AbReport& r) {
  VerdictCounts n;
  for (const auto& c : r.comparisons) {
    if (c.broken.cannot_be_measured()) {
      ++n.broken;
    } else if (c.verdict == Verdict::kFail) {
      ++n.fail;
    } else if (c.verdict == Verdict::kInconclusive) {
      ++n.inconclusive;
    } else {
      ++n.pass;
      n.gains += LookRank(c) == 2 ? 1 : 0;
    }
  }
  return n;
}

std::string CountsText(const VerdictCounts& n, bool markdown) {
  auto bold = [&](int64_t k, const char* word) {
    std::string text = fmt::format("{} {}", k, word);
    return markdown && k > 0 ? "**" + text + "**" : text;
  };
  std::string out = bold(n.fail, "FAIL");
  if (n.broken > 0) out += " · " + bold(n.broken, "BROKEN");
  out += fmt::format(" · {} INCONCLUSIVE · {} PASS", n.inconclusive, n.pass);
  if (n.gains > 0) out += fmt::format(" ({} gain{})", n.gains, n.gains == 1 ? "" : "s");
  return out;
}

}  // namespace tare::report
