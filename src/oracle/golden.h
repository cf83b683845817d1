// Golden files: the reviewed expected result an oracle compares against. Two kinds, each opening
// with a version line so a file is never misread by a tare that does not understand it:
//
//   tare-oracle-golden v1        (tare oracle check) the voted result, in the report syntax of
//   ## ...notes...               trial_output.h: header lines (#) in trial order, then the items
//   # header line                voted present, one per line, sorted bytewise. Notes (##) are
//   item                         ignored on reading.
//
//   tare-oracle-counters v1      (tare oracle counters) the command's report verbatim, byte for byte,
//   <report bytes>               after the version line.
//
// Writing goes through WriteFileAtomic, so a reader never sees half a golden.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace tare::oracle {

inline constexpr std::string_view kGoldenVersionLine = "tare-oracle-golden v1";
inline constexpr std::string_view kCountersVersionLine = "tare-oracle-counters v1";

struct Golden {
  std::vector<std::string> header;
  std::set<std::string> items;
};

// `path` only names the file in messages.
StatusOr<Golden> ParseGolden(std::string_view text, const std::string& path);
std::string FormatGolden(const Golden& golden);
StatusOr<Golden> ReadGolden(const std::string& path);
Status WriteGolden(const std::string& path, const Golden& golden);

// The report bytes stored in a counters golden.
StatusOr<std::string> ParseCountersGolden(std::string_view text, const std::string& path);
std::string FormatCountersGolden(std::string_view report);
StatusOr<std::string> ReadCountersGolden(const std::string& path);
Status WriteCountersGolden(const std::string& path, std::string_view report);

}  // namespace tare::oracle
