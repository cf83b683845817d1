// Many whole runs from one store into another: a reader thread reads the next batch from `in`
// while the calling thread writes the last one into `out` (each store is used by one thread only).
// A bulk copy costs about as much to read as to write (bench/README.md), so on two cores this
// nearly halves it.
#include "store/run_copy.h"

#include <fmt/format.h>

#include <algorithm>
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

// What the reader hands the writer: whole runs, about batch_samples samples in all; or one part of
// a run too big for a batch (its samples come in pages of batch_samples, each a Batch of its own,
// written in one transaction with the others of that run).
struct Batch {
  size_t first = 0;           // index in `runs` of batch.runs[0] (of the run a part belongs to)
  std::vector<FullRun> runs;  // whole runs; a part: one run, its head in part 0, this page's samples
  size_t samples = 0;
  Status read = Status::Ok();  // a read failure (at runs[first + runs.size()], or of this part's run)
  int part = -1;               // -1: whole runs; 0, 1, ...: a part of runs[first]
  bool last_part = false;
};

}  // namespace

CopyResult CopyRuns(Store& in, Store& out, const std::vector<RunRecord>& runs, const CopyOptions& options) {
  CopyResult result;
  CopyCounts& n = result.counts;
  const size_t batch_samples = std::max<size_t>(options.batch_samples, 1);
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
  auto read_all = [&] {
    // Hands `b` to the writer once it took the last one; false when the writer stopped.
    auto hand = [&](Batch b) {
      std::unique_lock lock(mu);
      changed.wait(lock, [&] { return !ready || stop; });
      if (stop) return false;
      ready = std::move(b);
      changed.notify_all();
      return true;
    };
    auto guarded = [&](int64_t run_id, auto&& read) -> Status {
      try {
        return read();
      } catch (const std::exception& e) {  // not to std::terminate from this thread
        return Status::Internal(fmt::format("reading run {}: {}", run_id, e.what()));
      }
    };
    Batch b;
    for (size_t next = 0; next < runs.size(); ++next) {
      const int64_t run_id = runs[next].id;
      FullRun full;
      SampleCursor cursor;
      std::vector<StoredSample> page;
      Status s = guarded(run_id, [&]() -> Status {
        TARE_ASSIGN_OR_RETURN(full, ReadFullRunHead(in, run_id));
        if (options.admit) TARE_RETURN_IF_ERROR(options.admit(full));
        TARE_ASSIGN_OR_RETURN(page, in.LoadSamples(run_id, cursor, batch_samples));
        return Status::Ok();
      });
      if (!s.ok()) {
        b.read = s;
        hand(std::move(b));
        return;  // the writer stops at a failed read
      }
      if (page.size() < batch_samples) {  // the whole run
        b.samples += page.size();
        full.data.samples = std::move(page);
        b.runs.push_back(std::move(full));
        if (b.samples >= batch_samples) {
          if (!hand(std::move(b))) return;
          b = Batch{};
          b.first = next + 1;
        }
        continue;
      }
      // A run bigger than a batch: the batch so far, then the run in parts.
      if (!b.runs.empty() && !hand(std::move(b))) return;
      Batch part;
      part.first = next;
      part.part = 0;
      part.samples = page.size();
      full.data.samples = std::move(page);
      part.runs.push_back(std::move(full));
      for (int k = 1;; ++k) {
        std::vector<StoredSample> more;
        Status r = guarded(run_id, [&]() -> Status {
          TARE_ASSIGN_OR_RETURN(more, in.LoadSamples(run_id, cursor, batch_samples));
          return Status::Ok();
        });
        part.last_part = r.ok() && more.empty();
        if (!hand(std::move(part))) return;
        if (!r.ok()) {
          Batch failure;
          failure.first = next;
          failure.part = k;
          failure.read = r;
          hand(std::move(failure));
          return;
        }
        if (more.empty()) break;
        part = Batch{};
        part.first = next;
        part.part = k;
        part.samples = more.size();
        part.last_part = more.size() < batch_samples;
        part.runs.emplace_back().data.samples = std::move(more);
        if (part.last_part) {
          if (!hand(std::move(part))) return;
          break;
        }
      }
      b = Batch{};
      b.first = next + 1;
    }
    if (!b.runs.empty()) hand(std::move(b));
  };
  std::thread reader([&] {
    read_all();  // returns early after a failed read (the writer stops there) or when told to stop
    std::lock_guard lock(mu);
    reader_done = true;
    changed.notify_all();
  });
  auto take = [&]() -> std::optional<Batch> {
    std::unique_lock lock(mu);
    changed.wait(lock, [&] { return ready.has_value() || reader_done; });
    std::optional<Batch> b = std::exchange(ready, std::nullopt);  // taken: `ready` is empty again
    changed.notify_all();
    return b;
  };
  int64_t samples_copied = 0;
  // A run in parts, from its part 0 on: one transaction, every part taken from the reader inside
  // it. A PostgreSQL connection lost in it would have the body run again, but the parts it wrote
  // are gone from memory: the copy fails there instead (the runs before are kept; the same command
  // again finishes it).
  auto write_parts = [&](Batch& first) -> Status {
    FullRun head = std::move(first.runs.front());
    int attempts = 0;
    bool added = false;
    size_t samples = 0;
    Status s = out.InTransaction([&]() -> Status {
      if (attempts++ > 0) {
        return Status::Unavailable(fmt::format(
            "the connection to '{}' was lost while the run was written in parts; run the same command again",
            out.path()));
      }
      RunPartsWriter w(out, head);
      TARE_ASSIGN_OR_RETURN(WriteResult r, w.Begin());
      added = r.added;
      samples = head.data.samples.size();
      if (added) TARE_RETURN_IF_ERROR(w.AddSamples(std::move(head.data.samples)));
      head.data.samples = {};  // written: held no longer
      for (bool last = first.last_part; !last;) {
        std::optional<Batch> part = take();
        if (!part) return Status::Internal("the reader ended in the middle of a run");
        if (!part->read.ok()) return part->read;
        if (added) TARE_RETURN_IF_ERROR(w.AddSamples(std::move(part->runs.front().data.samples)));
        samples += part->samples;
        last = part->last_part;
        // The run is not done (runs_done stays), its samples are: a long run shows progress.
        if (options.progress)
          options.progress({first.first, runs.size(), samples_copied + static_cast<int64_t>(samples)});
      }
      return added ? w.Finish() : Status::Ok();
    });
    if (!s.ok()) return failed(runs[first.first], s);
    ++(added ? n.added : n.present);
    samples_copied += static_cast<int64_t>(samples);
    return Status::Ok();
  };
  auto write = [&]() -> Status {
    while (std::optional<Batch> b = take()) {
      size_t done = b->first + b->runs.size();
      if (b->part == 0) {
        TARE_RETURN_IF_ERROR(write_parts(*b));
        done = b->first + 1;
      } else if (b->part > 0) {
        return Status::Internal("a part of a run came without its beginning");
      } else {
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
        if (!b->read.ok()) return failed(runs[done], b->read);
      }
      if (options.progress) options.progress({done, runs.size(), samples_copied});
      if (options.stop && options.stop() && done < runs.size()) return Status::Cancelled("interrupted");
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
