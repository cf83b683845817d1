// store::CopyRuns as `tare merge` and `tare push` say it: progress on a terminal, then on stderr
// how many runs were added from `in`, or which run failed and that the ones before it are kept.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "store/run_copy.h"
#include "store/store.h"

namespace tare::cli {

// `command` ("merge", "push") starts every line. The environment variable TARE_COPY_BATCH_SAMPLES
// (a positive integer) sets a smaller batch than store::kSamplesPerCopyTransaction, for tests
// that need several batches of small runs.
StatusOr<store::CopyCounts> CopyRunsReported(store::Store& in, store::Store& out, const std::vector<RunRecord>& runs,
                                             const std::string& command);

}  // namespace tare::cli
