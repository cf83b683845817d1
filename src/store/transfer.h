// src/store/transfer.h -- moving whole runs between stores (tare merge, tare push, tare import,
// evidence bundles). Owned by the store engineer; consumers include only this header.
//
// A run is identified across stores by RunRecord::uid (schema version 4). ReadFullRun reads every
// table of one run; WriteFullRun writes it into another store, of either backend, through the
// Store interface inside one Store::InTransaction, so a failure half-way leaves the destination as
// it was. StoredLook (one look of one cell) is declared in store.h, next to Store::LooksOf.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include "base/status.h"
#include "model/cohort.h"
#include "model/run.h"
#include "model/verdict.h"
#include "store/store.h"

namespace tare::store {

struct StoredArtifact {
  int64_t benchmark_id = 0;  // an id from FullRun::data.benchmarks
  std::string name;
  std::string content;  // bytes
};

// Everything stored for one run, campaign tables included. Ids inside (run, benchmark, sample)
// are those of the store it was read from; WriteFullRun remaps them.
struct FullRun {
  RunData data;  // data.run.uid identifies the run in every store
  std::vector<StoredArtifact> artifacts;
  std::optional<CohortRecord> cohort;  // set for runs of kind "ab"
  std::vector<CellRecord> cells;
  std::vector<StoredLook> looks;             // every look of every cell, in (cell, look) order
  std::vector<AbCheck> checks;               // gates and bounds (AbCheck::kind)
  std::map<int64_t, std::string> discarded;  // sample id -> reason
};

StatusOr<FullRun> ReadFullRun(Store& src, int64_t run_id);
// ReadFullRun without the samples (data.samples empty): a run of any size is then read a page at a
// time (Store::LoadSamples) and written with RunPartsWriter.
StatusOr<FullRun> ReadFullRunHead(Store& src, int64_t run_id);

struct WriteResult {
  int64_t run_id = 0;  // the run's id in dst (the existing one when it was already there)
  bool added = false;  // false: a run with the same uid was already in dst; nothing written
};
// Writes `run` into `dst` as one transaction-safe unit unless dst already holds a run with the same
// uid (then nothing is written: merging or importing twice adds nothing). Keeps status, times,
// host fingerprint, provenance, tags, samples (with their outcomes and tails), artifacts and the
// campaign tables exactly.
StatusOr<WriteResult> WriteFullRun(Store& dst, const FullRun& run);

// Writes several runs, each exactly as WriteFullRun would, in one transaction: all of them or, on
// any failure, none (the results are in the order of `runs`). For bulk copies (tare merge, tare
// push): a transaction per run costs a commit (an fsync on SQLite) and round trips per run; a
// caller that must say which run failed writes the batch again one run at a time.
StatusOr<std::vector<WriteResult>> WriteFullRuns(Store& dst, const std::vector<FullRun>& runs);

// One run written in parts, for a run too big to hold in memory whole (store/run_copy.h), inside
// the caller's transaction on dst (Store::InTransaction: the parts are all written, or none):
//   RunPartsWriter w(dst, head);            // head: ReadFullRunHead's (its samples, if any, are ignored)
//   TARE_ASSIGN_OR_RETURN(WriteResult r, w.Begin());   // r.added false: dst holds the uid; stop here
//   w.AddSamples(page) ... for each page of the run's samples, in order
//   w.Finish();                             // artifacts, campaign tables, set-aside samples, the end
// WriteFullRun is Begin, AddSamples(every sample), Finish. `head` must outlive the writer.
class RunPartsWriter {
 public:
  RunPartsWriter(Store& dst, const FullRun& head) : dst_(dst), head_(head) {}
  StatusOr<WriteResult> Begin();
  Status AddSamples(std::vector<StoredSample> samples);  // moved in: their benchmark ids are remapped there
  Status Finish();

 private:
  Store& dst_;
  const FullRun& head_;
  int64_t id_ = 0;
  std::map<int64_t, int64_t> bench_ids_;  // source id -> dst id
  std::map<int64_t, int64_t> set_aside_;  // source id -> dst id, of the samples head_.discarded names
};

}  // namespace tare::store
