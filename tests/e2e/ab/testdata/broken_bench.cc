// A Google Benchmark suite with one broken benchmark, as real suites have them (issue 21):
// BM_NeedsData reads broken_bench_data.txt from its working directory and calls
// state.SkipWithError when it is not there. Built with BROKEN_CRASH, BM_Parse says why on stderr
// and aborts: a head that breaks where base runs. The other benchmarks always run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace {

uint64_t Spin(int rounds) {
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < rounds; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

void BM_Sum(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Spin(2000));
}
BENCHMARK(BM_Sum);

void BM_NeedsData(benchmark::State& state) {
  std::ifstream data("broken_bench_data.txt");
  if (!data) {
    state.SkipWithError("cannot open broken_bench_data.txt: run it where that file is");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(Spin(1500));
}
BENCHMARK(BM_NeedsData);

void BM_Parse(benchmark::State& state) {
#ifdef BROKEN_CRASH
  std::fprintf(stderr, "broken_bench: parser state corrupt, aborting\n");
  std::abort();
#endif
  for (auto _ : state) benchmark::DoNotOptimize(Spin(1000));
}
BENCHMARK(BM_Parse);

}  // namespace

BENCHMARK_MAIN();
