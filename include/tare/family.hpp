// tare::Family — one registered benchmark function and the parameter sets it runs with.
//
// register_benchmark() (or TARE_BENCHMARK) returns a Family*; its builder methods chain:
//
//   TARE_BENCHMARK(sort_ints)->range(8, 8 << 10);                  // sort_ints/8 … /8192
//   tare::register_benchmark("fill", fill)->args({64, 3})->args({64, 7});     // fill/64/3, fill/64/7
//
// Every parameter set becomes one benchmark instance named `family/arg0/arg1…` (with
// `arg_names`, `family/n:64/k:3`). A family without parameters is one instance named `family`.
// Families are registered during static initialisation and owned by the library for the life of
// the process. Not thread-safe: register before main() or from main()'s thread before running.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "tare/state.hpp"

namespace tare {

enum class TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };

class Family {
 public:
  // Runs one sample: constructs the State type the function expects and calls it.
  using Body = std::function<void(internal::RunContext&)>;
  using Hook = std::function<void(internal::RunContext&)>;

  // `identity` lets two registrations of the same function with the same parameters (common in
  // Google Benchmark sources) collapse into one instance; nullptr = unique.
  Family(std::string name, const void* identity, Body body);

  Family* name(std::string new_name);
  Family* arg(int64_t value);                               // one instance, one parameter
  Family* arg_list(std::initializer_list<int64_t> values);  // one instance per value
  Family* args(std::vector<int64_t> values);                // one instance, several parameters
  // One instance per value: lo, the powers of `multiplier` strictly between, and hi (Google
  // Benchmark's rule: range(8, 8 << 10) = 8, 64, 512, 4096, 8192).
  Family* range(int64_t lo, int64_t hi);
  Family* range(int64_t lo, int64_t hi, int multiplier);
  Family* range_multiplier(int multiplier);                       // default for later range() calls
  Family* dense_range(int64_t lo, int64_t hi, int64_t step = 1);  // lo, lo+step, … <= hi
  // Cartesian products; the first parameter varies fastest (Google Benchmark's order).
  Family* ranges(const std::vector<std::pair<int64_t, int64_t>>& lo_hi_pairs);
  Family* args_product(const std::vector<std::vector<int64_t>>& value_lists);
  Family* arg_names(std::vector<std::string> names);  // "n" -> family/n:64

  // Per-sample hooks run before/after the benchmark function, outside the window.
  Family* setup(std::function<void(const State&)> fn);
  Family* teardown(std::function<void(const State&)> fn);
  // Time every iteration separately so the result carries p50/p95/p99/max (costs one clock read
  // per iteration; not recorded under the sim instrument, where clocks mean nothing).
  Family* record_latency();
  Family* unit(TimeUnit unit);  // display unit of the standalone table

  // For adapters (tare/gbench_compat.hpp); benchmark authors use the methods above.
  Family* setup_hook(Hook hook);
  Family* teardown_hook(Hook hook);
  // Name parts appended after the parameters, e.g. {"min_time:0.500", "real_time"}.
  Family* set_name_suffixes(std::vector<std::string> suffixes);

  const std::string& family_name() const { return name_; }
  const void* identity() const { return identity_; }
  const Body& body() const { return body_; }
  const Hook& setup_fn() const { return setup_; }
  const Hook& teardown_fn() const { return teardown_; }
  const std::vector<std::vector<int64_t>>& arg_sets() const { return arg_sets_; }
  const std::vector<std::string>& names_of_args() const { return arg_names_; }
  const std::vector<std::string>& name_suffixes() const { return name_suffixes_; }
  bool records_latency() const { return record_latency_; }
  TimeUnit time_unit() const { return unit_; }

 private:
  std::string name_;
  const void* identity_;
  Body body_;
  Hook setup_;
  Hook teardown_;
  std::vector<std::vector<int64_t>> arg_sets_;
  std::vector<std::string> arg_names_;
  std::vector<std::string> name_suffixes_;
  int range_multiplier_ = 8;
  bool record_latency_ = false;
  TimeUnit unit_ = TimeUnit::kNanosecond;
};

// Adds a family to the process-wide registry; the registry owns it.
Family* register_family(Family* family);

// Registers `fn` (a function, lambda or other callable taking tare::State&) under `name`.
inline Family* register_benchmark(std::string name, void (*fn)(State&)) {
  return register_family(
      new Family(std::move(name), reinterpret_cast<const void*>(fn), [fn](internal::RunContext& context) {
        State state(&context);
        fn(state);
      }));
}
template <class Fn>
Family* register_benchmark(std::string name, Fn fn) {
  return register_family(
      new Family(std::move(name), nullptr, [fn = std::move(fn)](internal::RunContext& context) mutable {
        State state(&context);
        fn(state);
      }));
}

}  // namespace tare
