// The HTML report of `tare compare` (`tare report --compare BASE HEAD`): the headline, the
// warnings that say what two independent runs cannot tell, both runs' facts, then per benchmark a
// forest plot of each judged metric's change and 95% interval against ±threshold (coloured by
// class), its table, and the samples of both runs (base then head, in the order taken). Pure.
#pragma once

#include <string>

#include "compare/compare.h"
#include "model/run.h"

namespace tare::html {

// `base` and `head` are the runs `comparison` was computed from (for their samples and hosts).
std::string RenderCompareHtml(const compare::SuiteComparison& comparison, const RunData& base, const RunData& head);

}  // namespace tare::html
