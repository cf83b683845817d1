// Google Benchmark source compatibility. Replace
//     #include <benchmark/benchmark.h>
// with
//     #include <tare/gbench_compat.hpp>
// link tare_bench instead of benchmark::benchmark, and the file builds unchanged into a tare
// benchmark binary: the runner fixes the iteration count, the loop is the measurement window (so
// `tare run --instrument sim` counts exactly the loop's instructions and `--instrument mem` its
// allocations), and each sample is a fresh process. Benchmark names are Google Benchmark's
// (`BM_memcpy/8`, `BM_x/real_time`, `Fixture/Method`), so results line up with the original.
// Proven on the user-guide examples in examples/gbench_compat/ (built against both libraries).
//
// Supported: BENCHMARK, BENCHMARK_CAPTURE, BENCHMARK_TEMPLATE{,1,2}, BENCHMARK_F /
// BENCHMARK_DEFINE_F / BENCHMARK_REGISTER_F / BENCHMARK_TEMPLATE_F / BENCHMARK_TEMPLATE_DEFINE_F
// with benchmark::Fixture, RegisterBenchmark, BENCHMARK_MAIN / Initialize / RunSpecifiedBenchmarks;
// ->Arg Args ArgPair Range RangeMultiplier DenseRange Ranges RangePair ArgsProduct ArgName
// ArgNames Name Apply Setup Teardown Unit; `for (auto _ : state)`, KeepRunning, range(i),
// iterations(), max_iterations, PauseTiming/ResumeTiming, SkipWithError, error_occurred,
// SetItemsProcessed/SetBytesProcessed, counters (flags map to tare semantics, below),
// DoNotOptimize, ClobberMemory.
//
// Accepted and ignored (tare decides these; the name still gets Google Benchmark's suffix so
// names match): MinTime, MinWarmUpTime, Iterations, Repetitions, ReportAggregatesOnly,
// DisplayAggregatesOnly, UseRealTime, MeasureProcessCPUTime (tare reports wall and process CPU
// time always), Complexity, SetComplexityN, ComputeStatistics, SetLabel, AddCustomContext.
//
// Not supported (a compile error, by design, rather than a silently different measurement):
// Threads/ThreadRange/ThreadPerCpu/DenseThreadRange (multithreaded runs), UseManualTime /
// SetIterationTime, KeepRunningBatch, RegisterMemoryManager, custom reporters, --benchmark_* flags
// other than --benchmark_filter and --benchmark_list_tests.
//
// Counters: tare reports counters as per-iteration amounts (totals divided by iterations) and
// gauges as they are. kDefaults and kAvgThreads counters become gauges; kIsRate and kAvgIterations
// become totals (tare reports per iteration, not per second); kIsIterationInvariant values are
// multiplied by the iteration count into totals; kInvert is ignored. SetItemsProcessed and
// SetBytesProcessed set tare's items_processed / bytes_processed totals.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <iosfwd>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tare/tare.hpp"

#define BENCHMARK_HAS_CXX11

namespace benchmark {

using IterationCount = int64_t;
enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };
enum BigO { oNone, o1, oN, oNSquared, oNCubed, oLogN, oNLogN, oAuto, oLambda };
typedef double(BigOFunc)(IterationCount);
enum StatisticUnit { kTime, kPercentage };
typedef double(StatisticsFunc)(const std::vector<double>&);

class Counter {
 public:
  enum Flags {
    kDefaults = 0,
    kIsRate = 1 << 0,
    kAvgThreads = 1 << 1,
    kAvgThreadsRate = kIsRate | kAvgThreads,
    kIsIterationInvariant = 1 << 2,
    kIsIterationInvariantRate = kIsRate | kIsIterationInvariant,
    kAvgIterations = 1 << 3,
    kAvgIterationsRate = kIsRate | kAvgIterations,
    kInvert = 1 << 31
  };
  enum OneK { kIs1000 = 1000, kIs1024 = 1024 };
  double value;
  Flags flags;
  OneK oneK;
  Counter(double v = 0., Flags f = kDefaults, OneK k = kIs1000) : value(v), flags(f), oneK(k) {}
  operator double const&() const { return value; }
  operator double&() { return value; }
};
inline Counter::Flags operator|(const Counter::Flags& a, const Counter::Flags& b) {
  return static_cast<Counter::Flags>(static_cast<int>(a) | static_cast<int>(b));
}
typedef std::map<std::string, Counter> UserCounters;

template <class Tp>
inline __attribute__((always_inline)) void DoNotOptimize(Tp const& value) {
  tare::do_not_optimize(value);
}
template <class Tp>
inline __attribute__((always_inline)) void DoNotOptimize(Tp& value) {
  tare::do_not_optimize(value);
}
inline __attribute__((always_inline)) void ClobberMemory() { tare::clobber_memory(); }

class State : public tare::State {
 public:
  explicit State(tare::internal::RunContext* context)
      : tare::State(context), max_iterations(IterationCount(tare::State::iterations())) {}

  bool KeepRunning() { return keep_running(); }
  void PauseTiming() { pause_timing(); }
  void ResumeTiming() { resume_timing(); }
  void SkipWithError(const char* msg) { skip_with_error(msg ? msg : ""); }
  void SetBytesProcessed(int64_t bytes) {
    set_bytes_processed(double(bytes));
    bytes_ = bytes;
  }
  int64_t bytes_processed() const { return bytes_; }
  void SetItemsProcessed(int64_t items) {
    set_items_processed(double(items));
    items_ = items;
  }
  int64_t items_processed() const { return items_; }
  void SetComplexityN(int64_t n) { complexity_n_ = n; }
  int64_t complexity_length_n() const { return complexity_n_; }
  void SetLabel(const char*) {}
  void SetLabel(const std::string&) {}
  int64_t range(std::size_t pos = 0) const { return arg(pos); }
  int64_t range_x() const { return arg(0); }
  int64_t range_y() const { return arg(1); }
  int threads() const { return 1; }
  int thread_index() const { return 0; }
  IterationCount iterations() const { return IterationCount(tare::State::iterations()); }

  const IterationCount max_iterations;
  UserCounters counters;

  // Hands `counters` to tare after the benchmark function returns (see the header comment).
  void FlushCounters() {
    for (const auto& [name, c] : counters) {
      const int f = static_cast<int>(c.flags) & ~static_cast<int>(Counter::kInvert);
      if (f & Counter::kIsIterationInvariant) {
        add_counter(name, c.value * double(iterations()));
      } else if (f & (Counter::kIsRate | Counter::kAvgIterations)) {
        add_counter(name, c.value);
      } else {
        set_gauge(name, c.value);
      }
    }
  }

 private:
  int64_t bytes_ = 0, items_ = 0, complexity_n_ = 0;
};

namespace internal {

typedef void(Function)(State&);

// A registered benchmark (Google Benchmark's builder), backed by a tare::Family.
class Benchmark {
 public:
  explicit Benchmark(const char* name, const void* identity = nullptr)
      : family_(new tare::Family(name, identity, [this](tare::internal::RunContext& context) {
          State state(&context);
          Run(state);
          state.FlushCounters();
        })) {}
  virtual ~Benchmark() = default;
  virtual void Run(State& state) = 0;

  Benchmark* Name(const std::string& name) {
    family_->name(name);
    return this;
  }
  Benchmark* Arg(int64_t x) {
    family_->arg(x);
    return this;
  }
  Benchmark* Unit(TimeUnit unit) {
    family_->unit(static_cast<tare::TimeUnit>(unit));
    return this;
  }
  Benchmark* Range(int64_t start, int64_t limit) {
    family_->range(start, limit);
    return this;
  }
  Benchmark* DenseRange(int64_t start, int64_t limit, int step = 1) {
    family_->dense_range(start, limit, step);
    return this;
  }
  Benchmark* Args(const std::vector<int64_t>& args) {
    family_->args(args);
    return this;
  }
  Benchmark* ArgPair(int64_t x, int64_t y) { return Args({x, y}); }
  Benchmark* Ranges(const std::vector<std::pair<int64_t, int64_t>>& ranges) {
    family_->ranges(ranges);
    return this;
  }
  Benchmark* ArgsProduct(const std::vector<std::vector<int64_t>>& arglists) {
    family_->args_product(arglists);
    return this;
  }
  Benchmark* ArgName(const std::string& name) {
    family_->arg_names({name});
    return this;
  }
  Benchmark* ArgNames(const std::vector<std::string>& names) {
    family_->arg_names(names);
    return this;
  }
  Benchmark* RangePair(int64_t lo1, int64_t hi1, int64_t lo2, int64_t hi2) { return Ranges({{lo1, hi1}, {lo2, hi2}}); }
  Benchmark* Setup(void (*setup)(const State&)) {
    family_->setup_hook([setup](tare::internal::RunContext& context) {
      State state(&context);
      setup(state);
    });
    return this;
  }
  Benchmark* Teardown(void (*teardown)(const State&)) {
    family_->teardown_hook([teardown](tare::internal::RunContext& context) {
      State state(&context);
      teardown(state);
    });
    return this;
  }
  Benchmark* Apply(void (*func)(Benchmark* benchmark)) {
    func(this);
    return this;
  }
  Benchmark* RangeMultiplier(int multiplier) {
    family_->range_multiplier(multiplier);
    return this;
  }
  Benchmark* MinTime(double t) {
    min_time_ = t;
    return Rename();
  }
  Benchmark* MinWarmUpTime(double t) {
    min_warmup_time_ = t;
    return Rename();
  }
  Benchmark* Iterations(IterationCount n) {
    iterations_ = n;
    return Rename();
  }
  Benchmark* Repetitions(int n) {
    repetitions_ = n;
    return Rename();
  }
  Benchmark* ReportAggregatesOnly(bool = true) { return this; }
  Benchmark* DisplayAggregatesOnly(bool = true) { return this; }
  Benchmark* MeasureProcessCPUTime() {
    process_time_ = true;
    return Rename();
  }
  Benchmark* UseRealTime() {
    real_time_ = true;
    return Rename();
  }
  Benchmark* Complexity(BigO = oAuto) { return this; }
  Benchmark* Complexity(BigOFunc*) { return this; }
  Benchmark* ComputeStatistics(const std::string&, StatisticsFunc*, StatisticUnit = kTime) { return this; }

  tare::Family* family() const { return family_; }

 protected:
  void SetName(const char* name) { family_->name(name); }

 private:
  // Google Benchmark's name parts after the arguments, in its order (benchmark_register.cc).
  Benchmark* Rename() {
    std::vector<std::string> parts;
    char buf[64];
    if (min_time_ != 0) {
      std::snprintf(buf, sizeof buf, "min_time:%0.3f", min_time_);
      parts.push_back(buf);
    }
    if (min_warmup_time_ != 0) {
      std::snprintf(buf, sizeof buf, "min_warmup_time:%0.3f", min_warmup_time_);
      parts.push_back(buf);
    }
    if (iterations_ != 0) parts.push_back("iterations:" + std::to_string(iterations_));
    if (repetitions_ != 0) parts.push_back("repeats:" + std::to_string(repetitions_));
    std::string time_type = process_time_ ? "process_time" : "";
    if (real_time_) time_type += time_type.empty() ? "real_time" : "/real_time";
    if (!time_type.empty()) parts.push_back(time_type);
    family_->set_name_suffixes(std::move(parts));
    return this;
  }

  tare::Family* family_;
  double min_time_ = 0, min_warmup_time_ = 0;
  IterationCount iterations_ = 0;
  int repetitions_ = 0;
  bool process_time_ = false, real_time_ = false;
};

inline Benchmark* RegisterBenchmarkInternal(Benchmark* benchmark) {
  tare::register_family(benchmark->family());
  return benchmark;
}

class FunctionBenchmark : public Benchmark {
 public:
  FunctionBenchmark(const char* name, Function* func)
      : Benchmark(name, reinterpret_cast<const void*>(func)), func_(func) {}
  void Run(State& st) override { func_(st); }

 private:
  Function* func_;
};

template <class Lambda>
class LambdaBenchmark : public Benchmark {
 public:
  template <class OLambda>
  LambdaBenchmark(const char* name, OLambda&& lam) : Benchmark(name), lambda_(std::forward<OLambda>(lam)) {}
  void Run(State& st) override { lambda_(st); }

 private:
  Lambda lambda_;
};

}  // namespace internal

class Fixture : public internal::Benchmark {
 public:
  Fixture() : internal::Benchmark("") {}
  void Run(State& st) override {
    this->SetUp(st);
    this->BenchmarkCase(st);
    this->TearDown(st);
  }
  virtual void SetUp(const State&) {}
  virtual void TearDown(const State&) {}
  virtual void SetUp(State& st) { SetUp(const_cast<const State&>(st)); }
  virtual void TearDown(State& st) { TearDown(const_cast<const State&>(st)); }

 protected:
  virtual void BenchmarkCase(State&) = 0;
};

inline internal::Benchmark* RegisterBenchmark(const std::string& name, internal::Function* fn) {
  return internal::RegisterBenchmarkInternal(new internal::FunctionBenchmark(name.c_str(), fn));
}
template <class Lambda>
internal::Benchmark* RegisterBenchmark(const std::string& name, Lambda&& fn) {
  using L = typename std::decay<Lambda>::type;
  return internal::RegisterBenchmarkInternal(new internal::LambdaBenchmark<L>(name.c_str(), std::forward<Lambda>(fn)));
}
template <class Lambda, class... Args>
internal::Benchmark* RegisterBenchmark(const std::string& name, Lambda&& fn, Args&&... args) {
  return RegisterBenchmark(name, [=](State& st) { fn(st, args...); });
}

namespace internal {
// argc/argv kept by Initialize() for RunSpecifiedBenchmarks().
inline int& SavedArgc() {
  static int argc = 0;
  return argc;
}
inline char**& SavedArgv() {
  static char** argv = nullptr;
  return argv;
}
}  // namespace internal

inline void Initialize(int* argc, char** argv) {
  internal::SavedArgc() = *argc;
  internal::SavedArgv() = argv;
}
inline bool ReportUnrecognizedArguments(int, char**) { return false; }
// Runs like TARE_MAIN. A failure (or any child-protocol request) ends the process with tare's exit
// status, since Google Benchmark's signature has no way to return one.
inline size_t RunSpecifiedBenchmarks() {
  static char name[] = "benchmark";
  static char* fallback[] = {name, nullptr};
  char** argv = internal::SavedArgv() ? internal::SavedArgv() : fallback;
  int argc = internal::SavedArgv() ? internal::SavedArgc() : 1;
  int status = tare::run_main(argc, argv);
  if (status != 0) std::exit(status);
  return 0;
}
inline void Shutdown() {}
inline void AddCustomContext(const std::string&, const std::string&) {}

}  // namespace benchmark

#define BENCHMARK_PRIVATE_CONCAT2(a, b, c) a##b##c
#define BENCHMARK_PRIVATE_CONCAT(a, b, c) BENCHMARK_PRIVATE_CONCAT2(a, b, c)
#define BENCHMARK_PRIVATE_NAME(n) BENCHMARK_PRIVATE_CONCAT(benchmark_uniq_, __COUNTER__, n)
#define BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method) BaseClass##_##Method##_Benchmark
#define BENCHMARK_PRIVATE_DECLARE(n) \
  static ::benchmark::internal::Benchmark* BENCHMARK_PRIVATE_NAME(n) __attribute__((unused))

#define BENCHMARK(...) \
  BENCHMARK_PRIVATE_DECLARE(_benchmark_) = (::benchmark::internal::RegisterBenchmarkInternal( \
      new ::benchmark::internal::FunctionBenchmark(#__VA_ARGS__, __VA_ARGS__)))
#define BENCHMARK_WITH_ARG(n, a) BENCHMARK(n)->Arg((a))
#define BENCHMARK_WITH_ARG2(n, a1, a2) BENCHMARK(n)->Args({(a1), (a2)})
#define BENCHMARK_WITH_UNIT(n, t) BENCHMARK(n)->Unit((t))
#define BENCHMARK_RANGE(n, lo, hi) BENCHMARK(n)->Range((lo), (hi))
#define BENCHMARK_RANGE2(n, l1, h1, l2, h2) BENCHMARK(n)->RangePair((l1), (h1), (l2), (h2))
#define BENCHMARK_CAPTURE(func, test_case_name, ...) \
  BENCHMARK_PRIVATE_DECLARE(func) = \
      (::benchmark::internal::RegisterBenchmarkInternal(new ::benchmark::internal::FunctionBenchmark( \
          #func "/" #test_case_name, [](::benchmark::State& st) { func(st, __VA_ARGS__); })))
#define BENCHMARK_TEMPLATE1(n, a) \
  BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal( \
      new ::benchmark::internal::FunctionBenchmark(#n "<" #a ">", n<a>)))
#define BENCHMARK_TEMPLATE2(n, a, b) \
  BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal( \
      new ::benchmark::internal::FunctionBenchmark(#n "<" #a "," #b ">", n<a, b>)))
#define BENCHMARK_TEMPLATE(n, ...) \
  BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal( \
      new ::benchmark::internal::FunctionBenchmark(#n "<" #__VA_ARGS__ ">", n<__VA_ARGS__>)))

#define BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method) \
  class BaseClass##_##Method##_Benchmark : public BaseClass { \
   public: \
    BaseClass##_##Method##_Benchmark() { this->SetName(#BaseClass "/" #Method); } \
\
   protected: \
    void BenchmarkCase(::benchmark::State&) override; \
  };
#define BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, ...) \
  class BaseClass##_##Method##_Benchmark : public BaseClass<__VA_ARGS__> { \
   public: \
    BaseClass##_##Method##_Benchmark() { this->SetName(#BaseClass "<" #__VA_ARGS__ ">/" #Method); } \
\
   protected: \
    void BenchmarkCase(::benchmark::State&) override; \
  };
#define BENCHMARK_DEFINE_F(BaseClass, Method) \
  BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method) \
  void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_DEFINE_F(BaseClass, Method, ...) \
  BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__) \
  void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_PRIVATE_REGISTER_F(TestName) \
  BENCHMARK_PRIVATE_DECLARE(TestName) = (::benchmark::internal::RegisterBenchmarkInternal(new TestName()))
#define BENCHMARK_REGISTER_F(BaseClass, Method) \
  BENCHMARK_PRIVATE_REGISTER_F(BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method))
#define BENCHMARK_F(BaseClass, Method) \
  BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method) \
  BENCHMARK_REGISTER_F(BaseClass, Method); \
  void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_F(BaseClass, Method, ...) \
  BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__) \
  BENCHMARK_REGISTER_F(BaseClass, Method); \
  void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase

#define BENCHMARK_MAIN() \
  int main(int argc, char** argv) { return ::tare::run_main(argc, argv); } \
  int main(int, char**)
