// The HTML page of `tare report --history BENCH`: one benchmark's run medians over stored runs of
// one host type, coloured by level (the segments between change points), and each change point
// with the runs and commits it falls between and its step's interval (docs/report.md).
#pragma once

#include <string>
#include <vector>

#include "compare/history.h"

namespace tare::html {

// Another host type's page of the same benchmark, on a `tare site`.
struct OtherHostPage {
  std::string host;  // its fingerprint digest
  std::string href;  // relative to this page
  int64_t runs = 0;
};

// `index_href`: on a `tare site` page, the link back to the site's index ("../index.html"; issue
// 45, item 6: the pages had none); "" for a page of its own. `other_hosts`: on a site, the pages
// of the benchmark's other host types, linked where the page says runs on other hosts are not
// shown; a page of its own says how to draw them (`--host DIGEST`).
std::string RenderHistoryHtml(const compare::History& history, const std::string& index_href = "",
                              const std::vector<OtherHostPage>& other_hosts = {});

}  // namespace tare::html
