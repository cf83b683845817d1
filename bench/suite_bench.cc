// A Google Benchmark suite of 37 cells of varied work (sorts, hashes, copies, maps, strings; a few
// nanoseconds to a few milliseconds per iteration), for `tare ab` on a whole suite as CI gates it
// (issue 42, bench/suite_gate.sh). Built twice from this one source: suite_bench (base) and
// suite_bench_changed (BM_Knob/3 does 3% more rounds, BM_Knob/5 5% fewer). The knobs are data
// words read at run time, so the two builds' code is the same bytes but for them: no layout effect
// moves the other cells.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#ifndef SUITE_KNOB_PLUS3
#define SUITE_KNOB_PLUS3 0
#endif
#ifndef SUITE_KNOB_MINUS5
#define SUITE_KNOB_MINUS5 0
#endif

namespace {

volatile int g_plus3 = SUITE_KNOB_PLUS3;  // volatile: read at run time, never folded
volatile int g_minus5 = SUITE_KNOB_MINUS5;

std::vector<uint32_t> Random(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = rng();
  return v;
}

uint64_t Spin(int64_t rounds) {
  uint64_t x = 88172645463325252ull;
  for (int64_t i = 0; i < rounds; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

// The knob cells: 10,000 rounds; /3 does 3% more in the plus3 build, /5 5% fewer in the minus5 build.
void BM_Knob(benchmark::State& state) {
  int64_t rounds = 10000;
  if (state.range(0) == 3 && g_plus3) rounds = 10300;
  if (state.range(0) == 5 && g_minus5) rounds = 9500;
  for (auto _ : state) benchmark::DoNotOptimize(Spin(rounds));
}
BENCHMARK(BM_Knob)->Arg(3)->Arg(5);

void BM_Sort(benchmark::State& state) {
  const auto data = Random(static_cast<size_t>(state.range(0)), 1);
  for (auto _ : state) {
    auto v = data;
    std::sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_Sort)->Arg(64)->Arg(1024)->Arg(16384)->Arg(262144);

void BM_StableSort(benchmark::State& state) {
  const auto data = Random(static_cast<size_t>(state.range(0)), 2);
  for (auto _ : state) {
    auto v = data;
    std::stable_sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_StableSort)->Arg(1024)->Arg(65536);

uint64_t Fnv1a(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

void BM_Fnv(benchmark::State& state) {
  std::vector<uint8_t> buf(static_cast<size_t>(state.range(0)), 7);
  for (auto _ : state) benchmark::DoNotOptimize(Fnv1a(buf.data(), buf.size()));
}
BENCHMARK(BM_Fnv)->Arg(16)->Arg(1024)->Arg(65536);

void BM_StdHash(benchmark::State& state) {
  const std::string s(static_cast<size_t>(state.range(0)), 'x');
  for (auto _ : state) benchmark::DoNotOptimize(std::hash<std::string>{}(s));
}
BENCHMARK(BM_StdHash)->Arg(8)->Arg(256)->Arg(8192);

void BM_Memcpy(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<char> src(n, 1), dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Memcpy)->Arg(64)->Arg(4096)->Arg(65536)->Arg(1 << 20);

void BM_MapInsert(benchmark::State& state) {
  const auto keys = Random(static_cast<size_t>(state.range(0)), 3);
  for (auto _ : state) {
    std::map<uint32_t, uint32_t> m;
    for (auto k : keys) m[k] = k;
    benchmark::DoNotOptimize(m.size());
  }
}
BENCHMARK(BM_MapInsert)->Arg(256)->Arg(16384);

void BM_MapFind(benchmark::State& state) {
  const auto keys = Random(static_cast<size_t>(state.range(0)), 4);
  std::map<uint32_t, uint32_t> m;
  for (auto k : keys) m[k] = k;
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(m.find(keys[i++ % keys.size()]));
}
BENCHMARK(BM_MapFind)->Arg(256)->Arg(65536);

void BM_UnorderedInsert(benchmark::State& state) {
  const auto keys = Random(static_cast<size_t>(state.range(0)), 5);
  for (auto _ : state) {
    std::unordered_map<uint32_t, uint32_t> m;
    for (auto k : keys) m[k] = k;
    benchmark::DoNotOptimize(m.size());
  }
}
BENCHMARK(BM_UnorderedInsert)->Arg(256)->Arg(16384);

void BM_UnorderedFind(benchmark::State& state) {
  const auto keys = Random(static_cast<size_t>(state.range(0)), 6);
  std::unordered_map<uint32_t, uint32_t> m;
  for (auto k : keys) m[k] = k;
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(m.find(keys[i++ % keys.size()]));
}
BENCHMARK(BM_UnorderedFind)->Arg(256)->Arg(65536);

void BM_SetInsert(benchmark::State& state) {
  const auto keys = Random(4096, 7);
  for (auto _ : state) {
    std::set<uint32_t> s(keys.begin(), keys.end());
    benchmark::DoNotOptimize(s.size());
  }
}
BENCHMARK(BM_SetInsert);

void BM_StringAppend(benchmark::State& state) {
  for (auto _ : state) {
    std::string s;
    for (int64_t i = 0; i < state.range(0); ++i) s += 'a' + static_cast<char>(i % 26);
    benchmark::DoNotOptimize(s.data());
  }
}
BENCHMARK(BM_StringAppend)->Arg(16)->Arg(4096);

void BM_StringFind(benchmark::State& state) {
  std::string hay(static_cast<size_t>(state.range(0)), 'a');
  hay += "needle";
  for (auto _ : state) benchmark::DoNotOptimize(hay.find("needle"));
}
BENCHMARK(BM_StringFind)->Arg(64)->Arg(65536);

void BM_ToString(benchmark::State& state) {
  uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(std::to_string(i++ * 2654435761u));
}
BENCHMARK(BM_ToString);

void BM_Accumulate(benchmark::State& state) {
  const auto v = Random(static_cast<size_t>(state.range(0)), 8);
  for (auto _ : state) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), uint64_t{0}));
}
BENCHMARK(BM_Accumulate)->Arg(1024)->Arg(1 << 20);

void BM_VectorPush(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<uint64_t> v;
    for (int64_t i = 0; i < state.range(0); ++i) v.push_back(static_cast<uint64_t>(i));
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_VectorPush)->Arg(1000);

void BM_Spin(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Spin(state.range(0)));
}
BENCHMARK(BM_Spin)->Arg(10)->Arg(1000000);

}  // namespace

BENCHMARK_MAIN();
