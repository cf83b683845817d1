// One benchmark's history read from a store: `tare history` and `tare report --history`.
#pragma once

#include <string>

#include "base/status.h"
#include "compare/history.h"
#include "store/store.h"

namespace tare::compare {

// What to show: `host` is a digest prefix or "" (the newest run's host), `metric` "" for the
// benchmark's own measurement (the first of PrimaryMetrics() its newest run has).
struct HistoryRequest {
  std::string benchmark;
  std::string metric;
  std::string branch;
  std::string host;
  int limit = 200;
  int min_segment = 0;  // 0: 5, fewer (down to 3) for a short series
};

// NotFound when no `tare run` measured the benchmark (or none on that host has the metric);
// InvalidArgument when `host` names none or several of the hosts that ran it.
StatusOr<History> LoadHistory(store::Store& store, const HistoryRequest& request);

}  // namespace tare::compare
