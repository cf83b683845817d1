// Preventing optimization, time unit, real time, custom statistics
//
// Google Benchmark example code, copied verbatim from the documentation that Debian's
// libbenchmark-dev 1.7.1 ships (Apache-2.0, Copyright 2015-2017 Google Inc. and contributors;
// see LICENSE and README.md in this directory):
//   /usr/share/doc/libbenchmark-dev/benchmark/user_guide.md.gz, "Preventing Optimization",
//   "Setting the Time Unit", "Multithreaded Benchmarks", "Custom Statistics" (lines 957-964, 941, 818,
//   996-1004, 1049-1061)
// Changes: the include line (was #include <benchmark/benchmark.h>), a registration for
// BM_vector_push_back (the guide shows none) and BENCHMARK_MAIN, each marked below.
#include <tare/gbench_compat.hpp>

static void BM_test(benchmark::State& state) {
  for (auto _ : state) {
      int x = 0;
      for (int i=0; i < 64; ++i) {
        benchmark::DoNotOptimize(x += i);
      }
  }
}

BENCHMARK(BM_test)->Unit(benchmark::kMillisecond);

BENCHMARK(BM_test)->Range(8, 8<<10)->UseRealTime();

static void BM_vector_push_back(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> v;
    v.reserve(1);
    benchmark::DoNotOptimize(v.data()); // Allow v.data() to be clobbered.
    v.push_back(42);
    benchmark::ClobberMemory(); // Force 42 to be written to memory.
  }
}
// ---- added for tare (not in the guide): registration ----
BENCHMARK(BM_vector_push_back);
// ---- end of addition ----

void BM_spin_empty(benchmark::State& state) {
  for (auto _ : state) {
    for (int x = 0; x < state.range(0); ++x) {
      benchmark::DoNotOptimize(x);
    }
  }
}

BENCHMARK(BM_spin_empty)
  ->ComputeStatistics("max", [](const std::vector<double>& v) -> double {
    return *(std::max_element(std::begin(v), std::end(v)));
  })
  ->Arg(512);

// ---- added for tare (not in the guide): main ----
BENCHMARK_MAIN();
// ---- end of addition ----
