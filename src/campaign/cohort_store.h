// CohortStore: the campaign tables of the store (schema version 2, docs/store.md): cohorts with
// their campaign and lock, cells, the verdicts of every look, gates and bounds, and samples set
// aside by a resume. Samples themselves go through store::Store::AppendSample like any run's.
//
// Every write is its own committed transaction, like the store's. Borrowing: the Store must
// outlive this object. Not thread-safe.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "report/ab_report.h"
#include "store/store.h"

namespace tare::campaign {

struct CohortRecord {
  int64_t run_id = 0;
  std::string campaign_sha256;
  std::string campaign_name;
  std::string campaign_source;  // "file:<path>" | "flags"
  std::string campaign_text;    // the file's bytes, or the canonical flags JSON
  std::string spec_json;        // SpecToJson of the resolved campaign
  std::string lock_json;        // tare.lock/1
  std::string lock_sha256;
  int64_t cohort = 0;           // 1, 2, ... within the campaign
  std::string state;            // running | complete | interrupted | stopped
  std::string stop_reason;
  std::string outcome;          // PASS | FAIL | INCONCLUSIVE | ""
  int64_t resumed = 0;
  // From the runs table, when loaded.
  int64_t started_unix_ns = 0;
  int64_t samples = 0;          // samples used (stored minus discarded)
};

struct CellRecord {
  int64_t cell = 0;
  std::string name;
  std::string role;
  int64_t benchmark_id = 0;
  std::vector<std::string> args;
  std::vector<std::string> env;
};

class CohortStore {
 public:
  explicit CohortStore(store::Store& store) : store_(store) {}

  Status AddCohort(const CohortRecord& c);
  Status SetState(int64_t run_id, const std::string& state, const std::string& stop_reason,
                  const std::string& outcome);
  Status MarkResumed(int64_t run_id);
  // The next cohort number for a campaign (1 for a new one).
  StatusOr<int64_t> NextCohort(const std::string& campaign_sha256);
  // Every cohort of a campaign, oldest first.
  StatusOr<std::vector<CohortRecord>> CohortsOf(const std::string& campaign_sha256);

  Status AddCell(int64_t run_id, const CellRecord& cell);
  StatusOr<std::vector<CellRecord>> CellsOf(int64_t run_id);

  Status Discard(int64_t run_id, const std::vector<int64_t>& sample_ids, const std::string& reason);
  StatusOr<std::set<int64_t>> DiscardedOf(int64_t run_id);

  // One look's verdicts for a cell (replacing that look's earlier rows, if any); `final` marks
  // the cell's last look.
  Status SaveVerdicts(int64_t run_id, int64_t cell, int64_t look, bool final,
                      const std::vector<report::AbComparison>& comparisons);
  // Replaces the cohort's checks of that kind ("gate" | "bound").
  Status SaveChecks(int64_t run_id, const std::string& kind, const std::vector<report::AbCheck>& checks);

 private:
  store::Store& store_;
};

}  // namespace tare::campaign
