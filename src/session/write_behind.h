// WriteBehind: a session's store writes, gathered into batches of up to kWriteBatchNs of samples
// and committed together — on a thread of their own while the next samples are measured (two CPUs),
// or between samples on the caller's (one CPU).
//
// Why: committing a sample (its row, its values, their indexes, the run's summary: ~20 KiB of WAL)
// was most of tare's own CPU per sample. Written behind one at a time (issue 25) it left the main
// thread, but the writing thread still took ~0.29 ms of CPU per /bin/true sample (perf record, the
// VM of bench/README.md) from the CPU the next child needed: with no writes at all the samples
// were ~10% shorter. Samples measured in the same few milliseconds share pages (the samples table's
// last leaf, the values' and the indexes' last leaves), so one transaction for a batch writes each
// page once: ~63 -> ~22 us of store CPU per sample in isolation (batches of 1 and 25).
//
//   WriteBehind writes(/*background=*/true, [&](const auto& body) { return store.WriteTogether(body); });
//   TARE_RETURN_IF_ERROR(writes.Submit([&] { return store.AppendSample(...).status(); }));
//   ...                                   // the next samples are measured meanwhile
//   TARE_RETURN_IF_ERROR(writes.Wait());  // before anything reads the store
//
// A batch is written when its first write is kWriteBatchNs old, when it holds kWriteBatchMax
// writes, and at every Wait (and the destructor): a crash (kill -9) loses at most the samples of
// the last kWriteBatchNs and those being committed; Ctrl-C loses none. Writes run in submission
// order, one batch at a time. A write that fails is sticky: Submit and Wait return its status from
// then on and run nothing more (the run ends; what was stored stays). With a `group` (a store
// transaction) a batch is stored whole or not at all, so a failed write takes its batch with it;
// without one (PostgreSQL: each write keeps its own transaction and reconnects) the writes before
// it stay stored. written() counts the writes stored.
//
// With background = false every batch is written on the caller's thread, in Submit (when due) or
// Wait (one CPU, where a thread would take the CPU from the child; TARE_WRITE_BEHIND=0).
//
// Thread-safety: one caller thread; the writes themselves run one at a time, never concurrently
// with each other. Whatever a write touches must not be used by the caller until Wait returns.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "base/status.h"

namespace tare::session {

// A batch is written once its first write is this old: what a crash can lose, in time.
inline constexpr int64_t kWriteBatchNs = 50'000'000;
// ...or once it holds this many writes (a fast program's samples: ~30 ms of /bin/true here).
inline constexpr size_t kWriteBatchMax = 16;

class WriteBehind {
 public:
  using Write = std::function<Status()>;
  // Runs a batch's writes (`body`) as one: everything or nothing stored. Empty: each on its own.
  using Group = std::function<Status(const Write& body)>;

  explicit WriteBehind(bool background, Group group = {},
                       std::chrono::nanoseconds window = std::chrono::nanoseconds(kWriteBatchNs));
  ~WriteBehind();  // writes what is queued and waits for it
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Queues `write`; writes the batch here when it is due and no thread writes it. Returns the
  // first failure of any write so far, `write` not queued; Ok otherwise (this write's own status
  // comes from a later Submit or Wait).
  Status Submit(Write write);
  // Writes everything queued and waits for it; the first failure of any write so far, or Ok.
  Status Wait();
  // The writes stored so far (a batch's once it is committed).
  int64_t written() const { return written_.load(); }

 private:
  void Loop();
  // Writes `batch` (on whichever thread calls it); updates written_ and failed_. Without mu_ held.
  void WriteBatch(std::vector<Write>& batch);
  bool Due() const;  // with mu_ held: the queue must be written now
  // On the caller's thread (no worker): writes what is queued; the first failure so far.
  Status FlushHere();

  bool background_;
  const Group group_;
  const std::chrono::nanoseconds window_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<Write> queue_;                      // submitted, not yet being written
  std::chrono::steady_clock::time_point oldest_;  // when queue_'s first write was submitted
  bool writing_ = false;                          // a batch is being written
  bool flush_ = false;                            // Wait asked for everything queued to be written
  bool quit_ = false;
  Status failed_;  // the first failure; sticky
  std::atomic<int64_t> written_{0};
  std::thread worker_;  // started by the first background Submit
};

// Whether writing behind pays on this host: tare may use two CPUs or more (with one, the write
// would run on the CPU the child needs and lengthen its sample), unless TARE_WRITE_BEHIND=0.
bool WriteBehindPaysHere();

}  // namespace tare::session
