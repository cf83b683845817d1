// Google Benchmark binary with awkward cases for tare's adapter tests: a name full of regex
// metacharacters, a benchmark that reports an error, one that crashes, and user counters (rates too).
// With GBENCH_CASES_NEWLINE set it also registers a name holding a newline; with
// GBENCH_CASES_WAIT_MS=N every process first waits N ms without using the CPU (a busy host that
// stretches a process's wall time, or a fixture that waits on I/O).
#include <benchmark/benchmark.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

template <typename T>
static void BM_Template(benchmark::State& state) {
  T x = 1;
  for (auto _ : state) benchmark::DoNotOptimize(x += 1);
}
BENCHMARK_TEMPLATE(BM_Template, int);
BENCHMARK_TEMPLATE(BM_Template, double);

static void BM_Counter(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
  state.counters["widgets"] = 42;
  // Rates: the JSON holds only their per-second values; the console line marks them "/s".
  state.counters["widget_rate"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Counter);
BENCHMARK(BM_Counter)->Name("BM_Counter.dot");
// Brackets and braces: "\\[" is fine for std::regex, "\\]" and "\\}" are not (issue 27, item 12).
BENCHMARK(BM_Counter)->Name("BM_Sym[a]{b}^$");

// A name with a newline prints as two lines of --benchmark_list_tests.
static const bool kNewlineRegistered = std::getenv("GBENCH_CASES_NEWLINE") != nullptr &&
                                       benchmark::RegisterBenchmark("BM_Line\nsecond", BM_Counter) != nullptr;

static const bool kWaited = [] {
  const char* ms = std::getenv("GBENCH_CASES_WAIT_MS");
  if (ms != nullptr) std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
  return true;
}();

static void BM_Errors(benchmark::State& state) {
  state.SkipWithError("the fixture file is missing");
  for (auto _ : state) {
  }
}
BENCHMARK(BM_Errors);

static void BM_Crashes(benchmark::State& state) {
  for (auto _ : state) {
    if (std::getenv("GBENCH_CASES_NO_CRASH") == nullptr) std::raise(SIGSEGV);
  }
}
BENCHMARK(BM_Crashes);

// An empty loop: the compiler removes it and Google Benchmark reads about 1e-6 ns per iteration.
static void BM_Empty(benchmark::State& state) {
  for (auto _ : state) {
  }
}
BENCHMARK(BM_Empty);

BENCHMARK_MAIN();
