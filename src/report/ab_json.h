// A `tare ab` cohort as JSON, schema "tare.ab/1" (every field in docs/campaign.md). Stable: fields
// are only ever added; a change of meaning gets a new schema name. Changes are fractions
// (+0.03 = +3%), values in base units (ns, bytes, counts); a value that does not exist is null.
// A verdict's fields are written from its record's one field list (model/record_fields.h), each at
// its tare.ab/1 place, so a field added to the record is written here too.
#pragma once

#include <nlohmann/json.hpp>

#include "report/ab_report.h"

namespace tare::report {

inline constexpr char kAbJsonSchema[] = "tare.ab/1";

nlohmann::json AbReportToJson(const AbReport& report);

}  // namespace tare::report
