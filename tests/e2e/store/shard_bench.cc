// A Google Benchmark binary with nine small benchmarks, for `--shard K/N` end to end
// (shard_e2e.sh): enough cells to split four ways, each cheap enough under valgrind (sim).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <numeric>
#include <vector>

static void BM_Sum(benchmark::State& state) {
  std::vector<uint32_t> v(static_cast<size_t>(state.range(0)) * 16);
  std::iota(v.begin(), v.end(), 1u);
  for (auto _ : state) {
    uint64_t sum = std::accumulate(v.begin(), v.end(), uint64_t{0});
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_Sum)->DenseRange(1, 6);

static void BM_Fill(benchmark::State& state) {
  std::vector<uint8_t> v(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    std::fill(v.begin(), v.end(), uint8_t{7});
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_Fill)->Arg(64)->Arg(256)->Arg(1024);

BENCHMARK_MAIN();
