// Many whole runs from one store into another: a reader thread reads the next batch from `in`
// while the calling thread writes the last one into `out` (each store is used by one thread only).
// A bulk copy costs about as much to read as to write (bench/README.md), so on two cores this
// nearly halves it.
#include "store/run_copy.h"

#include <fmt/format.h>

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "store/transfer.h"

namespace tare::store {
namespace {

struct Batch {
  size_t first = 0;            // index in `runs` of batch.runs[0]
  std::vector<FullRun> runs;   // whole runs, about batch_samples samples
  size_t samples = 0;
  Status read = Status::Ok();  // a read failure at runs[first + runs.size()]: the last batch
};

}  // namespace

CopyResult CopyRuns(Store& in, Store& out, const std::vector<RunRecord>& runs, const CopyOptions& options) {
  CopyResult result;
  CopyCounts& n = result.counts;
  const size_t batch_samples = options.batch_samples;
  auto failed = [&](const RunRecord& r, const Status& why) -> Status {
    // Runs already copied are committed whole; this one was rolled back whole.
    result.failed_run_id = r.id;
    return why.WithContext(fmt::format("copying run {} (uid {}) of '{}'", r.id, r.uid, in.path()));
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
        StatusOr<FullRun> full = Status::Internal("not read");
        try {
          full = ReadFullRun(in, runs[next].id);
          if (full.ok() && options.admit) {
            if (Status s = options.admit(*full); !s.ok()) full = s;
          }
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
        auto written = WriteFullRuns(out, b->runs);
        if (written.ok()) {
          for (const auto& w : *written) ++(w.added ? n.added : n.present);
        } else {
          // Rolled back whole: again one run per transaction, to keep the runs before the failing one.
          for (size_t i = 0; i < b->runs.size(); ++i) {
            auto one = WriteFullRun(out, b->runs[i]);
            if (!one.ok()) return failed(runs[b->first + i], one.status());
            ++(one->added ? n.added : n.present);
          }
        }
      }
      samples_copied += static_cast<int64_t>(b->samples);
      if (!b->read.ok()) return failed(runs[b->first + b->runs.size()], b->read);
      if (options.progress) options.progress({b->first + b->runs.size(), runs.size(), samples_copied});
      if (options.stop && options.stop() && b->first + b->runs.size() < runs.size()) {
        return Status::Cancelled("interrupted");
      }
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
    result.status = write();
  }
  return result;
}

}  // namespace tare::store
