#include "campaign/planner_report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/terminal_text.h"
#include "base/units.h"
#include "report/ab_report.h"

namespace tare::campaign {
namespace {

std::string Percent(double f) {
  if (std::isnan(f)) return "-";
  return fmt::format("{:.0f}%", f * 100);
}

std::string Change(double f) {
  if (std::isnan(f)) return "> 50%";
  return fmt::format("+{:.2g}%", f * 100);
}

size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;  // code points, close enough for a table
  return n;
}

std::string Table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> w;
  for (const auto& r : rows) {
    w.resize(std::max(w.size(), r.size()), 0);
    for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], Width(r[i]));
  }
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(w[i] - Width(r[i]) + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

double ExpectedSeconds(const PlanReport& r, double mean_pairs) {
  return r.per_sample_ns * 1e-9 * static_cast<double>(r.arms) * mean_pairs;
}

}  // namespace

std::string RenderPlan(const PlanReport& r) {
  std::string out = fmt::format(
      "Plan: {}; {:.0f}% confidence ({}){}.\n{}\n"
      "Predicted from a pilot of {} blocks per cell (base, a second copy of base in the head's place{}; "
      "{} processes, {:.1f} s), by {} resampled campaigns per change through the verdict rules.\n\n",
      report::SamplingText(r.sampling), r.confidence * 100, r.look_scheme,
      r.null_arm ? fmt::format(", null arm, noise cap {}", Percent(r.noise_cap)) : ", no null arm",
      r.budget_pairs > 0
          ? fmt::format("The budget, {}, is simulated as if every cell needed all of it: each cell's looks stop at "
                        "{} pairs,\nwith a last look there, as the campaign's do.",
                        FormatDurationNs(static_cast<double>(r.budget_ns)), r.budget_pairs)
          : std::string("No budget bounds it: the pairs below are what the cap allows."),
      r.pilot_pairs, r.null_arm ? ", the null arm" : "", r.pilot_processes, r.pilot_seconds, r.simulations);
  std::vector<std::vector<std::string>> rows = {
      {"cell", "metric", "allowance", "spread/pair", "unchanged head: PASS", "INCONCLUSIVE", "pairs used",
       fmt::format("FAIL >= {}% from", static_cast<int>(r.target_power * 100)),
       fmt::format("pairs for PASS >= {}%", static_cast<int>(r.target_power * 100))}};
  for (const auto& c : r.cells) {
    rows.push_back({SingleLineText(c.cell), SingleLineText(c.metric),
                    c.changed_allowance.empty() ? c.allowance : c.allowance + " / " + c.changed_allowance,
                    fmt::format("{:.2f}%", c.pair_spread * 100), Percent(c.unchanged.pass),
                    Percent(c.unchanged.inconclusive), fmt::format("{:.0f}", c.unchanged.mean_pairs),
                    Change(c.detectable), c.pairs_for_pass < 0 ? "> 1000" : std::to_string(c.pairs_for_pass)});
  }
  out += Table(rows);
  if (std::any_of(r.cells.begin(), r.cells.end(), [](const CellPlan& c) { return !c.changed_allowance.empty(); })) {
    out +=
        "\nAllowance A / B: the work tier read the same work in the pilot, so an unchanged head is judged against A\n"
        "(what placement alone can do: the PASS and pairs columns); a head whose work changes is judged at B, which\n"
        "the FAIL column uses (docs/methodology.md §5a).\n";
  }

  std::string advice;
  double total_seconds = 0;
  for (const auto& c : r.cells) {
    total_seconds += ExpectedSeconds(r, c.unchanged.mean_pairs);
    if (c.unchanged.pass >= r.target_power) continue;
    const std::string name = SingleLineText(c.cell) + " " + SingleLineText(c.metric);
    if (c.pairs_for_pass > 0 && r.budget_pairs > 0 && c.pairs_for_pass > r.budget_pairs) {
      const double budget_needed = static_cast<double>(c.pairs_for_pass - r.sampling.initial) *
                                   static_cast<double>(r.arms * r.cell_count) * r.per_sample_ns;
      advice += fmt::format(
          "- {}: an unchanged head PASSes in {} of campaigns within the budget ({} pairs); {} pairs would reach "
          "{}%: --budget {} if every cell needs them.\n",
          name, Percent(c.unchanged.pass), r.budget_pairs, c.pairs_for_pass, static_cast<int>(r.target_power * 100),
          FormatDurationNs(budget_needed));
    } else if (c.pairs_for_pass > 0) {
      advice += fmt::format(
          "- {}: an unchanged head PASSes in {} of campaigns at {} pairs; --cap {} would reach {}% "
          "(about {} for this cell).\n",
          name, Percent(c.unchanged.pass), r.sampling.cap, c.pairs_for_pass, static_cast<int>(r.target_power * 100),
          FormatDurationNs(ExpectedSeconds(r, static_cast<double>(c.pairs_for_pass)) * 1e9));
    } else {
      advice += fmt::format(
          "- {}: an unchanged head PASSes in {} of campaigns at {} pairs, and 1000 pairs would not "
          "reach {}%: the host is too noisy for allowance {} on this metric. Quiet the host (`tare "
          "env`), declare a larger allowance, or measure instructions (--instrument sim).\n",
          name, Percent(c.unchanged.pass), r.budget_pairs > 0 ? r.budget_pairs : r.sampling.cap,
          static_cast<int>(r.target_power * 100), c.allowance);
    }
  }
  for (const auto& e : r.errors) advice += "- " + SingleLineText(e) + "\n";
  if (!advice.empty()) out += "\nNot resolved by this plan:\n" + advice;
  if (r.per_sample_ns > 0) {
    const double tier = static_cast<double>(r.work_tier_ns);
    out += fmt::format(
        "\nExpected duration for an unchanged head: about {} ({} per sample{}).\n",
        FormatDurationNs(total_seconds * 1e9 + tier), FormatDurationNs(r.per_sample_ns),
        tier > 0 ? fmt::format("; the work tier's {} before them, as in the pilot", FormatDurationNs(tier)) : "");
  }
  out += "Nothing was locked or stored; the pilot's processes ran from a temporary copy.\n";
  return out;
}

nlohmann::json PlanToJson(const PlanReport& r) {
  auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json j;
  j["format"] = "tare.plan/1";
  j["sampling"] = {{"initial", r.sampling.initial},
                   {"step", r.sampling.step},
                   {"cap", r.sampling.cap},
                   {"growth", r.sampling.growth}};
  j["confidence"] = r.confidence;
  j["look_scheme"] = r.look_scheme;
  j["null_arm"] = r.null_arm;
  j["noise_cap"] = r.noise_cap;
  j["pilot"] = {{"pairs", r.pilot_pairs},
                {"processes", r.pilot_processes},
                {"seconds", r.pilot_seconds},
                {"per_sample_ns", num(r.per_sample_ns)}};
  j["simulations"] = r.simulations;
  j["budget_ns"] = r.budget_ns;
  j["budget_pairs"] = r.budget_pairs > 0 ? nlohmann::json(r.budget_pairs) : nlohmann::json(nullptr);
  j["work_tier_ns"] = r.work_tier_ns;
  j["target_power"] = r.target_power;
  j["cells"] = nlohmann::json::array();
  for (const auto& c : r.cells) {
    nlohmann::json cj;
    cj["cell"] = c.cell;
    cj["metric"] = c.metric;
    cj["allowance"] = c.allowance;
    cj["changed_allowance"] =
        c.changed_allowance.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.changed_allowance);
    cj["pilot_blocks"] = c.pilot_blocks;
    cj["pair_spread"] = c.pair_spread;
    cj["null_spread"] = c.null_spread;
    cj["unchanged"] = {{"pass", c.unchanged.pass},
                       {"fail", c.unchanged.fail},
                       {"inconclusive", c.unchanged.inconclusive},
                       {"mean_pairs", c.unchanged.mean_pairs}};
    cj["fail_rate_by_change"] = nlohmann::json::array();
    for (const auto& p : c.curve) cj["fail_rate_by_change"].push_back({{"change", p.change}, {"fail", p.fail}});
    cj["detectable_change"] = num(c.detectable);
    cj["pairs_for_pass"] = c.pairs_for_pass < 0 ? nlohmann::json(nullptr) : nlohmann::json(c.pairs_for_pass);
    j["cells"].push_back(std::move(cj));
  }
  j["errors"] = r.errors;
  return j;
}

}  // namespace tare::campaign
