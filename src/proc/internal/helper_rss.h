// The spawn helper's answer to the ru_maxrss trap under vfork (step 3 of spawn_helper_main.cc's
// comment): a vfork child shares the helper's address space until it execs, and at exec Linux folds
// the old address space's RSS high-water mark into the child's ru_maxrss. So just before it execs,
// the child drops the helper's never-written file pages (they fault back in from the page cache),
// resets the high-water mark and records what is left; a ru_maxrss above that is the target's own.
// Part of the tare-spawn-helper executable only; single-threaded, like the helper. The methods
// marked async-signal-safe are the ones the vfork child calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tare::proc::helper {

// Pages the child may touch between its statm reading and exec's fold (its stack, the exec call).
inline constexpr int64_t kSharedRssSlackKib = 64;

class SharedRss {
 public:
  // Once, at start: which mappings the child may drop — file-backed, not writable, and never
  // written — and /proc/self/clear_refs and /proc/self/statm, opened now. Leaves on() false where
  // it cannot be set up (sanitizers, TARE_SPAWN_FORK=1, /proc not writable): the helper then forks.
  void SetUp();
  bool on() const { return on_; }
  long page_kib() const { return page_kib_; }

  // Resident pages of the helper's address space now (-1 when unknown). Async-signal-safe.
  int64_t ResidentPages() const;
  // In the vfork child: drops the helper's clean file pages when `shed`, resets the high-water
  // mark, and returns the resident pages left, which exec folds into the child's ru_maxrss (-1:
  // unknown). Async-signal-safe; writes nothing of the helper's memory.
  int64_t PagesFoldedAtExec(bool shed) const;

  // Whether the child of `program` should shed the helper's pages (helper_rss.cc says when not).
  bool ShouldShed(const std::string& program) const;
  // After a sample of `program` (argv[0]): its peak, or that it stayed below what exec folded in.
  void RememberPeak(const std::string& program, int64_t peak_kib) { last_peak_kib_[program] = peak_kib; }
  void ForgetPeak(const std::string& program) { last_peak_kib_.erase(program); }

 private:
  bool on_ = false;
  std::vector<std::pair<void*, size_t>> clean_file_maps_;
  int clear_refs_ = -1;
  int statm_ = -1;
  long page_kib_ = 4;
  std::map<std::string, int64_t> last_peak_kib_;  // by argv[0]
};

}  // namespace tare::proc::helper
