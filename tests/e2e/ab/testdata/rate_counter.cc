// A Google Benchmark binary whose one benchmark reports a rate under a name that does not say so
// (Counter::kIsRate): RATE_WORK (a compile definition) sets the work per item, so the "slow" build
// processes half as many items per second. tare ab must judge that rate as higher-is-better.
#include <benchmark/benchmark.h>

#include <cstdint>

static void BM_Items(benchmark::State& state) {
  uint64_t x = 88172645463325252ull;
  int64_t items = 0;
  for (auto _ : state) {
    for (int i = 0; i < 2000 * RATE_WORK; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    benchmark::DoNotOptimize(x);
    ++items;
  }
  state.counters["processed"] = benchmark::Counter(static_cast<double>(items), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Items);

BENCHMARK_MAIN();
