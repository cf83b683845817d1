#include <tare/tare.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <unordered_map>
#include <vector>

// A function benchmark with one parameter. Everything before the loop is per-sample setup and is
// not measured; the loop body runs exactly the iteration count the runner chose.
static void sort_ints(tare::State& state) {
  std::vector<int> input(state.arg(0));
  std::iota(input.begin(), input.end(), 0);
  std::shuffle(input.begin(), input.end(), std::mt19937(42));
  std::vector<int> work(input.size());
  for (auto _ : state) {
    std::copy(input.begin(), input.end(), work.begin());
    std::sort(work.begin(), work.end());
    tare::do_not_optimize(work.data());
    tare::clobber_memory();
  }
  state.set_items_processed(double(state.iterations()) * double(input.size()));
}
TARE_BENCHMARK(sort_ints)->range(64, 4096);  // sort_ints/64, sort_ints/512, sort_ints/4096

// A lambda with two parameters, a custom counter (a total: reported per iteration), a gauge
// (reported as is) and per-iteration latency (p50/p95/p99/max).
[[maybe_unused]] static tare::Family* hash_lookup =
    tare::register_benchmark("hash_lookup", [](tare::State& state) {
      std::unordered_map<int64_t, int64_t> table;
      for (int64_t i = 0; i < state.arg(0); ++i) table[i * 7] = i;
      int64_t key = 0;
      double hits = 0;
      for (auto _ : state) {
        hits += double(table.count(key));
        key = (key + state.arg(1)) % (state.arg(0) * 7);
      }
      state.add_counter("hits", hits);
      state.set_gauge("table_size", double(table.size()));
    })
        ->arg_names({"n", "stride"})
        ->args({1000, 7})
        ->args({1000, 3})
        ->record_latency();  // hash_lookup/n:1000/stride:7, hash_lookup/n:1000/stride:3

// Per-sample hooks, also outside the window: here they only reset a scratch buffer.
static std::vector<char> scratch;
static void fill_bytes(tare::State& state) {
  for (auto _ : state) {
    std::fill(scratch.begin(), scratch.end(), char(1));
    tare::do_not_optimize(scratch.data());
  }
  state.set_bytes_processed(double(state.iterations()) * double(scratch.size()));
}
TARE_BENCHMARK(fill_bytes)
    ->arg_list({1024, 65536})
    ->setup([](const tare::State& state) { scratch.assign(size_t(state.arg(0)), 0); })
    ->teardown([](const tare::State&) { std::vector<char>().swap(scratch); });

TARE_MAIN();
