// src/store/run_copy.h -- copying many whole runs from one store into another (tare merge, tare
// push): transfer.h's runs in batches, a reader thread one batch ahead of the writer. Memory is
// bounded by a batch, not by a run (issue 48, item 7): samples are read a page at a time
// (Store::LoadSamples), and a run bigger than a batch goes over in parts of a batch each, all in one
// transaction of its own (transfer.h's RunPartsWriter). Errors and counts come back as values;
// cli/ says them (cli/run_copy_report.h).
//
//   store::CopyOptions options;
//   options.progress = [](const store::CopyProgress& p) { ... };   // after each batch
//   store::CopyResult r = store::CopyRuns(*in, *out, runs, options);
//   if (!r.status.ok()) ... r.counts were committed before r.failed_run_id failed
//
// Thread-safety: `in` is used by the reader thread only and `out` by the calling thread only,
// for the whole call; neither may be used by anyone else meanwhile. The progress callback runs on
// the calling thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "store/store.h"
#include "store/transfer.h"

namespace tare::store {

// About this many samples per transaction, and per part of a bigger run. A transaction per run
// costs a commit (an fsync on SQLite) and round trips per run; one for everything would hold a whole
// store in memory.
inline constexpr size_t kSamplesPerCopyTransaction = 25000;

struct CopyCounts {
  int64_t added = 0;    // runs written into `out`
  int64_t present = 0;  // runs `out` already held (the same uid): nothing written
};

struct CopyProgress {
  size_t runs_done = 0;  // of `runs`, read and written (or found present)
  size_t runs_total = 0;
  int64_t samples = 0;  // samples of those runs
};

struct CopyOptions {
  // Whole runs smaller than this share a batch (one transaction, at most about twice this many
  // samples in memory); a run of this many or more is read and written in parts of this many.
  size_t batch_samples = kSamplesPerCopyTransaction;
  std::function<void(const CopyProgress&)> progress;  // after each batch and part; may be empty
  // Each run as read (its head, ReadFullRunHead's: the samples are read after), before it is
  // written (on the reader thread): may correct it, or refuse it
  // with an error that fails the copy at that run (tare merge and push recompute the host digest:
  // env::VerifiedHardDigest). May be empty.
  std::function<Status(FullRun&)> admit;
  // Asked after each committed batch (on the calling thread): true stops the copy there, with
  // status Cancelled and the counts committed so far (Ctrl-C in tare merge and push). May be empty.
  std::function<bool()> stop;
};

struct CopyResult {
  CopyCounts counts;             // committed, including up to a failure
  Status status = Status::Ok();  // the failure, with context "copying run ID (uid U) of 'PATH'"
  int64_t failed_run_id = 0;     // the run of `in` that failed (0 when status is ok)
};

// Copies `runs` of `in` (in the order given) into `out`; a run `out` already holds is skipped.
// Runs are written in batches of about options.batch_samples samples, one transaction each; when
// a batch fails it is rolled back and written again one run per transaction, so a failure still
// keeps every run before the failing one, and nothing of it, and names it. A run in parts is one
// transaction too (nothing of it is kept when it fails); Ctrl-C (options.stop) stops after it. On
// PostgreSQL a connection lost while a run in parts is written fails the copy at that run (its
// parts are no longer in memory to write again): the same command again finishes it.
CopyResult CopyRuns(Store& in, Store& out, const std::vector<RunRecord>& runs, const CopyOptions& options);

}  // namespace tare::store
