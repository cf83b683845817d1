// The process-wide list of registered benchmark families and their expansion into named
// instances (`family/arg0/arg1`), plus the argument-range rules shared with Google Benchmark.
//
// Ownership: the Registry owns every Family for the life of the process. Not thread-safe:
// families register during static initialisation, and instances are read from main()'s thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tare/family.hpp"

namespace tare::internal {

// One runnable benchmark: a family with one parameter set.
struct Instance {
  std::string name;  // as listed and as the runner addresses it: "sort/1024"
  const Family* family = nullptr;
  std::vector<int64_t> args;
};

class Registry {
 public:
  static Registry& Global();

  void Add(Family* family);  // takes ownership

  // Every instance in registration order. Two registrations that produce the same name from the
  // same function collapse into the first (Google Benchmark sources often list a function twice);
  // the same name from different functions cannot be addressed and is an error: returns false
  // and sets `error`.
  bool Instances(std::vector<Instance>* out, std::string* error) const;

 private:
  std::vector<std::unique_ptr<Family>> families_;
};

// Google Benchmark's Range rule: lo, then every power of `multiplier` strictly inside (lo, hi)
// (negated powers for negative bounds, and 0 when the range spans it), then hi.
std::vector<int64_t> ExpandRange(int64_t lo, int64_t hi, int multiplier);
// lo, lo + step, … up to and including hi when it lands on it.
std::vector<int64_t> ExpandDenseRange(int64_t lo, int64_t hi, int64_t step);
// Every combination, the first list varying fastest.
std::vector<std::vector<int64_t>> CartesianProduct(const std::vector<std::vector<int64_t>>& lists);
// "family/arg0/arg1…", "family/name0:arg0/…" with argument names, then "/suffix…".
std::string InstanceName(const Family& family, const std::vector<int64_t>& args);

}  // namespace tare::internal
