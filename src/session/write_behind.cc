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

WriteBehind::WriteBehind(bool background) : background_(background) {}

WriteBehind::~WriteBehind() {
  {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return !busy_; });
    quit_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

Status WriteBehind::RunHere(const std::function<Status()>& write) {
  if (failed_.ok()) failed_ = RunGuarded(write);
  return failed_;
}

Status WriteBehind::Submit(std::function<Status()> write) {
  if (!background_) return RunHere(write);
  if (!worker_.joinable()) {
    try {
      worker_ = std::thread([this] { Loop(); });
    } catch (const std::system_error&) {  // no thread to be had: write here, as with one CPU
      return RunHere(write);
    }
  }
  {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return !busy_; });
    if (!failed_.ok()) return failed_;
    pending_ = std::move(write);
    busy_ = true;
  }
  changed_.notify_all();
  return Status::Ok();
}

Status WriteBehind::Wait() {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [&] { return !busy_; });
  return failed_;
}

void WriteBehind::Loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    changed_.wait(lock, [&] { return quit_ || (busy_ && pending_); });
    if (quit_) return;
    std::function<Status()> write = std::move(pending_);
    pending_ = nullptr;
    lock.unlock();
    Status s = RunGuarded(write);
    lock.lock();
    if (!s.ok() && failed_.ok()) failed_ = std::move(s);
    busy_ = false;
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
