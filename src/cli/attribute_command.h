// `tare attribute`: where a change in instructions (or another callgrind event) went, per
// function, between two callgrind profiles: two files, the base and head arms of one cell of a
// `tare ab --instrument sim` cohort, or one benchmark in two `tare run --instrument sim` runs.
// The work is in src/attribute; this file parses flags, loads the inputs and prints.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/ab_report.h"
#include "store/store.h"

namespace tare::cli {

void AddAttributeCommand(CLI::App& app, int* exit_code);

// `tare ab --attribute N`: the top N functions behind every FAIL and supported gain of a
// `tare ab --instrument sim` cohort (its stored profiles, base against that head), as a Markdown
// section for the ledger and tare.attribute/1 documents for the JSON. A change that cannot be
// attributed (no profile kept, a malformed one) is listed in `problems`, never fatal.
struct CohortAttribution {
  int64_t changes = 0;                           // FAILs and supported gains
  std::string markdown;                          // "" when there is nothing to say
  nlohmann::json json = nlohmann::json::array(); // [{cell, head, attribution}]
  std::vector<std::string> problems;             // "CELL (head): why not"
};
CohortAttribution AttributeCohortChanges(store::Store& store, const report::AbReport& rep, size_t top);

}  // namespace tare::cli
