// A cohort is one run of a `tare ab` campaign (a run of kind "ab"); these records hold what a run
// does not: the campaign and its lock, and the cells. Written and read through store::Store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/kinds.h"

namespace tare {

struct CohortRecord {
  int64_t run_id = 0;
  std::string campaign_sha256;
  std::string campaign_name;
  std::string campaign_source;  // "file:<path>" | "flags"
  std::string campaign_text;    // the file's bytes, or the canonical flags JSON
  std::string spec_json;        // SpecToJson of the resolved campaign
  std::string lock_json;        // tare.lock/1
  std::string lock_sha256;
  int64_t cohort = 0;  // 1, 2, ... within the campaign
  CohortState state = CohortState::kRunning;
  std::string stop_reason;
  std::string outcome;  // PASS | FAIL | INCONCLUSIVE | ""
  int64_t resumed = 0;
  // The notes its ledger printed, in order (schema version 7); nullopt: a cohort stored by an older
  // tare, whose ledger is rebuilt with the notes stored with its run.
  std::optional<std::vector<std::string>> notes;
  // From the runs table, when loaded.
  int64_t started_unix_ns = 0;
  int64_t samples = 0;  // samples used (stored minus discarded)
};

struct CellRecord {
  int64_t cell = 0;
  std::string name;
  CellRole role = CellRole::kTarget;
  int64_t benchmark_id = 0;
  std::vector<std::string> args;
  std::vector<std::string> env;
};

}  // namespace tare
