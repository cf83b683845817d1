#include "cli/run_copy_report.h"

#include <fmt/format.h>

#include <cstdlib>

#include "base/terminal_text.h"
#include "cli/progress.h"

namespace tare::cli {

StatusOr<store::CopyCounts> CopyRunsReported(store::Store& in, store::Store& out, const std::vector<RunRecord>& runs,
                                             const std::string& command) {
  Progress progress(false);
  store::CopyOptions options;
  if (const char* v = std::getenv("TARE_COPY_BATCH_SAMPLES"); v != nullptr && *v != '\0') {
    char* end = nullptr;
    const unsigned long long parsed = std::strtoull(v, &end, 10);
    if (*end == '\0' && parsed > 0) options.batch_samples = static_cast<size_t>(parsed);
  }
  options.progress = [&](const store::CopyProgress& p) {
    progress.Update(fmt::format("tare {}: {}/{} runs, {} samples", command, p.runs_done, p.runs_total, p.samples));
  };
  const store::CopyResult r = store::CopyRuns(in, out, runs, options);
  progress.Clear();
  if (!r.status.ok()) {
    fmt::print(stderr,
               "tare {}: {}: {} runs added, {} already in '{}' before run {} failed; nothing of run {} was "
               "written and the runs copied before it are kept: fix the cause and run the same command again "
               "(it skips what is there)\n",
               command, TerminalText(in.path()), r.counts.added, r.counts.present, TerminalText(out.path()),
               r.failed_run_id, r.failed_run_id);
    return r.status;
  }
  fmt::print(stderr, "tare {}: {}: {} runs added, {} already in '{}'\n", command, TerminalText(in.path()),
             r.counts.added, r.counts.present, TerminalText(out.path()));
  return r.counts;
}

}  // namespace tare::cli
