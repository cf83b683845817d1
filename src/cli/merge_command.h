// `tare merge OUT IN...`: whole runs from several stores into one (docs/scale-out.md). Runs are
// identified by their global uid, so merging twice adds nothing; each run keeps its host
// fingerprint, so nothing is pooled across hosts by merging.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::cli {

void AddMergeCommand(CLI::App& app, int* exit_code);

// Copies `runs` of `in` (in the order given) into `out` (store/transfer.h); a run `out` already
// holds is skipped. Runs are written in batches of about kSamplesPerCopyTransaction samples, one
// transaction each; when a batch fails it is rolled back and written again one run per
// transaction, so a failure still keeps every run before the failing one and names it. Says on
// stderr how many were added from `in` (with progress on a terminal), and on a failure which run
// failed and that the ones before it are kept. The environment variable TARE_COPY_BATCH_SAMPLES
// (a positive integer) sets a smaller batch for tests.
inline constexpr size_t kSamplesPerCopyTransaction = 25000;
struct CopyCounts {
  int64_t added = 0;
  int64_t present = 0;
};
StatusOr<CopyCounts> CopyRuns(store::Store& in, store::Store& out, const std::vector<RunRecord>& runs,
                              const std::string& command);

}  // namespace tare::cli
