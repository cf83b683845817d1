// `tare site -o DIR` (issue 26 item 6; docs/report.md, "A site of every benchmark"): a static,
// self-contained site from a store for GitHub Pages or any file server — index.html, one row per
// benchmark (its metric, host type, branch, runs, last value, a trend sparkline and its last
// change point), and one page per benchmark (its history plot, report --history's page). Pure.
#pragma once

#include <string>
#include <vector>

#include "compare/history.h"

namespace tare::html {

// The file of a benchmark's page under the site, "b/<slug>-<hash>.html": the name's letters,
// digits, '-' and '_' (others become '_', at most 48), then 12 hex of its sha256, so hostile or
// colliding names get distinct, safe file names.
std::string SitePagePath(const std::string& benchmark);

struct SiteEntry {
  std::string benchmark;
  compare::History history;  // as LoadHistory gave it
  std::string problem;       // why there is no history ("" when there is one)
};

// index.html. `source` names the store (already redacted by the caller).
std::string RenderSiteIndex(const std::vector<SiteEntry>& entries, const std::string& source);

// The sparkline of a history's run medians, oldest left: an inline SVG of `width` x `height`.
std::string Sparkline(const compare::History& h, int width = 140, int height = 28);

}  // namespace tare::html
