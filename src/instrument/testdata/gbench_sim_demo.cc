// An ordinary Google Benchmark file (nothing tare-specific), run under the sim instrument by
// sim_test.cc to show what can be measured exactly in an unmodified Google Benchmark binary.
#include <benchmark/benchmark.h>

#include <numeric>
#include <vector>

// 1000 additions per iteration.
static void BM_sum(benchmark::State& state) {
  std::vector<int> v(1000);
  std::iota(v.begin(), v.end(), 0);
  for (auto _ : state) {
    long s = 0;
    for (int x : v) s += x;
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_sum);

// Expensive untimed preparation (100000 elements) around a cheap timed sum of 100.
static void BM_paused(benchmark::State& state) {
  std::vector<int> v(100000);
  for (auto _ : state) {
    state.PauseTiming();
    std::iota(v.begin(), v.end(), 0);
    state.ResumeTiming();
    long s = 0;
    for (int i = 0; i < 100; ++i) s += v[i];
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_paused);

// The work is optimised away: nothing uses the result.
static void BM_nothing(benchmark::State& state) {
  for (auto _ : state) {
    int x = 0;
    for (int i = 0; i < 100; ++i) x += i;
  }
}
BENCHMARK(BM_nothing);

// Eight dependent LCG steps per iteration, with the iteration count fixed in the source.
static void BM_fixed(benchmark::State& state) {
  unsigned x = 1;
  for (auto _ : state) {
    for (int i = 0; i < 8; ++i) {
      x = x * 1664525u + 1013904223u;
      benchmark::DoNotOptimize(x);
    }
  }
}
BENCHMARK(BM_fixed)->Iterations(1000);

static void BM_threads(benchmark::State& state) {
  unsigned x = 1;
  for (auto _ : state) {
    x = x * 1664525u + 1013904223u;
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_threads)->Threads(2);

static void BM_mintime(benchmark::State& state) {
  unsigned x = 1;
  for (auto _ : state) {
    x = x * 1664525u + 1013904223u;
    benchmark::DoNotOptimize(x);
  }
}
// 0.2 s, not less: a preemption during the first one-iteration trial (a loaded CI host) must not
// reach min_time, or the benchmark reports one iteration and the calibration this tests never happens.
BENCHMARK(BM_mintime)->MinTime(0.2);

BENCHMARK_MAIN();
