// The three renderings of a bisection: console (terminal-safe), tare.bisect/1 JSON, Markdown.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/json_read.h"
#include "base/json_text.h"
#include "base/terminal_text.h"
#include "bisect/bisect.h"
#include "model/metric_names.h"
#include "report/escape.h"

namespace tare::bisect {
namespace {

std::string ShortId(const std::string& commit) { return commit.substr(0, 12); }

// "+3.1%" of now against base.
std::string Percent(double base, double now) {
  if (base == 0) return now == 0 ? "+0%" : "new";
  return fmt::format("{:+.2f}%", 100.0 * (now / base - 1));
}

std::string Count(double v) { return fmt::format("{:.0f}", v); }

nlohmann::json CommitJson(const CommitInfo& c) {
  return {{"commit", c.id}, {"subject", c.subject}, {"author", c.author}, {"author_date", c.author_date}};
}

bool Wall(const BisectReport& r) { return r.instrument == Instrument::kWall; }

// "+41.2% [+39.0%, +43.1%] bench.cpu_ns (FAIL, 20 pairs, noise floor 0.8%, run 5)"
std::string Change(const TimeChange& c) {
  std::string where = c.from_cache ? "decided by an earlier bisect" : fmt::format("run {}", c.run_id);
  return fmt::format("{:+.2f}% [{:+.2f}%, {:+.2f}%] {} ({}, {} pairs, noise floor {:.2f}%, {})", 100 * c.estimate,
                     100 * c.lo, 100 * c.hi, c.metric, c.verdict, c.pairs, 100 * c.noise_floor, where);
}

nlohmann::json ChangeJson(const TimeChange& c) {
  return {{"outcome", TimeOutcomeName(c.outcome)},
          {"verdict", c.verdict},
          {"metric", c.metric},
          {"estimate", c.estimate},
          {"lo", c.lo},
          {"hi", c.hi},
          {"confidence", c.confidence},
          {"noise_floor", c.noise_floor},
          {"pairs", c.pairs},
          {"run_id", c.run_id},
          {"from_cache", c.from_cache},
          {"reason", c.reason}};
}

// One benchmark's answer under time (wall): each figure is a campaign's paired change against the good end.
std::string TimeAnswerConsole(const BenchmarkAnswer& a, const BisectReport& r) {
  const std::string name = TerminalText(a.benchmark);
  std::string out;
  if (a.inconclusive) {
    const std::string what = a.range.empty() && a.inconclusive_at.id == r.bad.id
                                 ? "the bad end cannot be told from the good end nor certified the same"
                                 : fmt::format("the change lies in one of {} commits, still undecided", a.range.size());
    out += fmt::format("\n{}: INCONCLUSIVE at {} {}: {}\n", name, ShortId(a.inconclusive_at.id),
                       TerminalText(a.inconclusive_at.subject), what);
    out += fmt::format("  that step    {}\n", TerminalText(Change(a.inconclusive_change)));
    if (!a.inconclusive_change.reason.empty())
      out += fmt::format("  why          {}\n", TerminalText(a.inconclusive_change.reason));
    for (const auto& c : a.range) out += fmt::format("  {} {}\n", ShortId(c.id), TerminalText(c.subject));
    if (!a.range.empty()) {
      out += fmt::format("  the newest the same: {} {}\n", ShortId(a.last_same.id), TerminalText(a.last_same.subject));
    }
    out += "  rerun with a larger --step-budget, or on a quieter host, to decide it (decided steps are reused)\n";
  } else if (!a.changed) {
    out += fmt::format("\n{}: unchanged between the ends: {}\n", name, TerminalText(Change(a.ends_change)));
    return out;
  } else if (a.exact) {
    out += fmt::format("\n{}: first changed at {} {}\n", name, ShortId(a.culprit.id), TerminalText(a.culprit.subject));
    out += fmt::format("  author date  {}\n", TerminalText(a.culprit.author_date));
    out += fmt::format("  change       {} against the good end\n", TerminalText(Change(a.culprit_change)));
    out += fmt::format("  its parent   {} {} ({})\n", ShortId(a.last_same.id), TerminalText(a.last_same.subject),
                       a.last_same.id == r.good.id ? "the good end" : TerminalText(Change(a.last_same_change)));
  } else {
    out += fmt::format("\n{}: changed in one of {} commits, which skipped commits hide ({} at the newest):\n", name,
                       a.range.size(), TerminalText(Change(a.culprit_change)));
    for (const auto& c : a.range) out += fmt::format("  {} {}\n", ShortId(c.id), TerminalText(c.subject));
    out += fmt::format("  the newest the same: {} {}\n", ShortId(a.last_same.id), TerminalText(a.last_same.subject));
  }
  out += fmt::format("  steps        {} commits asked\n", a.steps);
  return out;
}

}  // namespace

std::string RenderConsole(const BisectReport& r) {
  std::string out =
      Wall(r)
          ? fmt::format(
                "tare bisect: {} commits from {} (good) to {} (bad), time: a paired campaign per step (null "
                "arm, budget {}s), allowance {:g}%\n",
                r.commits, ShortId(r.good.id), ShortId(r.bad.id), r.step_budget_ns / 1'000'000'000, 100 * r.allowance)
          : fmt::format("tare bisect: {} commits from {} (good) to {} (bad), sim.Ir, allowance {:g}%\n", r.commits,
                        ShortId(r.good.id), ShortId(r.bad.id), 100 * r.allowance);
  for (const auto& a : r.answers) {
    if (Wall(r)) {
      out += TimeAnswerConsole(a, r);
      continue;
    }
    const std::string name = TerminalText(a.benchmark);
    if (!a.changed) {
      out += fmt::format("\n{}: unchanged between the ends ({} -> {} instructions, {})\n", name, Count(a.good_count),
                         Count(a.bad_count), Percent(a.good_count, a.bad_count));
      continue;
    }
    if (a.exact) {
      out +=
          fmt::format("\n{}: first changed at {} {}\n", name, ShortId(a.culprit.id), TerminalText(a.culprit.subject));
      out += fmt::format("  author date  {}\n", TerminalText(a.culprit.author_date));
      out += fmt::format("  change       {} -> {} instructions ({}) against the good end\n", Count(a.good_count),
                         Count(a.culprit_count), Percent(a.good_count, a.culprit_count));
      out += fmt::format("  its parent   {} {} ({} instructions)\n", ShortId(a.last_same.id),
                         TerminalText(a.last_same.subject), Count(a.last_same_count));
    } else {
      out += fmt::format(
          "\n{}: changed in one of {} commits, which skipped commits hide ({} -> {} instructions, {}):\n", name,
          a.range.size(), Count(a.good_count), Count(a.culprit_count), Percent(a.good_count, a.culprit_count));
      for (const auto& c : a.range) out += fmt::format("  {} {}\n", ShortId(c.id), TerminalText(c.subject));
      out += fmt::format("  the newest the same: {} {}\n", ShortId(a.last_same.id), TerminalText(a.last_same.subject));
    }
    out += fmt::format("  steps        {} commits asked\n", a.steps);
    if (!a.attribution_console.empty()) {
      out += fmt::format(
          "\n{}: where the change went, {} (parent) -> {} (culprit), Ir over the sample's whole "
          "window:\n",
          name, ShortId(a.last_same.id), ShortId(a.culprit.id));
      out += a.attribution_console;
    } else if (!a.attribution_problem.empty()) {
      out += fmt::format("  (no per-function table: {})\n", TerminalText(a.attribution_problem));
    }
  }
  if (!r.skipped.empty()) {
    out += "\nskipped (as `git bisect skip`):\n";
    for (const auto& s : r.skipped) {
      out += fmt::format("  {} {}: {}\n", ShortId(s.commit.id), TerminalText(s.commit.subject), TerminalText(s.reason));
      for (const auto& l : s.log_tail) out += "    | " + TerminalText(l) + "\n";
    }
  }
  if (Wall(r)) {
    out += fmt::format(
        "\nbuilds: {} built now, {} from the cache ({}); {} campaigns run, {} steps from the cache; each "
        "campaign's ledger: tare report --store {}\n",
        r.builds, r.cache_hits, TerminalText(r.cache_dir), r.campaigns, r.campaigns_from_cache,
        TerminalText(r.store_path));
    return out;
  }
  out += fmt::format("\nbuilds: {} built now, {} from the cache ({}); {} commits measured, {} from the cache\n",
                     r.builds, r.cache_hits, TerminalText(r.cache_dir), r.measured, r.measured_from_cache);
  return out;
}

std::string RenderJson(const BisectReport& r) {
  nlohmann::json j = {{"format", "tare.bisect/1"},
                      {"instrument", InstrumentName(r.instrument)},
                      {"metric", Wall(r) ? "" : metric_name::kSimIr},
                      {"allowance", r.allowance},
                      {"good", CommitJson(r.good)},
                      {"bad", CommitJson(r.bad)},
                      {"commits", r.commits},
                      {"recipe_hash", r.recipe_hash},
                      {"cache_dir", r.cache_dir},
                      {"builds", r.builds},
                      {"cache_hits", r.cache_hits},
                      {"measured", r.measured},
                      {"measured_from_cache", r.measured_from_cache}};
  if (Wall(r)) {
    j["step_budget_s"] = r.step_budget_ns / 1e9;
    j["store"] = r.store_path;
    j["campaigns"] = r.campaigns;
    j["campaigns_from_cache"] = r.campaigns_from_cache;
  }
  j["benchmarks"] = nlohmann::json::array();
  for (const auto& a : r.answers) {
    nlohmann::json b = {{"name", a.benchmark},
                        {"good_count", a.good_count},
                        {"bad_count", a.bad_count},
                        {"changed", a.changed},
                        {"steps", a.steps}};
    if (a.changed) {
      b["exact"] = a.exact;
      b["culprit"] = CommitJson(a.culprit);
      b["culprit_count"] = a.culprit_count;
      b["change_fraction"] = a.good_count == 0 ? 0.0 : a.culprit_count / a.good_count - 1;
      b["last_same"] = CommitJson(a.last_same);
      b["last_same_count"] = a.last_same_count;
      b["range"] = nlohmann::json::array();
      for (const auto& c : a.range) b["range"].push_back(CommitJson(c));
      if (!a.attribution_json.empty()) b["attribution"] = EmbedJson(a.attribution_json, nullptr);
      if (!a.attribution_problem.empty()) b["attribution_problem"] = a.attribution_problem;
    }
    if (Wall(r)) {
      b["inconclusive"] = a.inconclusive;
      b["ends_change"] = ChangeJson(a.ends_change);
      if (a.changed) {
        b["change"] = ChangeJson(a.culprit_change);
        b["change_fraction"] = a.culprit_change.estimate;
        if (a.last_same.id != r.good.id) b["last_same_change"] = ChangeJson(a.last_same_change);
      }
      if (a.inconclusive) {
        b["inconclusive_at"] = CommitJson(a.inconclusive_at);
        b["inconclusive_change"] = ChangeJson(a.inconclusive_change);
        b["last_same"] = CommitJson(a.last_same);
        b["culprit"] = CommitJson(a.culprit);
        b["range"] = nlohmann::json::array();
        for (const auto& c : a.range) b["range"].push_back(CommitJson(c));
      }
    }
    j["benchmarks"].push_back(b);
  }
  j["skipped"] = nlohmann::json::array();
  for (const auto& s : r.skipped) {
    nlohmann::json k = CommitJson(s.commit);
    k["reason"] = s.reason;
    k["log_tail"] = s.log_tail;
    j["skipped"].push_back(k);
  }
  return DumpJson(j, 2) + "\n";
}

std::string RenderMarkdown(const BisectReport& r) {
  std::string out = fmt::format("### tare bisect: {} commits, `{}` (good) to `{}` (bad)\n\n", r.commits,
                                ShortId(r.good.id), ShortId(r.bad.id));
  if (Wall(r)) {
    out += fmt::format(
        "Time: each step a paired campaign (null arm, budget {}s) against the good end; changed beyond {:g}%.\n\n",
        r.step_budget_ns / 1'000'000'000, 100 * r.allowance);
    out += "| benchmark | first changed | subject | author date | change against the good end |\n";
    out += "|---|---|---|---|---|\n";
    for (const auto& a : r.answers) {
      const std::string name = report::MarkdownText(a.benchmark);
      if (a.inconclusive) {
        out += fmt::format("| {} | INCONCLUSIVE at `{}` | {} commits undecided | | {} |\n", name,
                           ShortId(a.inconclusive_at.id), a.range.size(),
                           report::MarkdownText(Change(a.inconclusive_change)));
      } else if (!a.changed) {
        out += fmt::format("| {} | unchanged | | | {} |\n", name, report::MarkdownText(Change(a.ends_change)));
      } else {
        out += fmt::format("| {} | {} | {} | {} | {} |\n", name,
                           a.exact ? fmt::format("`{}`", ShortId(a.culprit.id))
                                   : fmt::format("one of {} commits `{}`..`{}`", a.range.size(),
                                                 ShortId(a.last_same.id), ShortId(a.culprit.id)),
                           a.exact ? report::MarkdownText(a.culprit.subject) : "(skipped commits hide it)",
                           report::MarkdownText(a.culprit.author_date), report::MarkdownText(Change(a.culprit_change)));
      }
    }
  } else {
    out += fmt::format(
        "Exact instruction counts (sim.Ir, valgrind) of each step against the good end; changed beyond {:g}%.\n\n",
        100 * r.allowance);
    out += "| benchmark | first changed | subject | author date | good → culprit (Ir) | change |\n";
    out += "|---|---|---|---|---|---|\n";
    for (const auto& a : r.answers) {
      if (!a.changed) {
        out += fmt::format("| {} | unchanged | | | {} → {} | {} |\n", report::MarkdownText(a.benchmark),
                           Count(a.good_count), Count(a.bad_count), Percent(a.good_count, a.bad_count));
        continue;
      }
      std::string where = a.exact ? fmt::format("`{}`", ShortId(a.culprit.id))
                                  : fmt::format("one of {} commits `{}`..`{}`", a.range.size(), ShortId(a.last_same.id),
                                                ShortId(a.culprit.id));
      out += fmt::format("| {} | {} | {} | {} | {} → {} | {} |\n", report::MarkdownText(a.benchmark), where,
                         a.exact ? report::MarkdownText(a.culprit.subject) : "(skipped commits hide it)",
                         report::MarkdownText(a.culprit.author_date), Count(a.good_count), Count(a.culprit_count),
                         Percent(a.good_count, a.culprit_count));
    }
  }
  for (const auto& a : r.answers) {
    if (a.attribution_markdown.empty()) continue;
    out += fmt::format(
        "\n#### {}: where the change went, `{}` (parent) → `{}` (culprit)\n\n"
        "Ir over the sim sample's whole window (every iteration it ran), per function:\n\n",
        report::MarkdownText(a.benchmark), ShortId(a.last_same.id), ShortId(a.culprit.id));
    out += a.attribution_markdown;
  }
  if (!r.skipped.empty()) {
    out += "\nSkipped (did not build or run):\n\n";
    for (const auto& s : r.skipped) {
      out += fmt::format("- `{}` {}: {}\n", ShortId(s.commit.id), report::MarkdownText(s.commit.subject),
                         report::MarkdownText(s.reason));
    }
  }
  if (Wall(r)) {
    out += fmt::format("\n{} builds, {} from the cache; {} campaigns run, {} steps from the cache.\n", r.builds,
                       r.cache_hits, r.campaigns, r.campaigns_from_cache);
  } else {
    out += fmt::format("\n{} builds, {} from the cache; {} commits measured, {} from the cache.\n", r.builds,
                       r.cache_hits, r.measured, r.measured_from_cache);
  }
  return out;
}

}  // namespace tare::bisect
