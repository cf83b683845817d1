// The HTML report of a finished `tare ab` cohort (`tare ab ... --html FILE`): everything the ledger
// says (report/ledger.h) as a page — the outcome, the campaign, lock, host, arms and plan — and per
// cell a forest plot: each head's change and interval per metric, the allowance δ as a dashed line
// on the worse side, the null arm's interval as a shaded band, coloured by verdict; the cell's table;
// and its raw samples, one colour per arm. Then gates and bounds, every cohort, notes, the legend.
// Pure: the AbReport the campaign built, and the cohort's run and cells from the store.
#pragma once

#include <string>
#include <vector>

#include "model/cohort.h"
#include "model/run.h"
#include "report/ab_report.h"

namespace tare::html {

// A figure drawn elsewhere for one cell's section: a sim cohort's differential flame graph of a
// change (attribute/flame.h). `svg` is a whole SVG document tare rendered, names already escaped.
struct CellFigure {
  std::string cell;
  std::string caption;  // plain text, escaped here
  std::string svg;
};

// `run` is the cohort's run (report.run_id) and `cells` its cells (Store::CellsOf), for the samples;
// with either empty the page is written without sample plots. `figures` go under their cell's plots.
std::string RenderAbHtml(const report::AbReport& report, const RunData& run, const std::vector<CellRecord>& cells,
                         const std::vector<CellFigure>& figures = {});

}  // namespace tare::html
