#include "cli/commands.h"

#include <chrono>
#include <climits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/run_copy_report.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct PushFlags {
  std::string to;
  std::string store_path = DefaultStorePath();
  std::vector<std::string> runs;  // selectors
  std::string since;              // YYYY-MM-DD (UTC)
};

// Nanoseconds since 1970 at the start (00:00 UTC) of YYYY-MM-DD.
StatusOr<int64_t> ParseDay(const std::string& day) {
  int y = 0, m = 0, d = 0;
  char extra = 0;
  if (std::sscanf(day.c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &extra) != 3 || day.size() != 10) {
    return Status::InvalidArgument(fmt::format("--since '{}' is not a date; give YYYY-MM-DD (UTC)", day));
  }
  const std::chrono::year_month_day ymd{std::chrono::year(y), std::chrono::month(m), std::chrono::day(d)};
  if (!ymd.ok()) return Status::InvalidArgument(fmt::format("--since '{}' is not a date of the calendar", day));
  return static_cast<int64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::sys_days(ymd).time_since_epoch()).count());
}

StatusOr<int> Push(const PushFlags& f) {
  if (!f.runs.empty() && !f.since.empty()) {
    return Status::InvalidArgument("--run and --since choose runs in two ways; give one");
  }
  int64_t since_ns = 0;
  if (!f.since.empty()) {
    auto since = ParseDay(f.since);
    if (!since.ok()) return since.status();
    since_ns = *since;
  }
  TARE_RETURN_IF_ERROR(store::CheckStoreLocation(f.to).WithContext("--to"));
  if (f.to == f.store_path) {
    return Status::InvalidArgument(fmt::format("--to '{}' is the local store itself", store::PrintableLocation(f.to)));
  }
  if (Status s = RequireStore(f.store_path); !s.ok()) return s;
  auto local = store::Store::OpenForReading(f.store_path);
  if (!local.ok()) return local.status();
  // The runs to push, oldest first, checked before the shared store is touched.
  std::vector<RunRecord> chosen;
  auto all = (*local)->ListRuns(INT_MAX);
  if (!all.ok()) return all.status();
  std::set<int64_t> wanted;
  for (const auto& selector : f.runs) {
    auto id = (*local)->ResolveRun(selector);
    if (!id.ok()) return id.status();
    wanted.insert(*id);
  }
  for (auto r = all->rbegin(); r != all->rend(); ++r) {
    if (!wanted.empty() && !wanted.count(r->id)) continue;
    if (r->started_unix_ns < since_ns) continue;
    chosen.push_back(*r);
  }
  auto shared = store::Store::Open(f.to);
  if (!shared.ok()) return shared.status();
  auto copied = CopyRunsReported(**local, **shared, chosen, "push");
  if (!copied.ok()) return copied.status();
  if (copied->added > 0) {
    if (Status s = (*shared)->RefreshStatistics(); !s.ok()) return s;
  }
  fmt::print("{} runs pushed to {}, {} were already there\n", copied->added, TerminalText((*shared)->path()),
             copied->present);
  return kExitOk;
}

}  // namespace

void AddPushCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<PushFlags>();
  CLI::App* sub = app.add_subcommand("push", "Copy local runs to a shared store (PostgreSQL), in bulk, idempotently");
  sub->footer(R"(
Copies whole runs (samples, artifacts, campaign verdicts...) from the local store into the store
given by --to, usually a PostgreSQL database that many CI hosts share. Samples go in bulk (COPY).
A run is identified by its global uid, so pushing again adds only runs not there yet. Runs go in
batches (about 25,000 samples per transaction; a bigger run in parts of 25,000 in one transaction of
its own: memory follows a batch, not a run); a push cut off half-way keeps every run committed
before it, nothing of the batch in flight, and finishes when run again. Runs keep their host fingerprint: nothing is pooled across hosts.

Exit status: 0 pushed; 2 bad flags, no local store, the shared store unreachable or refused, or a
run could not be copied (the runs pushed before it are kept); 70 internal.

Examples:
  tare push --to postgresql://ci@db.internal/perf                  every local run
  tare push --to "$TARE_SHARED" --run latest
  tare push --to postgresql:///perf?host=/run/postgresql --since 2026-11-01)");
  sub->add_option("--to", f->to, "The shared store: postgresql://USER@HOST:PORT/DATABASE (or a SQLite file)")
      ->required();
  sub->add_option("--store", f->store_path, "The local store to push from (default: $TARE_STORE, else .tare/tare.db)");
  sub->add_option("--run", f->runs, "Only this run (repeatable): latest, an id, commit:, branch:, tag:, uid:");
  sub->add_option("--since", f->since, "Only runs started on or after this day, YYYY-MM-DD (UTC)");
  sub->callback([f, exit_code]() { *exit_code = Finish(Push(*f)); });
}

}  // namespace tare::cli
