#include "campaign/campaign_definition.h"

#include <filesystem>
#include <set>

#include <fmt/core.h>

#include "base/json_read.h"
#include "base/json_text.h"
#include "base/regex.h"
#include "base/sha256.h"
#include "base/units.h"
#include "campaign/exact_plan.h"
#include "model/metric_roles.h"
#include "session/environment.h"
#include "target/gbench.h"
#include "session/target_setup.h"

namespace tare::campaign {
namespace {

// Arguments after the executable as an argv (target::GbenchMinTimeGiven skips argv[0]).
std::vector<std::string> WithProgram(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {""};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

Status ValidateRegex(const std::string& re, const std::string& field) {
  if (re.empty()) return Status::Ok();
  return Regex::Compile(re, field).status();
}

Status ValidateRuleArms(const std::string& rule, const std::vector<std::string>& rule_arms,
                        const std::vector<std::string>& arms) {
  for (const auto& arm : rule_arms) {
    if (ExpandRuleArm(arm, arms).empty()) {
      std::string names;
      for (const auto& a : arms) names += (names.empty() ? "" : ", ") + a;
      return Status::InvalidArgument(fmt::format(
          "\"{}\" names the arm '{}', which this campaign does not have (arms: {}{})", rule, arm, names,
          RoleOfArm(arm) == ArmRole::kNull ? "; add the null arm back: drop --no-null or null = false" : ""));
    }
  }
  return Status::Ok();
}

}  // namespace

std::vector<std::string> ArmNames(const CampaignSpec& spec) {
  std::vector<std::string> names = {kBaseArm};
  for (size_t i = 0; i < spec.heads.size(); ++i) {
    names.push_back(i == 0 ? std::string(kFirstHeadArm) : fmt::format("hd{:02d}", i + 1));
  }
  if (spec.null_arm) names.push_back(kNullArm);
  return names;
}

std::vector<MetricSpec> DefaultMetrics(TargetKind resolved_kind, Instrument instrument, bool task_clock_available) {
  std::vector<MetricSpec> out;
  for (const auto& name : DefaultJudgedMetrics(resolved_kind, instrument, task_clock_available)) {
    MetricSpec m;
    m.name = name;
    out.push_back(std::move(m));
  }
  return out;
}

Status ValidateSpec(const CampaignSpec& spec, TargetKind kind) {
  if (spec.base.empty()) {
    return Status::InvalidArgument(
        "no base executable; give --base PATH (or base = \"PATH\" under [arms] in the campaign "
        "file)");
  }
  if (spec.heads.empty()) {
    return Status::InvalidArgument(
        "no head executable; give --head PATH (or head = \"PATH\" under [arms] in the campaign "
        "file)");
  }
  if (spec.heads.size() > 98) {
    return Status::InvalidArgument(
        fmt::format("{} heads: at most 98 (arm names hd02..hd99 keep every path the same length)", spec.heads.size()));
  }
  if (spec.layouts < 1 || spec.layouts > kMaxLayouts) {
    return Status::InvalidArgument(
        fmt::format("layouts {} is outside 1..{}; e.g. --layouts 4 (four stack offsets within a cache line)",
                    spec.layouts, kMaxLayouts));
  }
  if (spec.gbench_min_time_ns != 0) {
    if (kind != TargetKind::kGbench) {
      return Status::InvalidArgument(
          fmt::format("gbench_min_time (--gbench-min-time) applies to Google Benchmark binaries; this campaign's "
                      "base is a {} target: remove it",
                      TargetKindName(kind)));
    }
    if (spec.gbench_min_time_ns < kMinGbenchMinTimeNs || spec.gbench_min_time_ns > kMaxGbenchMinTimeNs) {
      return Status::InvalidArgument(fmt::format("gbench_min_time {} is outside 1ms..60s; e.g. --gbench-min-time 50ms",
                                                 FormatDurationNs(static_cast<double>(spec.gbench_min_time_ns))));
    }
    if (spec.instrument == Instrument::kSim) {
      return Status::InvalidArgument(
          "gbench_min_time has no effect under --instrument sim (one exactly-counted run per sample, "
          "docs/sim.md): remove it");
    }
    bool own = target::GbenchMinTimeGiven(WithProgram(spec.args), spec.env);
    for (const auto& c : spec.cells) own = own || target::GbenchMinTimeGiven(WithProgram(c.args), c.env);
    if (own) {
      return Status::InvalidArgument(
          "gbench_min_time (--gbench-min-time) and the campaign's own --benchmark_min_time argument (or "
          "BENCHMARK_MIN_TIME) both set the samples' length: give one");
    }
  }
  if (!(spec.same_work_allowance >= 0 && spec.same_work_allowance < 1)) {
    return Status::InvalidArgument(
        fmt::format("same-work allowance {:.4g}% is not between 0% and 100%; e.g. --same-work-allowance 10%, or off",
                    spec.same_work_allowance * 100));
  }
  if (!(spec.noise_cap > 0 && spec.noise_cap < 1)) {
    return Status::InvalidArgument(
        fmt::format("noise cap {:.4g}% is not between 0% and 100%; e.g. --noise-cap 2%", spec.noise_cap * 100));
  }
  auto looks = PlanLooks(spec.sampling, spec.confidence, spec.look_scheme);
  if (!looks.ok()) return looks.status();
  if (spec.interval == PairedIntervalMethod::kSignedRank && spec.look_scheme != LookScheme::kBonferroni) {
    return Status::InvalidArgument(
        fmt::format("interval {} needs look_scheme {} ({} is calibrated for the sign test's distribution only); "
                    "drop --look-scheme or use --interval {}",
                    kSignedRankV1, kBonferroniV1, LookSchemeName(spec.look_scheme), kSignTestV1));
  }
  if (spec.timeout_ns <= 0) {
    return Status::InvalidArgument("timeout must be positive, e.g. \"30s\" or \"2m\"");
  }
  TARE_RETURN_IF_ERROR(session::ValidateEnvOverrides(spec.env, "env"));
  TARE_RETURN_IF_ERROR(ValidateRegex(spec.filter, "filter"));
  TARE_RETURN_IF_ERROR(ValidateRegex(spec.control_filter, "control"));
  if (!spec.cwd.empty() && !std::filesystem::is_directory(spec.cwd)) {
    return Status::InvalidArgument(fmt::format("cwd '{}' is not a directory", spec.cwd));
  }

  std::set<std::string> cell_names;
  for (size_t i = 0; i < spec.cells.size(); ++i) {
    const CellSpec& c = spec.cells[i];
    if (c.name.empty()) {
      return Status::InvalidArgument(
          fmt::format("cells[{}]: name is empty; give the benchmark's name (Google Benchmark) or a label "
                      "for this parameter set (commands)",
                      i));
    }
    if (!cell_names.insert(c.name).second) {
      return Status::InvalidArgument(
          fmt::format("cells[{}]: the name '{}' is used twice; every cell needs its own name", i, c.name));
    }
    TARE_RETURN_IF_ERROR(session::ValidateEnvOverrides(c.env, fmt::format("cells[{}] '{}' env", i, c.name)));
    for (const auto& [metric, allowance] : c.allowances) {
      const auto& judged = spec.metrics.empty() ? DefaultMetrics(kind, spec.instrument) : spec.metrics;
      bool found = false;
      for (const auto& m : judged) found = found || m.name == metric;
      if (!found) {
        return Status::InvalidArgument(
            fmt::format("cells[{}] '{}': allowances names '{}', which the campaign does not judge; add it to "
                        "[metrics] or remove the allowance",
                        i, c.name, metric));
      }
    }
  }

  const auto metrics = spec.metrics.empty() ? DefaultMetrics(kind, spec.instrument) : spec.metrics;
  std::set<std::string> metric_names;
  for (const auto& m : metrics) {
    if (!metric_names.insert(m.name).second) {
      return Status::InvalidArgument(fmt::format("metric '{}' is listed twice", m.name));
    }
    if (!IsMeasured(m.name, kind, spec.instrument)) {
      return Status::InvalidArgument(fmt::format(
          "metric '{}' is not measured for {} targets under the {} instrument; choose from {}", m.name,
          TargetKindName(kind), InstrumentName(spec.instrument), MeasuredMetricList(kind, spec.instrument)));
    }
  }

  const std::vector<std::string> arms = ArmNames(spec);
  const std::vector<GateRule> gates = spec.gates ? *spec.gates : std::vector<GateRule>{};
  for (const auto& g : gates) {
    TARE_RETURN_IF_ERROR(ValidateRuleArms(g.text, {g.arm, g.ref_arm}, arms));
  }
  for (const auto& b : spec.bounds) {
    TARE_RETURN_IF_ERROR(ValidateRuleArms(b.text, {b.arm}, arms));
  }
  return Status::Ok();
}

CampaignSpec ResolveSpecPaths(CampaignSpec spec, const std::string& dir) {
  auto absolute = [&](const std::string& p) -> std::string {
    if (p.empty()) return p;
    std::filesystem::path path(p);
    if (path.is_relative()) path = std::filesystem::path(dir) / path;
    return path.lexically_normal().string();
  };
  // --cwd first: a relative executable is found where it was typed, else under --cwd (session's one
  // rule for run and ab, WhereTypedElseUnderCwd).
  spec.cwd = absolute(spec.cwd);
  spec.base = absolute(session::WhereTypedElseUnderCwd(spec.base, dir, spec.cwd));
  for (auto& h : spec.heads) h = absolute(session::WhereTypedElseUnderCwd(h, dir, spec.cwd));
  return spec;
}

nlohmann::json SpecToJson(const CampaignSpec& spec) {
  nlohmann::json cells = nlohmann::json::array();
  for (const auto& c : spec.cells) {
    nlohmann::json cell = {{"name", c.name}, {"role", CellRoleName(c.role)}, {"args", c.args}, {"env", c.env}};
    if (!c.allowances.empty()) {
      nlohmann::json allowances = nlohmann::json::object();
      for (const auto& [metric, a] : c.allowances) allowances[metric] = AllowanceText(a);
      cell["allowances"] = allowances;
    }
    cells.push_back(cell);
  }
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : spec.metrics) {
    nlohmann::json j = {{"name", m.name}, {"allowance", AllowanceText(m.allowance)}};
    if (m.direction) j["direction"] = DirectionName(*m.direction);
    metrics.push_back(j);
  }
  nlohmann::json gates = nullptr;
  if (spec.gates) {
    gates = nlohmann::json::array();
    for (const auto& g : *spec.gates) gates.push_back(g.text);
  }
  nlohmann::json bounds = nlohmann::json::array();
  for (const auto& b : spec.bounds) bounds.push_back(b.text);
  // nlohmann::json objects keep keys sorted, so the dump is canonical.
  nlohmann::json j = {
      {"format", kCampaignFormat},
      {"name", spec.name},
      {"kind", spec.kind ? TargetKindName(*spec.kind) : "auto"},
      {"instrument", InstrumentName(spec.instrument)},
      {"base", spec.base},
      {"heads", spec.heads},
      {"null", spec.null_arm},
      {"args", spec.args},
      {"env", spec.env},
      {"cwd", spec.cwd},
      {"filter", spec.filter},
      {"control", spec.control_filter},
      {"cells", cells},
      {"metrics", metrics},
      {"sampling", {{"initial", spec.sampling.initial}, {"step", spec.sampling.step}, {"cap", spec.sampling.cap}}},
      {"confidence", spec.confidence},
      {"noise_cap", spec.noise_cap},
      // kNoBudget is written as 0, as campaigns without a budget were before the default budget.
      {"budget_ns", std::max<int64_t>(spec.budget_ns, 0)},
      {"look_scheme", LookSchemeName(spec.look_scheme)},
      {"noise_floor", NoiseFloorRuleName(spec.noise_floor)},
      {"order", ArmOrderName(spec.order)},
      {"seed", spec.seed},
      {"timeout_ns", spec.timeout_ns},
      {"gates", gates},
      {"bounds", bounds},
  };
  // Written only when set, so that campaigns declared before the setting existed keep their identity.
  if (spec.gbench_min_time_ns > 0) j["gbench_min_time_ns"] = spec.gbench_min_time_ns;
  if (spec.layouts > 1) j["layouts"] = spec.layouts;
  if (spec.strict_suite) j["strict_suite"] = true;  // absent by default: older campaigns keep their identity
  // A campaign that runs the work tier is not the one that ran without it (before issue 42): absent
  // means off.
  if (spec.same_work_allowance > 0) j["same_work_allowance"] = spec.same_work_allowance;
  if (spec.interval != PairedIntervalMethod::kSignTest) j["interval"] = PairedIntervalName(spec.interval);
  // The exact plan is a plan of its own (exact_plan.h): a campaign that runs it is not the one that
  // ran 20 pairs before it existed. Written only then, so other campaigns keep their identity.
  if (ExactPlanApplies(spec)) j["sampling_plan"] = kExactPlanV1;
  // Doubling looks and the default budget, likewise written only when they apply.
  if (spec.sampling.growth != 1) j["sampling"]["growth"] = spec.sampling.growth;
  if (spec.budget_ns == kDefaultBudget) j["budget_rule"] = kDefaultBudgetV1;
  return j;
}

std::string LayoutCellName(const std::string& cell, int64_t layout) {
  return fmt::format("{} [layout {}]", cell, layout);
}

std::string LayoutEnv(int64_t layout) {
  return "TARE_LAYOUT=" + std::string(static_cast<size_t>(layout * kLayoutPadBytes), 'x');
}

// The heap moves by a multiple of 16 (libtare_heap_shift.so needs it): kLayoutPadBytes is 1040.
static_assert(kLayoutPadBytes % 16 == 0);
std::string HeapShiftEnv(int64_t layout) { return "TARE_HEAP_SHIFT=" + std::to_string(layout * kLayoutPadBytes); }

namespace {

// The body of SpecFromJson (base/json_read.h): throws JsonReadError naming the field.
CampaignSpec ReadSpec(const nlohmann::json& j) {
  using nlohmann::json;
  using Strings = std::vector<std::string>;
  auto str = [&](std::string_view key) { return JsonAt<std::string>(j, key); };
  CampaignSpec spec;
  if (str("format") != kCampaignFormat) {
    JsonWithin("format", [] { JsonFail("format is not " + std::string(kCampaignFormat)); });
  }
  spec.name = str("name");
  if (str("kind") != "auto") spec.kind = JsonNameAt(j, "kind", ParseTargetKind);
  spec.instrument = JsonNameAt(j, "instrument", ParseInstrument);
  spec.base = str("base");
  spec.heads = JsonAt<Strings>(j, "heads");
  spec.null_arm = JsonAt<bool>(j, "null");
  spec.args = JsonAt<Strings>(j, "args");
  spec.env = JsonAt<Strings>(j, "env");
  spec.cwd = str("cwd");
  spec.filter = str("filter");
  spec.control_filter = str("control");
  JsonEach(j, "cells", [&](const json& c) {
    CellSpec cell;
    cell.name = JsonAt<std::string>(c, "name");
    cell.role = JsonNameAt(c, "role", ParseCellRole);
    cell.args = JsonAt<Strings>(c, "args");
    cell.env = JsonAt<Strings>(c, "env");
    if (c.contains("allowances")) {
      const json& allowances = JsonAt(c, "allowances");
      JsonWithin("allowances", [&] {
        if (!allowances.is_object()) JsonFail(fmt::format("expected an object, found {}", allowances.type_name()));
        for (const auto& [metric, text] : allowances.items()) {
          cell.allowances[metric] = JsonNameAt(allowances, metric, ParseAllowance);
        }
      });
    }
    spec.cells.push_back(cell);
  });
  JsonEach(j, "metrics", [&](const json& m) {
    MetricSpec metric;
    metric.name = JsonAt<std::string>(m, "name");
    metric.allowance = JsonNameAt(m, "allowance", ParseAllowance);
    // An unknown direction is a spec tare did not write: an error naming it, never "lower".
    if (m.contains("direction")) metric.direction = JsonNameAt(m, "direction", ParseDirection);
    spec.metrics.push_back(metric);
  });
  const json& sampling = JsonAt(j, "sampling");
  JsonWithin("sampling", [&] {
    spec.sampling = {JsonAt<int64_t>(sampling, "initial"), JsonAt<int64_t>(sampling, "step"),
                     JsonAt<int64_t>(sampling, "cap")};
    if (sampling.contains("growth")) spec.sampling.growth = JsonAt<int64_t>(sampling, "growth");
  });
  // A stored spec without "sampling_plan" ran the statistical plan: replay it as declared.
  spec.sampling_declared = !(j.contains("sampling_plan") && str("sampling_plan") == kExactPlanV1);
  spec.confidence = JsonAt<double>(j, "confidence");
  spec.noise_cap = JsonAt<double>(j, "noise_cap");
  spec.budget_ns = JsonAt<int64_t>(j, "budget_ns");
  // A stored spec without "budget_rule" and no budget ran without one (before the default budget).
  if (spec.budget_ns < 0) JsonWithin("budget_ns", [] { JsonFail("budget_ns is negative"); });
  if (spec.budget_ns == 0 && !j.contains("budget_rule")) spec.budget_ns = kNoBudget;
  if (j.contains("budget_rule") && str("budget_rule") != kDefaultBudgetV1) {
    JsonWithin("budget_rule", [&] { JsonFail(fmt::format("unknown budget_rule '{}'", str("budget_rule"))); });
  }
  spec.gbench_min_time_ns = JsonAtOr<int64_t>(j, "gbench_min_time_ns", spec.gbench_min_time_ns);
  spec.layouts = JsonAtOr<int64_t>(j, "layouts", spec.layouts);
  spec.strict_suite = JsonAtOr<bool>(j, "strict_suite", false);
  spec.same_work_allowance = JsonAtOr<double>(j, "same_work_allowance", 0.0);
  if (j.contains("interval")) spec.interval = JsonNameAt(j, "interval", ParsePairedInterval);
  spec.look_scheme = JsonNameAt(j, "look_scheme", ParseLookScheme);
  spec.noise_floor = JsonNameAt(j, "noise_floor", ParseNoiseFloorRule);
  spec.order = JsonNameAt(j, "order", ParseArmOrder);
  spec.seed = JsonAt<uint64_t>(j, "seed");
  spec.timeout_ns = JsonAt<int64_t>(j, "timeout_ns");
  if (!JsonAt(j, "gates").is_null()) {
    spec.gates.emplace();
    JsonEach(j, "gates", [&](const json& g) { spec.gates->push_back(OrThrow(ParseGate(g.get<std::string>()))); });
  }
  JsonEach(j, "bounds", [&](const json& b) { spec.bounds.push_back(OrThrow(ParseBound(b.get<std::string>()))); });
  return spec;
}

}  // namespace

StatusOr<CampaignSpec> SpecFromJson(const nlohmann::json& j) {
  return ReadJson<CampaignSpec>(j, "campaign spec", ReadSpec);
}

StatusOr<CampaignSpec> SpecFromJsonText(std::string_view text, std::string_view what) {
  TARE_ASSIGN_OR_RETURN(nlohmann::json j, ParseJson(text, what));
  auto spec = SpecFromJson(j);
  if (!spec.ok()) return spec.status().WithContext(std::string(what));
  return spec;
}

int64_t BudgetNs(const CampaignSpec& spec, size_t cells) {
  if (spec.budget_ns == kNoBudget) return 0;
  if (spec.budget_ns > 0) return spec.budget_ns;
  const int64_t n = static_cast<int64_t>(std::max<size_t>(cells, 1));
  return n >= kDefaultBudgetMostNs / kDefaultBudgetPerCellNs ? kDefaultBudgetMostNs : n * kDefaultBudgetPerCellNs;
}

StatusOr<int64_t> ParseBudget(std::string_view text) {
  if (text == "none") return kNoBudget;
  if (text == "default") return kDefaultBudget;
  auto ns = ParseTimeoutNs(text);
  if (!ns.ok()) {
    return Status::InvalidArgument(fmt::format(
        "{}; or 'none' (no budget: the cap alone ends sampling) or 'default' (30 s per cell, at most 10 min)",
        ns.status().message()));
  }
  return *ns;
}

std::string CampaignIdentity(const CampaignSpec& spec) { return Sha256Hex(DumpJson(SpecToJson(spec))); }

}  // namespace tare::campaign
