#include "lib/run_context.h"

#include <time.h>
#include <valgrind/callgrind.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

namespace tare::internal {
namespace {

inline uint64_t NowNs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}
// Wall time is monotonic; CPU time is the whole process's (every thread the benchmark starts).
inline uint64_t WallNs() { return NowNs(CLOCK_MONOTONIC); }
inline uint64_t CpuNs() { return NowNs(CLOCK_PROCESS_CPUTIME_ID); }

void Subtract(tare_alloc_stats* a, const tare_alloc_stats& b) {
  a->allocs -= std::min(a->allocs, b.allocs);
  a->frees -= std::min(a->frees, b.frees);
  a->bytes_allocated -= std::min(a->bytes_allocated, b.bytes_allocated);
}

std::string Quoted(const Instance& instance) { return "benchmark '" + instance.name + "'"; }

}  // namespace

RunContext::RunContext(const Instance& instance, uint64_t iters, Instrument instrument, const AllocShim* shim)
    : instance_(instance),
      iters_(iters),
      instrument_(instrument),
      shim_(shim),
      // Under callgrind the clocks read simulated time and the per-iteration clock reads would be
      // counted as the benchmark's instructions: no latency there.
      record_latency_(instance.family->records_latency() && instrument != Instrument::kSim) {
  if (record_latency_) {
    if (iters > kMaxLatencyIterations) {
      SetError(Quoted(instance) + " records per-iteration latency, which holds at most " +
               std::to_string(kMaxLatencyIterations) + " iterations; " + std::to_string(iters) +
               " were asked for (lower TARE_ITERS)");
    } else {
      latency_ns_.assign(iters, 0);  // sized and touched before the window opens
    }
  }
}

void RunContext::SetError(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

uint64_t RunContext::OpenWindow() {
  if (!error_.empty()) return 0;
  if (window_ != WindowState::kNotOpened) {
    SetError(Quoted(instance_) + " entered its measurement loop twice in one sample; a sample has exactly one loop");
    return 0;
  }
  window_ = WindowState::kOpen;
  if (instrument_ == Instrument::kMem) shim_->window_begin();
  cpu_start_ns_ = CpuNs();
  wall_start_ns_ = WallNs();
  last_mark_ns_ = wall_start_ns_;
  if (instrument_ == Instrument::kSim) {
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
  }
  return iters_;
}

void RunContext::CloseInstruments() {
  if (instrument_ == Instrument::kSim) {
    if (paused_) CALLGRIND_TOGGLE_COLLECT;  // leave collection on for the next window
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT(instance_.name.c_str());
  }
  const uint64_t wall_end = WallNs();
  const uint64_t cpu_end = CpuNs();
  if (instrument_ == Instrument::kMem) shim_->window_end(&alloc_);
  window_ = WindowState::kClosed;
  if (paused_) {
    paused_ = false;
    SetError(Quoted(instance_) +
             " ended its measurement loop while timing was paused; call resume_timing() before "
             "the iteration ends");
  }
  wall_ns_ = wall_end - wall_start_ns_ - std::min(paused_wall_ns_, wall_end - wall_start_ns_);
  cpu_ns_ = cpu_end - cpu_start_ns_ - std::min(paused_cpu_ns_, cpu_end - cpu_start_ns_);
  Subtract(&alloc_, paused_alloc_);
}

void RunContext::CloseWindow() {
  if (window_ == WindowState::kOpen) CloseInstruments();
}

void RunContext::MarkIteration() {
  const uint64_t now = WallNs();
  const uint64_t paused_in_iteration = paused_wall_ns_ - paused_at_last_mark_ns_;
  if (latency_count_ < latency_ns_.size()) {
    latency_ns_[latency_count_++] = now - last_mark_ns_ - paused_in_iteration;
  }
  last_mark_ns_ = now;
  paused_at_last_mark_ns_ = paused_wall_ns_;
}

uint64_t RunContext::EnterLoop() {
  const uint64_t n = OpenWindow();
  if (!record_latency_ || n == 0) return n;
  loop_left_ = n - 1;
  return 1;
}

uint64_t RunContext::NextChunk() {
  if (record_latency_) {
    MarkIteration();
    if (loop_left_ > 0) {
      --loop_left_;
      return 1;
    }
  }
  CloseWindow();
  return 0;
}

bool RunContext::KeepRunning() {
  switch (window_) {
    case WindowState::kNotOpened:
      keep_running_left_ = OpenWindow();
      if (window_ != WindowState::kOpen) return false;
      break;
    case WindowState::kOpen:
      if (record_latency_) MarkIteration();
      if (!error_.empty()) {
        CloseWindow();
        return false;
      }
      break;
    case WindowState::kClosed:
      return false;
  }
  if (keep_running_left_ == 0) {
    CloseWindow();
    return false;
  }
  --keep_running_left_;
  return true;
}

void RunContext::Pause() {
  if (window_ != WindowState::kOpen) {
    SetError(Quoted(instance_) + " called pause_timing() outside its measurement loop");
    return;
  }
  if (paused_) {
    SetError(Quoted(instance_) + " called pause_timing() twice without resume_timing()");
    return;
  }
  paused_ = true;
  if (instrument_ == Instrument::kSim) CALLGRIND_TOGGLE_COLLECT;
  pause_wall_start_ns_ = WallNs();
  pause_cpu_start_ns_ = CpuNs();
  if (instrument_ == Instrument::kMem) shim_->totals(&pause_alloc_start_);
}

void RunContext::Resume() {
  if (!paused_) {
    SetError(Quoted(instance_) + " called resume_timing() without pause_timing()");
    return;
  }
  if (instrument_ == Instrument::kMem) {
    tare_alloc_stats now;
    shim_->totals(&now);
    paused_alloc_.allocs += now.allocs - pause_alloc_start_.allocs;
    paused_alloc_.frees += now.frees - pause_alloc_start_.frees;
    paused_alloc_.bytes_allocated += now.bytes_allocated - pause_alloc_start_.bytes_allocated;
  }
  paused_cpu_ns_ += CpuNs() - pause_cpu_start_ns_;
  paused_wall_ns_ += WallNs() - pause_wall_start_ns_;
  paused_ = false;
  if (instrument_ == Instrument::kSim) CALLGRIND_TOGGLE_COLLECT;
}

void RunContext::SetCounter(std::string_view name, double total) { counters_[std::string(name)] = total; }

void RunContext::AddCounter(std::string_view name, double total) { counters_[std::string(name)] += total; }

void RunContext::SetGauge(std::string_view name, double value) { gauges_[std::string(name)] = value; }

void RunContext::SkipWithError(std::string_view message) {
  std::string line(message);
  std::replace(line.begin(), line.end(), '\n', ' ');
  SetError(line.empty() ? Quoted(instance_) + " skipped with an empty error message" : line);
}

void RunContext::Abort(const std::string& message) {
  if (window_ == WindowState::kOpen) CloseInstruments();
  SetError(message);
}

SampleReadings RunContext::Finish() {
  if (window_ == WindowState::kOpen) {
    CloseInstruments();
    SetError(Quoted(instance_) +
             " left its measurement loop early (break or return inside the loop) without "
             "skip_with_error(); the window must run exactly the iterations asked for");
  }
  if (window_ == WindowState::kNotOpened) {
    SetError(Quoted(instance_) +
             " never entered its measurement loop (`for (auto _ : state)` or "
             "`while (state.keep_running())`)");
  }
  for (const auto& [name, value] : counters_) {
    if (!std::isfinite(value)) SetError("counter '" + name + "' is not a finite number");
    if (gauges_.count(name)) {
      SetError("'" + name + "' is both a counter and a gauge; give them different names");
    }
  }
  for (const auto& [name, value] : gauges_) {
    if (!std::isfinite(value)) SetError("gauge '" + name + "' is not a finite number");
  }
  SampleReadings r;
  r.iters = iters_;
  if (!error_.empty()) {
    r.error = error_;
    return r;
  }
  r.wall_ns = wall_ns_;
  r.cpu_ns = cpu_ns_;
  r.counters = counters_;
  r.gauges = gauges_;
  if (record_latency_ && latency_count_ > 0) {
    std::vector<uint64_t> sorted(latency_ns_.begin(), latency_ns_.begin() + latency_count_);
    std::sort(sorted.begin(), sorted.end());
    r.latency =
        LatencyFigures{NearestRank(sorted, 0.50), NearestRank(sorted, 0.95), NearestRank(sorted, 0.99), sorted.back()};
  }
  if (instrument_ == Instrument::kMem) r.alloc = alloc_;
  return r;
}

uint64_t NearestRank(const std::vector<uint64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double n = double(sorted.size());
  size_t rank = size_t(std::ceil(q * n - 1e-9));
  rank = std::clamp<size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

namespace {

std::string Describe(const std::exception_ptr& ep) {
  try {
    std::rethrow_exception(ep);
  } catch (const std::exception& e) {
    return std::string("an exception: ") + e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace

SampleReadings RunSample(const Instance& instance, uint64_t iters, Instrument instrument, const AllocShim* shim) {
  RunContext context(instance, iters, instrument, shim);
  const Family& family = *instance.family;
  try {
    if (family.setup_fn()) family.setup_fn()(context);
  } catch (...) {
    context.Abort("setup of " + Quoted(instance) + " threw " + Describe(std::current_exception()));
    return context.Finish();
  }
  if (!context.error_occurred()) {
    try {
      family.body()(context);
    } catch (...) {
      context.Abort(Quoted(instance) + " threw " + Describe(std::current_exception()));
    }
  }
  try {
    if (family.teardown_fn()) family.teardown_fn()(context);
  } catch (...) {
    context.Abort("teardown of " + Quoted(instance) + " threw " + Describe(std::current_exception()));
  }
  return context.Finish();
}

}  // namespace tare::internal
