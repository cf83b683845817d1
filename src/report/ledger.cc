#include "report/ledger.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>

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

// "+3.02% [+2.41%, +3.70%] / noise (δ 0.61%) FAIL<br>12.1 ms → 12.5 ms"
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
  // A PASS says what it certifies: "not worse by more than B".
  std::string certified;
  if (m.verdict == Verdict::kPass && std::isfinite(m.pass_bound)) {
    certified = fmt::format(" ≤ {}{}", m.direction == Direction::kLowerIsBetter ? "+" : "−",
                            Percent2(m.pass_bound));
    if (m.changed) certified += ", changed";
  }
  return fmt::format("{} / {} **{}**{}<br>{} → {}", change, allowance, VerdictText(m.verdict),
                     certified, Value(m.base_median, m.unit), Value(m.head_median, m.unit));
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

// "no regression beyond 1.00% (95%)": the widest bound any PASS of the report certifies.
std::string PassClaim(const AbReport& r) {
  double widest = 0;
  bool all_exact = true;  // exact verdicts (the exact plan) have no confidence level
  for (const auto& c : r.comparisons) {
    for (const auto& m : c.metrics) {
      if (m.verdict == Verdict::kPass && std::isfinite(m.pass_bound)) widest = std::max(widest, m.pass_bound);
      all_exact = all_exact && m.exact;
    }
  }
  return fmt::format(": no regression beyond {} ({})", Percent2(widest),
                     all_exact ? std::string("exact") : Confidence(r.confidence));
}

void Header(const AbReport& r, std::string& out) {
  out += fmt::format("## tare ab: {} — {}\n\n", MarkdownText(r.campaign_name),
                     !r.has_verdicts ? std::string("no verdict")
                     : r.outcome == Verdict::kPass ? "**PASS**" + PassClaim(r)
                                                   : "**" + VerdictText(r.outcome) + "**");
  if (r.state == "stopped") {
    out += fmt::format("> **STOPPED:** {}\n\n", MarkdownText(r.stop_reason));
  } else if (r.state == "interrupted") {
    out += "> **INTERRUPTED:** the cohort is incomplete; its samples are stored. Continue it with "
           "`tare ab ... --resume`. The verdicts below are from the samples so far.\n\n";
  }
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
        "> **HOST TOO NOISY.** Two copies of the same base program differ beyond the declared "
        "allowance ({}). No PASS can be certified on this host: verdicts that would have been "
        "PASS are INCONCLUSIVE; FAIL and supported gains stand, since they clear the raised "
        "allowance. Quiet the host (`tare env` lists what to fix) and run again.\n\n",
        where);
  }

  // A PASS against a wide noise floor certifies little: say how little, where it happens.
  std::string wide;
  for (const auto& c : r.comparisons) {
    for (const auto& m : c.metrics) {
      if (m.verdict != Verdict::kPass || !(m.noise_floor > kWideNoiseFloor) ||
          !(m.noise_floor > m.declared)) {
        continue;
      }
      if (!wide.empty()) wide += "; ";
      wide += fmt::format("{} {}: within {}", MarkdownCode(c.cell), MarkdownText(m.metric),
                          std::isinf(m.noise_floor) ? "an unknown floor" : Percent2(m.noise_floor));
    }
  }
  if (!wide.empty()) {
    out += fmt::format(
        "> **WIDE NOISE FLOOR.** Some PASS verdicts only say that head is within a wide noise floor "
        "of base ({}): the null arm could not rule out differences that large between two copies "
        "of the same program. Quiet the host, add pairs (--cap), or judge a steadier metric.\n\n",
        wide);
  }

  std::string source = r.campaign_source == "flags"
                           ? "built from flags"
                           : "file " + MarkdownCode(r.campaign_source.substr(5));
  out += fmt::format("- **Campaign** {}: {}, sha256 `{}`\n", MarkdownCode(r.campaign_name), source,
                     Short(r.campaign_sha256));
  out += fmt::format("- **Cohort** {} (run {}): {}, {} samples, started {}{}\n", r.cohort, r.run_id,
                     r.state, r.samples, UtcTime(r.started_unix_ns),
                     r.resumed > 0 ? fmt::format(", resumed {} time{}", r.resumed, r.resumed == 1 ? "" : "s") : "");
  out += fmt::format("- **Lock** `{}` (sha256 of its tare.lock/1 record, written before the first "
                     "sample) · tare {}\n", Short(r.lock_sha256), r.tare_version);
  out += fmt::format("- **Host** {} · fingerprint `{}`\n", MarkdownText(r.host), Short(r.fingerprint_digest));
  std::string arms;
  for (const auto& a : r.arms) {
    if (!arms.empty()) arms += " · ";
    if (a.role == "null") {
      arms += "null: a second copy of base";
    } else {
      arms += fmt::format("{} {} `{}`", MarkdownText(a.name), MarkdownCode(Basename(a.source)), Short(a.sha256));
    }
  }
  out += fmt::format("- **Arms** {}; each runs from its own copy `<store>/bin/<arm>` (paths of "
                     "equal length) with the same argv and environment\n", arms);
  out += fmt::format("- **Instrument** {} ({} target{})\n", r.instrument, r.kind,
                     r.instrument == "sim" ? "; valgrind callgrind: simulated counts, identical on every rerun of the same binary"
                     : r.instrument == "mem" ? "; allocation shim: allocations and heap bytes" : "");
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
                       "differ falls back to {} pairs, then {} more per look, up to {}\n",
                       r.exact_blocks == 1 ? "1 block (each arm once)" : fmt::format("{} blocks (each arm {} times)", r.exact_blocks, r.exact_blocks),
                       r.exact_blocks == 1 ? "the null arm, a rerun of base, must read exactly what base reads"
                                           : "every arm must read exactly the same in every block",
                       r.sampling.initial, r.sampling.step, r.sampling.cap);
  } else if (r.sampling.cap > r.sampling.initial) {
    out += fmt::format("- **Sampling** {} pairs per cell, then {} more per look for each cell still "
                       "undecided, up to {}; looks at {} pairs\n",
                       r.sampling.initial, r.sampling.step, r.sampling.cap, JoinInts(r.look_pairs));
  } else {
    out += fmt::format("- **Sampling** {} pairs per cell, one look\n", r.sampling.initial);
  }
  out += fmt::format("- **Confidence** {} per cell and metric ({}: every look's {} interval at {}){}\n",
                     Confidence(r.confidence), r.look_scheme, r.interval_method, Confidence(r.per_look_confidence),
                     r.exact_blocks > 0 ? " for a cell that falls back; an exact verdict has no interval and needs no "
                                          "confidence level"
                                        : "");
  out += fmt::format("- **A PASS certifies** its printed bound: the declared allowance, or under "
                     "`noise` the null arm's floor when that is at most {} (the noise cap); a "
                     "host noisier than the bound gets more pairs, then INCONCLUSIVE\n",
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
    out += fmt::format(" {} | **{}** | {} | {} |", MarkdownText(c.role), VerdictText(c.verdict), GainText(c), pairs);
    for (const auto& name : metrics) {
      auto it = std::find_if(c.metrics.begin(), c.metrics.end(),
                             [&](const AbMetricResult& m) { return m.metric == name; });
      out += it == c.metrics.end() ? " — |" : " " + MetricText(*it) + " |";
    }
    out += "\n";
  }
  out += "\n";
  // Reasons that are not visible in the numbers: failures, downgrades.
  for (const auto& c : r.comparisons) {
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

void NullArm(const AbReport& r, std::string& out) {
  bool has_null = false;
  for (const auto& a : r.arms) has_null = has_null || a.role == "null";
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
                       c.kind == "gate" ? "gate (first block)" : "release bound", MarkdownCode(c.rule),
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
      "the verdict differs between layouts, or two layouts' intervals lie on opposite sides of 0 — "
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
    std::string state = MarkdownText(c.state);
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

std::string SignedPercent(double fraction) {
  if (std::isnan(fraction)) return "n/a";
  return fmt::format("{:+.2f}%", fraction * 100.0);
}

std::string GbenchRouteNote(const AbReport& r) {
  if (r.kind != "gbench" || r.instrument != "wall" || r.samples <= 0 || r.ended_unix_ns <= r.started_unix_ns) {
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
      "Until then, `--gbench-min-time 50ms` shortens every sample. docs/library.md, \"Google Benchmark sources\".\n",
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
         "(δ = max(declared allowance, null-arm noise floor)) and the verdict in the metric's worse "
         "direction, then the base → head medians. **FAIL**: the whole interval is worse than δ. "
         "**PASS** ≤ B: head is not worse than base by more than B — the whole interval is within B, "
         "and so is the null arm's floor (B is the declared allowance, or under `noise` the floor, "
         "at most the noise cap). **INCONCLUSIVE**: neither; the data cannot tell yet, or the host "
         "is too noisy for a verdict within B. **INCONCLUSIVE is not a pass.** A supported gain: the whole interval is better than "
         "0 and beyond the noise floor. A cell's verdict is its worst metric's; nothing is averaged "
         "across cells or hosts.";
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
           "floor a PASS certifies is the edge of its interval.";
  }
  out += "\n";
  return out;
}

std::string RenderAbSummary(const AbReport& r, const std::string& ledger_where) {
  int64_t pass = 0, fail = 0, inconclusive = 0;
  for (const auto& c : r.comparisons) {
    if (c.verdict == Verdict::kPass) ++pass;
    else if (c.verdict == Verdict::kFail) ++fail;
    else ++inconclusive;
  }
  std::string out = fmt::format("tare ab: {} cohort {} (run {}): {}{} — {} PASS, {} FAIL, {} INCONCLUSIVE\n",
                                SingleLineText(r.campaign_name.empty() ? "campaign" : "'" + r.campaign_name + "'"),
                                r.cohort, r.run_id, r.has_verdicts ? std::string(VerdictName(r.outcome)) : "no verdict",
                                r.state == "complete" ? "" : " (" + r.state + ")", pass, fail, inconclusive);
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : r.comparisons) {
    for (const auto& m : c.metrics) {
      std::string verdict(VerdictName(m.verdict));
      if (m.verdict == Verdict::kPass && !std::isnan(m.pass_bound)) verdict += " <= " + SignedPercent(m.pass_bound);
      if (m.supported_gain) verdict += " (gain)";
      const std::string change = m.exact         ? SignedPercent(m.estimate) + " exact"
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
  for (const auto& row : rows) {
    std::string line = "  ";
    for (size_t i = 0; i < row.size(); ++i) line += fmt::format("{:<{}}  ", row[i], w[i]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  for (const auto& c : r.comparisons) {
    if (!c.cross_check || c.cross_check->line.empty()) continue;
    std::string cell = c.cell;
    if (r.arms.size() > 3 || c.head != "head") cell += " / " + ArmLabel(r, c.head);
    out += fmt::format("  cross-check {}: {}\n", SingleLineText(cell), SingleLineText(c.cross_check->line));
  }
  for (const auto& ch : r.checks) {
    if (!ch.ok) out += fmt::format("  {} violated: {} ({} {})\n", ch.kind, SingleLineText(ch.rule), SingleLineText(ch.cell), SingleLineText(ch.arm));
  }
  if (!r.stop_reason.empty()) out += "  stopped: " + SingleLineText(r.stop_reason) + "\n";
  out += "INCONCLUSIVE is not a pass. Full ledger (lock, host, plan, every look): " + SingleLineText(ledger_where) + "\n";
  return out;
}

}  // namespace tare::report
