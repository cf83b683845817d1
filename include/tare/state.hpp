// tare::State — what a benchmark function sees during one sample.
//
// A benchmark function runs once per sample. Code before the `for (auto _ : state)` loop is
// per-sample setup, code after it is teardown; only the loop is the measurement window. The runner
// (or the standalone main) decides how many iterations the loop runs; the function never picks.
//
//   void parse(tare::State& state) {
//     std::string text = make_input(state.arg(0));   // setup: not measured
//     for (auto _ : state) tare::do_not_optimize(parse_json(text));
//     state.set_bytes_processed(state.iterations() * text.size());   // totals over the window
//   }
//
// Counters are totals over the window (the runner divides by iterations); gauges are reported as
// they are. A State is a handle owned by the library; it is valid only during the call it is
// passed to. Not thread-safe: call its methods from the benchmark's own thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tare {
namespace internal {
class RunContext;  // src/lib/run_context.h: the sample's readings and window machinery
}  // namespace internal

class State {
 public:
  explicit State(internal::RunContext* context) : context_(context) {}

  // The range-for loop: `for (auto _ : state) { ... }` runs exactly iterations() times; entering
  // it opens the measurement window, leaving it normally closes the window. Do not `break` out of
  // it except after skip_with_error().
  class Iterator {
   public:
    struct __attribute__((unused)) Value {};
    Value operator*() const { return Value(); }
    Iterator& operator++() {
      --remaining_;
      return *this;
    }
    // Per iteration, a bare countdown (as Google Benchmark's loop): an empty body leaves an empty
    // loop the compiler removes, so "measured no work" reads about zero, far from any real body.
    // At zero, State::NextChunk hands out more (one at a time when per-iteration latency is
    // recorded) or closes the window and returns 0.
    bool operator!=(const Iterator&) {
      if (__builtin_expect(remaining_ != 0, 1)) return true;
      remaining_ = state_->NextChunk();  // by value: the count stays in a register
      return remaining_ != 0;
    }

   private:
    friend class State;
    Iterator() = default;
    Iterator(State* state, uint64_t remaining) : state_(state), remaining_(remaining) {}
    State* state_ = nullptr;
    uint64_t remaining_ = 0;
  };
  Iterator begin() { return Iterator(this, EnterLoop()); }
  Iterator end() { return Iterator(); }

  // The older loop form: `while (state.keep_running()) { ... }`. Same window semantics.
  bool keep_running();

  // Parameters of this benchmark instance, in registration order (`family/arg0/arg1`).
  int64_t arg(std::size_t index) const;
  std::size_t arg_count() const;
  // The instance's full name as listed, e.g. "sort/1024".
  const std::string& name() const;
  // The iteration count of this sample's window (fixed before the function is called).
  uint64_t iterations() const;

  // Exclude part of an iteration from the window (clocks, callgrind collection, allocation
  // counts). Costly (a clock read or a callgrind toggle each): prefer setup before the loop.
  void pause_timing();
  void resume_timing();

  // Totals over the whole window; the runner reports them per iteration.
  void set_items_processed(double total_items);
  void set_bytes_processed(double total_bytes);
  void add_counter(std::string_view name, double total);  // accumulates
  // A value reported as it is (not divided by iterations), e.g. a result size or a ratio.
  void set_gauge(std::string_view name, double value);

  // Marks this sample failed with a one-line message; the loop, if not yet entered, runs zero
  // times. Inside the loop, `break` after calling it.
  void skip_with_error(std::string_view message);
  bool error_occurred() const;

  internal::RunContext* context() const { return context_; }

 private:
  // The range-for loop's two calls: EnterLoop opens the window and returns the first chunk of
  // iterations; NextChunk, called when a chunk is done, returns the next or 0 (window closed).
  uint64_t EnterLoop();
  uint64_t NextChunk();

  internal::RunContext* context_;
};

}  // namespace tare
