// Google Benchmark features beyond the user-guide examples, for gbench_compat_test.cc: fixtures,
// BENCHMARK_CAPTURE, templates, RegisterBenchmark, argument names, name suffixes, Setup/Teardown
// and counter flags. Compiled against tare/gbench_compat.hpp and, with the include line swapped,
// against Google Benchmark itself so the benchmark names can be compared.
#include <tare/gbench_compat.hpp>

#include <string>
#include <vector>

class VectorFixture : public benchmark::Fixture {
 public:
  void SetUp(const ::benchmark::State& state) override { data.assign(size_t(state.range(0)), 1); }
  void TearDown(const ::benchmark::State&) override { data.clear(); }
  std::vector<int> data;
};

BENCHMARK_DEFINE_F(VectorFixture, Sum)(benchmark::State& st) {
  long sum = 0;
  for (auto _ : st) {
    for (int v : data) sum += v;
    benchmark::DoNotOptimize(sum);
  }
  st.counters["size"] = double(data.size());
}
BENCHMARK_REGISTER_F(VectorFixture, Sum)->Arg(16)->Arg(256);

BENCHMARK_F(VectorFixture, Empty)(benchmark::State& st) {
  for (auto _ : st) {
  }
}

template <class T>
static void BM_Fill(benchmark::State& state) {
  std::vector<T> v(size_t(state.range(0)));
  for (auto _ : state) {
    std::fill(v.begin(), v.end(), T(1));
    benchmark::ClobberMemory();
  }
}
BENCHMARK_TEMPLATE(BM_Fill, int)->Arg(64);
BENCHMARK(BM_Fill<double>)->Arg(64);

static void BM_Capture(benchmark::State& state, int multiplier, std::string label) {
  for (auto _ : state) benchmark::DoNotOptimize(multiplier);
  state.counters["multiplier"] = multiplier;
  state.counters["label_length"] = double(label.size());
}
BENCHMARK_CAPTURE(BM_Capture, times_three, 3, std::string("abc"));

// Counter flags: tare turns each into a total (divided by iterations) or a gauge.
static void BM_Counters(benchmark::State& state) {
  for (auto _ : state) {
  }
  state.counters["plain"] = 5;                                                                     // gauge
  state.counters["rate"] = benchmark::Counter(100, benchmark::Counter::kIsRate);                   // total
  state.counters["invariant"] = benchmark::Counter(2, benchmark::Counter::kIsIterationInvariant);  // 2 x iterations
  state.counters["average"] = benchmark::Counter(50, benchmark::Counter::kAvgIterations);          // total
  state.SetItemsProcessed(state.iterations() * 10);
}
BENCHMARK(BM_Counters);

static int setup_calls = 0;
static void DoSetup(const benchmark::State&) { ++setup_calls; }
static void DoTeardown(const benchmark::State&) { --setup_calls; }
static void BM_Hooks(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(setup_calls);
  state.counters["setup_calls_seen"] = setup_calls;
}
BENCHMARK(BM_Hooks)->Setup(DoSetup)->Teardown(DoTeardown);

static void BM_Suffixes(benchmark::State& state) {
  for (auto _ : state) {
  }
}
BENCHMARK(BM_Suffixes)->ArgNames({"n", "k"})->Args({1, 2})->MinTime(0.5)->UseRealTime();
BENCHMARK(BM_Suffixes)->Name("renamed")->Iterations(10)->Repetitions(3)->MeasureProcessCPUTime();
BENCHMARK(BM_Suffixes)->DenseRange(-2, 2, 2)->ArgName("x");
BENCHMARK(BM_Suffixes)->RangePair(1, 8, 10, 20)->Name("pairs");

static void BM_Lambda(benchmark::State& state, int extra) {
  for (auto _ : state) benchmark::DoNotOptimize(extra);
}

int main(int argc, char** argv) {
  benchmark::RegisterBenchmark("registered/lambda", [](benchmark::State& state) {
    for (auto _ : state) {
    }
  });
  benchmark::RegisterBenchmark("registered/with_arg", BM_Lambda, 7)->Arg(1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
