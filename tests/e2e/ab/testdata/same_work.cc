// The same work, a different time: a Google Benchmark binary whose BM_Branchy sums the bytes of a
// 4096-byte array that are >= 128, with a branch. Base sorts the array first, the SHUFFLED build
// shuffles it (a fixed seed): the same bytes at the same addresses, so the loop executes the same
// instructions, data accesses and (simulated) cache misses — valgrind reads the same work — while a
// real branch predictor misses about half the branches of the shuffled one, several times slower.
// BM_Steady is the same in both builds. The setup runs before Google Benchmark's timed loop, outside
// what the sim instrument counts (docs/sim.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

static void BM_Branchy(benchmark::State& state) {
  std::vector<uint8_t> bytes(4096);
  std::mt19937 rng(42);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng() & 0xff);
#ifdef SHUFFLED
  std::shuffle(bytes.begin(), bytes.end(), rng);
#else
  std::sort(bytes.begin(), bytes.end());
#endif
  for (auto _ : state) {
    uint64_t sum = 0;
    for (uint8_t b : bytes) {
      if (b >= 128) {
        sum += b;
        benchmark::DoNotOptimize(sum);  // keeps the branch a branch (no conditional move)
      }
    }
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_Branchy);

static void BM_Steady(benchmark::State& state) {
  uint64_t x = 88172645463325252ull;
  for (auto _ : state) {
    for (int i = 0; i < 2000; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_Steady);

BENCHMARK_MAIN();
