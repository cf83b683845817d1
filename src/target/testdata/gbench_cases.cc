// Google Benchmark binary with awkward cases for tare's adapter tests: a name full of regex
// metacharacters, a benchmark that reports an error, one that crashes, and a user counter.
#include <benchmark/benchmark.h>

#include <csignal>
#include <cstdlib>

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
}
BENCHMARK(BM_Counter);
BENCHMARK(BM_Counter)->Name("BM_Counter.dot");

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

BENCHMARK_MAIN();
