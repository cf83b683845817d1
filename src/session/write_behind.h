// WriteBehind: a session's store writes on a thread of their own, one at a time, so that the next
// sample is measured while the last one is committed.
//
// Why: committing a sample (its row, its values, their indexes, the run's summary: ~20 KiB of WAL)
// is most of tare's own ~0.24 ms of user CPU per sample (perf record on /bin/true, the VM of
// bench/README.md), and it sat between one sample's answer and the next request (issue 25).
// Written behind, it runs on another CPU while the next child runs.
//
//   WriteBehind writes(/*background=*/true);
//   TARE_RETURN_IF_ERROR(writes.Submit([&] { return store.AppendSample(...).status(); }));
//   ...                                   // the next sample is measured meanwhile
//   TARE_RETURN_IF_ERROR(writes.Wait());  // before anything reads the store
//
// Depth one: Submit first waits for the write in flight, so at most one sample is unstored at any
// time and writes happen in submission order. A write that fails is sticky: Submit and Wait return
// its status from then on and run nothing more (the run ends; what was stored stays).
// With background = false every write runs in Submit on the caller's thread (one CPU, where the
// write would take it from the child; TARE_WRITE_BEHIND=0).
//
// Thread-safety: one caller thread; the writes themselves run one at a time, never concurrently
// with each other. Whatever a write touches must not be used by the caller until Wait returns.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "base/status.h"

namespace tare::session {

class WriteBehind {
 public:
  explicit WriteBehind(bool background);
  ~WriteBehind();  // waits for the write in flight
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Waits for the write in flight; then runs `write` (in the background, or here). Returns the
  // first failure of any write so far, `write` not run; Ok otherwise (this write's own status comes
  // from the next Submit or Wait when it runs in the background).
  Status Submit(std::function<Status()> write);
  // Waits for the write in flight; the first failure of any write so far, or Ok.
  Status Wait();

  bool background() const { return background_; }

 private:
  void Loop();
  // The write on the caller's thread (no worker): the first failure so far, or this write's status.
  Status RunHere(const std::function<Status()>& write);

  const bool background_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::function<Status()> pending_;  // submitted, not yet finished
  bool busy_ = false;                // pending_ is set or running
  bool quit_ = false;
  Status failed_;                    // the first failure; sticky
  std::thread worker_;               // started by the first background Submit
};

// Whether writing behind pays on this host: tare may use two CPUs or more (with one, the write
// would run on the CPU the child needs and lengthen its sample), unless TARE_WRITE_BEHIND=0.
bool WriteBehindPaysHere();

}  // namespace tare::session
