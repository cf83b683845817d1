// The HTML page of `tare report --history BENCH`: one benchmark's run medians over stored runs of
// one host type, coloured by level (the segments between change points), and each change point
// with the runs and commits it falls between and its step's interval (docs/report.md).
#pragma once

#include <string>

#include "compare/history.h"

namespace tare::html {

// `index_href`: on a `tare site` page, the link back to the site's index ("../index.html"; issue
// 45, item 6: the pages had none); "" for a page of its own.
std::string RenderHistoryHtml(const compare::History& history, const std::string& index_href = "");

}  // namespace tare::html
