// The campaign `tare ab --base OLD --head NEW [flags]` declares: its campaign-defining flags as the
// user typed them, parsed and checked into the CampaignSpec a campaign file would declare, and the
// campaign's input (the text its identity and lock hash) from those flags or from a file.
// The command binds the flags to a SpecFlags and calls CampaignInputFrom; nothing else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "campaign/arm_order.h"
#include "campaign/campaign_definition.h"
#include "campaign/campaign_runner.h"
#include "campaign/sampling.h"
#include "campaign/verdict_rules.h"

namespace tare::campaign {

struct SpecFlags {
  std::string base;
  std::vector<std::string> heads;
  bool null_arm = true;  // --no-null leaves it out
  int64_t initial = kDefaultSampling.initial;
  int64_t step = kDefaultSampling.step;
  int64_t cap = kDefaultSampling.cap;
  double confidence = kDefaultConfidence;
  std::vector<std::string> metrics;  // NAME[=ALLOWANCE][:higher|:lower]
  std::string order = std::string(kRotatingReversedBlocksV1);
  uint64_t seed = 0;
  std::string look_scheme = std::string(kBonferroniV1);
  std::string noise_floor = std::string(kNullSplitV1);
  std::string interval = std::string(kSignTestV1);
  std::string noise_cap = "2%";
  std::string filter;
  std::string control;
  std::string kind = "auto";
  std::string instrument = "wall";
  std::string timeout = "10m";
  std::string budget;           // "" = the default budget
  std::string gbench_min_time;  // "" = the default
  int64_t layouts = 1;
  bool strict_suite = false;
  std::string same_work_allowance = "10%";  // "off": no work tier
  std::vector<std::string> env;
  std::string cwd;
  std::vector<std::string> gates;
  bool no_gates = false;
  std::vector<std::string> bounds;
  std::string name;
  std::vector<std::string> args;   // after --
  std::vector<std::string> given;  // the campaign-defining flags given ("--base", "--step", ...)
};

// `--metric NAME[=ALLOWANCE][:higher|:lower]`: wall_ns=2%, gb.real_time_ns=noise, bytes_per_s:higher.
StatusOr<MetricSpec> ParseMetricFlag(const std::string& text);

// The spec the flags declare, every rule name and value checked, paths made absolute against
// `cwd`. A declared --step means evenly spaced looks (growth 1).
StatusOr<CampaignSpec> SpecFromFlags(const SpecFlags& flags, const std::string& cwd);

// The campaign, identified: from `campaign_file`'s bytes when one is named (InvalidArgument if any
// campaign-defining flag or argument after -- is given too: the file declares the whole campaign),
// otherwise from the canonical JSON of the flags (InvalidArgument without --base, or when an
// executable is a directory).
StatusOr<CampaignInput> CampaignInputFrom(const std::string& campaign_file, const SpecFlags& flags,
                                          const std::string& cwd);

}  // namespace tare::campaign
