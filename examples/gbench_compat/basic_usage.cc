// Basic usage
//
// Google Benchmark example code, copied verbatim from the documentation that Debian's
// libbenchmark-dev 1.7.1 ships (Apache-2.0, Copyright 2015-2017 Google Inc. and contributors;
// see LICENSE and README.md in this directory):
//   /usr/share/doc/libbenchmark-dev/README.md.gz, "Basic usage" (lines 163-180)
// Changes: the include line (was #include <benchmark/benchmark.h>).

#include <tare/gbench_compat.hpp>

static void BM_StringCreation(benchmark::State& state) {
  for (auto _ : state)
    std::string empty_string;
}
// Register the function as a benchmark
BENCHMARK(BM_StringCreation);

// Define another benchmark
static void BM_StringCopy(benchmark::State& state) {
  std::string x = "hello";
  for (auto _ : state)
    std::string copy(x);
}
BENCHMARK(BM_StringCopy);

BENCHMARK_MAIN();
