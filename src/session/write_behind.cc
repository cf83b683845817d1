#include "session/write_behind.h"

#include <sched.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <system_error>
#include <utility>

namespace tare::session {
namespace {

// A write that throws (an allocation failure, a bug) must not end tare through std::terminate
// from another thread: it is that write's failure.
Status RunGuarded(const std::function<Status()>& write) {
  try {
    return write();
  } catch (const std::exception& e) {
    return Status::Internal(std::string("a store write failed: ") + e.what());
  } catch (...) {
    return Status::Internal("a store write failed with an unknown exception");
  }
}

}  // namespace

WriteBehind::WriteBehind(bool background, Group group, std::chrono::nanoseconds window)
    : background_(background), group_(std::move(group)), window_(window) {}

WriteBehind::~WriteBehind() {
  if (!worker_.joinable()) {
    (void)FlushHere();
    return;
  }
  {
    std::lock_guard lock(mu_);
    quit_ = true;  // the worker writes what is queued, then returns
  }
  changed_.notify_all();
  worker_.join();
}

bool WriteBehind::Due() const {
  return flush_ || quit_ || queue_.size() >= kWriteBatchMax ||
         (!queue_.empty() && std::chrono::steady_clock::now() - oldest_ >= window_);
}

void WriteBehind::WriteBatch(std::vector<Write>& batch) {
  {
    std::lock_guard lock(mu_);
    if (!failed_.ok()) return;  // submitted before an earlier batch failed: not written
  }
  size_t done = 0;
  const Write body = [&]() -> Status {
    for (const Write& w : batch) {
      TARE_RETURN_IF_ERROR(RunGuarded(w));
      ++done;
    }
    return Status::Ok();
  };
  Status s;
  if (group_) {
    s = RunGuarded([&] { return group_(body); });
    done = s.ok() ? batch.size() : 0;  // the group stores all of the batch or none of it
  } else {
    s = body();
  }
  written_.fetch_add(static_cast<int64_t>(done));
  std::lock_guard lock(mu_);
  if (!s.ok() && failed_.ok()) failed_ = std::move(s);
}

Status WriteBehind::FlushHere() {
  std::vector<Write> batch;
  {
    std::lock_guard lock(mu_);
    batch.swap(queue_);
  }
  if (!batch.empty()) WriteBatch(batch);
  std::lock_guard lock(mu_);
  return failed_;
}

Status WriteBehind::Submit(Write write) {
  if (background_ && !worker_.joinable()) {
    try {
      worker_ = std::thread([this] { Loop(); });
    } catch (const std::system_error&) {  // no thread to be had: write here, as with one CPU
      background_ = false;
    }
  }
  bool wake = false;
  {
    std::unique_lock lock(mu_);
    // A full batch waits for the worker to take it: at most one batch queued and one being written.
    if (background_) changed_.wait(lock, [&] { return queue_.size() < kWriteBatchMax || !failed_.ok(); });
    if (!failed_.ok()) return failed_;
    if (queue_.empty()) oldest_ = std::chrono::steady_clock::now();
    queue_.push_back(std::move(write));
    // The worker sleeps until the first write's batch is due; it is woken only for a new batch
    // and a full one (a write per sample would otherwise be a futex call per sample).
    wake = queue_.size() == 1 || queue_.size() >= kWriteBatchMax;
    if (!background_) {
      if (!Due()) return Status::Ok();
      lock.unlock();
      return FlushHere();
    }
  }
  if (wake) changed_.notify_all();
  return Status::Ok();
}

Status WriteBehind::Wait() {
  if (!worker_.joinable()) return FlushHere();
  std::unique_lock lock(mu_);
  flush_ = true;
  changed_.notify_all();
  changed_.wait(lock, [&] { return queue_.empty() && !writing_; });
  flush_ = false;
  return failed_;
}

void WriteBehind::Loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    changed_.wait(lock, [&] { return quit_ || !queue_.empty(); });
    if (queue_.empty()) return;  // quit_, with nothing left to write
    changed_.wait_until(lock, oldest_ + window_, [&] { return Due(); });
    std::vector<Write> batch;
    batch.swap(queue_);
    writing_ = true;
    changed_.notify_all();  // a Submit waiting for room
    lock.unlock();
    WriteBatch(batch);
    batch.clear();  // what the writes hold goes here, not under the lock
    lock.lock();
    writing_ = false;
    changed_.notify_all();
  }
}

bool WriteBehindPaysHere() {
  if (const char* e = std::getenv("TARE_WRITE_BEHIND"); e != nullptr && std::strcmp(e, "0") == 0) return false;
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  return sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) >= 2;
}

}  // namespace tare::session
