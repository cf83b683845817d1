#include "bisect/culprit_attribution.h"

#include <string>
#include <utility>
#include <vector>

#include "attribute/explain.h"
#include "attribute/render.h"
#include "attribute/stored_profiles.h"

namespace tare::bisect {

void AttributeCulprits(BisectReport* report, size_t top) {
  for (auto& a : report->answers) {
    if (!a.changed || !a.exact || report->instrument != Instrument::kSim) continue;
    auto parts = [&](const std::vector<std::pair<std::string, std::string>>& files) {
      std::vector<attribute::ProfileFile> in;
      for (const auto& [name, content] : files) in.push_back({name, content});
      return attribute::MeasuredParts(in, a.kind);
    };
    auto base_parts = parts(a.last_same_profiles);
    auto head_parts = parts(a.culprit_profiles);
    if (!base_parts.ok() || !head_parts.ok()) {
      a.attribution_problem =
          std::string(base_parts.ok() ? head_parts.status().message() : base_parts.status().message());
      continue;
    }
    attribute::Side base{*base_parts, "parent " + a.last_same.id.substr(0, 12), a.last_same_executable, ""};
    attribute::Side head{*head_parts, "culprit " + a.culprit.id.substr(0, 12), a.culprit_executable, ""};
    auto explained = attribute::Explain(base, head, "Ir", top, "");
    if (!explained.ok()) {
      a.attribution_problem = std::string(explained.status().message());
      continue;
    }
    a.attribution_console = attribute::RenderConsole(*explained);
    a.attribution_markdown = attribute::RenderMarkdown(*explained);
    a.attribution_json = attribute::RenderJson(*explained);
  }
}

}  // namespace tare::bisect
