#include "cli/run_copy_report.h"

#include <fmt/format.h>

#include <cstdlib>

#include "base/terminal_text.h"
#include "cli/progress.h"
#include "env/fingerprint_json.h"
#include "proc/spawner.h"

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
  // A store from another job is read from outside: each run's host digest is recomputed from its
  // fingerprint's keys (issue 23, item 3), and a run whose stated digest disagrees is refused.
  options.admit = [](store::FullRun& run) -> Status {
    auto digest = env::VerifiedHardDigest(run.data.run.fingerprint_json, run.data.run.fingerprint_digest);
    if (!digest.ok()) return digest.status();
    run.data.run.fingerprint_digest = *digest;
    return Status::Ok();
  };
  options.progress = [&](const store::CopyProgress& p) {
    progress.Update(fmt::format("tare {}: {}/{} runs, {} samples", command, p.runs_done, p.runs_total, p.samples));
  };
  // Ctrl-C stops between batches: what was committed is said, and kept (issue 27, item 19).
  proc::InstallInterruptHandler();
  options.stop = [] { return proc::Interrupted(); };
  const store::CopyResult r = store::CopyRuns(in, out, runs, options);
  progress.Clear();
  if (r.status.code() == StatusCode::kCancelled) {
    fmt::print(stderr,
               "tare {}: interrupted: {}: {} runs added to '{}' and committed ({} already there); the rest "
               "were not copied: run the same command again to finish (it skips what is there)\n",
               command, TerminalText(in.path()), r.counts.added, TerminalText(out.path()), r.counts.present);
    return r.status;
  }
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
