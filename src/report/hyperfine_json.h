// hyperfine's --export-json layout, for tools that read it (`tare run --export-json FILE
// --export-json-format hyperfine`): {"results": [{"command", "mean", "stddev", "median", "user",
// "system", "min", "max", "times": [...], "exit_codes": [...]}]}, every time in seconds, as
// hyperfine 1.15 writes it (checked against its output; docs/json.md). tare's own document,
// tare.run/2 (run_report.h), keeps everything; this one keeps what hyperfine has.
#pragma once

#include <nlohmann/json.hpp>

#include "model/run.h"

namespace tare::report {

// One result per benchmark, in the run's order. "command" is the command line as given for a
// command, the benchmark's uri otherwise; the times are the process's wall time (wall_ns) of the
// measured, successful samples (hyperfine stops at a failed run unless told to ignore it, so its
// times are all of successful runs), user and system the means of user_ns and sys_ns; stddev is
// null below two samples, as hyperfine writes it. A benchmark without a successful sample has
// empty times and null figures. Keys in hyperfine's order (ordered_json), so its files and
// these read alike. Names are bytes (BytesToJson: a name that is not UTF-8 becomes
// {"base64": ...}).
nlohmann::ordered_json RunToHyperfineJson(const RunData& data);

}  // namespace tare::report
