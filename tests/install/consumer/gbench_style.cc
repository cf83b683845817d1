// A Google Benchmark source, unchanged but for the include line, built against tare.
#include <tare/gbench_compat.hpp>

#include <string>

static void BM_StringCopy(benchmark::State& state) {
  std::string x(64, 'x');
  for (auto _ : state) {
    std::string copy(x);
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_StringCopy);

BENCHMARK_MAIN();
