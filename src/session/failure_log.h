// Failed samples, told once. A benchmark that fails the same way in every process (a data file it
// cannot find, a crash) would otherwise print its error and the end of its stderr — for Google
// Benchmark its six-line context banner first — with every sample. FailureLog tells the caller
// which failure is the first of its benchmark with that error (to print in full, with StderrTail)
// and counts the repeats, which Repeated() lists for one line each at the end. Every failed sample
// is still stored and counted; only the telling is once. Used by `tare run` (RunObserver) and
// `tare ab` (the cohort). Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tare::session {

class FailureLog {
 public:
  // Counts one failure of `key` (a benchmark, a cell) with `error`; true when it is the first.
  bool First(const std::string& key, const std::string& error);

  struct Repeat {
    std::string key;
    std::string error;
    int64_t times = 0;  // all of them, the told one included
  };
  // The failures that happened more than once, in the order first told.
  std::vector<Repeat> Repeated() const;

 private:
  std::map<std::pair<std::string, std::string>, size_t> index_;  // (key, error) -> seen_
  std::vector<Repeat> seen_;
};

// "; its stderr ends:\n  <last lines>" (at most 5 lines, 600 bytes), or "" when it wrote nothing:
// why a sample failed is usually in what it said, not in its exit status. Raw text: the caller
// escapes it for where it goes.
std::string StderrTail(const std::string& tail);

}  // namespace tare::session
