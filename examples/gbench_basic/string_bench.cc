// An ordinary Google Benchmark binary, used by the README's quick start and by tare's tests.
// Nothing in it knows about tare: tare drives it through Google Benchmark's own flags.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

static void BM_StringCopy(benchmark::State& state) {
  std::string src(static_cast<size_t>(state.range(0)), 'x');
  for (auto _ : state) {
    std::string copy(src);
    benchmark::DoNotOptimize(copy);
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_StringCopy)->Arg(64)->Arg(4096);

static void BM_SortVector(benchmark::State& state) {
  std::vector<int> data(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    std::iota(data.rbegin(), data.rend(), 0);
    state.ResumeTiming();
    std::sort(data.begin(), data.end());
    benchmark::ClobberMemory();
  }
  state.counters["elements"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_SortVector)->Arg(1024);

BENCHMARK_MAIN();
