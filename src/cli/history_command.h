// `tare history BENCH`: one benchmark's metric over stored runs of one host type, with change
// points and the commits they fall between (docs/compare.md, "History").
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "base/status.h"
#include "compare/history.h"
#include "store/store.h"

namespace tare::cli {

void AddHistoryCommand(CLI::App& app, int* exit_code);

// What `tare history` shows, also for `tare report --history`: `host` is a digest prefix or ""
// (the newest run's host), `metric` "" for the benchmark's own measurement.
struct HistoryRequest {
  std::string benchmark;
  std::string metric;
  std::string branch;
  std::string host;
  int limit = 200;
  int min_segment = 5;
};
StatusOr<compare::History> LoadHistory(store::Store& store, const HistoryRequest& request);

}  // namespace tare::cli
