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

}  // namespace

std::string RenderConsole(const BisectReport& r) {
  std::string out = fmt::format("tare bisect: {} commits from {} (good) to {} (bad), sim.Ir, allowance {:g}%\n",
                                r.commits, ShortId(r.good.id), ShortId(r.bad.id), 100 * r.allowance);
  for (const auto& a : r.answers) {
    const std::string name = TerminalText(a.benchmark);
    if (!a.changed) {
      out += fmt::format("\n{}: unchanged between the ends ({} -> {} instructions, {})\n", name, Count(a.good_count),
                         Count(a.bad_count), Percent(a.good_count, a.bad_count));
      continue;
    }
    if (a.exact) {
      out += fmt::format("\n{}: first changed at {} {}\n", name, ShortId(a.culprit.id), TerminalText(a.culprit.subject));
      out += fmt::format("  author date  {}\n", TerminalText(a.culprit.author_date));
      out += fmt::format("  change       {} -> {} instructions ({}) against the good end\n", Count(a.good_count),
                         Count(a.culprit_count), Percent(a.good_count, a.culprit_count));
      out += fmt::format("  its parent   {} {} ({} instructions)\n", ShortId(a.last_same.id),
                         TerminalText(a.last_same.subject), Count(a.last_same_count));
    } else {
      out += fmt::format("\n{}: changed in one of {} commits, which skipped commits hide ({} -> {} instructions, {}):\n",
                         name, a.range.size(), Count(a.good_count), Count(a.culprit_count),
                         Percent(a.good_count, a.culprit_count));
      for (const auto& c : a.range) out += fmt::format("  {} {}\n", ShortId(c.id), TerminalText(c.subject));
      out += fmt::format("  the newest the same: {} {}\n", ShortId(a.last_same.id), TerminalText(a.last_same.subject));
    }
    out += fmt::format("  steps        {} commits asked\n", a.steps);
    if (!a.attribution_console.empty()) {
      out += fmt::format("\n{}: where the change went, {} (parent) -> {} (culprit), Ir over the sample's whole "
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
  out += fmt::format("\nbuilds: {} built now, {} from the cache ({}); {} commits measured, {} from the cache\n",
                     r.builds, r.cache_hits, TerminalText(r.cache_dir), r.measured, r.measured_from_cache);
  return out;
}

std::string RenderJson(const BisectReport& r) {
  nlohmann::json j = {{"format", "tare.bisect/1"},
                      {"metric", metric_name::kSimIr},
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
  j["benchmarks"] = nlohmann::json::array();
  for (const auto& a : r.answers) {
    nlohmann::json b = {{"name", a.benchmark},  {"good_count", a.good_count}, {"bad_count", a.bad_count},
                        {"changed", a.changed}, {"steps", a.steps}};
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
  out += fmt::format(
      "Exact instruction counts (sim.Ir, valgrind) of each step against the good end; changed beyond {:g}%.\n\n",
      100 * r.allowance);
  out += "| benchmark | first changed | subject | author date | good → culprit (Ir) | change |\n";
  out += "|---|---|---|---|---|---|\n";
  for (const auto& a : r.answers) {
    if (!a.changed) {
      out += fmt::format("| {} | unchanged | | | {} → {} | {} |\n", report::MarkdownText(a.benchmark), Count(a.good_count),
                         Count(a.bad_count), Percent(a.good_count, a.bad_count));
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
  out += fmt::format("\n{} builds, {} from the cache; {} commits measured, {} from the cache.\n", r.builds, r.cache_hits,
                     r.measured, r.measured_from_cache);
  return out;
}

}  // namespace tare::bisect
