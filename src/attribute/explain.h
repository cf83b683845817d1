// The attribution of one change, as `tare attribute` prints it and `tare ab --attribute N` puts it
// in the ledger: the event's change per function, inlining findings checked in the executables'
// symbol tables when both are known, and one function's assembly diff on request.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attribute/inputs.h"
#include "attribute/render.h"
#include "base/status.h"
#include "report/ab_report.h"
#include "store/store.h"

namespace tare::attribute {

// `head` against `base` for `event` ("Ir", "D1mr", ...), `top` rows. Without both executables the
// inlining findings carry why they were not checked; `asm_function` ("" = none) then is an error.
StatusOr<AttributionReport> Explain(const Side& base, const Side& head, const std::string& event, size_t top,
                                    const std::string& asm_function);

// `tare ab --attribute N`: the top N functions behind every FAIL and supported gain of a
// `tare ab --instrument sim` cohort (its stored profiles, base against that head), as a Markdown
// section for the ledger and tare.attribute/1 documents for the JSON. A change that cannot be
// attributed (no profile kept, a malformed one) is listed in `problems`, never fatal.
struct CohortAttribution {
  int64_t changes = 0;                            // FAILs and supported gains
  std::string markdown;                           // "" when there is nothing to say
  nlohmann::json json = nlohmann::json::array();  // [{cell, head, attribution}]
  std::vector<std::string> problems;              // "CELL (head): why not"
};
CohortAttribution AttributeCohortChanges(store::Store& store, const report::AbReport& rep, size_t top);

// `tare ab --html` on a sim cohort: the differential flame graph (flame.h, event Ir) of every FAIL
// and supported gain, from the cohort's stored profiles, base against that head: a whole SVG and a
// caption each. A change whose profiles cannot be read is added to `problems` ("CELL (head): why").
struct CohortFlame {
  std::string cell;
  std::string head;
  std::string caption;
  std::string svg;
};
// `run` is the cohort's run (rep.run_id), as the caller has it loaded already.
std::vector<CohortFlame> FlameGraphsOfCohortChanges(store::Store& store, const report::AbReport& rep,
                                                    const RunData& run, std::vector<std::string>* problems);

}  // namespace tare::attribute
