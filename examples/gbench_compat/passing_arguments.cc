// Passing arguments
//
// Google Benchmark example code, copied verbatim from the documentation that Debian's
// libbenchmark-dev 1.7.1 ships (Apache-2.0, Copyright 2015-2017 Google Inc. and contributors;
// see LICENSE and README.md in this directory):
//   /usr/share/doc/libbenchmark-dev/benchmark/user_guide.md.gz, "Passing Arguments" and
//   "Custom Benchmark Name" (lines 309-320, 328, 336, 346-353, 363-381, 390, 439-444, 522)
// Changes: the include line (was #include <benchmark/benchmark.h>), the standard headers the guide leaves
// out, the helpers it calls without defining, and BENCHMARK_MAIN, each marked below.
#include <tare/gbench_compat.hpp>

// ---- added for tare (not in the guide): headers and helpers the snippets assume ----
#include <cstring>
#include <random>

static std::set<int> ConstructRandomSet(int64_t size) {
  static std::mt19937 rng(42);
  std::set<int> s;
  while (int64_t(s.size()) < size) s.insert(int(rng()));
  return s;
}
static int RandomNumber() {
  static std::mt19937 rng(7);
  return int(rng());
}
// ---- end of addition ----

static void BM_memcpy(benchmark::State& state) {
  char* src = new char[state.range(0)];
  char* dst = new char[state.range(0)];
  memset(src, 'x', state.range(0));
  for (auto _ : state)
    memcpy(dst, src, state.range(0));
  state.SetBytesProcessed(int64_t(state.iterations()) *
                          int64_t(state.range(0)));
  delete[] src;
  delete[] dst;
}
BENCHMARK(BM_memcpy)->Arg(8)->Arg(64)->Arg(512)->Arg(4<<10)->Arg(8<<10);

BENCHMARK(BM_memcpy)->Range(8, 8<<10);

BENCHMARK(BM_memcpy)->RangeMultiplier(2)->Range(8, 8<<10);

static void BM_DenseRange(benchmark::State& state) {
  for(auto _ : state) {
    std::vector<int> v(state.range(0), state.range(0));
    benchmark::DoNotOptimize(v.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_DenseRange)->DenseRange(0, 1024, 128);

static void BM_SetInsert(benchmark::State& state) {
  std::set<int> data;
  for (auto _ : state) {
    state.PauseTiming();
    data = ConstructRandomSet(state.range(0));
    state.ResumeTiming();
    for (int j = 0; j < state.range(1); ++j)
      data.insert(RandomNumber());
  }
}
BENCHMARK(BM_SetInsert)
    ->Args({1<<10, 128})
    ->Args({2<<10, 128})
    ->Args({4<<10, 128})
    ->Args({8<<10, 128})
    ->Args({1<<10, 512})
    ->Args({2<<10, 512})
    ->Args({4<<10, 512})
    ->Args({8<<10, 512});

BENCHMARK(BM_SetInsert)->Ranges({{1<<10, 8<<10}, {128, 512}});

static void CustomArguments(benchmark::internal::Benchmark* b) {
  for (int i = 0; i <= 10; ++i)
    for (int j = 32; j <= 1024*1024; j *= 8)
      b->Args({i, j});
}
BENCHMARK(BM_SetInsert)->Apply(CustomArguments);

BENCHMARK(BM_memcpy)->Name("memcpy")->RangeMultiplier(2)->Range(8, 8<<10);

// ---- added for tare (not in the guide): main ----
BENCHMARK_MAIN();
// ---- end of addition ----
