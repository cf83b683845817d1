// `tare site -o DIR` (issue 26 item 6; docs/report.md, "A site of every benchmark"): a static,
// self-contained site from a store for GitHub Pages or any file server — index.html, a section per
// host type (issue 45, item 3: never one host type's runs hidden behind another's), one row per
// benchmark measured there (its metric, branch, runs, last value, a trend sparkline and its last
// change point), and one page per benchmark and host type (its history plot, report --history's
// page). Pure.
#pragma once

#include <string>
#include <vector>

#include "compare/history.h"

namespace tare::html {

// The file of a benchmark's page of one host type under the site, "b/<slug>-<host>-<hash>.html":
// the name's letters, digits, '-' and '_' (others become '_', at most 48), the host digest's first
// 12 hex digits, then 12 hex of the sha256 of name and digest, so hostile or colliding names get
// distinct, safe file names, and each host type its own page.
std::string SitePagePath(const std::string& benchmark, const std::string& host);

// A host type (a fingerprint's hard digest: results across two are never pooled) as the site shows
// it: its section's heading and what sets it apart from the others.
struct SiteHost {
  std::string digest;
  std::string fingerprint_json;  // of its newest run the site read ("" when that run kept none)
};

struct SiteEntry {
  std::string benchmark;
  std::string host;          // the digest of the host type whose runs `history` holds
  compare::History history;  // as LoadHistory gave it
  std::string problem;       // why there is no history ("" when there is one)
};

// index.html: a section per host type, in `hosts`' order, each a table of its entries. `source`
// names the store (already redacted by the caller).
std::string RenderSiteIndex(const std::vector<SiteHost>& hosts, const std::vector<SiteEntry>& entries,
                            const std::string& source);

// What a section says of its host type: the CPU, its count and the kernel ("" when its fingerprint
// cannot be read: then why), and each hard key whose value differs from another host type's, as
// "target.env = MALLOC_ARENA_MAX=2" or "target.env (absent)", in the fingerprint's key order.
struct HostTypeText {
  std::string machine;
  std::vector<std::string> apart;
};
std::vector<HostTypeText> DescribeHostTypes(const std::vector<SiteHost>& hosts);

// The anchor of a host type's section in index.html ("host-" and 12 hex digits).
std::string SiteHostAnchor(const std::string& host);

// The sparkline of a history's run medians, oldest left: an inline SVG of `width` x `height`.
std::string Sparkline(const compare::History& h, int width = 140, int height = 28);

}  // namespace tare::html
