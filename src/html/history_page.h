// The HTML page of `tare report --history BENCH`: one benchmark's run medians over stored runs of
// one host type, coloured by level (the segments between change points), and each change point
// with the runs and commits it falls between and its step's interval (docs/report.md).
#pragma once

#include <string>

#include "compare/history.h"

namespace tare::html {

std::string RenderHistoryHtml(const compare::History& history);

}  // namespace tare::html
