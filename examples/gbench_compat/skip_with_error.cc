// Exiting with an error
//
// Google Benchmark example code, copied verbatim from the documentation that Debian's
// libbenchmark-dev 1.7.1 ships (Apache-2.0, Copyright 2015-2017 Google Inc. and contributors;
// see LICENSE and README.md in this directory):
//   /usr/share/doc/libbenchmark-dev/benchmark/user_guide.md.gz, "Exiting with an Error" (lines 1148-1178)
// Changes: the include line (was #include <benchmark/benchmark.h>), the resource the
// guide calls without defining, registrations (the guide shows none) and BENCHMARK_MAIN, each
// marked below.
#include <tare/gbench_compat.hpp>

// ---- added for tare (not in the guide): the resource the snippet assumes ----
// A resource that reads fine three times, then goes bad: the guide's error paths get exercised.
struct Resource {
  int reads = 0;
  bool good() const { return reads <= 3; }
  int read_data() { return ++reads; }
};
static Resource GetResource() { return Resource(); }
static void do_stuff(int data) { benchmark::DoNotOptimize(data); }
// ---- end of addition ----

static void BM_test(benchmark::State& state) {
  auto resource = GetResource();
  if (!resource.good()) {
    state.SkipWithError("Resource is not good!");
    // KeepRunning() loop will not be entered.
  }
  while (state.KeepRunning()) {
    auto data = resource.read_data();
    if (!resource.good()) {
      state.SkipWithError("Failed to read data!");
      break; // Needed to skip the rest of the iteration.
    }
    do_stuff(data);
  }
}

static void BM_test_ranged_fo(benchmark::State & state) {
  auto resource = GetResource();
  if (!resource.good()) {
    state.SkipWithError("Resource is not good!");
    return; // Early return is allowed when SkipWithError() has been used.
  }
  for (auto _ : state) {
    auto data = resource.read_data();
    if (!resource.good()) {
      state.SkipWithError("Failed to read data!");
      break; // REQUIRED to prevent all further iterations.
    }
    do_stuff(data);
  }
}

// ---- added for tare (not in the guide): registrations and main ----
BENCHMARK(BM_test);
BENCHMARK(BM_test_ranged_fo);
BENCHMARK_MAIN();
// ---- end of addition ----
