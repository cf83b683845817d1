// gbench_knob: an unmodified Google Benchmark binary whose one benchmark does a known amount of
// extra work, for `tare ab` on Google Benchmark suites (bench/gbench_sensitivity.sh) and its tests.
// The same source is compiled into several builds (see CMakeLists.txt); only GBENCH_KNOB_PERMILLE
// differs, and it scales only BM_Knob:
//
//   gbench_knob_base    GBENCH_KNOB_PERMILLE=0    the base build
//   gbench_knob_plus2   GBENCH_KNOB_PERMILLE=20   BM_Knob does 2% more loop iterations
//
// BM_Knob and BM_Steady run the same serial xorshift chain (every iteration depends on the last,
// so time is proportional to the count and the compiler cannot shorten it); BM_Steady never
// changes, so in a base-vs-plus2 campaign it is an A/A cell beside the changed one. BM_Sort sorts
// a fixed pseudo-random vector (memory and branches, also unchanged).
//
// The knob is a data word read at run time, not a compile-time constant, so both builds have the
// same machine code at the same addresses: only one initialized 8-byte value differs. A first
// version folded the constant into BM_Knob's code; the compiler then placed the functions
// differently, std::sort's loop moved from a 64-byte boundary to 16 bytes past one, and the
// untouched BM_Sort ran 1.2% slower in the +2% build (median over 14 campaigns, CPU time; 11 of
// 14 estimates above +0.5%, 4 campaigns FAILed it) — the layout effect `tare ab --layouts` exists
// for, and not what this example is for.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#ifndef GBENCH_KNOB_PERMILLE
#define GBENCH_KNOB_PERMILLE 0
#endif

// volatile: read at run time, so the code does not depend on the value (see above). 1000 + the
// knob, never 0, so that both builds keep it in .data (a zero would move it to .bss and shift
// every later data address).
volatile int64_t g_work_permille = 1000 + GBENCH_KNOB_PERMILLE;

namespace {

constexpr int64_t kIterations = 200000;  // about 0.2-0.3 ms per benchmark iteration here

uint64_t Spin(int64_t iterations, uint64_t seed) {
  uint64_t x = seed | 1;
  for (int64_t i = 0; i < iterations; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

void BM_Knob(benchmark::State& state) {
  const int64_t n = kIterations * g_work_permille / 1000;
  for (auto _ : state) benchmark::DoNotOptimize(Spin(n, static_cast<uint64_t>(state.iterations())));
}
BENCHMARK(BM_Knob);

void BM_Steady(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(Spin(kIterations, static_cast<uint64_t>(state.iterations())));
  }
}
BENCHMARK(BM_Steady);

void BM_Sort(benchmark::State& state) {
  std::vector<uint32_t> input(static_cast<size_t>(state.range(0)));
  uint64_t x = 88172645463325252ull;
  for (auto& v : input) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v = static_cast<uint32_t>(x);
  }
  std::vector<uint32_t> work;
  for (auto _ : state) {
    work = input;
    std::sort(work.begin(), work.end());
    benchmark::DoNotOptimize(work.data());
  }
}
BENCHMARK(BM_Sort)->Arg(1 << 14);

}  // namespace

BENCHMARK_MAIN();
