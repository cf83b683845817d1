// A Google Benchmark suite as a pull request changes it (issue 42): the head build (LIVING_HEAD)
// adds BM_Added and renames BM_OldName to BM_NewName; BM_Keep and BM_Other are in both, unchanged.
// BM_Keep alone reports a user counter, `spins` (the same in every process).
#include <benchmark/benchmark.h>

#include <cstdint>

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

void BM_Keep(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Spin(2000));
  state.counters["spins"] = 2000;
}
BENCHMARK(BM_Keep);

void BM_Other(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Spin(500));
}
BENCHMARK(BM_Other);

#ifdef LIVING_HEAD
void BM_Added(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Spin(4000));
}
BENCHMARK(BM_Added);

void BM_NewName(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Spin(1000));
}
BENCHMARK(BM_NewName);
#else
void BM_OldName(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Spin(1000));
}
BENCHMARK(BM_OldName);
#endif

}  // namespace

BENCHMARK_MAIN();
