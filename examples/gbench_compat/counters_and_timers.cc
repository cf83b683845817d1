// Custom counters, controlling timers, asymptotic complexity
//
// Google Benchmark example code, copied verbatim from the documentation that Debian's
// libbenchmark-dev 1.7.1 ships (Apache-2.0, Copyright 2015-2017 Google Inc. and contributors;
// see LICENSE and README.md in this directory):
//   /usr/share/doc/libbenchmark-dev/benchmark/user_guide.md.gz, "Custom Counters",
//   "Controlling Timers", "Calculating Asymptotic Complexity" (lines 645-653, 877-888, 487-496, 503-504, 511-512)
// Changes: the include line (was #include <benchmark/benchmark.h>), the
// helpers the guide calls without defining, a registration for UserCountersExample1 (the guide
// shows none) and BENCHMARK_MAIN, each marked below.
#include <tare/gbench_compat.hpp>

// ---- added for tare (not in the guide): helpers the snippets assume ----
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

static void UserCountersExample1(benchmark::State& state) {
  double numFoos = 0, numBars = 0, numBazs = 0;
  for (auto _ : state) {
    // ... count Foo,Bar,Baz events
  }
  state.counters["Foo"] = numFoos;
  state.counters["Bar"] = numBars;
  state.counters["Baz"] = numBazs;
}
// ---- added for tare (not in the guide): registration ----
BENCHMARK(UserCountersExample1);
// ---- end of addition ----

static void BM_SetInsert_With_Timer_Control(benchmark::State& state) {
  std::set<int> data;
  for (auto _ : state) {
    state.PauseTiming(); // Stop timers. They will not count until they are resumed.
    data = ConstructRandomSet(state.range(0)); // Do something that should not be measured
    state.ResumeTiming(); // And resume timers. They are now counting again.
    // The rest will be measured.
    for (int j = 0; j < state.range(1); ++j)
      data.insert(RandomNumber());
  }
}
BENCHMARK(BM_SetInsert_With_Timer_Control)->Ranges({{1<<10, 8<<10}, {128, 512}});

static void BM_StringCompare(benchmark::State& state) {
  std::string s1(state.range(0), '-');
  std::string s2(state.range(0), '-');
  for (auto _ : state) {
    benchmark::DoNotOptimize(s1.compare(s2));
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_StringCompare)
    ->RangeMultiplier(2)->Range(1<<10, 1<<18)->Complexity(benchmark::oN);

BENCHMARK(BM_StringCompare)
    ->RangeMultiplier(2)->Range(1<<10, 1<<18)->Complexity();

BENCHMARK(BM_StringCompare)->RangeMultiplier(2)
    ->Range(1<<10, 1<<18)->Complexity([](benchmark::IterationCount n)->double{return n; });

// ---- added for tare (not in the guide): main ----
BENCHMARK_MAIN();
// ---- end of addition ----
