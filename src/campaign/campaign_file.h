// The campaign file: a TOML declaration of a `tare ab` campaign (format tare.campaign/1, every
// key in docs/campaign.md, an example in examples/ab_knob/campaign.toml). Parsing is strict: an
// unknown key (a typo such as "sampels") or a value of the wrong type is an error naming the file,
// the line and the field, because a campaign that silently ignores part of its declaration is not
// the campaign that was declared.
//
//   name = "ab_knob +3%"
//   args = ["--work", "8"]
//   [arms]
//   base = "build/examples/ab_knob/ab_knob_base"   # relative to this file's directory
//   head = "build/examples/ab_knob/ab_knob_plus3"
//   null = true
//   [sampling]
//   initial = 10
//   step = 10
//   cap = 40
//   [metrics]
//   wall_ns = "noise"
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "campaign/campaign_definition.h"

namespace tare::campaign {

// Parses campaign text. `path` names the file in messages ("campaign.toml:7: sampling.cap: ...");
// paths inside stay as written (see ResolveSpecPaths). Semantic checks that need the target's
// kind (metric names) are ValidateSpec's.
StatusOr<CampaignSpec> ParseCampaignToml(std::string_view text, const std::string& path);

}  // namespace tare::campaign
