#include "cli/merge_command.h"

#include <algorithm>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/progress.h"
#include "cli/shards_command.h"
#include "store/store.h"
#include "store/transfer.h"

namespace tare::cli {
namespace {

struct MergeFlags {
  std::string out;
  std::vector<std::string> inputs;
};

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

int Merge(const MergeFlags& f) {
  // Every input is opened (and so checked to be a tare store) before OUT is touched.
  std::vector<std::unique_ptr<store::Store>> inputs;
  for (const auto& in : f.inputs) {
    if (SameFile(in, f.out) || in == f.out) {
      return ReportError(Status::InvalidArgument(fmt::format(
          "'{}' is both OUT and an input; merge into another store", in)));
    }
    if (Status s = RequireStore(in); !s.ok()) {
      return ReportError(Status::NotFound(fmt::format("no store at '{}' to merge; check the path", in)));
    }
    auto store = store::Store::OpenForReading(in);
    if (!store.ok()) {
      return ReportError(Status::InvalidArgument(fmt::format(
          "cannot merge '{}': {}", in, store.status().message())));
    }
    inputs.push_back(std::move(*store));
  }
  auto out = store::Store::Open(f.out);
  if (!out.ok()) return ReportError(out.status());

  CopyCounts total;
  std::vector<std::string> shard_groups;  // of the sharded runs the inputs hold
  for (auto& in : inputs) {
    auto runs = in->ListRuns(INT_MAX);
    if (!runs.ok()) return ReportError(runs.status());
    for (const auto& r : *runs) {
      if (r.shard && std::find(shard_groups.begin(), shard_groups.end(), r.shard->group) == shard_groups.end()) {
        shard_groups.push_back(r.shard->group);
      }
    }
    std::reverse(runs->begin(), runs->end());  // oldest first: OUT numbers them in the order made
    auto copied = CopyRuns(*in, **out, *runs, "merge");
    if (!copied.ok()) return ReportError(copied.status());
    total.added += copied->added;
    total.present += copied->present;
  }
  if (total.added > 0) {
    if (Status s = (*out)->RefreshStatistics(); !s.ok()) return ReportError(s);
  }
  fmt::print("{} runs added to {}, {} were already there\n", total.added, TerminalText((*out)->path()),
             total.present);
  // Sharded runs: whether OUT now holds every shard of the groups the inputs brought.
  auto shards = ShardSummaryLine(**out, shard_groups);
  if (!shards.ok()) return ReportError(shards.status());
  if (!shards->empty()) fmt::print("{}\n", TerminalText(*shards));
  return kExitOk;
}

}  // namespace

StatusOr<CopyCounts> CopyRuns(store::Store& in, store::Store& out, const std::vector<RunRecord>& runs,
                              const std::string& command) {
  CopyCounts n;
  Progress progress(false);
  // TARE_COPY_BATCH_SAMPLES: a smaller batch, for tests that need several batches of small runs.
  size_t batch_samples = kSamplesPerCopyTransaction;
  if (const char* v = std::getenv("TARE_COPY_BATCH_SAMPLES"); v != nullptr && *v != '\0') {
    char* end = nullptr;
    const unsigned long long parsed = std::strtoull(v, &end, 10);
    if (*end == '\0' && parsed > 0) batch_samples = static_cast<size_t>(parsed);
  }
  auto failed = [&](const RunRecord& r, const Status& why) -> Status {
    progress.Clear();
    // Runs already copied are committed whole; this one was rolled back whole.
    fmt::print(stderr,
               "tare {}: {}: {} runs added, {} already in '{}' before run {} failed; nothing of run {} was "
               "written and the runs copied before it are kept: fix the cause and run the same command again "
               "(it skips what is there)\n",
               command, TerminalText(in.path()), n.added, n.present, TerminalText(out.path()), r.id, r.id);
    return why.WithContext(fmt::format("copying run {} (uid {}) of '{}'", r.id, r.uid, in.path()));
  };
  // Reading and writing overlap: a reader thread reads the next batch from `in` while this one
  // writes the last into `out` (each store is used by one thread only). A bulk copy costs about
  // as much to read as to write (bench/README.md), so on two cores this nearly halves it.
  struct Batch {
    size_t first = 0;                  // index in `runs` of batch.runs[0]
    std::vector<store::FullRun> runs;  // whole runs, about kSamplesPerCopyTransaction samples
    size_t samples = 0;
    Status read = Status::Ok();        // a read failure at runs[first + runs.size()]: the last batch
  };
  std::mutex mu;
  std::condition_variable changed;
  std::optional<Batch> ready;  // read, not yet taken (the reader stays one batch ahead)
  bool reader_done = false;
  bool stop = false;  // the writer failed: read no more
  std::thread reader([&] {
    for (size_t next = 0; next < runs.size();) {
      Batch b;
      b.first = next;
      while (next < runs.size() && (b.runs.empty() || b.samples < batch_samples)) {
        StatusOr<store::FullRun> full = Status::Internal("not read");
        try {
          full = store::ReadFullRun(in, runs[next].id);
        } catch (const std::exception& e) {  // not to std::terminate from this thread
          full = Status::Internal(fmt::format("reading run {}: {}", runs[next].id, e.what()));
        }
        if (!full.ok()) {
          b.read = full.status();
          break;
        }
        b.samples += full->data.samples.size();
        b.runs.push_back(std::move(*full));
        ++next;
      }
      const bool last = !b.read.ok();
      std::unique_lock lock(mu);
      changed.wait(lock, [&] { return !ready || stop; });
      if (stop) return;
      ready = std::move(b);
      changed.notify_all();
      if (last) break;
    }
    std::lock_guard lock(mu);
    reader_done = true;
    changed.notify_all();
  });
  auto take = [&]() -> std::optional<Batch> {
    std::unique_lock lock(mu);
    changed.wait(lock, [&] { return ready.has_value() || reader_done; });
    std::optional<Batch> b = std::move(ready);
    ready.reset();
    changed.notify_all();
    return b;
  };
  auto write = [&]() -> Status {
    int64_t samples_copied = 0;
    while (std::optional<Batch> b = take()) {
      if (!b->runs.empty()) {
        auto written = store::WriteFullRuns(out, b->runs);
        if (written.ok()) {
          for (const auto& w : *written) ++(w.added ? n.added : n.present);
        } else {
          // Rolled back whole: again one run per transaction, to keep the runs before the failing one.
          for (size_t i = 0; i < b->runs.size(); ++i) {
            auto one = store::WriteFullRun(out, b->runs[i]);
            if (!one.ok()) return failed(runs[b->first + i], one.status());
            ++(one->added ? n.added : n.present);
          }
        }
      }
      samples_copied += static_cast<int64_t>(b->samples);
      if (!b->read.ok()) return failed(runs[b->first + b->runs.size()], b->read);
      progress.Update(fmt::format("tare {}: {}/{} runs, {} samples", command, b->first + b->runs.size(),
                                  runs.size(), samples_copied));
    }
    return Status::Ok();
  };
  {
    // However write() ends (a failure, or an exception on its way to main's handler), the reader
    // is told to stop and joined first.
    struct StopReader {
      std::function<void()> f;
      ~StopReader() { f(); }
    } stop_reader{[&] {
      {
        std::lock_guard lock(mu);
        stop = true;
        changed.notify_all();
      }
      reader.join();
    }};
    TARE_RETURN_IF_ERROR(write());
  }
  progress.Clear();
  fmt::print(stderr, "tare {}: {}: {} runs added, {} already in '{}'\n", command, TerminalText(in.path()), n.added,
             n.present, TerminalText(out.path()));
  return n;
}

void AddMergeCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<MergeFlags>();
  CLI::App* sub = app.add_subcommand("merge", "Copy every run of several stores into one, without duplicates");
  sub->footer(R"(
Copies whole runs (samples, artifacts, campaign verdicts...) from each IN store into OUT, which is
created when it does not exist. A run is identified by its global uid (`tare runs --json`), so a run
already in OUT is skipped: merging the same stores again adds nothing. Each run keeps its host
fingerprint, provenance and tags; run ids are renumbered in OUT (select runs there by uid:HEX,
commit:, branch: or tag:). Runs are written in batches (about 25,000 samples per transaction). If
a run cannot be copied, OUT keeps every run before it and nothing of it (a batch that fails is
written again run by run to find it); if the merge is killed, OUT keeps the batches committed
before, nothing of the one in flight. Either way, run the same command again to finish.
Input stores of an older schema are migrated in place first (as any tare command does).

Exit status: 0 merged; 2 an input is missing or not a tare store, OUT is unusable (nothing
written), or a run could not be read or written (the runs merged before it are kept); 70 internal.

Examples:
  tare merge all.db shard-1/tare.db shard-2/tare.db shard-3/tare.db
  tare merge .tare/tare.db ~/Downloads/ci-run-4411.db      (CI's runs into your own store))");
  sub->add_option("OUT", f->out, "The store to merge into (created if absent)")->required();
  sub->add_option("IN", f->inputs, "Stores to copy runs from")->required();
  sub->callback([f, exit_code]() { *exit_code = Merge(*f); });
}

}  // namespace tare::cli
