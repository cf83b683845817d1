#include "campaign/spec_flags.h"

#include <fmt/format.h>

#include <filesystem>
#include <utility>

#include "base/files.h"
#include "base/json_text.h"
#include "base/units.h"
#include "campaign/campaign_file.h"
#include "campaign/rules.h"
#include "model/target.h"

namespace tare::campaign {

StatusOr<MetricSpec> ParseMetricFlag(const std::string& text) {
  MetricSpec m;
  std::string rest = text;
  size_t colon = rest.rfind(':');
  if (colon != std::string::npos) {
    std::string dir = rest.substr(colon + 1);
    if (dir == "higher") {
      m.direction = Direction::kHigherIsBetter;
    } else if (dir == "lower") {
      m.direction = Direction::kLowerIsBetter;
    } else {
      return Status::InvalidArgument(
          fmt::format("--metric '{}': '{}' is not 'higher' or 'lower' (which values are better)", text, dir));
    }
    rest = rest.substr(0, colon);
  }
  size_t eq = rest.find('=');
  m.name = rest.substr(0, eq);
  if (m.name.empty()) {
    return Status::InvalidArgument(
        fmt::format("--metric '{}': write NAME=ALLOWANCE, e.g. --metric wall_ns=2% or --metric wall_ns=noise", text));
  }
  if (eq != std::string::npos) {
    auto allowance = ParseAllowance(rest.substr(eq + 1));
    if (!allowance.ok()) return allowance.status().WithContext("--metric " + text);
    m.allowance = *allowance;
  }
  return m;
}

StatusOr<CampaignSpec> SpecFromFlags(const SpecFlags& o, const std::string& cwd) {
  CampaignSpec spec;
  spec.name = o.name;
  spec.base = o.base;
  spec.heads = o.heads;
  spec.null_arm = o.null_arm;
  spec.args = o.args;
  spec.env = o.env;
  spec.cwd = o.cwd;
  spec.filter = o.filter;
  spec.control_filter = o.control;
  spec.sampling = {o.initial, o.step, o.cap, kDefaultSampling.growth};
  for (const auto& g : o.given) {
    spec.sampling_declared = spec.sampling_declared || g == "--initial" || g == "--step" || g == "--cap";
    if (g == "--step") spec.sampling.growth = 1;  // a declared step: evenly spaced looks
  }
  spec.confidence = o.confidence;
  spec.seed = o.seed;
  if (o.kind != "auto") {
    auto kind = ParseTargetKind(o.kind);
    if (!kind.ok()) {
      return Status::InvalidArgument(fmt::format("--kind '{}' is not auto, command, gbench or tare", o.kind));
    }
    spec.kind = *kind;
  }
  auto instrument = ParseInstrument(o.instrument);
  if (!instrument.ok()) return instrument.status().WithContext("--instrument");
  spec.instrument = *instrument;
  for (const auto& m : o.metrics) {
    TARE_ASSIGN_OR_RETURN(MetricSpec parsed, ParseMetricFlag(m));
    spec.metrics.push_back(parsed);
  }
  TARE_ASSIGN_OR_RETURN(spec.order, ParseArmOrder(o.order));
  TARE_ASSIGN_OR_RETURN(spec.look_scheme, ParseLookScheme(o.look_scheme));
  TARE_ASSIGN_OR_RETURN(spec.noise_floor, ParseNoiseFloorRule(o.noise_floor));
  TARE_ASSIGN_OR_RETURN(spec.interval, ParsePairedInterval(o.interval));
  auto cap = ParseAllowance(o.noise_cap);
  if (!cap.ok() || cap->noise) {
    return Status::InvalidArgument(fmt::format("--noise-cap '{}' is not a percentage like 2%", o.noise_cap));
  }
  spec.noise_cap = cap->fraction;
  auto timeout = ParseTimeoutNs(o.timeout);
  if (!timeout.ok()) return timeout.status().WithContext("--timeout");
  spec.timeout_ns = *timeout;
  if (!o.budget.empty()) {
    auto budget = ParseBudget(o.budget);
    if (!budget.ok()) return budget.status().WithContext("--budget");
    spec.budget_ns = *budget;
  }
  spec.layouts = o.layouts;
  spec.strict_suite = o.strict_suite;
  auto same_work = ParseSameWorkAllowance(o.same_work_allowance);
  if (!same_work.ok()) return same_work.status().WithContext("--same-work-allowance");
  spec.same_work_allowance = *same_work;
  if (!o.gbench_min_time.empty()) {
    auto t = ParseTimeoutNs(o.gbench_min_time);
    if (!t.ok()) return t.status().WithContext("--gbench-min-time");
    spec.gbench_min_time_ns = *t;
  }
  if (o.no_gates) {
    spec.gates.emplace();
  } else if (!o.gates.empty()) {
    spec.gates.emplace();
    for (const auto& g : o.gates) {
      TARE_ASSIGN_OR_RETURN(GateRule rule, ParseGate(g));
      spec.gates->push_back(rule);
    }
  }
  for (const auto& b : o.bounds) {
    TARE_ASSIGN_OR_RETURN(BoundRule rule, ParseBound(b));
    spec.bounds.push_back(rule);
  }
  return ResolveSpecPaths(spec, cwd);
}

StatusOr<CampaignInput> CampaignInputFrom(const std::string& campaign_file, const SpecFlags& o,
                                          const std::string& cwd) {
  CampaignInput in;
  if (!campaign_file.empty()) {
    if (!o.given.empty()) {
      std::string flags;
      for (const auto& g : o.given) flags += (flags.empty() ? "" : ", ") + g;
      return Status::InvalidArgument(
          fmt::format("{} cannot be combined with a campaign file: the file declares the whole campaign (and "
                      "is what the lock hashes); edit '{}' instead",
                      flags, campaign_file));
    }
    if (!o.args.empty()) {
      return Status::InvalidArgument(
          fmt::format("arguments after -- cannot be combined with a campaign file; declare them with "
                      "args = [...] in '{}'",
                      campaign_file));
    }
    auto text = ReadFile(campaign_file);
    if (!text.ok()) return text.status().WithContext("campaign file");
    TARE_ASSIGN_OR_RETURN(CampaignSpec spec, ParseCampaignToml(*text, campaign_file));
    const std::filesystem::path path = (std::filesystem::path(cwd) / campaign_file).lexically_normal();
    in.spec = ResolveSpecPaths(spec, path.parent_path().string());
    in.campaign_source = "file:" + path.string();
    in.campaign_text = *text;
    return in;
  }
  if (o.base.empty() && o.heads.empty()) {
    return Status::InvalidArgument(
        "nothing to compare; write `tare ab --base OLD --head NEW` or `tare ab "
        "campaign.toml` (see tare ab --help)");
  }
  if (o.base.empty()) {
    return Status::InvalidArgument(
        "--base is required: --head is compared with it; write `tare ab --base OLD --head NEW`");
  }
  std::vector<std::pair<std::string, std::string>> executables = {{"--base", o.base}};
  for (const auto& h : o.heads) executables.emplace_back("--head", h);
  for (const auto& [flag, path] : executables) {
    if (std::filesystem::is_directory(path)) {
      return Status::InvalidArgument(fmt::format("{} '{}' is a directory; name the executable itself", flag, path));
    }
  }
  TARE_ASSIGN_OR_RETURN(in.spec, SpecFromFlags(o, cwd));
  // The campaign's identity (CampaignIdentity) is set by the runner, for files and flags alike.
  const nlohmann::json canonical = SpecToJson(in.spec);
  in.campaign_source = "flags";
  in.campaign_text = DumpJson(canonical, 2);
  return in;
}

}  // namespace tare::campaign
