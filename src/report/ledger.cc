#include "report/ledger.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <limits>

#include <fmt/core.h>

#include "base/terminal_text.h"
#include "base/units.h"
#include "report/escape.h"

namespace tare::report {
namespace {

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

std::string Basename(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

std::string VerdictText(Verdict v) { return std::string(VerdictName(v)); }

// "+3.02% [+2.41%, +3.70%] / noise (δ 0.61%) FAIL<br>12.1 ms → 12.5 ms"; a PASS adds what it
// certifies, an INCONCLUSIVE its decisive reason (the first).
std::string MetricText(const AbMetricResult& m) {
  std::string change =
      m.exact ? fmt::format("{} exact (deterministic)", SignedPercent(m.estimate))
      : std::isnan(m.lo) || std::isnan(m.hi)
          ? fmt::format("{} [no interval at {} pairs]", SignedPercent(m.estimate), m.pairs)
          : fmt::format("{} [{}, {}]", SignedPercent(m.estimate), SignedPercent(m.lo),
                        SignedPercent(m.hi));
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
  return fmt::format("{} / {} **{}**{}<br>{} → {}", change, allowance, VerdictText(m.verdict), after,
                     Value(m.base_median, m.unit), Value(m.head_median, m.unit));
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
  return "**" + VerdictText(c.verdict) + "**";
}

// Under the title: which cells are broken, and that the others were judged.
void BrokenBanner(const AbReport& r, std::string& out) {
  std::vector<std::string> unmeasurable = r.UnmeasurableCells(), head_broken;
  for (const auto& c : r.comparisons) {
    if (c.broken.any() && !c.broken.cannot_be_measured() &&
        std::find(head_broken.begin(), head_broken.end(), c.cell) == head_broken.end()) {
      head_broken.push_back(c.cell);
    }
  }
  if (unmeasurable.empty() && head_broken.empty()) return;
  auto list = [](const std::vector<std::string>& cells) {
    std::string text;
    for (const auto& c : cells) text += (text.empty() ? "" : ", ") + MarkdownCode(c);
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
  out += fmt::format("> **BROKEN.** {}— one failed cell each: no more blocks once known, and every other cell was "
                     "measured and judged. What each said and how to fix it: \"Broken cells\" below.\n\n",
                     what);
}

void Header(const AbReport& r, std::string& out) {
  out += fmt::format("## tare ab: {} — {}\n\n", MarkdownText(r.campaign_name),
                     !r.has_verdicts ? std::string("no verdict")
                     : r.outcome == Verdict::kPass ? "**PASS**" + PassClaim(r)
                                                   : "**" + OutcomeWord(r) + "**");
  if (r.state == CohortState::kStopped) {
    out += fmt::format("> **STOPPED:** {}\n\n", MarkdownText(r.stop_reason));
  } else if (r.state == CohortState::kInterrupted) {
    out += "> **INTERRUPTED:** the cohort is incomplete; its samples are stored. Continue it with "
           "`tare ab ... --resume`. The verdicts below are from the samples so far.\n\n";
  }
  BrokenBanner(r, out);
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

  std::string source = r.campaign_source == "flags"
                           ? "built from flags"
                           : "file " + MarkdownCode(r.campaign_source.substr(5));
  out += fmt::format("- **Campaign** {}: {}, sha256 `{}`\n", MarkdownCode(r.campaign_name), source,
                     Short(r.campaign_sha256));
  out += fmt::format("- **Cohort** {} (run {}): {}, {} samples, started {}{}\n", r.cohort, r.run_id,
                     CohortStateName(r.state), r.samples, UtcTime(r.started_unix_ns),
                     r.resumed > 0 ? fmt::format(", resumed {} time{}", r.resumed, r.resumed == 1 ? "" : "s") : "");
  out += fmt::format("- **Lock** `{}` (sha256 of its tare.lock/1 record, written before the first "
                     "sample) · tare {}\n", Short(r.lock_sha256), r.tare_version);
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
  out += fmt::format("- **Arms** {}; each runs from its own copy `<store>/bin/<arm>` (paths of "
                     "equal length) with the same argv and environment\n", arms);
  out += fmt::format("- **Instrument** {} ({} target{})\n", InstrumentName(r.instrument), TargetKindName(r.kind),
                     r.instrument == Instrument::kSim ? "; valgrind callgrind: simulated counts, identical on every rerun of the same binary"
                     : r.instrument == Instrument::kMem ? "; allocation shim: allocations and heap bytes" : "");
  if (!r.args.empty()) {
    std::string args;
    for (const auto& a : r.args) args += (args.empty() ? "" : " ") + a;
    out += fmt::format("- **Argv** {} after the executable, for every arm\n", MarkdownCode(args));
  }
  out += fmt::format("- **Arm order** {} (seed {}), all arms of a cell back to back in every block\n",
                     r.arm_order, r.seed);
  if (r.exact_blocks > 0) {
    out += fmt::format("- **Sampling** exact plan (every metric deterministic): {} per cell, then the determinism "
                       "check — {}; a cell that passes gets the exact verdict on head/base − 1, a cell whose values "
                       "differ falls back to the statistical plan: {}\n",
                       r.exact_blocks == 1 ? "1 block (each arm once)" : fmt::format("{} blocks (each arm {} times)", r.exact_blocks, r.exact_blocks),
                       r.exact_blocks == 1 ? "the null arm, a rerun of base, must read exactly what base reads"
                                           : "every arm must read exactly the same in every block",
                       SamplingText(r.sampling));
  } else if (r.sampling.cap > r.sampling.initial) {
    out += fmt::format("- **Sampling** {}; looks at {} pairs\n", SamplingText(r.sampling), JoinInts(r.look_pairs));
  } else {
    out += fmt::format("- **Sampling** {}\n", SamplingText(r.sampling));
  }
  if (r.exact_blocks == 0 || r.budget_ns > 0) {
    out += fmt::format("- **Budget** {}\n", BudgetText(r.budget_ns, r.budget_default));
  }
  out += fmt::format("- **Confidence** {} per cell and metric ({}: every look's {} interval at {}){}\n",
                     Confidence(r.confidence), r.look_scheme, r.interval_method, Confidence(r.per_look_confidence),
                     r.exact_blocks > 0 ? " for a cell that falls back; an exact verdict has no interval and needs no "
                                          "confidence level"
                                        : "");
  out += fmt::format("- **A PASS certifies** its printed bound C: the interval's worse end plus the "
                     "null arm's floor, which must be within the declared allowance (under `noise`: "
                     "the noise cap, {}); a head better than base beyond the floor PASSes as a gain. "
                     "An undecided cell gets more pairs, then INCONCLUSIVE with its reason\n",
                     Percent2(r.noise_cap));
  out += "\n";
}

void CellTable(const AbReport& r, std::string& out) {
  bool several_heads = false;
  std::vector<std::string> metrics;
  for (const auto& c : r.comparisons) {
    several_heads = several_heads || c.head != "head";
    for (const auto& m : c.metrics) {
      if (std::find(metrics.begin(), metrics.end(), m.metric) == metrics.end()) metrics.push_back(m.metric);
    }
  }
  out += several_heads ? "| cell | head | role | verdict | supported gain | pairs |"
                       : "| cell | role | verdict | supported gain | pairs |";
  for (const auto& m : metrics) out += fmt::format(" {} |", MarkdownText(m));
  out += several_heads ? "\n|---|---|---|---|---|---:|" : "\n|---|---|---|---|---:|";
  for (size_t i = 0; i < metrics.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& c : r.comparisons) {
    int64_t pairs = c.metrics.empty() ? 0 : c.metrics.front().pairs;
    out += fmt::format("| {} |", MarkdownCode(c.cell));
    if (several_heads) out += fmt::format(" {} |", MarkdownText(ArmLabel(r, c.head)));
    out += fmt::format(" {} | {} | {} | {} |", CellRoleName(c.role), RowVerdict(c), GainText(c), pairs);
    for (const auto& name : metrics) {
      auto it = std::find_if(c.metrics.begin(), c.metrics.end(),
                             [&](const AbMetricResult& m) { return m.metric == name; });
      // A broken comparison has no pair: its metrics say nothing ("Broken cells" says why).
      out += it == c.metrics.end() || c.broken.any() ? " — |" : " " + MetricText(*it) + " |";
    }
    out += "\n";
  }
  out += "\n";
  // Reasons that are not visible in the numbers: failures, downgrades. A broken comparison's are
  // in "Broken cells", once per cell.
  for (const auto& c : r.comparisons) {
    if (c.broken.any()) continue;
    for (const auto& reason : c.reasons) {
      out += fmt::format("- {}{}: {}\n", MarkdownCode(c.cell), several_heads ? " " + MarkdownText(ArmLabel(r, c.head)) : "",
                         MarkdownText(reason));
    }
    if (!c.layout_hint.empty()) {
      out += fmt::format("- {}{}: **{}**\n", MarkdownCode(c.cell),
                         several_heads ? " " + MarkdownText(ArmLabel(r, c.head)) : "", MarkdownText(c.layout_hint));
    }
  }
}

// Every broken comparison once per cell and state: why (the verdict's first reason, with the
// error), what the program's stderr ended with, and what to do.
void BrokenCells(const AbReport& r, std::string& out) {
  std::vector<const AbComparison*> broken;
  for (const auto& c : r.comparisons) {
    if (!c.broken.any()) continue;
    const bool told = std::any_of(broken.begin(), broken.end(), [&](const AbComparison* b) {
      return b->cell == c.cell && b->broken.cannot_be_measured() && c.broken.cannot_be_measured();
    });
    if (!told) broken.push_back(&c);
  }
  if (broken.empty()) return;
  out += "\n### Broken cells\n\n"
         "A broken benchmark fails every sample in some arm (it reports an error, crashes, exits non-zero "
         "or times out every time). Each is one failed cell: it got no more blocks once that was known, "
         "and every other cell was measured and judged. Base broken too: the cell cannot be measured, "
         "whatever the head does. Only the head broken: the head breaks where base runs, a FAIL.\n\n";
  bool several_heads = false;
  for (const auto& c : r.comparisons) several_heads = several_heads || c.head != "head";
  for (const AbComparison* c : broken) {
    const std::string who = MarkdownCode(c->cell) +
                            (several_heads && !c->broken.cannot_be_measured() ? " " + MarkdownText(ArmLabel(r, c->head)) : "");
    out += fmt::format("- {}: {}\n", who, MarkdownText(c->reasons.empty() ? c->broken.error : c->reasons.front()));
    const std::vector<std::string> lines = LastLines(c->broken.stderr_tail, 5);
    if (!lines.empty()) {
      std::string said;
      for (const auto& line : lines) said += (said.empty() ? "" : "<br>") + MarkdownText(line);
      out += fmt::format("  - its stderr ended: {}\n", said);
    }
    if (!c->broken.fix.empty()) out += fmt::format("  - to fix: {}\n", MarkdownText(c->broken.fix));
  }
}

void NullArm(const AbReport& r, std::string& out) {
  bool has_null = false;
  for (const auto& a : r.arms) has_null = has_null || a.role == ArmRole::kNull;
  out += "\n### Null arm: the host's own noise\n\n";
  if (!has_null) {
    out += "No null arm: this host's noise was not measured, so every verdict is read against the "
           "declared allowance alone (\"noise\" means 0: any change the interval confirms counts). "
           "Add `--null` (or `null = true` under `[arms]`) to measure it.\n";
    return;
  }
  out += fmt::format(
      "Base against a second copy of itself, over the same blocks and at the same confidence. The "
      "noise floor ({}) is added to what every verdict allows: δ = max(declared allowance, floor).\n\n",
      r.noise_floor_rule);
  out += "| cell | metric | null vs base | noise floor | host |\n|---|---|---|---:|---|\n";
  for (const auto& c : r.comparisons) {
    if (c.head != "head") continue;  // the null arm does not depend on the head
    if (c.broken.any()) continue;    // no pair, no floor: "Broken cells" says why
    for (const auto& m : c.metrics) {
      std::string interval = std::isnan(m.null_lo)
                                 ? "no interval"
                                 : fmt::format("{} [{}, {}]", SignedPercent(m.null_estimate),
                                               SignedPercent(m.null_lo), SignedPercent(m.null_hi));
      out += fmt::format("| {} | {} | {} | {} | {} |\n", MarkdownCode(c.cell), MarkdownText(m.metric), interval,
                         std::isinf(m.noise_floor) ? "unknown" : Percent2(m.noise_floor),
                         m.host_too_noisy ? "**too noisy**" : "ok");
    }
  }
}

void Checks(const AbReport& r, std::string& out) {
  out += "\n### Sanity gates and release bounds\n\n";
  if (r.checks.empty()) {
    out += "None declared.\n";
    return;
  }
  out += "| check | rule | cell | arm | value | limit | result |\n|---|---|---|---|---:|---:|---|\n";
  for (const auto& c : r.checks) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n",
                       c.kind == CheckKind::kGate ? "gate (first block)" : "release bound", MarkdownCode(c.rule),
                       MarkdownCode(c.cell), MarkdownText(c.arm), Value(c.value, c.unit), Value(c.limit, c.unit),
                       c.ok ? "ok" : "**VIOLATED**");
  }
}

// --layouts K: per declared cell, head and metric, the verdict and change in every layout.
void Layouts(const AbReport& r, std::string& out) {
  if (r.layout_rows.empty()) return;
  int sensitive = 0;
  for (const auto& row : r.layout_rows) sensitive += row.sensitive ? 1 : 0;
  out += fmt::format(
      "\n### Layouts\n\nEvery cell ran under {} layouts (the initial stack moved by environment "
      "padding; nothing rebuilt). A change that is real holds in every layout; **LAYOUT-SENSITIVE**: "
      "some layouts FAIL and others do not, or two layouts' intervals lie on opposite sides of 0 — "
      "an accident of where things sit in memory, not of the code change alone. {} of {} "
      "rows {}.\n\n| cell | head | metric |",
      r.layouts, sensitive, r.layout_rows.size(), sensitive == 1 ? "is" : "are");
  for (int64_t k = 0; k < r.layouts; ++k) out += fmt::format(" layout {} |", k);
  out += " spread | |\n|---|---|---|";
  for (int64_t k = 0; k < r.layouts; ++k) out += "---|";
  out += "---:|---|\n";
  for (const auto& row : r.layout_rows) {
    out += fmt::format("| {} | {} | {} |", MarkdownCode(row.cell), MarkdownText(row.head), MarkdownCode(row.metric));
    for (size_t k = 0; k < row.verdicts.size(); ++k) {
      out += fmt::format(" {} {} |", VerdictText(row.verdicts[k]),
                         std::isnan(row.estimates[k]) ? std::string("n/a") : SignedPercent(row.estimates[k]));
    }
    out += fmt::format(" {} | {} |\n", Percent2(row.spread), row.sensitive ? "**LAYOUT-SENSITIVE**" : "holds");
  }
}

// The cross-check of time verdicts with instruction counts (campaign/cross_check.h): one line per
// comparison whose time FAILed or gained, when it ran.
void CrossChecks(const AbReport& r, std::string& out) {
  bool any = false;
  for (const auto& c : r.comparisons) any = any || (c.cross_check && !c.cross_check->line.empty());
  if (!any) return;
  bool several_heads = false;
  for (const auto& c : r.comparisons) several_heads = several_heads || c.head != "head";
  out += "\n### Cross-check: instructions under valgrind\n\n"
         "Each cell whose time FAILed or gained, measured once more under `--instrument sim` (base, the head, "
         "and base again, which must read the same instructions; these samples are not stored): does the "
         "head execute more (or fewer) instructions, or does the same work take longer? It points; it "
         "changes no verdict.\n\n";
  for (const auto& c : r.comparisons) {
    if (!c.cross_check || c.cross_check->line.empty()) continue;
    out += fmt::format("- {}{}: **{}**\n", MarkdownCode(c.cell),
                       several_heads ? " " + MarkdownText(ArmLabel(r, c.head)) : "", MarkdownText(c.cross_check->line));
  }
}

void Cohorts(const AbReport& r, std::string& out) {
  out += "\n### Cohorts of this campaign\n\n"
         "Every run of the campaign is a cohort of its own; none is overwritten or left out, "
         "rejected ones included.\n\n"
         "| cohort | run | started | state | lock | head sha256 | samples | outcome |\n"
         "|---|---:|---|---|---|---|---:|---|\n";
  for (const auto& c : r.cohorts) {
    std::string heads;
    for (const auto& h : c.head_sha256) heads += (heads.empty() ? "" : " ") + ("`" + Short(h) + "`");
    std::string state = CohortStateName(c.state);
    if (!c.stop_reason.empty()) state += ": " + MarkdownText(c.stop_reason);
    out += fmt::format("| {} | {} | {} | {} | `{}` | {} | {} | {} |\n",
                       c.current ? fmt::format("**{}** (this)", c.cohort) : std::to_string(c.cohort),
                       c.run_id, UtcTime(c.started_unix_ns), state, Short(c.lock_sha256), heads,
                       c.samples, c.outcome.empty() ? "—" : c.outcome);
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

std::string OutcomeWord(const AbReport& r) {
  if (r.outcome != Verdict::kFail && !r.UnmeasurableCells().empty()) return "BROKEN";
  return std::string(VerdictName(r.outcome));
}

std::string SignedPercent(double fraction) {
  if (std::isnan(fraction)) return "n/a";
  return fmt::format("{:+.2f}%", fraction * 100.0);
}

std::string GbenchRouteNote(const AbReport& r) {
  if (r.kind != TargetKind::kGbench || r.instrument != Instrument::kWall || r.samples <= 0 || r.ended_unix_ns <= r.started_unix_ns) {
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
  if (inconclusive > 0) why.push_back(fmt::format("{} comparison{} ended INCONCLUSIVE", inconclusive, inconclusive == 1 ? "" : "s"));
  std::string reasons;
  for (size_t i = 0; i < why.size(); ++i) reasons += (i == 0 ? "" : i + 1 == why.size() ? " and " : ", ") + why[i];
  return fmt::format(
      "\n### Faster, tighter Google Benchmark cells\n\n"
      "In this cohort {}. An unmodified Google Benchmark binary estimates its own iteration count and "
      "runs for its minimum time in every process, so each sample costs about a second and the counts "
      "differ between arms. The same sources compiled against `tare/gbench_compat.hpp` run one fixed "
      "iteration count, calibrated on base, in every arm, in samples of tens of milliseconds (on a real "
      "suite: the A/B in 23 s with floors of 0.7–1.7%, against 3.5 min and no verdict unmodified):\n\n"
      "1. change `#include <benchmark/benchmark.h>` to `#include <tare/gbench_compat.hpp>`;\n"
      "2. link `tare::gbench_compat` (CMake: `find_package(tare)`) instead of `benchmark::benchmark`, or "
      "build with `g++ -O2 bench.cc $(pkg-config --cflags --libs tare-gbench-compat)`;\n"
      "3. run the same `tare ab` on the two new binaries.\n\n"
      "Until then, `--gbench-min-time` sets every sample's length (20 ms by default). docs/library.md, \"Google Benchmark sources\".\n",
      reasons);
}

std::string RenderLedger(const AbReport& r) {
  std::string out;
  Header(r, out);
  if (r.comparisons.empty()) {
    out += "No cell was judged: the cohort stopped before its first look.\n";
  } else {
    CellTable(r, out);
  }
  BrokenCells(r, out);
  CrossChecks(r, out);
  NullArm(r, out);
  Layouts(r, out);
  Checks(r, out);
  Cohorts(r, out);
  out += GbenchRouteNote(r);
  if (!r.notes.empty() || !r.host_warnings.empty()) {
    out += "\n### Notes\n\n";
    for (const auto& n : r.notes) out += "- " + MarkdownText(n) + "\n";
    for (const auto& w : r.host_warnings) out += "- host: " + MarkdownText(w) + "\n";
  }
  const bool signed_rank = r.interval_method == "signed-rank-v1";
  const bool split = r.noise_floor_rule == "null-split-v1";
  out += "\n---\n";
  out += signed_rank
             ? "Each metric: the Hodges–Lehmann paired change of head against base, exp(median of the "
               "Walsh averages of ln(head/base)) − 1, with its Wilcoxon signed-rank interval [lo, hi] "
               "at the look's confidence; "
             : "Each metric: the median paired change of head against base, exp(median ln(head/base)) − 1, "
               "with its exact sign-test interval [lo, hi] at the look's confidence; ";
  out += "then the allowance "
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
    out += " **exact (deterministic)**: the metric read the same on a rerun (the determinism check), so the "
           "change is head/base − 1 itself, with no interval: FAIL when it is worse than the allowance, PASS "
           "otherwise (certifying that change), a supported gain when it is better beyond the allowance.";
  }
  if (split) {
    out += " Under null-split-v1 the floor of δ (FAIL, gains) is |the null arm's estimate| and the "
           "floor a PASS adds is the edge of its interval.";
  }
  out += "\n";
  return out;
}

}  // namespace tare::report
